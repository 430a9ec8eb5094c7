package sudoku

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// Engine is a way to solve a puzzle.
type Engine string

const (
	// Progression plans on the HDDL model by progression search.
	Progression Engine = "progression"
	// HTNSAT plans on the HDDL model through the HTN-to-SAT encoding.
	HTNSAT Engine = "htn-sat"
	// DirectSAT solves the direct SAT encoding of the puzzle: the baseline.
	DirectSAT Engine = "direct-sat"
)

// Engines lists every engine.
var Engines = []Engine{Progression, HTNSAT, DirectSAT}

// ParseEngines reads a comma-separated list of engines, or "all".
func ParseEngines(s string) ([]Engine, error) {
	if s == "" || s == "all" {
		return Engines, nil
	}
	var out []Engine
	for _, f := range strings.Split(s, ",") {
		e := Engine(strings.TrimSpace(f))
		switch e {
		case Progression, HTNSAT, DirectSAT:
			out = append(out, e)
		default:
			return nil, fmt.Errorf("unknown engine %q (want progression, htn-sat, direct-sat or all)", f)
		}
	}
	return out, nil
}

// Status is the outcome of one run.
type Status string

const (
	Solved     Status = "solved"
	Unsolvable Status = "unsolvable"
	Timeout    Status = "timeout"
	Failed     Status = "error"
)

// Stage names, in pipeline order.
var Stages = []string{"parse", "ground", "encode", "solve", "decode", "verify"}

// Run is the record of one engine on one puzzle.
type Run struct {
	Puzzle     string
	Size       int
	Givens     int
	Engine     Engine
	Style      Style
	Status     Status
	Error      string
	Stages     map[string]time.Duration
	Total      time.Duration
	Solution   Grid
	Verified   bool // the plan verifies and the grid is a solution of the puzzle
	PlanLength int
	Nodes      int64
	Vars       int
	Clauses    int
	Depth      int
	AllocBytes uint64 // heap bytes allocated during the run
	PeakHeap   uint64 // peak heap above its size at the start (see heapSampler)
	Unique     Uniqueness
}

// Options configure the engines.
type Options struct {
	Style     Style
	HTN       htn.Options
	Solver    satenc.Solver  // nil: gophersat
	SAT       satenc.Options // htn-sat: encoding options
	Unique    bool           // direct-sat: also decide whether the solution is unique
	MaxGround int
	// Memory measures each run's allocations and peak heap (Run.AllocBytes,
	// Run.PeakHeap): a garbage collection before the run and a 1 ms heap
	// poll during it, outside the timed part but not free.
	Memory bool
}

// DefaultOptions is the unordered style with every acceleration.
func DefaultOptions() Options {
	return Options{Style: Unordered, HTN: htn.DefaultOptions()}
}

// RunEngine solves p with engine e. Failures, panics and timeouts are
// recorded in the Run, never returned.
func RunEngine(ctx context.Context, p Puzzle, e Engine, opt Options) (r Run) {
	r = Run{Puzzle: p.Name, Size: p.Size(), Givens: p.Givens(), Engine: e, Style: opt.Style, Stages: map[string]time.Duration{}}
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
			r.Status, r.Error = Failed, fmt.Sprintf("panic: %v", x)
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
	case Progression, HTNSAT:
		err = runHTN(ctx, p, e, opt, &r)
	case DirectSAT:
		err = runDirect(ctx, p, opt, &r)
	default:
		err = fmt.Errorf("unknown engine %q", e)
	}
	switch {
	case err == nil:
		r.Status = Solved
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		r.Status, r.Error = Timeout, err.Error()
	case errors.Is(err, ErrNoSolution), plan.StatusOf(err) == plan.Unsolvable:
		r.Status, r.Error = Unsolvable, err.Error()
	default:
		r.Status, r.Error = Failed, err.Error()
	}
	return r
}

// timer adds the time since the last mark to a stage.
type timer struct {
	r    *Run
	last time.Time
}

func (t *timer) stage(name string) {
	now := time.Now()
	t.r.Stages[name] += now.Sub(t.last)
	t.last = now
}

func runHTN(ctx context.Context, p Puzzle, e Engine, opt Options, r *Run) error {
	tm := &timer{r: r, last: time.Now()}
	_, prob, err := Model(p.Grid, opt.Style)
	if err != nil {
		return err
	}
	tm.stage("parse")
	t, _, err := ground.Ground(ctx, prob, ground.Options{MaxGround: opt.MaxGround})
	tm.stage("ground")
	if err != nil {
		return err
	}
	var sol *ground.Solution
	if e == Progression {
		var st *htn.Stats
		sol, st, err = htn.Solve(ctx, t, opt.HTN)
		r.Nodes = st.Nodes
		tm.stage("solve")
	} else {
		var st *satenc.Stats
		sol, st, err = satenc.Solve(ctx, t, satenc.Config{Solver: opt.Solver, Options: opt.SAT})
		r.Vars, r.Clauses, r.Depth = st.Vars, st.Clauses, st.Depth
		r.Stages["encode"] += st.Encode
		r.Stages["solve"] += st.Solve
		r.Stages["decode"] += st.Decode
		tm.last = time.Now()
	}
	if err != nil {
		return err
	}
	plan := sol.ToPlan(t)
	r.PlanLength = plan.Length()
	g, gerr := GridFromPlan(plan, p.Grid)
	tm.stage("decode")
	if err := verify.Verify(prob, plan); err != nil {
		tm.stage("verify")
		return fmt.Errorf("the plan does not verify: %w", err)
	}
	if gerr == nil {
		gerr = g.solves(p.Grid)
	}
	tm.stage("verify")
	if gerr != nil {
		// a valid plan of the unordered model can still break the rules:
		// it may check two cells before filling both
		r.Solution = g
		return fmt.Errorf("the plan is valid but its grid is not a solution: %w", gerr)
	}
	r.Solution, r.Verified = g, true
	return nil
}

func runDirect(ctx context.Context, p Puzzle, opt Options, r *Run) error {
	tm := &timer{r: r, last: time.Now()}
	enc, err := EncodeDirect(p.Grid)
	tm.stage("encode")
	if err != nil {
		return err
	}
	r.Vars, r.Clauses = enc.NumVars, enc.CNF.NumClauses
	s := opt.Solver
	if s == nil {
		s = satenc.Gophersat{}
	}
	res, err := s.Solve(ctx, enc.CNF)
	tm.stage("solve")
	if err != nil {
		return err
	}
	if !res.Sat {
		return ErrNoSolution
	}
	g := enc.Decode(res.Model)
	tm.stage("decode")
	if opt.Unique {
		second := &satenc.CNF{}
		enc.CNF.Each(second)
		second.AddClause(enc.Block(res.Model)...)
		second.NumVars = enc.CNF.NumVars
		res2, err := s.Solve(ctx, second)
		if err != nil {
			return err
		}
		r.Unique = Unique
		if res2.Sat {
			r.Unique = Several
		}
		tm.stage("solve")
	}
	err = g.solves(p.Grid)
	tm.stage("verify")
	if err != nil {
		return fmt.Errorf("the model's grid is not a solution: %w", err)
	}
	r.Solution, r.Verified = g, true
	return nil
}

// solves checks that g is a full, valid grid that keeps p's givens.
func (g Grid) solves(p Grid) error {
	if err := g.Extends(p); err != nil {
		return err
	}
	if b := g.Blanks(); b > 0 {
		return fmt.Errorf("%d cells are still blank", b)
	}
	return g.Check()
}

// GridFromPlan fills the puzzle with the FILL-CELL actions of a plan
// (arguments: box, column c<i>, row r<i>, digit d<n>). It checks that each
// action names a blank cell of the puzzle, in the right box, once.
func GridFromPlan(plan *plan.Plan, puzzle Grid) (Grid, error) {
	g := puzzle.Clone()
	n := g.Size()
	num := func(s, prefix string, lo, hi int) (int, error) {
		v, err := strconv.Atoi(strings.TrimPrefix(s, prefix))
		if err != nil || !strings.HasPrefix(s, prefix) || v < lo || v > hi {
			return 0, fmt.Errorf("%q is not %s%d..%s%d", s, prefix, lo, prefix, hi)
		}
		return v, nil
	}
	for _, a := range plan.Actions {
		if a.Name != "FILL-CELL" {
			continue
		}
		if len(a.Args) != 4 {
			return g, fmt.Errorf("plan line %d: FILL-CELL with %d arguments", a.Line, len(a.Args))
		}
		b, err1 := num(a.Args[0], "b", 0, n-1)
		c, err2 := num(a.Args[1], "c", 0, n-1)
		r, err3 := num(a.Args[2], "r", 0, n-1)
		d, err4 := num(a.Args[3], "d", 1, n)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return g, fmt.Errorf("FILL-CELL %s: %w", strings.Join(a.Args, " "), err)
		}
		if g.BoxOf(r, c) != b {
			return g, fmt.Errorf("FILL-CELL %s: %s is not in box %d", strings.Join(a.Args, " "), CellName(r, c), b)
		}
		if g.At(r, c) != 0 {
			return g, fmt.Errorf("FILL-CELL %s: %s is not blank", strings.Join(a.Args, " "), CellName(r, c))
		}
		g.Set(r, c, d)
	}
	return g, nil
}
