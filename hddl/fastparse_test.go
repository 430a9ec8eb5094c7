package hddl

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/htnsat/htnsat/domains"
)

// sameParse checks the fast path against participle on one file: a file
// the fast path reads must read the same through participle (the grammar
// of record), and a file participle rejects must be rejected by the fast
// path too. It reports whether the fast path read the file.
func sameParse(t *testing.T, name, src string) bool {
	t.Helper()
	fast, ok := parseFast(name, src)
	slow, err := parseSlow(name, src)
	switch {
	case ok && err != nil:
		t.Errorf("%s: the fast path reads a file participle rejects (%v)", name, err)
	case ok && !reflect.DeepEqual(fast, slow):
		t.Errorf("%s: the fast path and participle build different trees", name)
	}
	return ok
}

// TestFastParse: on the embedded domain, the fixtures, the error fixtures
// and the IPC 2020 files, the fast path builds participle's tree, rejects
// what participle rejects, and reads every well-formed file itself.
func TestFastParse(t *testing.T) {
	if !sameParse(t, "sudoku.hddl", string(domains.Sudoku)) {
		t.Error("the fast path does not read the Sudoku domain")
	}
	files, _ := filepath.Glob("../testdata/*/*.hddl")
	errs, _ := filepath.Glob("testdata/errors/*.hddl")
	for _, path := range append(files, errs...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if ok := sameParse(t, path, string(b)); !ok {
			if _, err := parseSlow(path, string(b)); err == nil {
				t.Errorf("%s: participle reads it, the fast path does not", path)
			}
		}
	}
	// IPC 2020: every domain file and, without -short, every problem file
	// under 1 MB (participle takes seconds on the largest)
	seen := map[string]bool{}
	n := 0
	for _, in := range ipcInstances(t) {
		paths := []string{in.DomainFile}
		if !testing.Short() {
			paths = append(paths, in.ProblemFile)
		}
		for _, path := range paths {
			if seen[path] {
				continue
			}
			seen[path] = true
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > 1<<20 {
				continue
			}
			n++
			if !sameParse(t, path, string(b)) {
				t.Errorf("%s: the fast path does not read it", path)
			}
		}
	}
	t.Logf("%d IPC files", n)
}
