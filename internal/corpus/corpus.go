// Package corpus finds the shared benchmark data (the IPC 2020 and 2023 HDDL
// sets and the Sudoku puzzle files) that lives beside the repository in
// ../shared, and lists the problems of an IPC benchmark folder.
package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// ErrNoShared is returned when the shared data directory cannot be found.
var ErrNoShared = errors.New("shared data directory not found (set HTNSAT_SHARED or check out ../shared beside the repository)")

// SharedDir returns the shared data directory: $HTNSAT_SHARED if set,
// otherwise "shared" beside the module root found by walking up from the
// working directory.
func SharedDir() (string, error) {
	if d := os.Getenv("HTNSAT_SHARED"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		return "", ErrNoShared
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			s := filepath.Join(filepath.Dir(dir), "shared")
			if st, err := os.Stat(s); err == nil && st.IsDir() {
				return s, nil
			}
			return "", ErrNoShared
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoShared
		}
		dir = parent
	}
}

// Instance is one IPC problem with its domain file.
type Instance struct {
	Track       string // "total-order" or "partial-order"
	Domain      string // the benchmark domain's folder name
	DomainFile  string
	ProblemFile string
}

// Name is "track/domain/problem" (the problem's file name without its
// extension).
func (in Instance) Name() string {
	return in.Track + "/" + in.Domain + "/" + problemStem(filepath.Base(in.ProblemFile))
}

// Skipped is a file of a benchmark folder that IPC did not take, and why.
type Skipped struct {
	File, Why string
}

// problemExts are the extensions of HDDL files: the competitions' problems
// are .hddl, but IPC 2023's Lamps problems are .pddl.
var problemExts = []string{".hddl", ".pddl"}

func problemStem(base string) string {
	for _, ext := range problemExts {
		if s, ok := strings.CutSuffix(base, ext); ok {
			return s
		}
	}
	return base
}

// isDomainFile reports whether a file's name says it is a domain:
// domain.hddl, UL_domain.hddl, p01-domain.hddl (any case).
func isDomainFile(base string) bool {
	return strings.HasSuffix(strings.ToLower(problemStem(base)), "domain")
}

// IPC lists every problem of an IPC HTN benchmark set under root, in a
// stable order, and the files it skipped with the reason. root holds one
// folder per track (total-order, partial-order), each one folder per
// domain, as the 2020 and 2023 competitions laid them out. A domain
// folder holds problems (.hddl, or .pddl as IPC 2023's Lamps) and either a
// <problem>-domain file beside each problem (Monroe, PCP) or one domain
// file for all, whatever its name says beyond ending in "domain"
// (domain.hddl, UL_domain.hddl). A problem without its domain, a folder
// with several shared domain files, and any other file are skipped and
// listed, never guessed.
func IPC(root string) ([]Instance, []Skipped, error) {
	var out []Instance
	var skipped []Skipped
	found := 0
	for _, track := range []string{"total-order", "partial-order"} {
		domains, err := os.ReadDir(filepath.Join(root, track))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		found++
		for _, dom := range domains {
			dir := filepath.Join(root, track, dom.Name())
			if !dom.IsDir() {
				skipped = append(skipped, Skipped{dir, "not a domain folder"})
				continue
			}
			ins, sk, err := domainFolder(track, dom.Name(), dir)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, ins...)
			skipped = append(skipped, sk...)
		}
	}
	if found == 0 {
		return nil, nil, fmt.Errorf("%s has neither a total-order nor a partial-order folder: not an IPC HTN benchmark set (one folder per track, then one per domain)", root)
	}
	return out, skipped, nil
}

// domainFolder pairs the problems of one domain folder with their domain
// files.
func domainFolder(track, domain, dir string) ([]Instance, []Skipped, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var problems, domains []string
	var skipped []Skipped
	files := map[string]bool{}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		ext := filepath.Ext(e.Name())
		switch {
		case e.IsDir():
			skipped = append(skipped, Skipped{path, "a folder inside a domain folder"})
		case !slices.Contains(problemExts, ext):
			skipped = append(skipped, Skipped{path, "not an HDDL file (.hddl, .pddl)"})
		case isDomainFile(e.Name()):
			domains = append(domains, e.Name())
			files[e.Name()] = true
		default:
			problems = append(problems, e.Name())
			files[e.Name()] = true
		}
	}
	sort.Strings(problems)
	// the domain files that belong to no problem of their name are
	// shared
	var shared []string
	for _, d := range domains {
		stem, _ := strings.CutSuffix(problemStem(d), "-domain")
		own := false
		for _, ext := range problemExts {
			own = own || stem != problemStem(d) && files[stem+ext]
		}
		if !own {
			shared = append(shared, d)
		}
	}
	var out []Instance
	for _, p := range problems {
		df := ""
		for _, ext := range problemExts {
			if own := problemStem(p) + "-domain" + ext; files[own] {
				df = own
				break
			}
		}
		switch {
		case df != "":
		case len(shared) == 1:
			df = shared[0]
		case len(shared) == 0:
			skipped = append(skipped, Skipped{filepath.Join(dir, p), "no domain file: neither " + problemStem(p) + "-domain.hddl nor one domain file for the folder"})
			continue
		default:
			skipped = append(skipped, Skipped{filepath.Join(dir, p), "several domain files for the folder (" + strings.Join(shared, ", ") + "): which is its domain?"})
			continue
		}
		out = append(out, Instance{Track: track, Domain: domain, DomainFile: filepath.Join(dir, df), ProblemFile: filepath.Join(dir, p)})
	}
	return out, skipped, nil
}
