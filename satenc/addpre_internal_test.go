package satenc

import (
	"context"
	"testing"
)

// TestAddPreOnce adds precondition clauses twice over, for variables with
// a few literals and with more than maxPreLits (kept in the set of
// pairs), and checks that each clause is added once.
func TestAddPreOnce(t *testing.T) {
	const vars = 2*maxPreLits + 10
	e := &Encoding{sink: &CNF{}, ctx: context.Background(), known: make([]int8, vars+1)}
	want := 0
	for round := range 2 {
		for x := Var(1); x <= 3; x++ {
			// x = 1: 5 literals; 2: maxPreLits exactly; 3: past it
			n := map[Var]int{1: 5, 2: maxPreLits, 3: maxPreLits + 40}[x]
			for i := range n {
				l := Var(4 + i).Pos()
				if i%2 == 1 {
					l = Var(4 + i).Neg()
				}
				e.addPre(x, l)
				if round == 0 {
					want++
				}
			}
		}
	}
	if e.Clauses != want {
		t.Fatalf("%d clauses, want %d", e.Clauses, want)
	}
	// a literal of the other sign is another clause
	e.addPre(3, Var(4).Neg())
	if e.Clauses != want+1 {
		t.Fatalf("%d clauses after a new literal, want %d", e.Clauses, want+1)
	}
}
