package ipc

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// EitherTable prints, per domain, the problems each run of files solved
// and those that at least one solved: what running the engines side by
// side (htnsat plan --engine auto) solves within the same limit, counted
// from the runs' own rows. Only problems present in every file count, so
// that runs over different selections (the SAT engine's total-order
// problems) compare on what they share.
func EitherTable(w io.Writer, files []string) error {
	if len(files) < 2 {
		return fmt.Errorf("--either needs two CSV files or more")
	}
	runs := make([]map[string]Result, len(files))
	for i, f := range files {
		rows, err := ReadCSV(f)
		if err != nil {
			return err
		}
		runs[i] = rows
	}
	type agg struct {
		total, either int
		by            []int
	}
	by := map[string]*agg{}
	var keys []string
	for _, k := range shared(runs) {
		for _, g := range groups(k) {
			a := by[g]
			if a == nil {
				a = &agg{by: make([]int, len(runs))}
				by[g] = a
				keys = append(keys, g)
			}
			a.total++
			solved := false
			for i, r := range runs {
				if r[k].Solved() {
					a.by[i]++
					solved = true
				}
			}
			if solved {
				a.either++
			}
		}
	}
	if len(keys) == 0 {
		return fmt.Errorf("no problem is in all of %s", strings.Join(files, ", "))
	}
	sortDomains(keys)
	fmt.Fprint(w, "| track | domain |")
	for _, f := range files {
		fmt.Fprintf(w, " %s |", strings.TrimSuffix(filepath.Base(f), ".csv"))
	}
	fmt.Fprintln(w, " either |")
	fmt.Fprint(w, "|---|---|")
	for range files {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w, "---|")
	for _, k := range keys {
		a := by[k]
		track, dom, _ := strings.Cut(k, "|")
		if dom == "" {
			dom = fmt.Sprintf("**all (%.1f%%)**", 100*float64(a.either)/float64(a.total))
		}
		fmt.Fprintf(w, "| %s | %s |", track, dom)
		for _, n := range a.by {
			fmt.Fprintf(w, " %d/%d |", n, a.total)
		}
		fmt.Fprintf(w, " %d/%d |\n", a.either, a.total)
	}
	return nil
}

// shared lists the problems (keys) that every run has a row for.
func shared(runs []map[string]Result) []string {
	var keys []string
	for k := range runs[0] {
		all := true
		for _, r := range runs[1:] {
			if _, ok := r[k]; !ok {
				all = false
				break
			}
		}
		if all {
			keys = append(keys, k)
		}
	}
	return keys
}

// groups are the rows of a table a problem counts in: its track's domain
// ("track|domain") and its track ("track|").
func groups(key string) []string {
	parts := strings.SplitN(key, "/", 3)
	return []string{parts[0] + "|" + parts[1], parts[0] + "|"}
}
