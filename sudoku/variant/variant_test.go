package variant

import (
	"context"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

// solved is the solution of the paper's puzzle.
const solved = "345691728612783549798245136964157283523864917871932465139528674457316892286479351"

func grid(t *testing.T, s string) sudoku.Grid {
	t.Helper()
	p, err := sudoku.ParsePuzzle(s)
	if err != nil {
		t.Fatal(err)
	}
	return p.Grid
}

// shifted relabels every digit d as d%9+1: still a Sudoku solution, but
// sums, orders and most digit relations change.
func shifted(g sudoku.Grid) sudoku.Grid {
	h := g.Clone()
	for i, d := range h.Cells {
		h.Cells[i] = d%9 + 1
	}
	return h
}

// find returns two orthogonally adjacent cells of g whose digits satisfy
// ok.
func find(t *testing.T, g sudoku.Grid, ok func(v, w int) bool) (int, int) {
	for a := range g.Cells {
		for _, b := range []int{a + 1, a + 9} {
			if b < 81 && (b != a+1 || a%9 < 8) && ok(g.Cells[a], g.Cells[b]) {
				return a, b
			}
		}
	}
	t.Fatal("no such pair")
	return 0, 0
}

// TestCheckEach: each constraint, built to hold on a solved grid, holds
// there (Check passes) and fails on the relabelled grid, naming itself.
func TestCheckEach(t *testing.T) {
	s := grid(t, solved)
	v := shifted(s)
	at := func(c int) int { return s.Cells[c] }
	nine := -1
	for c, d := range s.Cells {
		if d == 9 {
			nine = c
			break
		}
	}
	cases := map[string]func(p *Puzzle){
		"killer cage": func(p *Puzzle) {
			p.Killers = []Sum{{Cells: []int{0, 1, 9}, Sum: at(0) + at(1) + at(9), Distinct: true}}
		},
		"little killer": func(p *Puzzle) {
			p.LittleKiller = []Sum{{Cells: []int{0, 10, 20}, Sum: at(0) + at(10) + at(20)}}
		},
		"thermometer": func(p *Puzzle) {
			// up to the 9, which the relabelling turns into a 1
			a, _ := find(t, s, func(x, y int) bool { return x < y && y == 9 })
			p.Thermos = [][]int{{a, a + 1}}
			if at(a+1) != 9 {
				p.Thermos = [][]int{{a, a + 9}}
			}
		},
		"arrow": func(p *Puzzle) {
			a, b := find(t, s, func(x, y int) bool { return x+y <= 9 })
			for c := range s.Cells {
				if at(c) == at(a)+at(b) {
					p.Arrows = []Arrow{{Circle: c, Lines: [][]int{{a, b}}}}
					return
				}
			}
		},
		"ratio dot": func(p *Puzzle) {
			a, b := find(t, s, func(x, y int) bool { return ratioOK(x, y, 2) })
			p.Ratios = []Pair{{a, b, 2}}
		},
		"difference dot": func(p *Puzzle) {
			a, b := find(t, s, func(x, y int) bool { return diffOK(x, y, 1) && (x == 9 || y == 9) })
			p.Differences = []Pair{{a, b, 1}}
		},
		"XV mark": func(p *Puzzle) {
			a, b := find(t, s, func(x, y int) bool { return x+y == 10 && (x == 9 || y == 9) })
			p.XV = []Pair{{a, b, 10}}
		},
		"renban line": func(p *Puzzle) {
			a, b := find(t, s, func(x, y int) bool { return diffOK(x, y, 1) && (x == 9 || y == 9) })
			p.Renbans = [][]int{{a, b}}
		},
		"whispers line": func(p *Puzzle) {
			a, b := find(t, s, func(x, y int) bool { return diffOK(x, y, 5) && (x == 9 || y == 9) })
			p.Whispers = [][]int{{a, b}}
		},
		"quadruple": func(p *Puzzle) {
			p.Quadruples = []Quadruple{{Cells: []int{0, 1, 9, 10}, Digits: []int{at(0), at(10)}}}
		},
		"palindrome": func(p *Puzzle) {
			p.Palindromes = [][]int{{nine, 40, nine}}
			for c := range s.Cells {
				if c != nine && at(c) == 9 {
					p.Palindromes = [][]int{{nine, 40, c}}
					break
				}
			}
		},
	}
	for name, build := range cases {
		p := &Puzzle{Grid: sudoku.New(3)}
		build(p)
		if err := p.Check(s); err != nil {
			t.Errorf("%s: the grid it was built from fails: %v", name, err)
		}
		if name == "palindrome" {
			// relabelling keeps equal digits equal: a line over two
			// different digits must fail instead
			p.Palindromes[0][2] = 41
			if err := p.Check(s); err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s: a line over different digits gives %v", name, err)
			}
			continue
		}
		if err := p.Check(v); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: the relabelled grid gives %v, want an error naming it", name, err)
		}
	}
	// all-different groups: a group over two equal digits fails
	p := &Puzzle{Grid: sudoku.New(3), Extra: [][]int{{0, 10, 20}}}
	if err := p.Check(s); err != nil {
		t.Errorf("extra region over distinct digits: %v", err)
	}
	p.Extra = [][]int{{nine, 40}}
	for c := range s.Cells {
		if c != nine && at(c) == 9 {
			p.Extra[0][1] = c
		}
	}
	if err := p.Check(s); err == nil || !strings.Contains(err.Error(), "extra region") {
		t.Errorf("extra region over two nines: %v", err)
	}
}

// TestSolveMatchesCheck: puzzles without givens, built from a solved grid
// with many constraints, are solved, and what is found passes Check;
// with the givens of that grid the solution is unique.
func TestSolveMatchesCheck(t *testing.T) {
	s := grid(t, solved)
	p := &Puzzle{Grid: sudoku.New(3)}
	// killer cages: dominoes across the grid
	for r := 0; r < 9; r++ {
		for c := 0; c+1 < 9; c += 2 {
			a, b := r*9+c, r*9+c+1
			p.Killers = append(p.Killers, Sum{Cells: []int{a, b}, Sum: s.Cells[a] + s.Cells[b], Distinct: true})
		}
	}
	// every kropki dot of the grid (a 1-2 pair gets both), and no dot
	// elsewhere (negative)
	for _, ab := range p.adjacent() {
		a, b := ab[0], ab[1]
		if ratioOK(s.Cells[a], s.Cells[b], 2) {
			p.Ratios = append(p.Ratios, Pair{a, b, 2})
		}
		if diffOK(s.Cells[a], s.Cells[b], 1) {
			p.Differences = append(p.Differences, Pair{a, b, 1})
		}
	}
	p.NegativeRatio, p.NegativeDifference = true, true
	res, err := Solve(context.Background(), p, satenc.Gophersat{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(res.Solution); err != nil {
		t.Fatal(err)
	}
	if res.Solutions < 1 {
		t.Fatalf("%d solutions", res.Solutions)
	}
	// every constraint kind at once, and the puzzle's own givens: one
	// solution, the grid itself
	q := &Puzzle{Grid: grid(t, "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."), Killers: p.Killers, Ratios: p.Ratios}
	res, err = Solve(context.Background(), q, satenc.Gophersat{}, 2)
	if err != nil || res.Solutions != 1 || res.Solution.Line() != solved {
		t.Fatalf("%v, %d solutions, %s", err, res.Solutions, res.Solution.Line())
	}
	// a broken cage: no solution
	q.Killers = append([]Sum{{Cells: []int{0, 1}, Sum: 3, Distinct: true}}, q.Killers...)
	if _, err := Solve(context.Background(), q, satenc.Gophersat{}, 1); err != ErrNoSolution {
		t.Fatalf("an impossible cage gives %v", err)
	}
}

// TestSolveEachKind: one 4x4 puzzle per constraint kind, solved and
// counted against brute force over all 288 4x4 grids.
func TestSolveEachKind(t *testing.T) {
	var all []sudoku.Grid
	g := sudoku.New(2)
	var rec func(c int)
	rec = func(c int) {
		if c == 16 {
			all = append(all, g.Clone())
			return
		}
		for v := 1; v <= 4; v++ {
			g.Cells[c] = v
			if g.Check() == nil {
				rec(c + 1)
			}
		}
		g.Cells[c] = 0
	}
	rec(0)
	if len(all) != 288 {
		t.Fatalf("%d 4x4 grids", len(all))
	}
	kinds := map[string]*Puzzle{
		"killer":      {Killers: []Sum{{Cells: []int{0, 1, 4}, Sum: 6, Distinct: true}}},
		"little":      {LittleKiller: []Sum{{Cells: []int{0, 5, 10, 15}, Sum: 8}}},
		"thermo":      {Thermos: [][]int{{0, 1, 5}}},
		"arrow":       {Arrows: []Arrow{{Circle: 0, Lines: [][]int{{1, 5}}}}},
		"ratio":       {Ratios: []Pair{{0, 1, 2}}},
		"difference":  {Differences: []Pair{{0, 4, 1}}},
		"xv":          {XV: []Pair{{0, 1, 5}}},
		"renban":      {Renbans: [][]int{{0, 5, 10}}},
		"whispers":    {Whispers: [][]int{{0, 1, 5}}},
		"palindrome":  {Palindromes: [][]int{{0, 5, 11}}},
		"quadruple":   {Quadruples: []Quadruple{{Cells: []int{5, 6, 9, 10}, Digits: []int{1, 2}}}},
		"extra":       {Extra: [][]int{{0, 6, 9, 15}}},
		"diagonals":   {DiagonalMain: true, DiagonalAnti: true},
		"anti-knight": {AntiKnight: true},
	}
	for name, p := range kinds {
		p.Grid = sudoku.New(2)
		want := 0
		for _, h := range all {
			if p.Check(h) == nil {
				want++
			}
		}
		res, err := Solve(context.Background(), p, satenc.Gophersat{}, 1000)
		got := 0
		if err == nil {
			got = res.Solutions
		} else if err != ErrNoSolution {
			t.Fatalf("%s: %v", name, err)
		}
		if got != want {
			t.Errorf("%s: %d solutions, brute force %d", name, got, want)
		}
		if want == 0 || want == len(all) {
			t.Errorf("%s: %d of %d grids pass, the case tells nothing", name, want, len(all))
		}
		t.Logf("%s: %d solutions", name, got)
	}
}
