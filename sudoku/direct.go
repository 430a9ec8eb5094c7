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

// ForOne returns the encoding and formula to solve for one solution (its
// Decode reads the solution): where digits are interchangeable, one of
// each class of solutions that differ only by swapping them. A digit no
// given uses can trade places with any other such digit everywhere in a
// solution, which gives another solution; so the solver may require that
// these free digits first appear in the first row in increasing order
// (the lex-leader of their permutations, Crawford et al. 1996). Where
// they fill the blank cells of a row (an empty grid), that row is filled
// with them in increasing order before the grid is encoded again; else
// clauses state the order. The solver is spared the n! copies of every
// dead end of an empty grid (figures, and how much is luck, in
// docs/results.md#beyond-25x25). A pinned grid is encoded a second time
// (an empty 36x36: about 0.1 s, against seconds of solving). Counting
// solutions (Count, Uniqueness) uses e, with Model.
func (e *Direct) ForOne() (*Direct, *satenc.CNF, error) {
	g := e.Grid
	n := g.Size()
	used := make([]bool, n+1)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			used[g.At(r, c)] = true
		}
	}
	var free []int
	for d := 1; d <= n; d++ {
		if !used[d] {
			free = append(free, d)
		}
	}
	if len(free) < 2 {
		return e, e.CNF, nil
	}
	blanks := func(r int) []int {
		var bs []int
		for c := 0; c < n; c++ {
			if g.At(r, c) == 0 {
				bs = append(bs, c)
			}
		}
		return bs
	}
	for r := 0; r < n; r++ {
		if bs := blanks(r); len(bs) == len(free) {
			pinned := g.Clone()
			for i, c := range bs {
				pinned.Set(r, c, free[i])
			}
			one, err := EncodeDirect(pinned)
			if err != nil {
				return nil, nil, err
			}
			return one, one.CNF, nil
		}
	}
	out := &satenc.CNF{}
	for v := 1; v <= e.CNF.NumVars; v++ {
		out.NewVar()
	}
	e.CNF.Each(out)
	// A free digit is a candidate in every blank cell of the first row
	// (no given excludes it); digit free[i+1] at column c needs free[i]
	// at a column before c.
	for i := 0; i+1 < len(free); i++ {
		var before []satenc.Lit
		for _, c := range blanks(0) {
			out.AddClause(append([]satenc.Lit{satenc.Var(e.vars[[2]int{c, free[i+1]}]).Neg()}, before...)...)
			before = append(before, satenc.Var(e.vars[[2]int{c, free[i]}]).Pos())
		}
	}
	return e, out, nil
}

// Model returns the model of the encoding that solution g is.
func (e *Direct) Model(g Grid) []bool {
	n := g.Size()
	model := make([]bool, e.CNF.NumVars+1)
	for v := 1; v < len(e.cell); v++ {
		c := e.cell[v]
		model[v] = g.At(c/n, c%n) == e.digit[v]
	}
	return model
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
	one, cnf, err := e.ForOne()
	if errors.Is(err, ErrNoSolution) {
		return Grid{}, None, e, err
	}
	if err != nil {
		return Grid{}, "", e, err
	}
	res, err := s.Solve(ctx, cnf)
	if err != nil {
		return Grid{}, "", e, err
	}
	if !res.Sat {
		return Grid{}, None, e, ErrNoSolution
	}
	sol := one.Decode(res.Model)
	if !unique {
		return sol, "", e, nil
	}
	u, err := e.Uniqueness(ctx, s, e.Model(sol))
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
