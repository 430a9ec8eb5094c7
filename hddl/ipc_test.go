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
	ins, err := corpus.IPC(dir + "/data/ipc2020")
	if err != nil {
		t.Fatal(err)
	}
	return ins
}

func TestIPCParseAll(t *testing.T) {
	ins := ipcInstances(t)
	domains := map[string]*Domain{}
	failed := 0
	for _, in := range ins {
		d, ok := domains[in.DomainFile]
		if !ok {
			var err error
			d, err = LoadDomain(in.DomainFile)
			if err != nil {
				failed++
				t.Errorf("%s: %v", in.DomainFile, err)
			}
			domains[in.DomainFile] = d
		}
		if d == nil {
			continue
		}
		p, err := LoadProblem(in.ProblemFile, d)
		if err != nil {
			failed++
			t.Errorf("%v", err)
			continue
		}
		roundTrip(t, d, p)
	}
	t.Logf("%d problems, %d domains, %d failures", len(ins), len(domains), failed)
}
