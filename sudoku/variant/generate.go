package variant

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

// GenerateKiller makes a killer Sudoku of box size k with a unique
// solution and no givens: a random solved grid (sudoku.Generate), its
// cells cut into cages grown from random cells by random orthogonal
// neighbours whose digit the cage does not hold yet, up to maxCage cells
// each (the target size of each cage drawn from 2..maxCage; a cell that
// joins a cage later may make it one more), a cell left
// alone joining the smallest neighbouring cage that lacks its digit, each
// cage's total the sum of its digits. While the cages allow a second solution
// (counted by solver s), a cell where it differs moves from its cage to
// the smallest neighbouring cage that lacks its digit (or, with none or
// after n such moves, to a cage of its own, which gives its digit away) and the rest of its cage is
// split where it falls apart. rng decides everything.
func GenerateKiller(ctx context.Context, rng *rand.Rand, k, maxCage int, s satenc.Solver) (*Puzzle, error) {
	if maxCage < 1 {
		return nil, fmt.Errorf("cages of at most %d cells", maxCage)
	}
	_, sol := sudoku.Generate(rng, k, k*k*k*k)
	n := sol.Size()
	cage := make([]int, n*n) // cell -> cage index
	for i := range cage {
		cage[i] = -1
	}
	neighbours := func(c int) []int {
		var out []int
		r, col := c/n, c%n
		if r > 0 {
			out = append(out, c-n)
		}
		if r+1 < n {
			out = append(out, c+n)
		}
		if col > 0 {
			out = append(out, c-1)
		}
		if col+1 < n {
			out = append(out, c+1)
		}
		return out
	}
	var cages [][]int
	// the smallest cage next to cell at, other than its own, that lacks
	// its digit and has at most maxCage cells, or -1
	host := func(at int) int {
		to := -1
		for _, x := range neighbours(at) {
			j := cage[x]
			if j < 0 || j == cage[at] || len(cages[j]) > maxCage || slices.ContainsFunc(cages[j], func(c int) bool { return sol.Cells[c] == sol.Cells[at] }) {
				continue
			}
			if to < 0 || len(cages[j]) < len(cages[to]) {
				to = j
			}
		}
		return to
	}
	for _, start := range rng.Perm(n * n) {
		if cage[start] >= 0 {
			continue
		}
		id, size := len(cages), 2+rng.IntN(max(maxCage-1, 1))
		cells, digits := []int{start}, map[int]bool{sol.Cells[start]: true}
		cage[start] = id
		for len(cells) < min(size, maxCage) {
			var frontier []int
			for _, c := range cells {
				for _, x := range neighbours(c) {
					if cage[x] < 0 && !digits[sol.Cells[x]] && !slices.Contains(frontier, x) {
						frontier = append(frontier, x)
					}
				}
			}
			if len(frontier) == 0 {
				break
			}
			x := frontier[rng.IntN(len(frontier))]
			cage[x] = id
			cells = append(cells, x)
			digits[sol.Cells[x]] = true
		}
		cages = append(cages, cells)
	}
	// a cell left alone joins a neighbouring cage where it can
	for i, cs := range cages {
		if len(cs) == 1 {
			if to := host(cs[0]); to >= 0 {
				cage[cs[0]] = to
				cages[to] = append(cages[to], cs[0])
				cages[i] = nil
			}
		}
	}
	cages = slices.DeleteFunc(cages, func(cs []int) bool { return cs == nil })
	for i, cs := range cages {
		for _, c := range cs {
			cage[c] = i
		}
	}
	fixes := 0 // cells moved so far; after n of them, to cages of their own (which ends it)
	for {
		p := &Puzzle{Grid: sudoku.New(k)}
		for _, cs := range cages {
			slices.Sort(cs)
			sum := 0
			for _, c := range cs {
				sum += sol.Cells[c]
			}
			p.Killers = append(p.Killers, Sum{Cells: slices.Clone(cs), Sum: sum, Distinct: true})
		}
		res, err := Solve(ctx, p, s, 2)
		if err != nil {
			return nil, err
		}
		if res.Solutions == 1 {
			if res.Solution.Line() != sol.Line() {
				return nil, errors.New("the cages' one solution is not the grid they were cut from")
			}
			return p, nil
		}
		other := res.Solution
		if other.Line() == sol.Line() {
			other = res.Other
		}
		at := -1
		for c := range sol.Cells {
			if other.Cells[c] != sol.Cells[c] && len(cages[cage[c]]) > 1 {
				at = c
				break
			}
		}
		if at < 0 {
			return nil, errors.New("two solutions that differ in cells of one-cell cages only")
		}
		// cut the cell out, into a neighbouring cage that lacks its digit
		// (the smallest) or else a cage of its own; then the rest of its
		// cage into its connected parts
		rest := slices.DeleteFunc(slices.Clone(cages[cage[at]]), func(c int) bool { return c == at })
		old := cage[at]
		to := -1
		if fixes++; fixes <= n {
			to = host(at)
		}
		if to < 0 {
			to = len(cages)
			cages = append(cages, nil)
		}
		cage[at] = to
		cages[to] = append(cages[to], at)
		cages[old] = nil
		for len(rest) > 0 {
			part := []int{rest[0]}
			rest = rest[1:]
			for i := 0; i < len(part); i++ {
				for _, x := range neighbours(part[i]) {
					if j := slices.Index(rest, x); j >= 0 {
						part = append(part, x)
						rest = slices.Delete(rest, j, j+1)
					}
				}
			}
			if cages[old] == nil {
				cages[old] = part
			} else {
				for _, c := range part {
					cage[c] = len(cages)
				}
				cages = append(cages, part)
			}
		}
	}
}
