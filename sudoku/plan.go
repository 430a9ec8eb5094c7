package sudoku

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/plan"
)

// Solves checks that g is a full, valid grid that keeps p's givens.
func (g Grid) Solves(p Grid) error {
	if err := g.Extends(p); err != nil {
		return err
	}
	if b := g.Blanks(); b > 0 {
		return fmt.Errorf("%d cells are still blank", b)
	}
	return g.Check()
}

// GridFromPlan fills the puzzle with the FILL-CELL actions of a plan
// (arguments: box, column c<i>, row r<i>, digit d<n>; a variant domain's
// FILL-CELL-k has its k regions after them). It checks that each
// action names a blank cell of the puzzle, in the right box, once.
func GridFromPlan(pl *plan.Plan, puzzle Grid) (Grid, error) {
	g := puzzle.Clone()
	n := g.Size()
	num := func(s, prefix string, lo, hi int) (int, error) {
		v, err := strconv.Atoi(strings.TrimPrefix(s, prefix))
		if err != nil || !strings.HasPrefix(s, prefix) || v < lo || v > hi {
			return 0, fmt.Errorf("%q is not %s%d..%s%d", s, prefix, lo, prefix, hi)
		}
		return v, nil
	}
	for _, a := range pl.Actions {
		// FILL-CELL, or a variant domain's FILL-CELL-k (k regions after
		// the four arguments)
		if a.Name != "FILL-CELL" && !strings.HasPrefix(a.Name, "FILL-CELL-") {
			continue
		}
		if len(a.Args) != 4 && (a.Name == "FILL-CELL" || len(a.Args) < 4) {
			return g, fmt.Errorf("plan line %d: %s with %d arguments", a.Line, a.Name, len(a.Args))
		}
		b, err1 := num(a.Args[0], "b", 0, n-1)
		c, err2 := num(a.Args[1], "c", 0, n-1)
		r, err3 := num(a.Args[2], "r", 0, n-1)
		d, err4 := num(a.Args[3], "d", 1, n)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return g, fmt.Errorf("FILL-CELL %s: %w", strings.Join(a.Args, " "), err)
		}
		if g.BoxOf(r, c) != b {
			return g, fmt.Errorf("FILL-CELL %s: %s is not in box %d", strings.Join(a.Args, " "), CellName(r, c), b)
		}
		if g.At(r, c) != 0 {
			return g, fmt.Errorf("FILL-CELL %s: %s is not blank", strings.Join(a.Args, " "), CellName(r, c))
		}
		g.Set(r, c, d)
	}
	return g, nil
}
