package satenc

import (
	"context"
	"fmt"

	"github.com/crillab/gophersat/solver"
)

// This file is the only one that imports gophersat. Only its simple, sound
// path is used: solver.ParseSliceNb -> solver.New -> Solve, with a fresh
// solver for every formula, its units propagated beforehand. (Its assumptions, clause appending, model
// counting and cardinality parsing give wrong answers in v1.4.0.)

// gophersatLock lets one gophersat search run at a time: v1.4.0 keeps a
// package-level buffer for the clauses it learns (bufLits in learn.go), so
// two searches at once corrupt each other, with index panics or wrong
// answers (TestGophersatConcurrent). A search abandoned at its timeout
// keeps the lock until it ends; the next Solve waits for it, within its
// own context.
var gophersatLock = make(chan struct{}, 1)

// presimplifyLits is the size of formula (literals and clause ends) from
// which Gophersat propagates units before gophersat does.
const presimplifyLits = 1 << 16

// Gophersat is the in-process solver.
type Gophersat struct{}

// Name is "gophersat".
func (Gophersat) Name() string { return "gophersat" }

// gophersatInput is the formula in gophersat's input form, every clause
// a slice of one shared block (gophersat copies them as it parses): one
// allocation a clause was a quarter of a million on a 25x25 Sudoku.
// It returns ctx's error when ctx ends first.
func gophersatInput(ctx context.Context, cnf *CNF) ([][]int, error) {
	ints := make([]int, 0, len(cnf.lits)-cnf.NumClauses)
	clauses := make([][]int, 0, cnf.NumClauses)
	ended := poll(ctx)
	cnf.Clauses(func(cl []Lit) {
		if ended() {
			return
		}
		start := len(ints)
		for _, l := range cl {
			ints = append(ints, int(l))
		}
		clauses = append(clauses, ints[start:len(ints):len(ints)])
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return clauses, nil
}

// Solve runs gophersat on the formula. When ctx ends first, Solve returns
// ctx.Err() at once and the search stops at its next learnt clause (see
// stopOnCancel).
func (Gophersat) Solve(ctx context.Context, cnf *CNF) (*Result, error) {
	// on a large formula, units propagated first in linear time (see
	// propagateUnits); on a small one gophersat's own pass costs less
	// than another copy (9x9 Sudoku: direct-sat 1.12 -> 1.26 ms median)
	if len(cnf.lits) >= presimplifyLits {
		simple, ok, err := propagateUnits(ctx, cnf)
		if err != nil {
			return nil, err
		}
		if !ok {
			return &Result{}, nil
		}
		cnf = simple
	}
	input, err := gophersatInput(ctx, cnf)
	if err != nil {
		return nil, err
	}
	numVars := cnf.NumVars
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
				if err := ctx.Err(); err != nil {
					done <- answer{err: err} // stopped (see stopOnCancel)
					return
				}
				done <- answer{err: fmt.Errorf("gophersat failed: %v", x)}
			}
		}()
		pb := solver.ParseSliceNb(input, numVars)
		s := solver.New(pb)
		finished := stopOnCancel(ctx, s)
		defer finished()
		if s.Solve() != solver.Sat {
			done <- answer{}
			return
		}
		m := s.Model() // indexed from 0
		model := make([]bool, numVars+1)
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

// stopOnCancel makes the search of s stop soon after ctx ends. gophersat
// has no way to stop a search, but it can write a certificate of every
// clause it learns to a channel: the channel is drained while ctx lasts
// and closed when it ends, so that the next clause learnt panics the
// search goroutine, which recovers and ends (freeing the solver and the
// lock). The price is that gophersat formats every clause it learns as
// text for the channel.
func stopOnCancel(ctx context.Context, s *solver.Solver) (finished func()) {
	ch := make(chan string)
	over := make(chan struct{})
	s.Certified, s.CertChan = true, ch
	go func() {
		for {
			select {
			case <-ch:
			case <-over:
				return
			case <-ctx.Done():
				close(ch)
				return
			}
		}
	}()
	return func() { close(over) }
}
