package variant

import (
	"context"
	"errors"
	"fmt"

	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

// Encoding is the direct SAT encoding of a variant puzzle: a variable per
// cell and digit, exactly one digit per cell and per row, column and box,
// a unit clause per given, and clauses per variant constraint (sums
// through partial-sum variables, see sum).
type Encoding struct {
	P     *Puzzle
	Vars  int // the cell-digit variables are 1..Vars
	n     int
	sink  satenc.Sink
	first satenc.Var
}

// x is the variable of cell c holding digit v.
func (e *Encoding) x(c, v int) satenc.Var { return e.first + satenc.Var(c*e.n+v-1) }

// Encode writes the encoding of p to sink.
func Encode(p *Puzzle, sink satenc.Sink) *Encoding {
	n := p.Size()
	e := &Encoding{P: p, n: n, sink: sink}
	for i := 0; i < n*n*n; i++ {
		v := sink.NewVar()
		if i == 0 {
			e.first = v
		}
	}
	e.Vars = n * n * n
	exactly := func(cells []int, v int) {
		lits := make([]satenc.Lit, len(cells))
		vs := make([]satenc.Var, len(cells))
		for i, c := range cells {
			vs[i] = e.x(c, v)
			lits[i] = vs[i].Pos()
		}
		sink.AddClause(lits...)
		satenc.AtMostOne(sink, vs)
	}
	atMost := func(cells []int) {
		for v := 1; v <= n; v++ {
			vs := make([]satenc.Var, len(cells))
			for i, c := range cells {
				vs[i] = e.x(c, v)
			}
			satenc.AtMostOne(sink, vs)
		}
	}
	for c := 0; c < n*n; c++ {
		lits := make([]satenc.Lit, n)
		vs := make([]satenc.Var, n)
		for v := 1; v <= n; v++ {
			vs[v-1] = e.x(c, v)
			lits[v-1] = vs[v-1].Pos()
		}
		sink.AddClause(lits...)
		satenc.AtMostOne(sink, vs)
		if d := p.Grid.Cells[c]; d != 0 {
			sink.AddClause(e.x(c, d).Pos())
		}
	}
	k := p.Grid.Box
	for u := 0; u < n; u++ {
		var row, col, box []int
		for i := 0; i < n; i++ {
			row = append(row, u*n+i)
			col = append(col, i*n+u)
			box = append(box, ((u/k)*k+i/k)*n+(u%k)*k+i%k)
		}
		for v := 1; v <= n; v++ {
			exactly(row, v)
			exactly(col, v)
			exactly(box, v)
		}
	}
	for _, r := range p.Regions() {
		atMost(r)
	}
	for _, s := range append(append([]Sum{}, p.Killers...), p.LittleKiller...) {
		if s.Sum > 0 {
			final := e.sum(s.Cells, s.Sum)
			for t, st := range final {
				if t != s.Sum && st != 0 {
					sink.AddClause(st.Neg())
				}
			}
			if final[s.Sum] == 0 {
				e.never()
			}
		}
	}
	for _, a := range p.Arrows {
		for _, l := range a.Lines {
			final := e.sum(l, n)
			for t, st := range final {
				if st == 0 {
					continue
				}
				if t < 1 {
					sink.AddClause(st.Neg())
				} else {
					sink.AddClause(st.Neg(), e.x(a.Circle, t).Pos())
				}
			}
		}
	}
	forbid := func(a, b int, bad func(v, w int) bool) {
		for v := 1; v <= n; v++ {
			for w := 1; w <= n; w++ {
				if bad(v, w) {
					sink.AddClause(e.x(a, v).Neg(), e.x(b, w).Neg())
				}
			}
		}
	}
	for _, t := range p.Thermos {
		for i := 1; i < len(t); i++ {
			forbid(t[i-1], t[i], func(v, w int) bool { return w <= v })
		}
	}
	p.pairClues(func(c pairClue) {
		forbid(c.a, c.b, func(v, w int) bool { return c.kind.holds(v, w, c.value) == c.negated })
	})
	for _, l := range p.Renbans {
		for i := range l {
			for j := i + 1; j < len(l); j++ {
				forbid(l[i], l[j], func(v, w int) bool { return v-w >= len(l) || w-v >= len(l) })
			}
		}
	}
	gap := p.WhisperGap()
	for _, l := range p.Whispers {
		for i := 1; i < len(l); i++ {
			forbid(l[i-1], l[i], func(v, w int) bool { return v-w < gap && w-v < gap })
		}
	}
	for _, l := range p.Palindromes {
		for i := 0; i < len(l)/2; i++ {
			a, b := l[i], l[len(l)-1-i]
			for v := 1; v <= n; v++ {
				sink.AddClause(e.x(a, v).Neg(), e.x(b, v).Pos())
				sink.AddClause(e.x(b, v).Neg(), e.x(a, v).Pos())
			}
		}
	}
	for _, q := range p.Quadruples {
		// at least m of the four cells hold d: every 5-m of them do
		for d, m := range multiplicity(q.Digits) {
			subsets(len(q.Cells), len(q.Cells)-m+1, func(idx []int) {
				lits := make([]satenc.Lit, len(idx))
				for i, j := range idx {
					lits[i] = e.x(q.Cells[j], d).Pos()
				}
				sink.AddClause(lits...)
			})
		}
	}
	for _, ab := range p.moves() {
		forbid(ab[0], ab[1], func(v, w int) bool { return v == w })
	}
	for parity, cells := range [][]int{p.Even, p.Odd} {
		for _, c := range cells {
			for v := 1; v <= n; v++ {
				if v%2 != parity {
					sink.AddClause(e.x(c, v).Neg())
				}
			}
		}
	}
	return e
}

// never adds a contradiction.
func (e *Encoding) never() {
	z := e.sink.NewVar()
	e.sink.AddClause(z.Pos())
	e.sink.AddClause(z.Neg())
}

// sum encodes the running sums of the digits of cells, bounded by limit:
// s[i][t] is implied when the first i cells add up to t, and a cell that
// would take the running sum past limit is forbidden. It returns the
// variables of the full sum per total (0 where the total cannot occur);
// the caller says which totals are allowed.
func (e *Encoding) sum(cells []int, limit int) []satenc.Var {
	cur := make([]satenc.Var, limit+1) // 0: impossible; the empty sum is t=0
	zero := e.sink.NewVar()
	e.sink.AddClause(zero.Pos())
	cur[0] = zero
	for _, c := range cells {
		next := make([]satenc.Var, limit+1)
		for t, st := range cur {
			if st == 0 {
				continue
			}
			for v := 1; v <= e.n; v++ {
				if t+v > limit {
					e.sink.AddClause(st.Neg(), e.x(c, v).Neg())
					continue
				}
				if next[t+v] == 0 {
					next[t+v] = e.sink.NewVar()
				}
				e.sink.AddClause(st.Neg(), e.x(c, v).Neg(), next[t+v].Pos())
			}
		}
		cur = next
	}
	return cur
}

// subsets calls fn with every size-k subset of 0..n-1.
func subsets(n, k int, fn func([]int)) {
	idx := make([]int, k)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == k {
			fn(idx)
			return
		}
		for j := from; j < n; j++ {
			idx[i] = j
			rec(i+1, j+1)
		}
	}
	if k >= 1 && k <= n {
		rec(0, 0)
	}
}

// Decode reads the grid of a model.
func (e *Encoding) Decode(model []bool) sudoku.Grid {
	g := e.P.Grid.Clone()
	for c := range g.Cells {
		for v := 1; v <= e.n; v++ {
			if int(e.x(c, v)) < len(model) && model[e.x(c, v)] {
				g.Cells[c] = v
			}
		}
	}
	return g
}

// block is the clause that excludes the grid of a model.
func (e *Encoding) block(model []bool) []satenc.Lit {
	var cl []satenc.Lit
	for c := 0; c < e.n*e.n; c++ {
		for v := 1; v <= e.n; v++ {
			if model[e.x(c, v)] {
				cl = append(cl, e.x(c, v).Neg())
			}
		}
	}
	return cl
}

// ErrNoSolution: the puzzle has no solution.
var ErrNoSolution = errors.New("the puzzle has no solution")

// Result is a solve: the solution, checked against every constraint, and
// the number of solutions counted (up to the limit asked).
type Result struct {
	Solution  sudoku.Grid
	Other     sudoku.Grid // a second solution, when counting found one
	Solutions int
	Vars      int
	Clauses   int
}

// Solve solves p with solver s (nil: the default) and counts solutions up
// to count (1 or less: only the first), blocking each one found in one
// incremental solver. The solution is checked by Check before it is
// returned.
func Solve(ctx context.Context, p *Puzzle, s satenc.Solver, count int) (*Result, error) {
	if s == nil {
		s = satenc.Default()
	}
	inc := satenc.NewIncremental(s)
	defer inc.Close()
	cnf := &satenc.CNF{}
	e := Encode(p, cnf)
	for v := 1; v <= cnf.NumVars; v++ {
		inc.NewVar()
	}
	cnf.Each(inc)
	res := &Result{Vars: cnf.NumVars, Clauses: cnf.NumClauses}
	for res.Solutions < max(count, 1) {
		sat, err := inc.Solve(ctx)
		if err != nil {
			return res, err
		}
		if !sat {
			break
		}
		model := inc.Model()
		switch res.Solutions {
		case 0:
			res.Solution = e.Decode(model)
			if err := p.Check(res.Solution); err != nil {
				return res, fmt.Errorf("the model's grid breaks a rule: %w", err)
			}
		case 1:
			res.Other = e.Decode(model)
		}
		res.Solutions++
		inc.AddClause(e.block(model)...)
	}
	if res.Solutions == 0 {
		return res, ErrNoSolution
	}
	return res, nil
}
