package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/internal/ipc"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/plan"
)

// TestCompactionIPC plans the first problem of every IPC 2020 domain
// with the ground task compacted and not, by progression: every plan found verifies against the
// lifted model (the pipeline checks), the compacted task is never larger,
// and when both runs finish they agree on whether there is a plan.
func TestCompactionIPC(t *testing.T) {
	if testing.Short() {
		t.Skip("plans a sample of the IPC set; skipped with -short")
	}
	shared, err := corpus.SharedDir()
	if err != nil {
		t.Skip("no ../shared: ", err)
	}
	ins, _, err := corpus.IPC(filepath.Join(shared, "data", "ipc2020"))
	if err != nil {
		t.Fatal(err)
	}
	solved, smaller := 0, 0
	for _, in := range ipc.Select(ins, "", 1) {
		_, p, err := hddl.Load(in.DomainFile, in.ProblemFile)
		if err != nil {
			t.Errorf("%s: %v", in.Name(), err)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		task, _, err := ground.Ground(ctx, p, ground.Options{})
		if err != nil {
			cancel()
			continue // too large or slow: the ipc tables track those
		}
		f, err := ground.Compact(ctx, task)
		cancel()
		if err != nil {
			t.Errorf("%s: %v", in.Name(), err)
			continue
		}
		if err := f.Task.Validate(); err != nil {
			t.Errorf("%s: the compacted task: %v", in.Name(), err)
		}
		if len(f.Task.Methods) > len(task.Methods) || len(f.Task.Compounds) > len(task.Compounds) {
			t.Errorf("%s: compacting grew the task", in.Name())
		}
		if len(f.Task.Methods) < len(task.Methods) {
			smaller++
		}
		// progression only: a gophersat search abandoned at the time limit
		// runs on in the background and holds the solver (the SAT engine
		// gets the same compacted task; satenc's tests cover its decoding)
		for _, e := range []pipeline.Engine{pipeline.Progression} {
			var status [2]plan.Status
			for i, noFold := range []bool{false, true} {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				_, err := pipeline.Run(ctx, p, pipeline.Config{Engine: e, NoFold: noFold})
				cancel()
				status[i] = plan.StatusOf(err)
				if err == nil {
					solved++
				}
				switch status[i] {
				case plan.OK, plan.Solved, plan.Unsolvable, plan.Timeout, plan.Inconclusive, plan.DepthLimit:
				default:
					t.Errorf("%s %s (no fold %v): %v", in.Name(), e, noFold, err)
				}
			}
			if done(status[0]) && done(status[1]) && status[0] != status[1] {
				t.Errorf("%s %s: %s compacted, %s not", in.Name(), e, status[0], status[1])
			}
		}
	}
	t.Logf("%d runs solved; compaction shrank %d tasks", solved, smaller)
	if solved == 0 || smaller == 0 {
		t.Error("the sample exercised nothing")
	}
}

func done(s plan.Status) bool { return s == plan.OK || s == plan.Solved || s == plan.Unsolvable }
