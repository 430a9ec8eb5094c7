package pipeline_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

// TestRun plans the paper's puzzle with each engine, folded and not: the
// plan verifies and every stage the engine went through is timed.
func TestRun(t *testing.T) {
	p := testutil.SudokuProblem(t, testutil.PaperPuzzle, sudoku.Ordered)
	for _, c := range []struct {
		engine pipeline.Engine
		noFold bool
		stages []string
	}{
		{pipeline.Progression, false, []string{"ground", "search", "decode", "verify"}},
		{pipeline.Progression, true, []string{"ground", "search", "decode", "verify"}},
		{pipeline.SAT, false, []string{"ground", "encode", "solve", "decode", "verify"}},
		{pipeline.SAT, true, []string{"ground", "encode", "solve", "decode", "verify"}},
	} {
		res, err := pipeline.Run(context.Background(), p, pipeline.Config{Engine: c.engine, NoFold: c.noFold})
		if err != nil {
			t.Fatalf("%s (no fold: %v): %v", c.engine, c.noFold, err)
		}
		if !res.Verified || res.Plan.Length() != 46 {
			t.Errorf("%s: verified %v, %d actions", c.engine, res.Verified, res.Plan.Length())
		}
		for _, s := range c.stages {
			if _, ok := res.Times[s]; !ok {
				t.Errorf("%s: no time for stage %s", c.engine, s)
			}
		}
		if (res.HTN != nil) != (c.engine == pipeline.Progression) || (res.SAT != nil) != (c.engine == pipeline.SAT) {
			t.Errorf("%s: engine statistics of the wrong engine", c.engine)
		}
	}
}

// TestRunErrors: every way a run can end maps to its status through
// plan.StatusOf.
func TestRunErrors(t *testing.T) {
	p := testutil.SudokuProblem(t, testutil.HardPuzzle, sudoku.Ordered)
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	_, err := pipeline.Run(ctx, p, pipeline.Config{})
	if plan.StatusOf(err) != plan.Timeout {
		t.Errorf("expired context: %v (%s)", err, plan.StatusOf(err))
	}
	_, err = pipeline.Run(context.Background(), p, pipeline.Config{HTN: htnNodes(10)})
	if plan.StatusOf(err) != plan.NodeLimit {
		t.Errorf("node limit: %v (%s)", err, plan.StatusOf(err))
	}
	_, err = pipeline.Run(context.Background(), p, pipeline.Config{Engine: "bogus"})
	if err == nil || plan.StatusOf(err) != plan.Failed {
		t.Errorf("unknown engine: %v", err)
	}
	// an impossible puzzle: the grounder proves there is no plan
	bad := testutil.SudokuProblem(t, "12345678."+"........9"+strings.Repeat(".", 63), sudoku.Ordered)
	if _, err := pipeline.Run(context.Background(), bad, pipeline.Config{}); !errors.Is(err, plan.ErrUnsolvable) {
		t.Errorf("impossible puzzle: %v", err)
	}
}

func htnNodes(n int64) htn.Options { return htn.Options{MaxNodes: n} }

// TestAuto: the auto engine keeps the first conclusive answer. With one
// engine held back (a node limit, a depth too shallow) the other's plan
// is kept; with both held back the error is progression's.
func TestAuto(t *testing.T) {
	p := testutil.SudokuProblem(t, testutil.PaperPuzzle, sudoku.Ordered)
	shallow := satenc.Config{Depth: 1}
	for _, c := range []struct {
		name string
		cfg  pipeline.Config
		want pipeline.Engine // "" for either
		err  error
	}{
		{"both", pipeline.Config{}, "", nil},
		{"progression held", pipeline.Config{HTN: htnNodes(10)}, pipeline.SAT, nil},
		{"sat held", pipeline.Config{SAT: shallow}, pipeline.Progression, nil},
		{"both held", pipeline.Config{HTN: htnNodes(10), SAT: shallow}, pipeline.Progression, plan.ErrNodeLimit},
	} {
		c.cfg.Engine = pipeline.Auto
		res, err := pipeline.Run(context.Background(), p, c.cfg)
		if c.err != nil {
			if !errors.Is(err, c.err) || res.Engine != c.want {
				t.Errorf("%s: %v from %s, want %v from %s", c.name, err, res.Engine, c.err, c.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !res.Verified || res.Plan.Length() != 46 || c.want != "" && res.Engine != c.want {
			t.Errorf("%s: verified %v, %d actions, by %s", c.name, res.Verified, res.Plan.Length(), res.Engine)
		}
		if res.HTN == nil || res.SAT == nil {
			t.Errorf("%s: statistics of both engines expected", c.name)
		}
	}
}
