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
	Options
}

// Stats describe a run of the SAT engine (of its last formula for the
// sizes; times add up over all depths tried).
type Stats struct {
	Solver    string
	Depth     int
	Tries     int
	Vars      int
	Clauses   int
	Vertices  int
	Steps     int
	Encode    time.Duration
	Solve     time.Duration
	Decode    time.Duration
	Linear    bool // the task had partial orders that were linearised
	Recursive bool
}

// ErrDepthLimit: no plan up to MaxDepth (it is plan.ErrDepthLimit).
var ErrDepthLimit = plan.ErrDepthLimit

// Solve encodes t, solves the formula and decodes the plan, deepening the
// decomposition tree for recursive tasks.
func Solve(ctx context.Context, t *ground.Task, cfg Config) (*ground.Solution, *Stats, error) {
	if cfg.Solver == nil {
		cfg.Solver = Gophersat{}
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 32
	}
	st := &Stats{Solver: cfg.Solver.Name(), Linear: !t.TotallyOrdered()}
	need := t.Depth()
	st.Recursive = need < 0
	from, to := need, need
	switch {
	case cfg.Depth > 0:
		from, to = cfg.Depth, cfg.Depth
	case need < 0:
		from, to = 1, cfg.MaxDepth
	}
	for depth := from; depth <= to; depth++ {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		st.Tries++
		t0 := time.Now()
		cnf := &CNF{}
		enc, err := Encode(ctx, t, depth, cnf, cfg.Options)
		st.Encode += time.Since(t0)
		if err != nil {
			return nil, st, err
		}
		st.Depth, st.Vars, st.Clauses, st.Vertices, st.Steps = depth, enc.NumVars, enc.Clauses, enc.Vertices(), enc.Steps()
		cnf.NumVars = max(cnf.NumVars, enc.NumVars)
		t1 := time.Now()
		res, err := cfg.Solver.Solve(ctx, cnf)
		st.Solve += time.Since(t1)
		if err != nil {
			return nil, st, err
		}
		if !res.Sat {
			continue
		}
		t2 := time.Now()
		sol, err := enc.Decode(res.Model)
		st.Decode += time.Since(t2)
		if err != nil {
			return nil, st, fmt.Errorf("decoding the model of %s: %w", cfg.Solver.Name(), err)
		}
		return sol, st, nil
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
