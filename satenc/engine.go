package satenc

import (
	"context"
	"fmt"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/plan"
)

// Config configures the SAT engine.
type Config struct {
	Solver Solver // nil: Gophersat
	// Depth fixes the depth of the decomposition tree (0: the depth the
	// task needs if it has no recursion, else increasing depths up to
	// MaxDepth).
	Depth    int
	MaxDepth int // 0: 256
	// NoIncremental encodes and solves each depth on its own even with an
	// incremental solver.
	NoIncremental bool
	// Skip gives every layer but the last a time budget and moves on to a
	// deeper layer when it runs out (see Solve).
	Skip bool
	Options
}

// Stats describe a run of the SAT engine (of its last formula for the
// sizes; times add up over all depths tried).
type Stats struct {
	Solver      string
	Depth       int
	Tries       int
	Vars        int
	Clauses     int
	Vertices    int
	Steps       int
	Encode      time.Duration
	Solve       time.Duration
	Decode      time.Duration
	Linear      bool // the task had partial orders that were linearised
	Recursive   bool
	Incremental bool // one incremental solver grew with the layers
	Skipped     int  // layers left undecided when their time budget ran out
	// Learnt counts the clauses the solver learnt over all layers, when
	// it says (the linked CaDiCaL does); else -1.
	Learnt int64
}

// ErrDepthLimit: no plan up to MaxDepth (it is plan.ErrDepthLimit).
var ErrDepthLimit = plan.ErrDepthLimit

// Solve encodes t, solves the formula and decodes the plan. A task
// without recursion is asked once, at its depth; a recursive one layer by
// layer, from the fewest layers any of its plans needs (ground.MinDepth)
// up to MaxDepth. With an incremental solver (the linked CaDiCaL) one
// solver keeps the formula across layers: each layer adds only its own
// clauses, and the solver is asked under the assumption that the last
// layer is final. Other solvers, which would start afresh anyway, get the
// formula of each depth on its own, with that assumption as a unit clause
// (smaller, and simpler for them; Config.NoIncremental asks for this way
// with CaDiCaL too).
//
// With Config.Skip, each layer but the last that will be tried gets a
// time budget (half a second, or a third of the time spent so far if that
// is more). When it runs out, the layer is left undecided and one a
// quarter deeper is asked next. A plan of k layers is also one of k+1 (its
// actions pass down), so nothing is lost, and a deeper formula, with room
// to spare, can be easier to satisfy than a shallower one is to refute:
// Multiarm-Blocksworld pfile_02_020 takes seconds to refute at 41 layers
// and is solved at 80 in 2.6 s. But it can be harder too:
// AssemblyHierarchical genericLinearProblem_depth06 needs 25 layers, which
// take 7 s without skipping; skipping leaves 25 undecided and goes on
// into ever larger formulas without a plan. So it is not the default. The
// last layer has no budget, so a plan within MaxDepth is found whenever
// one exists, given the time. This is the plainest sequential form of the
// horizon schedules of Rintanen, Heljanko and Niemelä ("Planning as
// satisfiability: parallel plans and algorithms for plan search", AIJ
// 2006); their algorithm B, which keeps giving shallower horizons time,
// would keep both wins.
func Solve(ctx context.Context, t *ground.Task, cfg Config) (*ground.Solution, *Stats, error) {
	if cfg.Solver == nil {
		cfg.Solver = Default()
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 256
	}
	st := &Stats{Solver: cfg.Solver.Name(), Linear: !t.TotallyOrdered(), Learnt: -1}
	need := t.Depth()
	st.Recursive = need < 0
	from, to := need, need
	switch {
	case cfg.Depth > 0:
		from, to = cfg.Depth, cfg.Depth
	case need < 0:
		from, to = max(t.MinDepth(), 1), cfg.MaxDepth
	}
	var sol *ground.Solution
	var err error
	if _, ok := cfg.Solver.(incrementalSolver); ok && !cfg.NoIncremental {
		st.Incremental = true
		sol, err = solveLayers(ctx, t, cfg, from, to, st)
	} else {
		sol, err = solveDepths(ctx, t, cfg, from, to, st)
	}
	if err != nil || sol != nil {
		return sol, st, err
	}
	linear := ""
	if st.Linear {
		linear = "; partial orders were linearised, so a plan in another order may exist"
	}
	switch {
	case st.Recursive && cfg.Depth == 0:
		return nil, st, fmt.Errorf("%w (%d)%s", ErrDepthLimit, cfg.MaxDepth, linear)
	case cfg.Depth > 0 && (need < 0 || need > cfg.Depth):
		return nil, st, fmt.Errorf("%w: the formula is unsatisfiable at depth %d, which is not the whole decomposition tree", plan.ErrInconclusive, cfg.Depth)
	case st.Linear:
		return nil, st, fmt.Errorf("%w: the formula is unsatisfiable%s", plan.ErrInconclusive, linear)
	}
	return nil, st, fmt.Errorf("%w: the formula of the whole decomposition tree is unsatisfiable", plan.ErrUnsolvable)
}

// limited is an incremental solver that can give up on a search after a
// while (decided false), keeping what it learnt.
type limited interface {
	SolveWithin(ctx context.Context, d time.Duration, assumptions ...Lit) (sat, decided bool, err error)
}

// skipping paces the depths a recursive task is asked at (see Solve).
type skipping struct {
	on    bool
	start time.Time
}

// The pace: a layer's search may take skipBudget, or a third of the time
// spent so far if that is more, and a layer left undecided is followed by
// one a quarter deeper. (Variables for the tests.)
var (
	skipBudget               = 500 * time.Millisecond
	skipShare  time.Duration = 3
)

const skipJump = 4

// budget is the time the search of a layer may take before it is left
// undecided; 0 for no limit.
func (s *skipping) budget(depth, to int) time.Duration {
	if !s.on || depth >= to {
		return 0
	}
	return max(skipBudget, time.Since(s.start)/skipShare)
}

// next is the depth asked after depth: the next one, or, after a layer
// left undecided, a quarter deeper, but not past to (which is asked
// without a budget).
func (s *skipping) next(depth, to int, decided bool) int {
	if decided {
		return depth + 1
	}
	return min(depth+max(1, depth/skipJump), max(to, depth+1))
}

// solveLayers grows one formula layer by layer in one incremental solver.
func solveLayers(ctx context.Context, t *ground.Task, cfg Config, from, to int, st *Stats) (*ground.Solution, error) {
	s := NewIncremental(cfg.Solver)
	defer s.Close()
	if l, ok := s.(interface{ Learnt() int64 }); ok {
		defer func() { st.Learnt = l.Learnt() }()
	}
	ls, ok := s.(limited)
	skip := &skipping{on: ok && cfg.Skip, start: time.Now()}
	t0 := time.Now()
	enc, err := NewEncoding(ctx, t, s, cfg.Options)
	st.Encode += time.Since(t0)
	if err != nil {
		return nil, err
	}
	for depth, ask := 1, from; depth <= to; depth++ {
		t0 := time.Now()
		if depth > 1 {
			if err := enc.AddLayer(); err != nil {
				return nil, err
			}
		}
		if depth < ask {
			st.Encode += time.Since(t0)
			continue
		}
		final, err := enc.Final()
		st.Encode += time.Since(t0)
		if err != nil {
			return nil, err
		}
		st.Tries++
		st.Depth, st.Vars, st.Clauses, st.Vertices, st.Steps = depth, enc.NumVars, enc.Clauses, enc.Vertices(), enc.Steps()
		t1 := time.Now()
		// the last layer that will be tried is final for good: a unit
		// clause simplifies more than an assumption
		var assume []Lit
		switch {
		case final == 0:
		case depth == to:
			s.AddClause(final)
		default:
			assume = append(assume, final)
		}
		sat, decided := false, true
		if b := skip.budget(depth, to); b > 0 {
			sat, decided, err = ls.SolveWithin(ctx, b, assume...)
		} else {
			sat, err = s.Solve(ctx, assume...)
		}
		st.Solve += time.Since(t1)
		if err != nil {
			return nil, err
		}
		if sat {
			return decode(enc, s.Model(), cfg, st)
		}
		if !decided {
			st.Skipped++
		}
		ask = skip.next(depth, to, decided)
	}
	return nil, nil
}

// solveDepths encodes and solves the formula of each depth on its own.
func solveDepths(ctx context.Context, t *ground.Task, cfg Config, from, to int, st *Stats) (*ground.Solution, error) {
	skip := &skipping{on: cfg.Skip, start: time.Now()}
	for depth := from; depth <= to; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st.Tries++
		t0 := time.Now()
		cnf := &CNF{}
		enc, err := Encode(ctx, t, depth, cnf, cfg.Options)
		st.Encode += time.Since(t0)
		if err != nil {
			return nil, err
		}
		st.Depth, st.Vars, st.Clauses, st.Vertices, st.Steps = depth, enc.NumVars, enc.Clauses, enc.Vertices(), enc.Steps()
		t1 := time.Now()
		res, decided, err := solveWithin(ctx, cfg.Solver, cnf, skip.budget(depth, to))
		st.Solve += time.Since(t1)
		if err != nil {
			return nil, err
		}
		if res.Sat {
			return decode(enc, res.Model, cfg, st)
		}
		if !decided {
			st.Skipped++
		}
		depth = skip.next(depth, to, decided)
	}
	return nil, nil
}

// solveWithin solves cnf with s within d (0: no limit); decided is false
// when d ran out first.
func solveWithin(ctx context.Context, s Solver, cnf *CNF, d time.Duration) (res *Result, decided bool, err error) {
	if d <= 0 {
		res, err = s.Solve(ctx, cnf)
		return res, err == nil, err
	}
	sub, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	res, err = s.Solve(sub, cnf)
	if err != nil && ctx.Err() == nil && sub.Err() != nil {
		return &Result{}, false, nil
	}
	return res, err == nil, err
}

func decode(enc *Encoding, model []bool, cfg Config, st *Stats) (*ground.Solution, error) {
	t0 := time.Now()
	sol, err := enc.Decode(model)
	st.Decode += time.Since(t0)
	if err != nil {
		return nil, fmt.Errorf("decoding the model of %s: %w", cfg.Solver.Name(), err)
	}
	return sol, nil
}
