package sudoku

import (
	"math/rand/v2"
	"testing"
)

// TestGenerate: every grid made is solved (4×4 to 49×49), the puzzle
// keeps exactly the givens asked for, each one the grid's digit, its line
// reads back, a seed repeats its puzzles
// and two seeds give different ones.
func TestGenerate(t *testing.T) {
	for k := MinBox; k <= MaxBox; k++ {
		n := k * k
		for _, givens := range []int{0, n * n * 2 / 5, n * n} {
			p, s := Generate(rand.New(rand.NewPCG(1, uint64(k))), k, givens)
			if err := s.Check(); err != nil || s.Blanks() != 0 {
				t.Fatalf("k=%d: the grid is not solved: %v", k, err)
			}
			if p.Givens() != givens {
				t.Errorf("k=%d: %d givens, want %d", k, p.Givens(), givens)
			}
			if err := s.Extends(p); err != nil {
				t.Errorf("k=%d: %v", k, err)
			}
			if back, err := ParsePuzzle(p.Line()); err != nil || back.Grid.Line() != p.Line() {
				t.Errorf("k=%d: the puzzle's line does not read back: %v", k, err)
			}
			again, _ := Generate(rand.New(rand.NewPCG(1, uint64(k))), k, givens)
			other, _ := Generate(rand.New(rand.NewPCG(2, uint64(k))), k, givens)
			if again.Line() != p.Line() || givens > 0 && other.Line() == p.Line() {
				t.Errorf("k=%d: a seed should repeat its puzzle and another differ", k)
			}
		}
	}
}
