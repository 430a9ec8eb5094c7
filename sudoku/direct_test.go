package sudoku

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/satenc"
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

// TestForOne: the formula ForOne hands the solver keeps exactly one
// solution of each class that differ only by swapping the digits no given
// uses, by pinning a row (an empty grid; a row whose blanks the free
// digits fill) or by the order clauses: over every solution of small
// puzzles, the base encoding has k! times as many as ForOne's formula for
// k free digits, and each of those solves the puzzle.
func TestForOne(t *testing.T) {
	for _, c := range []struct {
		name  string
		given [][3]int // row, column, digit
		free  int      // digits no given uses
		pins  bool     // ForOne encodes a pinned grid
	}{
		{"empty", nil, 4, true},
		{"row-fill", [][3]int{{0, 0, 1}}, 3, true},
		{"order", [][3]int{{1, 0, 1}, {2, 1, 2}}, 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := New(2)
			for _, x := range c.given {
				g.Set(x[0], x[1], x[2])
			}
			e, err := EncodeDirect(g)
			if err != nil {
				t.Fatal(err)
			}
			one, cnf, err := e.ForOne()
			if err != nil {
				t.Fatal(err)
			}
			if (one != e) != c.pins || (cnf == e.CNF) {
				t.Fatalf("pinned %v (want %v), formula the encoding's %v", one != e, c.pins, cnf == e.CNF)
			}
			all := allSolutions(t, e, e.CNF)
			kept := allSolutions(t, one, cnf)
			fact := 1
			for i := 2; i <= c.free; i++ {
				fact *= i
			}
			if len(kept) == 0 || len(all) != fact*len(kept) {
				t.Fatalf("%d solutions, %d kept: want %d! times as many", len(all), len(kept), c.free)
			}
			for _, s := range kept {
				if !s.IsSolved() || s.Extends(g) != nil {
					t.Fatalf("not a solution:\n%s", s)
				}
			}
		})
	}
}

// allSolutions enumerates the grids of every model of cnf, which d's
// variables read.
func allSolutions(t *testing.T, d *Direct, cnf *satenc.CNF) []Grid {
	t.Helper()
	inc := satenc.NewIncremental(satenc.Default())
	defer inc.Close()
	for v := 1; v <= cnf.NumVars; v++ {
		inc.NewVar()
	}
	cnf.Each(inc)
	var out []Grid
	for {
		sat, err := inc.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !sat {
			return out
		}
		m := inc.Model()
		out = append(out, d.Decode(m))
		inc.AddClause(d.Block(m)...)
	}
}
