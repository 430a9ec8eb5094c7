package csp

import (
	"context"

	"github.com/htnsat/htnsat/sudoku"
)

// SearchResult is what a backtracking search found.
type SearchResult struct {
	Solutions int         // solutions found, at most the limit asked
	First     sudoku.Grid // the first solution (Cells nil if none)
	Nodes     int64       // search nodes: assignments tried
}

// Search counts the solutions of g up to limit (at least 1) by
// depth-first search that maintains a level of consistency after each
// assignment (AC, GACAll, SACAll or SGACAll; GACAll is MAC over the
// all-different constraints), branching on a cell with the fewest digits
// left.
func (m *Model) Search(ctx context.Context, g sudoku.Grid, limit int, level Level) (SearchResult, error) {
	limit = max(limit, 1)
	var res SearchResult
	propagate := func(s State, c int) (bool, error) {
		switch level {
		case AC:
			if c < 0 {
				return m.AC(s), nil
			}
			return m.acInner(s, c), nil
		case SACAll:
			return m.SAC(ctx, s)
		case SGACAll:
			return m.SGAC(ctx, s)
		}
		if c < 0 {
			return m.GAC(s), nil
		}
		return m.gacInner(s, c), nil
	}
	s := m.Initial(g)
	ok, err := propagate(s, -1)
	if err != nil || !ok {
		return res, err
	}
	var walk func(s State) error
	walk = func(s State) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		best, bestN := -1, 0
		for c, d := range s {
			if n := d.Count(); n > 1 && (best < 0 || n < bestN) {
				best, bestN = c, n
			}
		}
		if best < 0 {
			if res.Solutions == 0 {
				res.First = s.Grid(m.Box)
			}
			res.Solutions++
			return nil
		}
		for _, v := range s[best].Digits() {
			res.Nodes++
			t := s.Clone()
			t[best] = bit(v)
			ok, err := propagate(t, best)
			if err != nil {
				return err
			}
			if ok {
				if err := walk(t); err != nil {
					return err
				}
			}
			if res.Solutions >= limit {
				return nil
			}
		}
		return nil
	}
	return res, walk(s)
}
