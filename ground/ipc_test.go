package ground_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/corpus"
)

// TestIPCSample grounds the first two problems of every IPC 2020 domain
// (the whole set is "make ipc"), validates every task and prints a
// per-domain table. Grounding may give up with ground.ErrTooLarge within
// its budget; running out of time, or any other error, is a failure. The
// corpus is skipped with -short.
func TestIPCSample(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped with -short")
	}
	dir, err := corpus.SharedDir()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	ins, err := corpus.IPC(filepath.Join(dir, "data", "ipc2020"))
	if err != nil {
		t.Fatal(err)
	}
	perDomain := map[string]int{}
	type row struct {
		name                  string
		ok, tooLarge          int
		secs                  float64
		facts, actions, meths int
	}
	rows := map[string]*row{}
	doms := map[string]*hddl.Domain{}
	for _, in := range ins {
		key := in.Track + "/" + in.Domain
		if perDomain[key] >= 2 {
			continue
		}
		perDomain[key]++
		d := doms[in.DomainFile]
		if d == nil {
			if d, err = hddl.LoadDomain(in.DomainFile); err != nil {
				t.Fatal(err)
			}
			doms[in.DomainFile] = d
		}
		p, err := hddl.LoadProblem(in.ProblemFile, d)
		if err != nil {
			t.Fatal(err)
		}
		r := rows[key]
		if r == nil {
			r = &row{name: key}
			rows[key] = r
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		start := time.Now()
		task, _, err := ground.Ground(ctx, p, ground.Options{MaxGround: 1_000_000})
		cancel()
		r.secs += time.Since(start).Seconds()
		switch {
		case errors.Is(err, ground.ErrTooLarge):
			r.tooLarge++
			continue
		case err != nil:
			t.Errorf("%s: %v", in.Name(), err)
			continue
		}
		if err := task.Validate(); err != nil {
			t.Errorf("%s: invalid ground task: %v", in.Name(), err)
			continue
		}
		r.ok++
		r.facts += len(task.Facts)
		r.actions += len(task.Actions)
		r.meths += len(task.Methods)
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%-45s %8s %8s %8s %8s %9s\n", "domain (first 2 problems)", "grounded", "seconds", "facts", "actions", "methods")
	for _, k := range keys {
		r := rows[k]
		fmt.Fprintf(&b, "%-45s %5d/%-2d %8.2f %8d %8d %9d\n", k, r.ok, r.ok+r.tooLarge, r.secs, r.facts, r.actions, r.meths)
	}
	t.Logf("\n%s", b.String())
}
