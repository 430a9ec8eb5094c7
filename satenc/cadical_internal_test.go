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
