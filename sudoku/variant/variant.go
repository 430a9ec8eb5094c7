// Package variant reads, checks and solves the modern Sudoku variants
// that setters publish (a well-known post models them in MiniZinc): killer and
// little killer sums, thermometers, arrows, kropki dots (ratio and
// difference), XV, renban, German whispers and palindrome lines,
// quadruples, extra regions, diagonals, anti-knight and anti-king. Puzzles
// come in the f-puzzles JSON layout (ReadFPuzzles); they are solved
// through a direct SAT encoding (Encode) and can be exported as MiniZinc
// (WriteMiniZinc).
//
// It builds on sudoku (grids) and satenc (clause sinks, solvers) and adds
// no planning logic.
package variant

import (
	"fmt"

	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
)

// Sum is a set of cells whose digits add up to Sum: a killer cage
// (Distinct: no digit twice; Sum 0 for a cage without a total) or a
// little killer diagonal (digits may repeat).
type Sum struct {
	Cells    []int
	Sum      int
	Distinct bool
}

// Arrow: the digits along each line add up to the digit of the circle
// cell.
type Arrow struct {
	Circle int
	Lines  [][]int
}

// Pair is a constraint between two orthogonally adjacent cells: a ratio
// dot (one digit is Value times the other), a difference dot (they differ
// by Value) or an XV mark (they add up to Value, 10 or 5).
type Pair struct {
	A, B  int
	Value int
}

// Quadruple: the digits listed appear in the four cells around a corner
// (a digit listed twice appears twice).
type Quadruple struct {
	Cells  []int
	Digits []int
}

// Puzzle is a variant puzzle: the givens and every constraint beyond the
// rows, columns and boxes, cells as row-major indexes.
type Puzzle struct {
	Title        string
	Grid         sudoku.Grid
	Killers      []Sum
	LittleKiller []Sum
	Thermos      [][]int // strictly increasing from the bulb (the first cell)
	Arrows       []Arrow
	Ratios       []Pair
	Differences  []Pair
	XV           []Pair
	Renbans      [][]int // a set of consecutive digits, no repeats
	Whispers     [][]int // neighbours along the line differ by at least WhisperGap
	Palindromes  [][]int // reads the same both ways
	Quadruples   []Quadruple
	Extra        [][]int // extra regions (and disjoint groups): no digit twice
	Odd, Even    []int   // cells that hold an odd or an even digit
	DiagonalMain bool    // top left to bottom right: no digit twice
	DiagonalAnti bool    // bottom left to top right: no digit twice
	AntiKnight   bool    // cells a knight's move apart differ
	AntiKing     bool    // cells a king's move apart differ
	Disjoint     bool    // Extra holds the disjoint groups (drawn as a rule, not as regions)
	// NegativeRatio, NegativeDifference and NegativeXV: every dot or mark
	// is given, so adjacent cells without one must not satisfy it.
	NegativeRatio, NegativeDifference, NegativeXV bool
}

// Size is n, the digits 1..n.
func (p *Puzzle) Size() int { return p.Grid.Size() }

// WhisperGap is the least difference of neighbours on a whispers line: 5
// for 9x9 (German whispers), half the digits rounded up in general.
func (p *Puzzle) WhisperGap() int { return (p.Size() + 1) / 2 }

// Diagonals lists the diagonals that must not repeat a digit.
func (p *Puzzle) Diagonals() [][]int {
	n := p.Size()
	var out [][]int
	if p.DiagonalMain {
		var d []int
		for i := 0; i < n; i++ {
			d = append(d, i*n+i)
		}
		out = append(out, d)
	}
	if p.DiagonalAnti {
		var d []int
		for i := 0; i < n; i++ {
			d = append(d, (n-1-i)*n+i)
		}
		out = append(out, d)
	}
	return out
}

// Regions are the extra all-different groups: killer cages, extra
// regions, diagonals and renban lines.
func (p *Puzzle) Regions() [][]int {
	var out [][]int
	for _, k := range p.Killers {
		out = append(out, k.Cells)
	}
	out = append(out, p.Extra...)
	out = append(out, p.Diagonals()...)
	out = append(out, p.Renbans...)
	return out
}

// moves lists the pairs of cells a knight's or king's move apart (each
// pair once), as the flags ask.
func (p *Puzzle) moves() [][2]int {
	n := p.Size()
	var steps [][2]int
	if p.AntiKnight {
		steps = append(steps, [2]int{1, 2}, [2]int{2, 1}, [2]int{1, -2}, [2]int{2, -1})
	}
	if p.AntiKing {
		// orthogonal neighbours share a row or column already
		steps = append(steps, [2]int{1, 1}, [2]int{1, -1})
	}
	var out [][2]int
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			for _, s := range steps {
				r2, c2 := r+s[0], c+s[1]
				if r2 >= 0 && r2 < n && c2 >= 0 && c2 < n {
					out = append(out, [2]int{r*n + c, r2*n + c2})
				}
			}
		}
	}
	return out
}

// adjacent lists the orthogonally adjacent pairs of cells.
func (p *Puzzle) adjacent() [][2]int {
	n := p.Size()
	var out [][2]int
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if c+1 < n {
				out = append(out, [2]int{r*n + c, r*n + c + 1})
			}
			if r+1 < n {
				out = append(out, [2]int{r*n + c, (r+1)*n + c})
			}
		}
	}
	return out
}

// relations are the binary constraints between digits.
func ratioOK(v, w, r int) bool { return v == r*w || w == r*v }
func diffOK(v, w, d int) bool  { return v-w == d || w-v == d }
func sumOK(v, w, s int) bool   { return v+w == s }

// pairKind is the kind of a clue between two adjacent cells.
type pairKind int

const (
	ratioDot pairKind = iota
	differenceDot
	xvMark
)

func (k pairKind) String() string {
	return [...]string{"ratio dot", "difference dot", "XV mark"}[k]
}

// holds tells whether digits v and w satisfy the clue of that value.
func (k pairKind) holds(v, w, value int) bool {
	switch k {
	case ratioDot:
		return ratioOK(v, w, value)
	case differenceDot:
		return diffOK(v, w, value)
	}
	return sumOK(v, w, value)
}

// pairClue is a clue between cells a and b: the pair satisfies the
// relation of kind with value, or, negated, must not (an unmarked pair
// under a negative rule).
type pairClue struct {
	kind    pairKind
	a, b    int
	value   int
	negated bool
}

// pairClues calls fn for every dot and mark, then, for each negative rule,
// for every unmarked adjacent pair and each value it must avoid (2 for
// ratio dots, 1 for difference dots, 10 and 5 for XV). Check, the SAT
// encoding and both exports read the clues from here.
func (p *Puzzle) pairClues(fn func(pairClue)) {
	kinds := []struct {
		kind  pairKind
		list  []Pair
		neg   bool
		avoid []int
	}{
		{ratioDot, p.Ratios, p.NegativeRatio, []int{2}},
		{differenceDot, p.Differences, p.NegativeDifference, []int{1}},
		{xvMark, p.XV, p.NegativeXV, []int{10, 5}},
	}
	for _, k := range kinds {
		marked := map[[2]int]bool{}
		for _, x := range k.list {
			marked[[2]int{min(x.A, x.B), max(x.A, x.B)}] = true
			fn(pairClue{kind: k.kind, a: x.A, b: x.B, value: x.Value})
		}
		if !k.neg {
			continue
		}
		for _, ab := range p.adjacent() {
			if !marked[ab] {
				for _, v := range k.avoid {
					fn(pairClue{kind: k.kind, a: ab[0], b: ab[1], value: v, negated: true})
				}
			}
		}
	}
}

// Check tells whether a filled grid satisfies the puzzle: givens, rows,
// columns, boxes and every variant constraint. The error names the first
// constraint broken.
func (p *Puzzle) Check(g sudoku.Grid) error {
	if err := g.Solves(p.Grid); err != nil {
		return err
	}
	n := p.Size()
	at := func(c int) int { return g.Cells[c] }
	name := func(c int) string { return sudoku.CellName(c/n, c%n) }
	distinct := func(cells []int, what string) error {
		seen := map[int]int{}
		for _, c := range cells {
			if o, ok := seen[at(c)]; ok {
				return fmt.Errorf("%s: digit %d twice (%s and %s)", what, at(c), name(o), name(c))
			}
			seen[at(c)] = c
		}
		return nil
	}
	sum := func(cells []int) int {
		s := 0
		for _, c := range cells {
			s += at(c)
		}
		return s
	}
	for _, k := range p.Killers {
		if err := distinct(k.Cells, "killer cage at "+name(k.Cells[0])); err != nil {
			return err
		}
		if k.Sum != 0 && sum(k.Cells) != k.Sum {
			return fmt.Errorf("killer cage at %s: sum %d, want %d", name(k.Cells[0]), sum(k.Cells), k.Sum)
		}
	}
	for _, k := range p.LittleKiller {
		if sum(k.Cells) != k.Sum {
			return fmt.Errorf("little killer through %s: sum %d, want %d", name(k.Cells[0]), sum(k.Cells), k.Sum)
		}
	}
	for _, t := range p.Thermos {
		for i := 1; i < len(t); i++ {
			if at(t[i]) <= at(t[i-1]) {
				return fmt.Errorf("thermometer from %s: %s=%d after %s=%d", name(t[0]), name(t[i]), at(t[i]), name(t[i-1]), at(t[i-1]))
			}
		}
	}
	for _, a := range p.Arrows {
		for _, l := range a.Lines {
			if s := sum(l); s != at(a.Circle) {
				return fmt.Errorf("arrow from %s: the line adds up to %d, the circle holds %d", name(a.Circle), s, at(a.Circle))
			}
		}
	}
	var broken error
	p.pairClues(func(c pairClue) {
		if broken == nil && c.kind.holds(at(c.a), at(c.b), c.value) == c.negated {
			if c.negated {
				broken = fmt.Errorf("no %s between %s and %s, but %d and %d", c.kind, name(c.a), name(c.b), at(c.a), at(c.b))
			} else {
				broken = fmt.Errorf("%s %d between %s and %s: %d and %d", c.kind, c.value, name(c.a), name(c.b), at(c.a), at(c.b))
			}
		}
	})
	if broken != nil {
		return broken
	}
	for _, l := range p.Renbans {
		if err := distinct(l, "renban line from "+name(l[0])); err != nil {
			return err
		}
		lo, hi := n, 1
		for _, c := range l {
			lo, hi = min(lo, at(c)), max(hi, at(c))
		}
		if hi-lo != len(l)-1 {
			return fmt.Errorf("renban line from %s: digits %d..%d are not consecutive", name(l[0]), lo, hi)
		}
	}
	for _, l := range p.Whispers {
		for i := 1; i < len(l); i++ {
			if d := at(l[i]) - at(l[i-1]); d < p.WhisperGap() && -d < p.WhisperGap() {
				return fmt.Errorf("whispers line from %s: %s=%d next to %s=%d", name(l[0]), name(l[i-1]), at(l[i-1]), name(l[i]), at(l[i]))
			}
		}
	}
	for _, l := range p.Palindromes {
		for i := 0; i < len(l)/2; i++ {
			if a, b := l[i], l[len(l)-1-i]; at(a) != at(b) {
				return fmt.Errorf("palindrome from %s: %s=%d but %s=%d", name(l[0]), name(a), at(a), name(b), at(b))
			}
		}
	}
	for _, q := range p.Quadruples {
		have := map[int]int{}
		for _, c := range q.Cells {
			have[at(c)]++
		}
		for d, m := range multiplicity(q.Digits) {
			if have[d] < m {
				return fmt.Errorf("quadruple at %s: digit %d %d times, want %d", name(q.Cells[0]), d, have[d], m)
			}
		}
	}
	for _, c := range p.Odd {
		if at(c)%2 == 0 {
			return fmt.Errorf("odd cell %s holds %d", name(c), at(c))
		}
	}
	for _, c := range p.Even {
		if at(c)%2 != 0 {
			return fmt.Errorf("even cell %s holds %d", name(c), at(c))
		}
	}
	for _, r := range p.Extra {
		if err := distinct(r, "extra region at "+name(r[0])); err != nil {
			return err
		}
	}
	for i, d := range p.Diagonals() {
		if err := distinct(d, fmt.Sprintf("diagonal %d", i+1)); err != nil {
			return err
		}
	}
	for _, ab := range p.moves() {
		if at(ab[0]) == at(ab[1]) {
			return fmt.Errorf("%s and %s, a knight's or king's move apart, both hold %d", name(ab[0]), name(ab[1]), at(ab[0]))
		}
	}
	return nil
}

// multiplicity counts each digit of a list.
func multiplicity(ds []int) map[int]int {
	m := map[int]int{}
	for _, d := range ds {
		m[d]++
	}
	return m
}

// CSPModel is the constraint network of p for the propagators of package
// csp (hints, ratings, counting by search): the standard units plus an
// all-different unit per diagonal, extra region and killer cage. It fails
// when p has a clue that is not an all-different constraint (a total, a
// thermometer, a dot, ...), which those propagators do not cover.
func (p *Puzzle) CSPModel() (*csp.Model, error) {
	q := *p
	q.Killers, q.Extra, q.DiagonalMain, q.DiagonalAnti = nil, nil, false, false
	if !q.onlyGivens() {
		return nil, fmt.Errorf("the consistency levels cover all-different constraints (cages without totals, extra regions, diagonals); this puzzle has other clues")
	}
	for _, k := range p.Killers {
		if k.Sum != 0 {
			return nil, fmt.Errorf("the consistency levels cover all-different constraints; this puzzle has killer totals")
		}
	}
	m := csp.NewModel(p.Grid.Box)
	for i, r := range append(append([][]int{}, p.Extra...), p.Diagonals()...) {
		m.AddUnit(csp.Unit{Name: fmt.Sprintf("region %d", i+1), Cells: r})
	}
	for i, k := range p.Killers {
		m.AddUnit(csp.Unit{Name: fmt.Sprintf("cage %d", i+1), Cells: k.Cells})
	}
	return m, nil
}

// onlyGivens tells whether p has no clue beyond its givens.
func (p *Puzzle) onlyGivens() bool {
	return len(p.Killers)+len(p.LittleKiller)+len(p.Thermos)+len(p.Arrows)+len(p.Ratios)+len(p.Differences)+len(p.XV)+
		len(p.Renbans)+len(p.Whispers)+len(p.Palindromes)+len(p.Quadruples)+len(p.Extra)+len(p.Odd)+len(p.Even) == 0 &&
		!p.DiagonalMain && !p.DiagonalAnti && !p.AntiKnight && !p.AntiKing && !p.NegativeRatio && !p.NegativeDifference && !p.NegativeXV
}
