//go:build cadical

package satenc

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCadicalStop: a search whose context ends returns at once, whatever
// phase CaDiCaL is in, the solver takes no more work afterwards, and
// closing it while the stopped search winds down is safe.
func TestCadicalStop(t *testing.T) {
	for range 3 {
		s := newCadical()
		cnf := pigeonhole(11) // minutes for CaDiCaL
		for range cnf.NumVars {
			s.NewVar()
		}
		cnf.Clauses(func(cl []Lit) { s.AddClause(cl...) })
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		t0 := time.Now()
		_, err := s.Solve(ctx)
		took := time.Since(t0)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("solve under a 100 ms limit: %v", err)
		}
		if took > time.Second {
			t.Errorf("solve returned %v after a 100 ms limit", took)
		}
		if _, err := s.Solve(context.Background()); !errors.Is(err, errStoppedBefore) {
			t.Errorf("a solve after a stopped one: %v, want %v", err, errStoppedBefore)
		}
		s.Close()
	}
}

// TestCadicalWithin: a search that outlasts its time budget returns
// undecided, without an error, once CaDiCaL next looks at its terminate
// callback (unlike a search stopped by its context, which returns at
// once, this one must have wound down before the solver takes more work:
// up to a second or so while other processes load the machine, hence the
// loose bound); the solver keeps
// working afterwards (more clauses, another search), and a search that
// ends within its budget is decided.
func TestCadicalWithin(t *testing.T) {
	s := newCadical()
	defer s.Close()
	cnf := pigeonhole(11) // minutes for CaDiCaL
	for range cnf.NumVars {
		s.NewVar()
	}
	cnf.Clauses(func(cl []Lit) { s.AddClause(cl...) })
	t0 := time.Now()
	sat, decided, err := s.SolveWithin(context.Background(), 100*time.Millisecond)
	if took := time.Since(t0); err != nil || decided || sat || took > 5*time.Second {
		t.Fatalf("pigeonhole(11) within 100 ms: sat %v, decided %v, err %v after %v; want undecided within 5 s", sat, decided, err, took)
	}
	// the first pigeon sits in no hole: unsatisfiable at once
	for h := 1; h <= 11; h++ {
		s.AddClause(Var(h).Neg())
	}
	sat, decided, err = s.SolveWithin(context.Background(), 10*time.Second)
	if err != nil || !decided || sat {
		t.Fatalf("after the units: sat %v, decided %v, err %v; want decided unsatisfiable", sat, decided, err)
	}
	easy := newCadical()
	defer easy.Close()
	x := easy.NewVar()
	easy.AddClause(x.Pos())
	if sat, decided, err := easy.SolveWithin(context.Background(), 10*time.Second); err != nil || !decided || !sat {
		t.Fatalf("x within 10 s: sat %v, decided %v, err %v", sat, decided, err)
	}
}
