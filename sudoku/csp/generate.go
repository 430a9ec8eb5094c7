package csp

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/htnsat/htnsat/sudoku"
)

// RatingLevels are the levels a puzzle is rated by (Rate) and generated
// at (Generate): the levels "on all", weakest first.
var RatingLevels = []Level{FC, AC, GACAll, SACAll, SGACAll}

// SolvedBy reports whether the propagation of level l alone (and of the
// levels before it) solves g, that is, leaves one digit in every cell. A
// puzzle a level solves has exactly one solution: propagation removes only
// digits no solution has.
func (m *Model) SolvedBy(ctx context.Context, g sudoku.Grid, l Level) (bool, error) {
	solved := false
	err := m.levels(ctx, g, l, func(at Level, states []State, _ []string, failed string) bool {
		switch {
		case failed != "":
			return false
		case !at.Each() && states[0].Solved():
			solved = true
			return false
		}
		return true
	})
	return solved, err
}

// Generate makes a puzzle of box size k whose one solution level l finds
// and the levels "on all" below it do not (its rating, as Rate gives it,
// is l): a random solved grid (sudoku.Generate), then its cells emptied in
// a random order, each kept empty if l still solves the puzzle. When the
// result is easier than l (a weaker level solves it too), it starts again
// from another grid, up to tries times. rng decides everything.
func (m *Model) Generate(ctx context.Context, rng *rand.Rand, l Level, tries int) (puzzle, solution sudoku.Grid, err error) {
	if l.Each() {
		return puzzle, solution, fmt.Errorf("level %s: generate at a level on all constraints (fc, ac, gac, sac, sgac)", l)
	}
	for range max(tries, 1) {
		sol, err := m.randomSolution(ctx, rng)
		if err != nil {
			return puzzle, solution, err
		}
		g, err := dig(rng, sol, func(g sudoku.Grid) (bool, error) { return m.SolvedBy(ctx, g, l) })
		if err != nil {
			return puzzle, solution, err
		}
		easier := false
		if l > FC {
			prev := FC
			for _, r := range RatingLevels {
				if r < l {
					prev = r
				}
			}
			if easier, err = m.SolvedBy(ctx, g, prev); err != nil {
				return puzzle, solution, err
			}
		}
		if !easier {
			return g, sol, nil
		}
	}
	return puzzle, solution, fmt.Errorf("no puzzle that needs %s in %d tries: a weaker level solved every one", l, tries)
}

// randomSolution is a random solved grid of the model: sudoku.Generate's
// for rows, columns and boxes alone; with more units (a variant's extra
// regions and diagonals), the first solution of a search from a few
// random digits placed where they keep the grid consistent.
func (m *Model) randomSolution(ctx context.Context, rng *rand.Rand) (sudoku.Grid, error) {
	if len(m.Units) == 3*m.N {
		_, sol := sudoku.Generate(rng, m.Box, m.N*m.N)
		return sol, nil
	}
	for range 100 {
		g := sudoku.New(m.Box)
		for _, c := range rng.Perm(len(g.Cells))[:m.N] {
			g.Cells[c] = rng.IntN(m.N) + 1
			s := m.Initial(g)
			if !m.FC(g, s) || !m.GAC(s) {
				g.Cells[c] = 0
			}
		}
		res, err := m.Search(ctx, g, 1, GACAll)
		if err != nil {
			return sudoku.Grid{}, err
		}
		if res.Solutions > 0 {
			return res.First, nil
		}
	}
	return sudoku.Grid{}, fmt.Errorf("no solved grid found for the model's constraints")
}

// GenerateMinimal makes a puzzle with exactly one solution and no given
// that can go: a random solved grid with its cells emptied in a random
// order, each kept empty while the puzzle keeps one solution (counted by
// search maintaining GAC). Its rating is whatever it needs, search
// included.
func (m *Model) GenerateMinimal(ctx context.Context, rng *rand.Rand) (puzzle, solution sudoku.Grid, err error) {
	sol, err := m.randomSolution(ctx, rng)
	if err != nil {
		return puzzle, solution, err
	}
	g, err := dig(rng, sol, func(g sudoku.Grid) (bool, error) {
		res, err := m.Search(ctx, g, 2, GACAll)
		return res.Solutions == 1, err
	})
	return g, sol, err
}

// dig empties the cells of a solved grid in a random order, each kept
// empty while keep says the puzzle is still as wanted.
func dig(rng *rand.Rand, sol sudoku.Grid, keep func(sudoku.Grid) (bool, error)) (sudoku.Grid, error) {
	g := sol.Clone()
	for _, c := range rng.Perm(len(g.Cells)) {
		d := g.Cells[c]
		g.Cells[c] = 0
		ok, err := keep(g)
		if err != nil {
			return g, err
		}
		if !ok {
			g.Cells[c] = d
		}
	}
	return g, nil
}
