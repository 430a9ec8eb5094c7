package variant

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/htnsat/htnsat/satenc"
)

// TestGenerateKiller: the cages cover every cell once, each is connected
// and holds no digit twice in the solution, no cell is given, and the
// solution is the only one.
func TestGenerateKiller(t *testing.T) {
	cases := []struct {
		k, maxCage, seeds int
	}{{2, 3, 20}, {3, 4, 1}}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		n := c.k * c.k
		for seed := range uint64(c.seeds) {
			p, err := GenerateKiller(context.Background(), rand.New(rand.NewPCG(seed, 1)), c.k, c.maxCage, satenc.Gophersat{})
			if err != nil {
				t.Fatalf("%dx%d seed %d: %v", n, n, seed, err)
			}
			if p.Grid.Givens() != 0 {
				t.Errorf("%dx%d seed %d: %d givens", n, n, seed, p.Grid.Givens())
			}
			res, err := Solve(context.Background(), p, satenc.Gophersat{}, 2)
			if err != nil || res.Solutions != 1 {
				t.Fatalf("%dx%d seed %d: %v, %d solutions", n, n, seed, err, res.Solutions)
			}
			seen := make([]bool, n*n)
			for _, cage := range p.Killers {
				sum, digits := 0, map[int]bool{}
				for _, x := range cage.Cells {
					if seen[x] {
						t.Errorf("%dx%d seed %d: cell %d in two cages", n, n, seed, x)
					}
					seen[x] = true
					d := res.Solution.Cells[x]
					sum += d
					if digits[d] {
						t.Errorf("%dx%d seed %d: cage %v repeats %d", n, n, seed, cage.Cells, d)
					}
					digits[d] = true
				}
				if sum != cage.Sum || len(cage.Cells) > max(c.maxCage+1, 1) {
					t.Errorf("%dx%d seed %d: cage %v, total %d, digits add up to %d", n, n, seed, cage.Cells, cage.Sum, sum)
				}
				if !connected(cage.Cells, n) {
					t.Errorf("%dx%d seed %d: cage %v falls apart", n, n, seed, cage.Cells)
				}
			}
			if slices.Contains(seen, false) {
				t.Errorf("%dx%d seed %d: a cell in no cage", n, n, seed)
			}
		}
	}
}

func connected(cells []int, n int) bool {
	reached := []int{cells[0]}
	for i := 0; i < len(reached); i++ {
		x := reached[i]
		for _, y := range cells {
			dr, dc := y/n-x/n, y%n-x%n
			if dr*dr+dc*dc == 1 && !slices.Contains(reached, y) {
				reached = append(reached, y)
			}
		}
	}
	return len(reached) == len(cells)
}
