// Package compare is the Sudoku benchmark harness: it solves puzzles with
// each engine (the progression planner and the HTN-to-SAT compiler on the
// paper's HDDL model, through package pipeline, and the direct SAT
// encoding as the baseline), checks every grid, times every stage and
// measures memory, one run or a whole set of puzzles at a time.
//
// The puzzles, their HDDL model and the direct encoding are package
// sudoku's; this package only runs and measures.
package compare

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/variant"
)

// Engine is a way to solve a puzzle.
type Engine string

// The engines have the names of package pipeline's (plan --engine) and
// one more.
const (
	// Progression plans on the HDDL model by progression search.
	Progression = Engine(pipeline.Progression)
	// HTNSAT plans on the HDDL model through the HTN-to-SAT encoding.
	HTNSAT = Engine(pipeline.SAT)
	// Auto runs both HTN engines side by side and keeps the first answer.
	Auto = Engine(pipeline.Auto)
	// Lazy plans on the HDDL model by progression with grounding on
	// demand (the ordered model only).
	Lazy = Engine(pipeline.Lazy)
	// DirectSAT solves the direct SAT encoding of the puzzle: the baseline.
	DirectSAT Engine = "direct-sat"
)

// Engines lists the engines "all" means: each on its own, for comparing
// them (auto is the HTN engines together).
var Engines = []Engine{Progression, HTNSAT, DirectSAT}

// ParseEngine reads one engine name: direct-sat, or one of plan's
// (progression, htn-sat or its alias sat, auto, lazy), in any case.
func ParseEngine(s string) (Engine, error) {
	if strings.EqualFold(strings.TrimSpace(s), string(DirectSAT)) {
		return DirectSAT, nil
	}
	e, err := pipeline.ParseEngine(s)
	if err != nil {
		return "", fmt.Errorf("unknown engine %q (want progression, htn-sat (or sat), direct-sat, auto, lazy, or all)", s)
	}
	return Engine(e), nil
}

// ParseEngines reads a comma-separated list of engines, or "all".
func ParseEngines(s string) ([]Engine, error) {
	if s == "" || strings.EqualFold(s, "all") {
		return Engines, nil
	}
	var out []Engine
	for _, f := range strings.Split(s, ",") {
		e, err := ParseEngine(f)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Stages are the stage names of a run, in pipeline order: parse includes
// writing the HDDL problem, decode reading the grid back, verify checking
// the plan and the grid. Sudoku runs never improve a plan (every plan of
// a puzzle has the same length), so the improve stage is left out.
var Stages = slices.DeleteFunc(slices.Clone(pipeline.Stages), func(s string) bool { return s == "improve" })

// Run is the record of one engine on one puzzle.
type Run struct {
	Puzzle     string
	Size       int
	Givens     int
	Engine     Engine
	Style      sudoku.Style
	Status     plan.Status
	Error      string
	Stages     pipeline.Times
	Total      time.Duration
	Solution   sudoku.Grid
	Verified   bool // the plan verifies and the grid is a solution of the puzzle
	PlanLength int
	Plan       *plan.Plan // the HTN engines' plan (nil for direct-sat and in Batch's rows)
	Nodes      int64
	Vars       int
	Clauses    int
	Depth      int
	AllocBytes uint64 // heap bytes allocated during the run
	PeakHeap   uint64 // peak heap above its size at the start (see heapSampler)
	// Solutions is the number of solutions direct-sat counted, up to
	// Options.Count (0: not counted).
	Solutions int
	// Rating is the puzzle's difficulty (csp.Rate: the weakest consistency
	// level that solves it), when asked for (compare --rate).
	Rating string
}

// Options configure the engines. The zero value is the unordered style
// with every engine's defaults.
type Options struct {
	Style sudoku.Style
	HTN   htn.Options
	// SAT configures htn-sat; its Solver (nil: gophersat) solves the
	// direct encoding too.
	SAT    satenc.Config
	NoFold bool // HTN engines: do not fold pure tests
	// Count makes direct-sat count the solutions up to this number
	// (blocking each one found; 2 decides uniqueness). The HTN engines
	// cannot enumerate: they ignore it.
	Count int
	// Variant, if set, is the variant puzzle being solved (the puzzle's
	// grid is its givens): the HTN engines plan its HDDL model
	// (variant.Model), direct-sat its own encoding, and every solution is
	// checked against all its rules.
	Variant *variant.Puzzle
	// MaxGround bounds grounding (0: the default budget).
	MaxGround int
	// Memory measures each run's allocations and peak heap (Run.AllocBytes,
	// Run.PeakHeap): a garbage collection before the run and a 1 ms heap
	// poll during it, outside the timed part but not free.
	Memory bool
}

// pipelineConfig is the configuration of an HTN engine's run.
func (o Options) pipelineConfig(e Engine) pipeline.Config {
	cfg := pipeline.Config{Engine: pipeline.Engine(e), NoFold: o.NoFold, HTN: o.HTN, SAT: o.SAT}
	cfg.Ground.MaxGround = o.MaxGround
	return cfg
}

// RunEngine solves p with engine e. Failures, panics and timeouts are
// recorded in the Run, never returned.
func RunEngine(ctx context.Context, p sudoku.Puzzle, e Engine, opt Options) (r Run) {
	r = Run{Puzzle: p.Name, Size: p.Size(), Givens: p.Givens(), Engine: e, Style: opt.Style, Stages: pipeline.Times{}}
	var ms runtime.MemStats
	var hs *heapSampler
	if opt.Memory {
		// start from a collected heap, so that one run's garbage is not
		// counted against the next (outside the timed part)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		hs = startHeapSampler()
	}
	alloc0 := ms.TotalAlloc
	start := time.Now()
	defer func() {
		if x := recover(); x != nil {
			r.Status, r.Error = plan.Failed, fmt.Sprintf("panic: %v", x)
		}
		r.Total = time.Since(start)
		if hs != nil {
			r.PeakHeap = hs.Stop()
			runtime.ReadMemStats(&ms)
			r.AllocBytes = ms.TotalAlloc - alloc0
		}
	}()
	var err error
	switch e {
	case Progression, HTNSAT, Auto, Lazy:
		err = runHTN(ctx, p, e, opt, &r)
	case DirectSAT:
		err = runDirect(ctx, p, opt, &r)
	default:
		err = fmt.Errorf("unknown engine %q", e)
	}
	err = plan.WithCause(ctx, err)
	r.Status = plan.StatusOf(err)
	if errors.Is(err, sudoku.ErrNoSolution) {
		r.Status = plan.Unsolvable
	}
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

func runHTN(ctx context.Context, p sudoku.Puzzle, e Engine, opt Options, r *Run) error {
	t0 := time.Now()
	var prob *hddl.Problem
	var err error
	if opt.Variant != nil {
		// the SAT engine solves the model with checks after the fills
		// faster, the progression search prunes with checks at each fill
		checks := variant.AtFill
		if e == HTNSAT {
			checks = variant.AfterFills
		}
		_, prob, err = variant.Model(opt.Variant, opt.Style, checks)
	} else {
		_, prob, err = sudoku.Model(p.Grid, opt.Style)
	}
	r.Stages.Add("parse", time.Since(t0))
	if err != nil {
		return err
	}
	res, err := pipeline.Run(ctx, prob, opt.pipelineConfig(e))
	for s, d := range res.Times {
		r.Stages.Add(s, d)
	}
	if res.HTN != nil {
		r.Nodes = res.HTN.Nodes
	}
	if res.SAT != nil {
		r.Vars, r.Clauses, r.Depth = res.SAT.Vars, res.SAT.Clauses, res.SAT.Depth
	}
	if err != nil {
		return err
	}
	r.PlanLength, r.Plan = res.Plan.Length(), res.Plan
	t1 := time.Now()
	g, gerr := sudoku.GridFromPlan(res.Plan, p.Grid)
	t2 := time.Now()
	r.Stages.Add("decode", t2.Sub(t1))
	if gerr == nil {
		gerr = solves(g, p, opt)
	}
	r.Stages.Add("verify", time.Since(t2))
	if gerr != nil {
		// a valid plan of the unordered model can still break the rules:
		// it may check two cells before filling both
		r.Solution = g
		return fmt.Errorf("the plan is valid but its grid is not a solution: %w", gerr)
	}
	r.Solution, r.Verified = g, true
	return nil
}

// solves checks that g solves the puzzle, with the variant's rules if any.
func solves(g sudoku.Grid, p sudoku.Puzzle, opt Options) error {
	if opt.Variant != nil {
		return opt.Variant.Check(g)
	}
	return g.Solves(p.Grid)
}

// runVariantDirect solves a variant through its direct encoding (which
// checks the solution against every rule itself).
func runVariantDirect(ctx context.Context, opt Options, r *Run) error {
	t0 := time.Now()
	res, err := variant.Solve(ctx, opt.Variant, opt.SAT.Solver, opt.Count)
	r.Stages.Add("solve", time.Since(t0))
	if res != nil {
		r.Vars, r.Clauses = res.Vars, res.Clauses
		if opt.Count > 0 {
			r.Solutions = res.Solutions
		}
	}
	if errors.Is(err, variant.ErrNoSolution) {
		return sudoku.ErrNoSolution
	}
	if err != nil {
		return err
	}
	r.Solution, r.Verified = res.Solution, true
	return nil
}

func runDirect(ctx context.Context, p sudoku.Puzzle, opt Options, r *Run) error {
	if opt.Variant != nil {
		return runVariantDirect(ctx, opt, r)
	}
	mark := time.Now()
	lap := func(stage string) {
		now := time.Now()
		r.Stages.Add(stage, now.Sub(mark))
		mark = now
	}
	enc, err := sudoku.EncodeDirect(p.Grid)
	if err != nil {
		lap("encode")
		return err
	}
	one, cnf, err := enc.ForOne()
	lap("encode")
	if err != nil {
		return err
	}
	r.Vars, r.Clauses = cnf.NumVars, cnf.NumClauses
	s := opt.SAT.Solver
	if s == nil {
		s = satenc.Default()
	}
	res, err := s.Solve(ctx, cnf)
	lap("solve")
	if err != nil {
		return err
	}
	if !res.Sat {
		return sudoku.ErrNoSolution
	}
	g := one.Decode(res.Model)
	lap("decode")
	if opt.Count > 1 {
		if r.Solutions, err = enc.Count(ctx, s, enc.Model(g), opt.Count); err != nil {
			return err
		}
		lap("solve")
	} else if opt.Count == 1 {
		r.Solutions = 1
	}
	err = g.Solves(p.Grid)
	lap("verify")
	if err != nil {
		return fmt.Errorf("the model's grid is not a solution: %w", err)
	}
	r.Solution, r.Verified = g, true
	return nil
}
