package sudoku

import "math/rand/v2"

// Generate makes a puzzle of box size k with the given number of cells
// filled: a random solved grid with the other cells removed at random.
// The solved grid is a pattern grid (row r, column c holds (k·(r mod k) +
// r div k + c) mod n + 1) shuffled by the moves that keep a grid solved:
// digits relabelled, rows permuted within each band and bands permuted,
// the same for columns and stacks, and a transposition. The puzzle may
// have several solutions (removing cells does not check uniqueness); the
// grid it was made from is one of them. rng decides everything, so a
// seed gives the same puzzles.
func Generate(rng *rand.Rand, k, givens int) (puzzle, solution Grid) {
	n := k * k
	perm := func(m int) []int { return rng.Perm(m) }
	// an order of rows (or columns): bands permuted, rows within each
	order := func() []int {
		out := make([]int, 0, n)
		for _, b := range perm(k) {
			for _, r := range perm(k) {
				out = append(out, b*k+r)
			}
		}
		return out
	}
	digits, rows, cols := perm(n), order(), order()
	transpose := rng.IntN(2) == 1
	solution = New(k)
	for r := range n {
		for c := range n {
			rr, cc := rows[r], cols[c]
			if transpose {
				rr, cc = cc, rr
			}
			solution.Set(r, c, digits[(k*(rr%k)+rr/k+cc)%n]+1)
		}
	}
	puzzle = solution.Clone()
	givens = max(0, min(givens, n*n))
	for _, i := range perm(n * n)[givens:] {
		puzzle.Cells[i] = 0
	}
	return puzzle, solution
}
