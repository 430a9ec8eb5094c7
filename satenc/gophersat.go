package satenc

import (
	"context"

	"github.com/crillab/gophersat/solver"
)

// This file is the only one that imports gophersat. Only its simple, sound
// path is used: solver.ParseSliceNb -> solver.New -> Solve, with a fresh
// solver for every formula. (Its assumptions, clause appending, model
// counting and cardinality parsing give wrong answers in v1.4.0.)

// Gophersat is the in-process solver.
type Gophersat struct{}

// Name is "gophersat".
func (Gophersat) Name() string { return "gophersat" }

// gophersatSink collects clauses in gophersat's input form.
type gophersatSink struct{ clauses [][]int }

func (g *gophersatSink) AddClause(lits ...Lit) {
	c := make([]int, len(lits))
	for i, l := range lits {
		c[i] = int(l)
	}
	g.clauses = append(g.clauses, c)
}

// Solve runs gophersat on the formula. A gophersat solve cannot be
// interrupted: when ctx ends first, Solve returns ctx.Err() at once and the
// search goes on in the background until it finishes.
func (Gophersat) Solve(ctx context.Context, cnf *CNF) (*Result, error) {
	sink := &gophersatSink{clauses: make([][]int, 0, cnf.NumClauses)}
	cnf.Each(sink)
	type answer struct {
		sat   bool
		model []bool
	}
	done := make(chan answer, 1)
	go func() {
		pb := solver.ParseSliceNb(sink.clauses, cnf.NumVars)
		s := solver.New(pb)
		if s.Solve() != solver.Sat {
			done <- answer{}
			return
		}
		m := s.Model() // indexed from 0
		model := make([]bool, cnf.NumVars+1)
		copy(model[1:], m)
		done <- answer{sat: true, model: model}
	}()
	select {
	case a := <-done:
		return &Result{Sat: a.sat, Model: a.model}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
