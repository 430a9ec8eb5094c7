package satenc

import (
	"context"
	"fmt"

	"github.com/crillab/gophersat/solver"
)

// This file is the only one that imports gophersat. Only its simple, sound
// path is used: solver.ParseSliceNb -> solver.New -> Solve, with a fresh
// solver for every formula. (Its assumptions, clause appending, model
// counting and cardinality parsing give wrong answers in v1.4.0.)

// gophersatLock lets one gophersat search run at a time: v1.4.0 keeps a
// package-level buffer for the clauses it learns (bufLits in learn.go), so
// two searches at once corrupt each other, with index panics or wrong
// answers (TestGophersatConcurrent). A search abandoned at its timeout
// keeps the lock until it ends; the next Solve waits for it, within its
// own context.
var gophersatLock = make(chan struct{}, 1)

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
// search goes on in the background until it finishes, holding the lock
// that the next Solve waits for.
func (Gophersat) Solve(ctx context.Context, cnf *CNF) (*Result, error) {
	sink := &gophersatSink{clauses: make([][]int, 0, cnf.NumClauses)}
	cnf.Each(sink)
	type answer struct {
		sat   bool
		model []bool
		err   error
	}
	select {
	case gophersatLock <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	done := make(chan answer, 1)
	go func() {
		defer func() { <-gophersatLock }()
		// a panic inside gophersat (v1.4.0 has index errors on some
		// formulas) must not take the process down, least of all from a
		// search left running in the background after a timeout
		defer func() {
			if x := recover(); x != nil {
				done <- answer{err: fmt.Errorf("gophersat failed: %v", x)}
			}
		}()
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
		if a.err != nil {
			return nil, a.err
		}
		return &Result{Sat: a.sat, Model: a.model}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
