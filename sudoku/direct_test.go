package sudoku

import (
	"context"
	"testing"
)

const hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."

func TestDirectSAT(t *testing.T) {
	for _, l := range []string{paper, hard} {
		p, err := ParsePuzzle(l)
		if err != nil {
			t.Fatal(err)
		}
		g, u, e, err := SolveDirect(context.Background(), p.Grid, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		if !g.IsSolved() || g.Extends(p.Grid) != nil {
			t.Fatalf("not a solution of %s:\n%s", l, g)
		}
		if u != Unique {
			t.Errorf("%s: %s, want unique", l, u)
		}
		t.Logf("%.10s…: %d variables, %d clauses", l, e.CNF.NumVars, e.CNF.NumClauses)
	}
	// an empty 4×4 grid has several solutions; a grid with a cell no digit
	// fits has none
	if _, u, _, err := SolveDirect(context.Background(), New(2), nil, true); err != nil || u != Several {
		t.Errorf("empty 4×4: %v, %v", u, err)
	}
	bad, _ := ParsePuzzle("." + "23456789" + "1" + ".......................................................................")
	if _, u, _, err := SolveDirect(context.Background(), bad.Grid, nil, true); err == nil || u != None {
		t.Errorf("impossible puzzle: %v, %v", u, err)
	}
}
