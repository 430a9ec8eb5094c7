// Package corpus finds the shared benchmark data (the IPC 2020 HDDL set and
// the Sudoku puzzle files) that lives beside the repository in ../shared.
package corpus

import (
	"errors"
	"os"
	"path/filepath"
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

// Name is "track/domain/problem".
func (in Instance) Name() string {
	return in.Track + "/" + in.Domain + "/" + strings.TrimSuffix(filepath.Base(in.ProblemFile), ".hddl")
}

// IPC lists every problem of the IPC 2020 set under root (the ipc2020
// folder), in a stable order. A folder holds either one domain.hddl for all
// its problems or a <problem>-domain.hddl beside each <problem>.hddl.
func IPC(root string) ([]Instance, error) {
	var out []Instance
	for _, track := range []string{"total-order", "partial-order"} {
		domains, err := os.ReadDir(filepath.Join(root, track))
		if err != nil {
			return nil, err
		}
		for _, dom := range domains {
			if !dom.IsDir() {
				continue
			}
			dir := filepath.Join(root, track, dom.Name())
			files, err := filepath.Glob(filepath.Join(dir, "*.hddl"))
			if err != nil {
				return nil, err
			}
			sort.Strings(files)
			shared := filepath.Join(dir, "domain.hddl")
			_, sharedErr := os.Stat(shared)
			for _, f := range files {
				base := filepath.Base(f)
				if base == "domain.hddl" || strings.HasSuffix(base, "-domain.hddl") {
					continue
				}
				df := shared
				if sharedErr != nil {
					df = strings.TrimSuffix(f, ".hddl") + "-domain.hddl"
				}
				out = append(out, Instance{Track: track, Domain: dom.Name(), DomainFile: df, ProblemFile: f})
			}
		}
	}
	return out, nil
}
