package csp

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

func grid(t *testing.T, s string) sudoku.Grid {
	t.Helper()
	p, err := sudoku.ParsePuzzle(s)
	if err != nil {
		t.Fatal(err)
	}
	return p.Grid
}

// fixture4 is hand-checked: FC leaves four cells with one digit (r1c4=3,
// r2c2=4, r3c3=1, r4c1=2) and eight vital digits, one per row and column;
// AC then fills every blank.
const fixture4 = "1.....2..3.....4"

func TestHintsFixture(t *testing.T) {
	g := grid(t, fixture4)
	m := NewModel(g.Box)
	hs, err := m.Hints(context.Background(), g, AC)
	if err != nil {
		t.Fatal(err)
	}
	names := func(h []Hint) []string {
		var out []string
		for _, x := range h {
			out = append(out, x.Cell+"="+string(rune('0'+x.Digit)))
		}
		return out
	}
	want := [][2][]string{
		{{"r1c4=3", "r2c2=4", "r3c3=1", "r4c1=2"},
			{"r1c2=2", "r1c3=4", "r2c1=3", "r2c4=1", "r3c1=4", "r3c4=2", "r4c2=1", "r4c3=3"}},
		{{"r1c2=2", "r1c3=4", "r1c4=3", "r2c1=3", "r2c2=4", "r2c4=1", "r3c1=4", "r3c3=1", "r3c4=2", "r4c1=2", "r4c2=1", "r4c3=3"}},
	}
	want[1][1] = want[1][0]
	if len(hs) != 2 {
		t.Fatalf("%d levels, want 2", len(hs))
	}
	for i, h := range hs {
		if got := names(h.Singletons); !equal(got, want[i][0]) {
			t.Errorf("%s singletons %v, want %v", h.Name, got, want[i][0])
		}
		if got := names(h.Vitals); !equal(got, want[i][1]) {
			t.Errorf("%s vitals %v, want %v", h.Name, got, want[i][1])
		}
	}
	r, err := m.Rate(context.Background(), g)
	if err != nil || r.Level != "ac" {
		t.Errorf("rating %+v, %v; want ac", r, err)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGACUnitBrute: on random domains, a digit survives GAC exactly when
// some all-different assignment of the unit gives it to its cell.
func TestGACUnitBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		k := 1 + r.IntN(6)
		nd := k + r.IntN(3)
		s := make(State, k)
		cells := make([]int, k)
		for i := range s {
			cells[i] = i
			s[i] = Dom(r.Uint64() & (1<<nd - 1))
		}
		// brute force: the supported digits of each cell
		support := make([]Dom, k)
		used := Dom(0)
		pick := make([]int, k)
		var rec func(i int)
		rec = func(i int) {
			if i == k {
				for j, v := range pick {
					support[j] |= bit(v)
				}
				return
			}
			for _, v := range s[i].Digits() {
				if !used.Has(v) {
					used |= bit(v)
					pick[i] = v
					rec(i + 1)
					used &^= bit(v)
				}
			}
		}
		rec(0)
		before := s.Clone()
		ok := gacUnit(s, cells, func(int) {})
		feasible := support[0] != 0
		if ok != feasible {
			t.Fatalf("domains %v: gac says %v, brute force %v", before, ok, feasible)
		}
		if !ok {
			continue
		}
		for i := range s {
			if s[i] != support[i] {
				t.Fatalf("domains %v: cell %d has %v after GAC, supported %v", before, i, s[i].Digits(), support[i].Digits())
			}
		}
	}
}

// solutions4 enumerates every solution of a 4x4 grid by plain
// backtracking (no propagation).
func solutions4(g sudoku.Grid) []sudoku.Grid {
	var out []sudoku.Grid
	g = g.Clone()
	var rec func(c int)
	rec = func(c int) {
		if c == len(g.Cells) {
			if g.IsSolved() {
				out = append(out, g.Clone())
			}
			return
		}
		if g.Cells[c] != 0 {
			rec(c + 1)
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
	if g.Check() == nil {
		rec(0)
	}
	return out
}

func random4(r *rand.Rand) sudoku.Grid {
	g := sudoku.New(2)
	for i := 0; i < 3+r.IntN(6); i++ {
		g.Cells[r.IntN(16)] = 1 + r.IntN(4)
	}
	return g
}

// TestLevelsSoundBrute: on random 4x4 grids, no level removes a digit that
// a solution uses, each "on all" level is a fixpoint of itself, the
// levels never prune less as they get stronger, and a contradiction is
// claimed only for grids without solutions.
func TestLevelsSoundBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m := NewModel(2)
	ctx := context.Background()
	for trial := 0; trial < 400; trial++ {
		g := random4(r)
		sols := solutions4(g)
		var prev State
		err := m.levels(ctx, g, SGACAll, func(l Level, states []State, _ []string, failed string) bool {
			if failed != "" {
				if len(sols) > 0 {
					t.Fatalf("%s: %s claims a contradiction, but %d solutions", g.Line(), l, len(sols))
				}
				return false
			}
			for _, s := range states {
				for _, sol := range sols {
					for c, v := range sol.Cells {
						if !s[c].Has(v) {
							t.Fatalf("%s: %s removes %d from %s, used by solution %s", g.Line(), l, v, m.CellName(c), sol.Line())
						}
					}
				}
			}
			if !l.Each() && l != FC {
				s := states[0]
				if prev != nil {
					for c := range s {
						if s[c]&^prev[c] != 0 {
							t.Fatalf("%s: %s has more digits at %s than the level before", g.Line(), l, m.CellName(c))
						}
					}
				}
				again := s.Clone()
				switch l {
				case AC:
					m.AC(again)
				case GACAll:
					m.GAC(again)
				case SACAll:
					m.SAC(ctx, again)
				case SGACAll:
					m.SGAC(ctx, again)
				}
				for c := range s {
					if again[c] != s[c] {
						t.Fatalf("%s: %s is not a fixpoint at %s", g.Line(), l, m.CellName(c))
					}
				}
				prev = s
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestSearchCountBrute: the search counts exactly the solutions plain
// backtracking enumerates, under each propagation level.
func TestSearchCountBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	m := NewModel(2)
	for trial := 0; trial < 300; trial++ {
		g := random4(r)
		want := len(solutions4(g))
		for _, l := range []Level{AC, GACAll, SACAll, SGACAll} {
			res, err := m.Search(context.Background(), g, 1000, l)
			if err != nil {
				t.Fatal(err)
			}
			if res.Solutions != want {
				t.Fatalf("%s under %s: %d solutions, brute force %d", g.Line(), l, res.Solutions, want)
			}
			if want > 0 && (!res.First.IsSolved() || res.First.Extends(g) != nil) {
				t.Fatalf("%s: first solution %s does not solve it", g.Line(), res.First.Line())
			}
		}
		// the direct SAT encoding, enumerating with blocking clauses
		if enc, err := sudoku.EncodeDirect(g); err == nil {
			r, err := satenc.Gophersat{}.Solve(context.Background(), enc.CNF)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			if r.Sat {
				if n, err = enc.Count(context.Background(), satenc.Gophersat{}, r.Model, 1000); err != nil {
					t.Fatal(err)
				}
			}
			if n != want {
				t.Fatalf("%s: direct SAT counts %d solutions, brute force %d", g.Line(), n, want)
			}
		} else if want != 0 {
			t.Fatalf("%s: %v, but %d solutions", g.Line(), err, want)
		}
		res, err := m.Search(context.Background(), g, 2, GACAll)
		if err != nil || res.Solutions != min(want, 2) {
			t.Fatalf("%s: limit 2 gives %d, want %d (%v)", g.Line(), res.Solutions, min(want, 2), err)
		}
	}
}

// TestRateMonotone: on the embedded samples, once a level's propagation
// alone solves a puzzle every stronger level does too, and Rate names the
// weakest such level; every sample is proper (one solution).
func TestRateMonotone(t *testing.T) {
	ctx := context.Background()
	for _, p := range sudoku.Samples() {
		if p.Size() > 16 || testing.Short() && p.Size() > 9 {
			continue
		}
		m := NewModel(p.Box)
		weakest := ""
		solved := false
		for _, l := range RateLevels {
			// the state of level l, computed without stopping early
			var last State
			m.levels(ctx, p.Grid, l, func(got Level, states []State, _ []string, failed string) bool {
				if failed == "" && !got.Each() {
					last = states[0]
				}
				return failed == ""
			})
			now := last != nil && last.Solved()
			if solved && !now {
				t.Errorf("%s: solved at a weaker level but not at %s", p.Name, l)
			}
			if now && !solved {
				weakest = l.String()
			}
			solved = solved || now
		}
		r, err := m.Rate(ctx, p.Grid)
		if err != nil {
			t.Fatal(err)
		}
		if weakest == "" {
			weakest = "search"
		}
		if r.Level != weakest || r.Solutions != 1 {
			t.Errorf("%s: rated %+v, want level %s and one solution", p.Name, r, weakest)
		}
	}
}

// TestCancel: the strong levels on an empty 25×25 grid (minutes of
// singleton tests) stop soon after their context ends.
func TestCancel(t *testing.T) {
	m := NewModel(5)
	for _, l := range []Level{SACEach, SACAll, SGACEach, SGACAll} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := m.Hints(ctx, sudoku.New(5), l)
		cancel()
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: returned %s after a 100 ms limit", l, d)
		}
		if err == nil {
			t.Logf("%s finished within 100 ms", l)
		}
	}
}
