package ground_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestIPCSample grounds the first two problems of every IPC 2020 domain
// (the whole set is "make ipc"), validates every task and prints a
// per-domain table. Grounding may give up with ground.ErrTooLarge within
// its budget; running out of time, or any other error, is a failure. The
// corpus is skipped with -short.
//
// Each problem's ground task must be the one testdata/ipc-sample.golden
// records: its sizes and a hash of its task and method names in the
// order of their IDs. A change to the grounder that changes what it
// grounds, or the order (which the searches follow), shows here; -update
// rewrites the file when the change is meant.
func TestIPCSample(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped with -short")
	}
	dir, err := corpus.SharedDir()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	ins, _, err := corpus.IPC(filepath.Join(dir, "data", "ipc2020"))
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
	var golden strings.Builder
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
			fmt.Fprintf(&golden, "%s too-large\n", in.Name())
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
		h := fnv.New64a()
		for i := range task.NumTasks() {
			fmt.Fprintln(h, task.TaskName(ground.TaskID(i)))
		}
		for i := range task.Methods {
			fmt.Fprintln(h, task.MethodName(ground.MethodID(i)))
		}
		fmt.Fprintf(&golden, "%s facts %d actions %d compounds %d methods %d names %016x\n", in.Name(), len(task.Facts), len(task.Actions), len(task.Compounds), len(task.Methods), h.Sum64())
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
	const file = "testdata/ipc-sample.golden"
	if *update {
		if err := os.WriteFile(file, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test ./ground -run IPCSample -update writes it)", err)
	}
	got := strings.Split(golden.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != w {
			g := ""
			if i < len(got) {
				g = got[i]
			}
			t.Errorf("ground task %d differs from %s:\n got %s\nwant %s", i+1, file, g, w)
		}
	}
}
