package hddl

import (
	"testing"

	"github.com/htnsat/htnsat/internal/corpus"
)

func ipcInstances(t testing.TB) []corpus.Instance {
	t.Helper()
	dir, err := corpus.SharedDir()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	ins, _, err := corpus.IPC(dir + "/data/ipc2020")
	if err != nil {
		t.Fatal(err)
	}
	return ins
}

// TestIPCParseAll reads every domain and problem of the IPC 2020 set and
// round-trips each through the printer: every domain once, every problem
// against its domain as read back. With -short, only the first problem of
// each domain file is read.
func TestIPCParseAll(t *testing.T) {
	ins := ipcInstances(t)
	type read struct{ d, printed *Domain }
	domains := map[string]*read{}
	failed, problems := 0, 0
	for _, in := range ins {
		r, ok := domains[in.DomainFile]
		switch {
		case !ok:
			r = &read{}
			d, err := LoadDomain(in.DomainFile)
			if err != nil {
				failed++
				t.Errorf("%s: %v", in.DomainFile, err)
			} else {
				r.d, r.printed = d, roundTripDomain(t, d)
			}
			domains[in.DomainFile] = r
		case testing.Short():
			continue
		}
		if r.d == nil {
			continue
		}
		p, err := LoadProblem(in.ProblemFile, r.d)
		if err != nil {
			failed++
			t.Errorf("%v", err)
			continue
		}
		roundTripProblem(t, p, r.printed)
		problems++
	}
	t.Logf("%d problems, %d domains, %d failures", problems, len(domains), failed)
}
