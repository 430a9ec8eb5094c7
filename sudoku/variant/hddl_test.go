package variant

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
)

// killerThermo is the paper's puzzle with fewer givens plus killer cages,
// an extra region and thermometers that its solution satisfies.
func killerThermo(t *testing.T) *Puzzle {
	s := grid(t, solved)
	g := grid(t, "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3..")
	// drop the givens of the first two rows: the cages must make up for them
	for c := 0; c < 18; c++ {
		g.Cells[c] = 0
	}
	p := &Puzzle{Grid: g}
	for c := 0; c < 18; c += 2 {
		cells := []int{c, c + 1}
		if c%9 == 8 {
			cells = []int{c, c + 9}
		}
		p.Killers = append(p.Killers, Sum{Cells: cells, Sum: s.Cells[cells[0]] + s.Cells[cells[1]], Distinct: true})
	}
	p.Killers = append(p.Killers, Sum{Cells: []int{27, 36, 45}, Distinct: true}) // a cage without a total
	p.Extra = [][]int{{0, 12, 40, 80}}
	// thermometers: increasing runs of the solution's rows
	for r := 2; r < 9; r += 3 {
		for c := 0; c+1 < 9; c++ {
			a, b := r*9+c, r*9+c+1
			if s.Cells[a] < s.Cells[b] {
				p.Thermos = append(p.Thermos, []int{a, b})
			}
		}
	}
	if err := p.Check(s); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHDDLBothEngines: the variant model is planned by both HTN engines,
// and the grid of each verified plan satisfies every rule and is the one
// solution the direct encoding finds.
func TestHDDLBothEngines(t *testing.T) {
	p := killerThermo(t)
	direct, err := Solve(context.Background(), p, satenc.Gophersat{}, 2)
	if err != nil || direct.Solutions != 1 {
		t.Fatalf("direct: %v, %d solutions", err, direct.Solutions)
	}
	for _, checks := range []Checks{AtFill, AfterFills} {
		for _, style := range []sudoku.Style{sudoku.Unordered, sudoku.Ordered} {
			_, prob, err := Model(p, style, checks)
			if err != nil {
				t.Fatal(err)
			}
			for _, engine := range []pipeline.Engine{pipeline.Progression, pipeline.SAT} {
				if engine == pipeline.Progression && style == sudoku.Ordered && checks == AfterFills && testing.Short() {
					continue
				}
				res, err := pipeline.Run(context.Background(), prob, pipeline.Config{Engine: engine})
				if err != nil {
					t.Fatalf("%s, %s, checks %d: %v", engine, style, checks, err)
				}
				g, err := sudoku.GridFromPlan(res.Plan, p.Grid)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Check(g); err != nil {
					t.Errorf("%s, %s, checks %d: the plan's grid breaks a rule: %v", engine, style, checks, err)
				}
				if g.Line() != direct.Solution.Line() {
					t.Errorf("%s, %s, checks %d: %s, direct %s", engine, style, checks, g.Line(), direct.Solution.Line())
				}
			}
		}
	}
}

// TestHDDLNoPlan: a killer 4x4 whose cages no grid meets (one cage's total
// one more than its digits in the only grid the others allow) has no plan
// in either model, with either engine; with the right total both plan it.
// The network is totally ordered: in the unordered one a plan may check
// two cells before it fills both, so the cells of a row can share a digit
// (the progression search finds such plans when its eager search fails).
func TestHDDLNoPlan(t *testing.T) {
	s := grid(t, "1234341221434321")
	for _, off := range []int{0, 1} {
		p := &Puzzle{Grid: sudoku.New(2)}
		for c := 0; c < 16; c += 2 {
			p.Killers = append(p.Killers, Sum{Cells: []int{c, c + 1}, Sum: s.Cells[c] + s.Cells[c+1], Distinct: true})
		}
		// the givens of the top row pin the grid
		for c := range 4 {
			p.Grid.Cells[c] = s.Cells[c]
		}
		p.Killers[len(p.Killers)-1].Sum += off
		for _, checks := range []Checks{AtFill, AfterFills} {
			_, prob, err := Model(p, sudoku.Ordered, checks)
			if err != nil {
				t.Fatal(err)
			}
			for _, engine := range []pipeline.Engine{pipeline.Progression, pipeline.SAT} {
				res, err := pipeline.Run(context.Background(), prob, pipeline.Config{Engine: engine})
				switch {
				case off == 0 && err != nil:
					t.Errorf("%s, checks %d: %v", engine, checks, err)
				case off == 0:
					g, err := sudoku.GridFromPlan(res.Plan, p.Grid)
					if err != nil || p.Check(g) != nil {
						t.Errorf("%s, checks %d: %v, %v", engine, checks, err, p.Check(g))
					}
				case err == nil:
					t.Errorf("%s, checks %d: a plan for cages no grid meets", engine, checks)
				}
			}
		}
	}
}

// TestHDDLRefuses: clues without an HDDL model are named.
func TestHDDLRefuses(t *testing.T) {
	p := fixtures(t)["dune.json"]
	var b strings.Builder
	if err := WriteProblem(&b, p, sudoku.Unordered, AtFill); err == nil || !strings.Contains(err.Error(), "ratio dots") {
		t.Errorf("dune (black dots): %v", err)
	}
}

// TestCageDigits: the digits of the allowed combinations.
func TestCageDigits(t *testing.T) {
	got := func(n, size, sum int) string {
		var s []string
		for d, ok := range cageDigits(n, size, sum) {
			if ok {
				s = append(s, string(rune('0'+d)))
			}
		}
		return strings.Join(s, "")
	}
	for _, c := range []struct {
		size, sum int
		want      string
	}{{2, 3, "12"}, {2, 17, "89"}, {3, 6, "123"}, {2, 10, "12346789"}, {9, 45, "123456789"}, {3, 25, ""}} {
		if g := got(9, c.size, c.sum); g != c.want {
			t.Errorf("%d cells adding up to %d: %q, want %q", c.size, c.sum, g, c.want)
		}
	}
}

// TestCageDigitsAll: the table agrees with enumerating the sets, for every
// size and total of 9x9 and 16x16 cages up to six cells.
func TestCageDigitsAll(t *testing.T) {
	for _, n := range []int{9, 16} {
		for size := 1; size <= 6; size++ {
			for sum := 0; sum <= n*size; sum++ {
				want := make([]bool, n+1)
				var rec func(next, left, rest int, used []int)
				rec = func(next, left, rest int, used []int) {
					if left == 0 {
						if rest == 0 {
							for _, d := range used {
								want[d] = true
							}
						}
						return
					}
					for d := next; d <= n && d <= rest; d++ {
						rec(d+1, left-1, rest-d, append(used, d))
					}
				}
				rec(1, size, sum, nil)
				if got := cageDigits(n, size, sum); !slices.Equal(got, want) {
					t.Fatalf("n %d, %d cells adding up to %d: %v, want %v", n, size, sum, got, want)
				}
			}
		}
	}
}

// TestCSPModel: a diagonal puzzle gets its diagonals as units (its rating
// and count use them); a puzzle with totals is refused.
func TestCSPModel(t *testing.T) {
	// an X-sudoku: the solution of the empty diagonal puzzle, with half
	// its digits as givens
	p := &Puzzle{Grid: sudoku.New(3), DiagonalMain: true, DiagonalAnti: true}
	res, err := Solve(context.Background(), p, satenc.Gophersat{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for c := range p.Grid.Cells {
		if c%2 == 0 {
			p.Grid.Cells[c] = res.Solution.Cells[c]
		}
	}
	m, err := p.CSPModel()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Units) != 29 {
		t.Errorf("%d units, want 27 + 2 diagonals", len(m.Units))
	}
	got, err := m.Search(context.Background(), p.Grid, 2, csp.GACAll)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Solve(context.Background(), p, satenc.Gophersat{}, 2)
	if err != nil || got.Solutions != want.Solutions {
		t.Errorf("search counts %d, SAT %d (%v)", got.Solutions, want.Solutions, err)
	}
	if err := p.Check(got.First); err != nil {
		t.Errorf("the search's solution: %v", err)
	}
	if _, err := fixtures(t)["dune.json"].CSPModel(); err == nil {
		t.Error("dune (totals, thermometers, dots) accepted")
	}
}
