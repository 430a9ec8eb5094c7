package satenc

import (
	"context"
	"fmt"
)

// Incremental is a SAT solver that keeps its formula, and what it has
// learnt from it, across calls: clauses are added as they come, and Solve
// decides the formula so far under assumptions, literals that hold for
// that call only. The layered encoding asks it once per layer.
type Incremental interface {
	Sink
	Name() string
	// Solve reports whether the clauses so far and the assumptions are
	// satisfiable. It returns the context's error when ctx ends first.
	Solve(ctx context.Context, assumptions ...Lit) (bool, error)
	// Model is the assignment found by the last satisfiable Solve, per
	// variable (index 0 unused).
	Model() []bool
	// Close releases the solver.
	Close()
}

// incrementalSolver is a Solver with an incremental solver of its own.
type incrementalSolver interface {
	Incremental() Incremental
}

// NewIncremental returns an incremental solver: s's own if it has one,
// else one that keeps the formula and solves it afresh with s at every
// call, the assumptions added as unit clauses for that call only (what
// gophersat and the external DIMACS solvers get: gophersat's own
// assumption and clause-append paths are unsound in v1.4.0).
func NewIncremental(s Solver) Incremental {
	if is, ok := s.(incrementalSolver); ok {
		return is.Incremental()
	}
	return &resolver{s: s, cnf: &CNF{}}
}

// resolver re-solves the grown formula at every call.
type resolver struct {
	s     Solver
	cnf   *CNF
	model []bool
}

func (r *resolver) Name() string          { return r.s.Name() }
func (r *resolver) NewVar() Var           { return r.cnf.NewVar() }
func (r *resolver) AddClause(lits ...Lit) { r.cnf.AddClause(lits...) }
func (r *resolver) Model() []bool         { return r.model }
func (r *resolver) Close()                {}

func (r *resolver) Solve(ctx context.Context, assumptions ...Lit) (bool, error) {
	lits, clauses := r.cnf.mark()
	for _, a := range assumptions {
		if int(a.Var()) > r.cnf.NumVars || a == 0 {
			return false, fmt.Errorf("assumption %d: no such variable", a)
		}
		r.cnf.AddClause(a)
	}
	res, err := r.s.Solve(ctx, r.cnf)
	r.cnf.truncate(lits, clauses)
	if err != nil {
		return false, err
	}
	r.model = res.Model
	return res.Sat, nil
}
