package satenc

import (
	"context"
	"sync"
	"testing"
)

// pigeonhole is the formula that n+1 pigeons sit in n holes, one each:
// unsatisfiable, and hard enough that the solver learns many clauses.
func pigeonhole(n int) *CNF {
	c := &CNF{}
	v := func(p, h int) Lit { return Lit(p*n + h + 1) }
	for p := 0; p <= n; p++ {
		var some []Lit
		for h := 0; h < n; h++ {
			some = append(some, v(p, h))
		}
		c.AddClause(some...)
	}
	for h := 0; h < n; h++ {
		for p := 0; p <= n; p++ {
			for q := p + 1; q <= n; q++ {
				c.AddClause(-v(p, h), -v(q, h))
			}
		}
	}
	return c
}

// TestGophersatConcurrent solves several formulas at once, as a run does
// when an earlier solve, abandoned at its timeout, still runs in the
// background: gophersat v1.4.0 shares a buffer between its solvers, and
// without the lock they corrupt each other.
func TestGophersatConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := Gophersat{}.Solve(context.Background(), pigeonhole(7))
			switch {
			case err != nil:
				errs <- err.Error()
			case res.Sat:
				errs <- "pigeonhole(7) found satisfiable"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
