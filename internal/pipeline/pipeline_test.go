package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/hddl"
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
		for _, cores := range []int{2, 1} {
			c.cfg.Engine = pipeline.Auto
			c.cfg.NoLazy = true // the two engines' race alone (see TestAutoBesideGrounding)
			c.cfg.Cores = cores // side by side, then in turn (the same answers)
			c.name = fmt.Sprintf("%s, %d cores", strings.Split(c.name, ",")[0], cores)
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
			if res.HTN == nil || res.SAT == nil && (cores == 2 || res.Engine == pipeline.SAT) {
				t.Errorf("%s: statistics of both engines expected", c.name)
			}
		}
	}
}

// TestLazyFallback: a grounding over its budget turns progression and
// auto to grounding on demand (the plan verified, the reason kept), not
// the SAT engine, nor any engine with NoLazy, nor when what is too large
// is a quantifier of the model; the lazy engine asked for never grounds
// in full; an optimising run improves its first plan (travel domain:
// cost 8, then the optimum 7, proven).
func TestLazyFallback(t *testing.T) {
	_, p, err := hddl.Load("../../testdata/costs/domain.hddl", "../../testdata/costs/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	small := pipeline.Config{}
	small.Ground.MaxGround = 20
	for _, e := range []pipeline.Engine{pipeline.Progression, pipeline.Auto} {
		cfg := small
		cfg.Engine = e
		res, err := pipeline.Run(context.Background(), p, cfg)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		// auto's lazy search beside the grounder may finish before the
		// grounder refuses: then there is no refusal to tell
		told := strings.Contains(res.Fallback, "too large") || e == pipeline.Auto && res.Fallback == "" && res.Task == nil
		if res.Engine != pipeline.Lazy || !res.Verified || res.Plan.Length() == 0 || !told || res.Lazy == nil || res.Lazy.Methods == 0 {
			t.Errorf("%s: engine %s, verified %v, fallback %q, on demand %+v", e, res.Engine, res.Verified, res.Fallback, res.Lazy)
		}
	}
	for _, cfg := range []pipeline.Config{{Engine: pipeline.SAT}, {Engine: pipeline.Progression, NoLazy: true}} {
		cfg.Ground = small.Ground
		if _, err := pipeline.Run(context.Background(), p, cfg); plan.StatusOf(err) != plan.TooLarge {
			t.Errorf("%s (no lazy %v): %v, want too large", cfg.Engine, cfg.NoLazy, err)
		}
	}
	sudokuSmall := small
	sudokuSmall.Ground.MaxGround = 500
	res, err := pipeline.Run(context.Background(), testutil.SudokuProblem(t, testutil.PaperPuzzle, sudoku.Ordered), sudokuSmall)
	if plan.StatusOf(err) != plan.TooLarge || res.Fallback != "" || !strings.Contains(err.Error(), "quantifier") {
		t.Errorf("a quantifier over the budget: %v, fallback %q", err, res.Fallback)
	}
	var costs []int64
	res, err = pipeline.Run(context.Background(), p, pipeline.Config{Engine: pipeline.Lazy, Optimize: true, Improved: func(pl *plan.Plan) error {
		costs = append(costs, pl.TotalCost())
		return nil
	}})
	if err != nil || res.Task != nil || res.Fallback != "" || !res.Optimal || !res.Verified || res.Plan.TotalCost() != 7 || res.Plans != len(costs) || len(costs) < 2 {
		t.Errorf("lazy, optimising: %v; full task %v, fallback %q, optimal %v, plans %v", err, res.Task != nil, res.Fallback, res.Optimal, costs)
	}
}

// minecraftSmall loads IPC 2023 Minecraft-Player p-003-004-004-004 (not in
// -short): seconds of grounding, a plan on demand in milliseconds.
func minecraftSmall(t *testing.T) *hddl.Problem {
	t.Helper()
	if testing.Short() {
		t.Skip("IPC problem: not in -short")
	}
	dir := testutil.IPCDir(t, "total-order", "Minecraft-Player")
	_, p, err := hddl.Load(dir+"/domain.hddl", dir+"/p-003-004-004-004.hddl")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAutoBesideGrounding: auto searches with grounding on demand while
// the grounder works, and a plan found first stops the grounding (IPC
// Minecraft-Player p-003-004-004-004: about 4 s of grounding, a plan on
// demand in a few milliseconds).
func TestAutoBesideGrounding(t *testing.T) {
	p := minecraftSmall(t)
	res, err := pipeline.Run(context.Background(), p, pipeline.Config{Engine: pipeline.Auto, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != pipeline.Lazy || !res.Verified || res.Task != nil || res.Fallback != "" {
		t.Errorf("by %s, verified %v, full grounding kept %v, fallback %q", res.Engine, res.Verified, res.Task != nil, res.Fallback)
	}
}

// TestAutoStopsLazySide: when the grounder's engine answers first, auto
// stops the search on demand beside it at once, even in the middle of a
// feasibility question (testdata/snake-slots, IPC Snake domain: before,
// the run waited for the question, minutes, after its plan was found).
func TestAutoStopsLazySide(t *testing.T) {
	dir := testutil.IPCDir(t, "total-order", "Snake")
	_, p, err := hddl.Load(dir+"/domain.hddl", "../../testdata/snake-slots/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		res *pipeline.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := pipeline.Run(context.Background(), p, pipeline.Config{Engine: pipeline.Auto, Cores: 2})
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		if a.err != nil || !a.res.Verified || a.res.Plan.Length() == 0 {
			t.Errorf("auto: %v, verified %v", a.err, a.res != nil && a.res.Verified)
		}
	case <-time.After(time.Minute):
		t.Fatal("auto still runs after a minute (the search on demand beside the grounder did not stop)")
	}
}

// TestAutoOneCoreLazyFirst: auto on one core with a time limit gives the
// lazy engine the first share of it before grounding (IPC
// Minecraft-Player p-003-004-004-004: a plan on demand in milliseconds,
// seconds of grounding), and without a limit it grounds at once
// (progression then has all the time).
func TestAutoOneCoreLazyFirst(t *testing.T) {
	p := minecraftSmall(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := pipeline.Run(ctx, p, pipeline.Config{Engine: pipeline.Auto, Cores: 1})
	if err != nil || res.Engine != pipeline.Lazy || !res.Verified || res.Task != nil {
		t.Errorf("with a limit: %v, by %s, verified %v, grounded %v", err, res.Engine, res.Verified, res.Task != nil)
	}
	// the quick member: depth-first search alone over the growing task
	if res.HTN == nil || res.HTN.Search != "depth-first, grounding on demand" {
		t.Errorf("the quick member's search: %+v", res.HTN)
	}
	// without a limit (a small problem: the ground search answers)
	_, small, err := hddl.Load("../../testdata/costs/domain.hddl", "../../testdata/costs/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	res, err = pipeline.Run(context.Background(), small, pipeline.Config{Engine: pipeline.Auto, Cores: 1})
	if err != nil || res.Engine == pipeline.Lazy || res.Task == nil {
		t.Errorf("without a limit: %v, by %s, grounded %v", err, res.Engine, res.Task != nil)
	}
}

// TestAutoOneCoreResumes: on one core, progression held for the SAT
// engine's turn goes on when that engine ends without an answer of its
// own. With a share of 0 the SAT engine searches first; limited to depth
// 1 it cannot plan testdata/blocksworld-gtohp (depth-limit), and progression's
// plan is the answer, where before the run ended with the SAT engine's
// error.
func TestAutoOneCoreResumes(t *testing.T) {
	defer pipeline.SetOneCoreShare(0)()
	_, p, err := hddl.Load("../../testdata/blocksworld-gtohp/domain.hddl", "../../testdata/blocksworld-gtohp/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := pipeline.Config{Engine: pipeline.Auto, Cores: 1, NoLazy: true}
	cfg.SAT.MaxDepth = 1
	res, err := pipeline.Run(ctx, p, cfg)
	if err != nil || res.Engine != pipeline.Progression || !res.Verified || res.SAT == nil {
		t.Errorf("%v, by %s, verified %v, the SAT engine ran %v", err, res.Engine, res.Verified, res.SAT != nil)
	}
}

// TestAutoOneCoreSATTurn: on one core the SAT engine's turn ends after
// its share of the time (1 - OneCoreShare), and progression, held during
// it, goes on. With the turn first and a thousandth of 10 s, the SAT
// engine, which plans testdata/blocksworld-gtohp given the time, is cut
// short, and progression's plan is the answer; where progression ends
// without one (a node limit), the SAT engine runs again for the time left.
func TestAutoOneCoreSATTurn(t *testing.T) {
	defer pipeline.SetOneCoreSATAt(0)()
	defer pipeline.SetOneCoreShare(0.999)()
	_, p, err := hddl.Load("../../testdata/blocksworld-gtohp/domain.hddl", "../../testdata/blocksworld-gtohp/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := pipeline.Run(ctx, p, pipeline.Config{Engine: pipeline.Auto, Cores: 1, NoLazy: true})
	if err != nil || res.Engine != pipeline.Progression || !res.Verified || res.SAT == nil {
		t.Errorf("%v, by %s, verified %v, the SAT engine ran %v", err, res.Engine, res.Verified, res.SAT != nil)
	}
	// given the core to the end, the SAT engine plans it
	res, err = pipeline.Run(context.Background(), p, pipeline.Config{Engine: pipeline.SAT})
	if err != nil || !res.Verified {
		t.Errorf("the SAT engine alone: %v, verified %v", err, res.Verified)
	}
	// progression ending without an answer (a node limit of 1) gives the
	// SAT engine the time left after its turn, and its plan is the answer
	cfg := pipeline.Config{Engine: pipeline.Auto, Cores: 1, NoLazy: true}
	cfg.HTN.MaxNodes = 1
	res, err = pipeline.Run(ctx, p, cfg)
	if err != nil || res.Engine != pipeline.SAT || !res.Verified {
		t.Errorf("progression stopped by a node limit: %v, by %s, verified %v", err, res.Engine, res.Verified)
	}
}

// TestGroundOnDemand: a problem grounded on demand is searched by
// progression's search over the growing task, where the grounding is
// refused and with the lazy engine asked for (an optimising run by branch
// and bound), in partial order too; an action whose precondition has a
// variable of its own is the action under each binding of it
// (ground.Grow).
func TestGroundOnDemand(t *testing.T) {
	_, p, err := hddl.Load("../../testdata/costs/domain.hddl", "../../testdata/costs/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	// the search's name ends so (its portfolio's member first)
	const common = "grounding on demand"
	searchIs := func(st *htn.Stats, want string) bool {
		return st != nil && (st.Search == want || want == common && strings.HasSuffix(st.Search, common))
	}
	for _, e := range []pipeline.Engine{pipeline.Progression, pipeline.Lazy} {
		cfg := pipeline.Config{Engine: e}
		cfg.Ground.MaxGround = 20
		res, err := pipeline.Run(context.Background(), p, cfg)
		if err != nil || res.Engine != pipeline.Lazy || !res.Verified || !searchIs(res.HTN, common) || res.Lazy == nil || res.Lazy.Methods == 0 {
			t.Errorf("%s: %v; by %s, verified %v, search %+v, on demand %+v", e, err, res.Engine, res.Verified, res.HTN, res.Lazy)
		}
	}
	res, err := pipeline.Run(context.Background(), p, pipeline.Config{Engine: pipeline.Lazy, Optimize: true})
	if err != nil || !res.Optimal || res.Plan.TotalCost() != 7 || res.HTN.Search != "depth-first, grounding on demand, branch and bound" {
		t.Errorf("optimising: %v; optimal %v, search %+v", err, res.Optimal, res.HTN)
	}
	_, po, err := hddl.Load("../../testdata/transport/domain.hddl", "../../testdata/transport/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	if po.IsTotalOrder() {
		t.Fatal("testdata/transport is totally ordered")
	}
	res, err = pipeline.Run(context.Background(), po, pipeline.Config{Engine: pipeline.Lazy})
	if err != nil || !res.Verified || !searchIs(res.HTN, common) {
		t.Errorf("partial order: %v; verified %v, search %+v", err, res.Verified, res.HTN)
	}
	q := testutil.ParseHDDL(t, `(define (domain d)
  (:requirements :typing :hierarchy :existential-preconditions)
  (:types thing)
  (:predicates (ready ?x - thing) (done))
  (:task go :parameters ())
  (:method m :parameters () :task (go) :ordered-subtasks (and (finish)))
  (:action finish :parameters ()
    :precondition (exists (?x - thing) (ready ?x))
    :effect (done)))`, `(define (problem p) (:domain d)
  (:objects a b - thing)
  (:htn :ordered-subtasks (and (go)))
  (:init (ready b))
  (:goal (done)))`)
	res, err = pipeline.Run(context.Background(), q, pipeline.Config{Engine: pipeline.Lazy})
	if err != nil || !res.Verified || !searchIs(res.HTN, common) || res.Plan.Length() != 1 {
		t.Errorf("an existential precondition: %v; verified %v, search %+v", err, res.Verified, res.HTN)
	}
}
