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
	MaxDepth int // 0: 32
	// NoIncremental encodes and solves each depth on its own even with an
	// incremental solver.
	NoIncremental bool
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
func Solve(ctx context.Context, t *ground.Task, cfg Config) (*ground.Solution, *Stats, error) {
	if cfg.Solver == nil {
		cfg.Solver = Default()
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 32
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

// solveLayers grows one formula layer by layer in one incremental solver.
func solveLayers(ctx context.Context, t *ground.Task, cfg Config, from, to int, st *Stats) (*ground.Solution, error) {
	s := NewIncremental(cfg.Solver)
	defer s.Close()
	if l, ok := s.(interface{ Learnt() int64 }); ok {
		defer func() { st.Learnt = l.Learnt() }()
	}
	t0 := time.Now()
	enc, err := NewEncoding(ctx, t, s, cfg.Options)
	st.Encode += time.Since(t0)
	if err != nil {
		return nil, err
	}
	for depth := 1; depth <= to; depth++ {
		t0 := time.Now()
		if depth > 1 {
			if err := enc.AddLayer(); err != nil {
				return nil, err
			}
		}
		if depth < from {
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
		sat, err := s.Solve(ctx, assume...)
		st.Solve += time.Since(t1)
		if err != nil {
			return nil, err
		}
		if sat {
			return decode(enc, s.Model(), cfg, st)
		}
	}
	return nil, nil
}

// solveDepths encodes and solves the formula of each depth on its own.
func solveDepths(ctx context.Context, t *ground.Task, cfg Config, from, to int, st *Stats) (*ground.Solution, error) {
	for depth := from; depth <= to; depth++ {
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
		res, err := cfg.Solver.Solve(ctx, cnf)
		st.Solve += time.Since(t1)
		if err != nil {
			return nil, err
		}
		if res.Sat {
			return decode(enc, res.Model, cfg, st)
		}
	}
	return nil, nil
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
