package sudoku

import (
	"context"
	"errors"
	"fmt"

	"github.com/htnsat/htnsat/satenc"
)

// Direct is the direct SAT encoding of a puzzle: one variable per blank
// cell and digit that the givens leave possible (the givens' variables and
// clauses are removed beforehand, as Kwon and Jain do), with the
// "extended" encoding of Lynce and Ouaknine: every cell has at least and at
// most one digit, and every row, column and box has every missing digit at
// least and at most once.
type Direct struct {
	Grid  Grid
	CNF   *satenc.CNF
	cell  []int          // variable -> cell index
	digit []int          // variable -> digit
	vars  map[[2]int]int // (cell, digit) -> variable
}

// ErrNoSolution: the puzzle has no solution.
var ErrNoSolution = errors.New("the puzzle has no solution")

// EncodeDirect builds the direct encoding of g into a CNF.
func EncodeDirect(g Grid) (*Direct, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	n, k := g.Size(), g.Box
	e := &Direct{Grid: g, CNF: &satenc.CNF{}, vars: map[[2]int]int{}, cell: []int{0}, digit: []int{0}}
	// candidates: digits no given of the row, column or box excludes
	rowHas := make([][]bool, n)
	colHas := make([][]bool, n)
	boxHas := make([][]bool, n)
	for i := 0; i < n; i++ {
		rowHas[i], colHas[i], boxHas[i] = make([]bool, n+1), make([]bool, n+1), make([]bool, n+1)
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if d := g.At(r, c); d != 0 {
				rowHas[r][d], colHas[c][d], boxHas[g.BoxOf(r, c)][d] = true, true, true
			}
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if g.At(r, c) != 0 {
				continue
			}
			for d := 1; d <= n; d++ {
				if rowHas[r][d] || colHas[c][d] || boxHas[g.BoxOf(r, c)][d] {
					continue
				}
				e.vars[[2]int{r*n + c, d}] = int(e.CNF.NewVar())
				e.cell = append(e.cell, r*n+c)
				e.digit = append(e.digit, d)
			}
		}
	}
	// a group of variables must have exactly one true; an empty group that
	// must have one means no solution
	exactlyOne := func(vs []satenc.Var, what string) error {
		if len(vs) == 0 {
			return fmt.Errorf("%w: %s", ErrNoSolution, what)
		}
		cl := make([]satenc.Lit, len(vs))
		for i, v := range vs {
			cl[i] = v.Pos()
		}
		e.CNF.AddClause(cl...)
		satenc.AtMostOne(e.CNF, vs)
		return nil
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if g.At(r, c) != 0 {
				continue
			}
			var vs []satenc.Var
			for d := 1; d <= n; d++ {
				if v, ok := e.vars[[2]int{r*n + c, d}]; ok {
					vs = append(vs, satenc.Var(v))
				}
			}
			if err := exactlyOne(vs, "no digit fits "+CellName(r, c)); err != nil {
				return nil, err
			}
		}
	}
	units := []struct {
		name string
		has  [][]bool
		cell func(u, i int) (int, int)
	}{
		{"row", rowHas, func(u, i int) (int, int) { return u, i }},
		{"column", colHas, func(u, i int) (int, int) { return i, u }},
		{"box", boxHas, func(u, i int) (int, int) { return (u/k)*k + i/k, (u%k)*k + i%k }},
	}
	for _, un := range units {
		for u := 0; u < n; u++ {
			for d := 1; d <= n; d++ {
				if un.has[u][d] {
					continue
				}
				var vs []satenc.Var
				for i := 0; i < n; i++ {
					r, c := un.cell(u, i)
					if v, ok := e.vars[[2]int{r*n + c, d}]; ok {
						vs = append(vs, satenc.Var(v))
					}
				}
				if err := exactlyOne(vs, fmt.Sprintf("digit %s fits nowhere in %s %d", Symbol(d, n), un.name, u+1)); err != nil {
					return nil, err
				}
			}
		}
	}
	return e, nil
}

// Decode reads the grid from a model.
func (e *Direct) Decode(model []bool) Grid {
	g := e.Grid.Clone()
	n := g.Size()
	for v := 1; v < len(e.cell); v++ {
		if model[v] {
			c := e.cell[v]
			g.Set(c/n, c%n, e.digit[v])
		}
	}
	return g
}

// Block returns the clause that excludes the solution of a model (over
// the cell variables only).
func (e *Direct) Block(model []bool) []satenc.Lit {
	var cl []satenc.Lit
	for v := 1; v < len(e.cell); v++ {
		if model[v] {
			cl = append(cl, satenc.Var(v).Neg())
		}
	}
	return cl
}

// Uniqueness is what a second solve with the first solution blocked says.
type Uniqueness string

const (
	Unique  Uniqueness = "unique"
	Several Uniqueness = "several"
	None    Uniqueness = "none"
)

// SolveDirect solves g through the direct encoding. With unique, a second
// solve, in a fresh solver, with the first solution blocked, tells whether
// the solution is unique.
func SolveDirect(ctx context.Context, g Grid, s satenc.Solver, unique bool) (Grid, Uniqueness, *Direct, error) {
	if s == nil {
		s = satenc.Default()
	}
	e, err := EncodeDirect(g)
	if errors.Is(err, ErrNoSolution) {
		return Grid{}, None, nil, err
	}
	if err != nil {
		return Grid{}, "", nil, err
	}
	res, err := s.Solve(ctx, e.CNF)
	if err != nil {
		return Grid{}, "", e, err
	}
	if !res.Sat {
		return Grid{}, None, e, ErrNoSolution
	}
	sol := e.Decode(res.Model)
	if !unique {
		return sol, "", e, nil
	}
	u, err := e.Uniqueness(ctx, s, res.Model)
	return sol, u, e, err
}

// Uniqueness tells whether the solution of model is the only one: a
// second solve with it blocked (Count up to 2).
func (e *Direct) Uniqueness(ctx context.Context, s satenc.Solver, model []bool) (Uniqueness, error) {
	n, err := e.Count(ctx, s, model, 2)
	switch {
	case err != nil:
		return "", err
	case n > 1:
		return Several, nil
	}
	return Unique, nil
}

// Count counts the solutions of the encoding up to limit, model being the
// first: each further solve has the solutions found so far blocked, in one
// incremental solver (satenc.NewIncremental: the linked CaDiCaL keeps what
// it learnt, other solvers re-solve the grown formula).
func (e *Direct) Count(ctx context.Context, s satenc.Solver, model []bool, limit int) (int, error) {
	inc := satenc.NewIncremental(s)
	defer inc.Close()
	for v := 1; v <= e.CNF.NumVars; v++ {
		inc.NewVar()
	}
	e.CNF.Each(inc)
	n := 1
	for n < limit {
		inc.AddClause(e.Block(model)...)
		sat, err := inc.Solve(ctx)
		if err != nil {
			return n, err
		}
		if !sat {
			break
		}
		n++
		model = inc.Model()
	}
	return n, nil
}
