package variant

import (
	"slices"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/sudoku"
)

// walk lists the digit sequences the automaton c accepts (ending in a
// final state) up to length size.
func walk(c *cageStates, size int) [][]int {
	var out [][]int
	var rec func(q int, seq []int)
	rec = func(q int, seq []int) {
		if c.final[q] {
			out = append(out, slices.Clone(seq))
		}
		if len(seq) == size {
			return
		}
		for _, s := range c.steps {
			if s.from == q {
				rec(s.to, append(seq, s.digit))
			}
		}
	}
	rec(0, nil)
	return out
}

// TestCageStates: both automata accept exactly the orders of the cage's
// combinations (distinct digits adding up to the total, containing the
// givens), and every state of the set automaton can still end in one.
func TestCageStates(t *testing.T) {
	for _, c := range []struct {
		n, size, total int
		given          []int
		want           int // sequences: combinations times orders
	}{
		{9, 2, 3, nil, 2},           // {1,2}
		{9, 3, 15, nil, 8 * 6},      // 8 combinations of 3
		{9, 3, 15, []int{9}, 2 * 2}, // {9,1,5}, {9,2,4}: the two others in either order
		{9, 2, 18, nil, 0},          // none
		{4, 4, 10, nil, 24},         // a 4x4 row
	} {
		var want [][]int
		var rec func(seq []int, sum int)
		blanks := c.size - len(c.given)
		rec = func(seq []int, sum int) {
			if len(seq) == blanks {
				if sum == c.total {
					want = append(want, slices.Clone(seq))
				}
				return
			}
			for d := 1; d <= c.n; d++ {
				if !slices.Contains(seq, d) && !slices.Contains(c.given, d) {
					rec(append(seq, d), sum+d)
				}
			}
		}
		gsum := 0
		for _, d := range c.given {
			gsum += d
		}
		rec(nil, gsum)
		sets := setStates(c.n, c.size, c.total, maskOf(c.given))
		sums := sumStates(c.n, c.size, c.total, gsum, len(c.given))
		if len(want) != c.want {
			t.Fatalf("%+v: the brute force finds %d sequences", c, len(want))
		}
		for name, a := range map[string]*cageStates{"sets": sets, "sums": sums} {
			if a == nil {
				if c.want != 0 {
					t.Errorf("%+v %s: no automaton", c, name)
				}
				continue
			}
			got := walk(a, blanks)
			slices.SortFunc(got, slices.Compare)
			slices.SortFunc(want, slices.Compare)
			if name == "sets" && !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%+v sets: accepts %v, want %v", c, got, want)
			}
			// the sums automaton only bounds: it accepts every true order
			// and, at its end, only the total (repeats are the regions')
			for _, w := range want {
				if !slices.ContainsFunc(got, func(g []int) bool { return slices.Equal(g, w) }) {
					t.Errorf("%+v %s: refuses %v", c, name, w)
				}
			}
			for _, g := range got {
				sum := gsum
				for _, d := range g {
					sum += d
				}
				if len(g) != blanks || sum != c.total {
					t.Errorf("%+v %s: accepts %v", c, name, g)
				}
			}
		}
		if sets != nil {
			// every state reaches a final one
			for q := range sets.n {
				if !sets.final[q] && !slices.ContainsFunc(sets.steps, func(s cStep) bool { return s.from == q }) {
					t.Errorf("%+v: state %s is a dead end", c, sets.label[q])
				}
			}
		}
	}
}

func maskOf(ds []int) uint64 {
	var m uint64
	for _, d := range ds {
		m |= 1 << d
	}
	return m
}

// TestCageStatesFallBack: a cage with more sets of placed digits than
// maxCageStates counts sums instead.
func TestCageStatesFallBack(t *testing.T) {
	c := newCageStates(25, 12, 150, nil)
	if c == nil || c.n > maxCageStates || c.label[0] != "sum-0-0" {
		t.Fatalf("25x25, 12 cells adding up to 150: %v", c)
	}
	if c := newCageStates(9, 4, 20, nil); c == nil || c.label[0] != "set" {
		t.Fatalf("9x9, 4 cells adding up to 20: %v", c)
	}
}

// TestWriteLargeCages: a cage as long as a row of a 49x49 grid has too many
// states to follow and is checked after the fills; a cage of 8 cells of
// the same grid is followed by its sums. (Enumerating the combinations of
// such cages once took seconds for 25x25 and did not end for 49x49; a hang
// shows as the test's time out.)
func TestWriteLargeCages(t *testing.T) {
	k := 7
	n := k * k
	p := &Puzzle{Grid: sudoku.New(k)}
	var row []int
	for c := range n {
		row = append(row, c)
	}
	p.Killers = []Sum{{Cells: row, Sum: n * (n + 1) / 2, Distinct: true}, {Cells: []int{n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7}, Sum: 100, Distinct: true}}
	var b strings.Builder
	if err := WriteProblem(&b, p, sudoku.Unordered, AtFill); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(check-cage g0)", "(cage-full g1)", "g1-sum-0-0"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the model lacks %s", want)
		}
	}
}
