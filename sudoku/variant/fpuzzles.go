package variant

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/internal/excerpt"
	"github.com/htnsat/htnsat/internal/input"
	"github.com/htnsat/htnsat/sudoku"
)

// MaxFileSize bounds an f-puzzles file.
const MaxFileSize = 16 << 20

// The f-puzzles keys read (docs/sudoku.md#variants lists them); ignored are
// the cosmetic ones: text, line, circle, rectangle, cage (unscored), the
// author, title and ruleset, and the solver's own settings.
var ignoredKeys = map[string]bool{
	"author": true, "ruleset": true, "text": true, "line": true, "circle": true,
	"rectangle": true, "cage": true, "solution": true, "truecandidatesoptions": true,
	"disabledlogic": true, "highlight": true,
}

// flexValue is a clue's value, which exports write as a string ("15")
// and some tools as a number (15).
type flexValue string

func (v *flexValue) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*v = flexValue(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("value %s is neither a string nor a number", b)
	}
	*v = flexValue(n.String())
	return nil
}

type fpCells struct {
	Cells []string  `json:"cells"`
	Value flexValue `json:"value"`
}

type fpCell1 struct {
	Cell string `json:"cell"`
}

type fpLines struct {
	Lines [][]string `json:"lines"`
}

type fpArrow struct {
	Cells []string   `json:"cells"`
	Lines [][]string `json:"lines"`
}

type fpLittleKiller struct {
	Cell      string    `json:"cell"`
	Cells     []string  `json:"cells"`
	Direction string    `json:"direction"`
	Value     flexValue `json:"value"`
}

type fpQuad struct {
	Cells  []string `json:"cells"`
	Values []int    `json:"values"`
}

type fpCell struct {
	Value  int  `json:"value"`
	Given  bool `json:"given"`
	Region *int `json:"region"`
}

// ReadFPuzzlesFile reads a puzzle in the f-puzzles JSON layout.
func ReadFPuzzlesFile(ctx context.Context, path string) (*Puzzle, error) {
	f, err := input.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := ReadFPuzzles(input.Reader(ctx, f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ReadFPuzzles reads a puzzle in the f-puzzles JSON layout: "size", the
// "grid" of cells (a "given" cell's "value" is a given digit), and the
// constraints docs/sudoku.md lists; a key it does not know is an error, so that
// no rule is silently dropped.
func ReadFPuzzles(r io.Reader) (*Puzzle, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("larger than %d MiB", MaxFileSize>>20)
	}
	data = input.TrimBOM(data)
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not f-puzzles JSON: %v", err)
	}
	var size int
	if err := field(raw, "size", &size); err != nil {
		return nil, err
	}
	k := 0
	for b := sudoku.MinBox; b <= sudoku.MaxBox; b++ {
		if b*b == size {
			k = b
		}
	}
	if k == 0 {
		return nil, fmt.Errorf("size %d: only square-box grids are read (4, 9, 16, 25, 36, 49)", size)
	}
	rd := &reader{n: size}
	p := &Puzzle{Grid: sudoku.New(k)}
	field(raw, "title", &p.Title)
	var grid [][]fpCell
	if err := field(raw, "grid", &grid); err != nil {
		return nil, err
	}
	if len(grid) != size {
		return nil, fmt.Errorf("grid: %d rows, want %d", len(grid), size)
	}
	for r, row := range grid {
		if len(row) != size {
			return nil, fmt.Errorf("grid row %d: %d cells, want %d", r+1, len(row), size)
		}
		for c, cell := range row {
			if cell.Region != nil && *cell.Region != p.Grid.BoxOf(r, c) {
				return nil, fmt.Errorf("grid R%dC%d: irregular regions are not read", r+1, c+1)
			}
			if cell.Given {
				if cell.Value < 1 || cell.Value > size {
					return nil, fmt.Errorf("grid R%dC%d: given %d is not a digit 1..%d", r+1, c+1, cell.Value, size)
				}
				p.Grid.Set(r, c, cell.Value)
			}
		}
	}
	keys := make([]string, 0, len(raw))
	for key := range raw {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		if err := rd.constraint(p, key, raw[key]); err != nil {
			return nil, err
		}
	}
	if err := p.Grid.Check(); err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	p.dropRepeats()
	if n, most := p.constrainedCells(), MaxConstraintCells(rd.n); n > most {
		return nil, fmt.Errorf("the constraints name %d cells in all (repeats dropped), more than %d: no puzzle a person sets", n, most)
	}
	return p, nil
}

// MaxConstraintCells is the most cells a variant puzzle of n digits may
// name in all its constraints: 64 per cell of the grid, far beyond any
// set puzzle, and a bound on the clauses and tasks they become.
func MaxConstraintCells(n int) int { return 64 * n * n }

// dropRepeats removes constraints given twice (the same cells, the same
// value): they add nothing but clauses.
func (p *Puzzle) dropRepeats() {
	p.Killers = uniq(p.Killers)
	p.LittleKiller = uniq(p.LittleKiller)
	p.Thermos = uniq(p.Thermos)
	p.Arrows = uniq(p.Arrows)
	p.Ratios = uniq(p.Ratios)
	p.Differences = uniq(p.Differences)
	p.XV = uniq(p.XV)
	p.Renbans = uniq(p.Renbans)
	p.Whispers = uniq(p.Whispers)
	p.Palindromes = uniq(p.Palindromes)
	p.Quadruples = uniq(p.Quadruples)
	p.Extra = uniq(p.Extra)
}

// uniq keeps the first of equal elements (equal as printed), in order.
func uniq[T any](xs []T) []T {
	seen := make(map[string]bool, len(xs))
	out := xs[:0]
	for _, x := range xs {
		k := fmt.Sprint(x)
		if !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// constrainedCells counts the cells the constraints name, with
// multiplicity.
func (p *Puzzle) constrainedCells() int {
	n := 0
	for _, ss := range [][]Sum{p.Killers, p.LittleKiller} {
		for _, s := range ss {
			n += len(s.Cells)
		}
	}
	for _, ls := range [][][]int{p.Thermos, p.Renbans, p.Whispers, p.Palindromes, p.Extra} {
		for _, l := range ls {
			n += len(l)
		}
	}
	for _, a := range p.Arrows {
		n++
		for _, l := range a.Lines {
			n += len(l)
		}
	}
	n += 2 * (len(p.Ratios) + len(p.Differences) + len(p.XV))
	n += 4 * len(p.Quadruples)
	return n + len(p.Odd) + len(p.Even)
}

// disjointGroups are the cells at the same place of every box.
func disjointGroups(k int) [][]int {
	n := k * k
	out := make([][]int, n)
	for b := 0; b < n; b++ {
		r0, c0 := b/k*k, b%k*k
		for i := 0; i < n; i++ {
			out[i] = append(out[i], (r0+i/k)*n+c0+i%k)
		}
	}
	return out
}

func field(raw map[string]json.RawMessage, key string, v any) error {
	b, ok := raw[key]
	if !ok {
		return fmt.Errorf("no %q", key)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	return nil
}

type reader struct{ n int }

// cell reads "R3C7" (1-based).
func (rd *reader) cell(s string) (int, error) {
	u := strings.ToUpper(s)
	i := strings.IndexByte(u, 'C')
	if !strings.HasPrefix(u, "R") || i < 2 {
		return 0, fmt.Errorf("cell %q: want R<row>C<column>", s)
	}
	r, err1 := strconv.Atoi(u[1:i])
	c, err2 := strconv.Atoi(u[i+1:])
	if err1 != nil || err2 != nil || r < 1 || r > rd.n || c < 1 || c > rd.n {
		return 0, fmt.Errorf("cell %q: not in the %dx%d grid", s, rd.n, rd.n)
	}
	return (r-1)*rd.n + c - 1, nil
}

func (rd *reader) cells(ss []string, what string) ([]int, error) {
	if len(ss) == 0 {
		return nil, fmt.Errorf("%s without cells", what)
	}
	out := make([]int, len(ss))
	seen := map[int]bool{}
	for i, s := range ss {
		c, err := rd.cell(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if seen[c] {
			return nil, fmt.Errorf("%s: cell %s twice", what, s)
		}
		seen[c] = true
		out[i] = c
	}
	return out, nil
}

// number reads a clue's value, def when none is given; a value above
// most can hold in no grid.
func number(v flexValue, what string, def, most int) (int, error) {
	s := string(v)
	if s == "" {
		return def, nil
	}
	x, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || x < 0 {
		return 0, fmt.Errorf("%s: value %s is not a number", what, excerpt.Quote(s))
	}
	if x > most {
		return 0, fmt.Errorf("%s: value %d cannot be met: at most %d", what, x, most)
	}
	return x, nil
}

// maxDistinctSum is the largest sum of k distinct digits of 1..n.
func maxDistinctSum(k, n int) int { return k*n - k*(k-1)/2 }

// pair reads two orthogonally adjacent cells.
func (rd *reader) pair(ss []string, what string) (int, int, error) {
	cs, err := rd.cells(ss, what)
	if err != nil {
		return 0, 0, err
	}
	if len(cs) != 2 {
		return 0, 0, fmt.Errorf("%s: %d cells, want 2", what, len(cs))
	}
	a, b := cs[0], cs[1]
	dr, dc := a/rd.n-b/rd.n, a%rd.n-b%rd.n
	if dr*dr+dc*dc != 1 {
		return 0, 0, fmt.Errorf("%s: %s and %s are not adjacent", what, ss[0], ss[1])
	}
	return a, b, nil
}

func (rd *reader) lines(b json.RawMessage, key string) ([][]int, error) {
	var ls []fpLines
	if err := json.Unmarshal(b, &ls); err != nil {
		return nil, fmt.Errorf("%s: %v", key, err)
	}
	var out [][]int
	for i, l := range ls {
		for _, line := range l.Lines {
			cs, err := rd.cells(line, fmt.Sprintf("%s %d", key, i+1))
			if err != nil {
				return nil, err
			}
			out = append(out, cs)
		}
	}
	return out, nil
}

func (rd *reader) constraint(p *Puzzle, key string, b json.RawMessage) error {
	flag := func(dst *bool) error {
		if err := json.Unmarshal(b, dst); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		return nil
	}
	switch key {
	case "size", "grid", "title":
		return nil
	case "diagonal+":
		return flag(&p.DiagonalAnti)
	case "diagonal-":
		return flag(&p.DiagonalMain)
	case "antiknight":
		return flag(&p.AntiKnight)
	case "antiking":
		return flag(&p.AntiKing)
	case "nonconsecutive":
		// no two orthogonal neighbours consecutive: the negative rule of
		// difference dots (with the dots given, if any)
		var on bool
		if err := flag(&on); err != nil {
			return err
		}
		p.NegativeDifference = p.NegativeDifference || on
	case "disjointgroups":
		var on bool
		if err := flag(&on); err != nil {
			return err
		}
		if on {
			p.Extra = append(p.Extra, disjointGroups(p.Grid.Box)...)
			p.Disjoint = true
		}
	case "odd", "even":
		var cs []fpCell1
		if err := json.Unmarshal(b, &cs); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		for i, c := range cs {
			cell, err := rd.cell(c.Cell)
			if err != nil {
				return fmt.Errorf("%s %d: %w", key, i+1, err)
			}
			if key == "odd" {
				p.Odd = append(p.Odd, cell)
			} else {
				p.Even = append(p.Even, cell)
			}
		}
	case "killercage", "extraregion":
		var cs []fpCells
		if err := json.Unmarshal(b, &cs); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		for i, c := range cs {
			what := fmt.Sprintf("%s %d", key, i+1)
			cells, err := rd.cells(c.Cells, what)
			if err != nil {
				return err
			}
			if len(cells) > rd.n {
				return fmt.Errorf("%s: %d cells cannot all differ", what, len(cells))
			}
			if key == "extraregion" {
				p.Extra = append(p.Extra, cells)
				continue
			}
			sum, err := number(c.Value, what, 0, maxDistinctSum(len(cells), rd.n))
			if err != nil {
				return err
			}
			p.Killers = append(p.Killers, Sum{Cells: cells, Sum: sum, Distinct: true})
		}
	case "littlekillersum":
		var ls []fpLittleKiller
		if err := json.Unmarshal(b, &ls); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		for i, l := range ls {
			what := fmt.Sprintf("%s %d", key, i+1)
			if l.Value == "" {
				continue // an arrow without a total constrains nothing
			}
			cells, err := rd.cells(l.Cells, what)
			if err != nil {
				return err
			}
			sum, err := number(l.Value, what, 0, len(cells)*rd.n)
			if err != nil {
				return err
			}
			p.LittleKiller = append(p.LittleKiller, Sum{Cells: cells, Sum: sum})
		}
	case "thermometer", "renban", "whispers", "palindrome":
		ls, err := rd.lines(b, key)
		if err != nil {
			return err
		}
		switch key {
		case "thermometer":
			p.Thermos = append(p.Thermos, ls...)
		case "renban":
			for _, l := range ls {
				if len(l) > rd.n {
					return fmt.Errorf("renban: a line of %d cells cannot hold distinct digits", len(l))
				}
			}
			p.Renbans = append(p.Renbans, ls...)
		case "whispers":
			p.Whispers = append(p.Whispers, ls...)
		case "palindrome":
			p.Palindromes = append(p.Palindromes, ls...)
		}
	case "arrow":
		var as []fpArrow
		if err := json.Unmarshal(b, &as); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		for i, a := range as {
			what := fmt.Sprintf("arrow %d", i+1)
			circle, err := rd.cells(a.Cells, what)
			if err != nil {
				return err
			}
			if len(circle) != 1 {
				return fmt.Errorf("%s: a circle of %d cells (only one-cell circles are read)", what, len(circle))
			}
			ar := Arrow{Circle: circle[0]}
			for _, l := range a.Lines {
				cs, err := rd.cells(l, what)
				if err != nil {
					return err
				}
				// f-puzzles starts each line at the circle
				if len(cs) > 0 && cs[0] == ar.Circle {
					cs = cs[1:]
				}
				if len(cs) == 0 {
					return fmt.Errorf("%s: an empty line", what)
				}
				ar.Lines = append(ar.Lines, cs)
			}
			p.Arrows = append(p.Arrows, ar)
		}
	case "ratio", "difference", "xv":
		var cs []fpCells
		if err := json.Unmarshal(b, &cs); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		for i, c := range cs {
			what := fmt.Sprintf("%s %d", key, i+1)
			a, bb, err := rd.pair(c.Cells, what)
			if err != nil {
				return err
			}
			x := Pair{A: a, B: bb}
			switch key {
			case "ratio":
				if x.Value, err = number(c.Value, what, 2, rd.n); err != nil {
					return err
				}
				p.Ratios = append(p.Ratios, x)
			case "difference":
				if x.Value, err = number(c.Value, what, 1, rd.n-1); err != nil {
					return err
				}
				p.Differences = append(p.Differences, x)
			case "xv":
				switch strings.ToUpper(string(c.Value)) {
				case "X":
					x.Value = 10
				case "V":
					x.Value = 5
				default:
					return fmt.Errorf("%s: value %q is neither X nor V", what, c.Value)
				}
				p.XV = append(p.XV, x)
			}
		}
	case "quadruple":
		var qs []fpQuad
		if err := json.Unmarshal(b, &qs); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		for i, q := range qs {
			what := fmt.Sprintf("quadruple %d", i+1)
			cells, err := rd.cells(q.Cells, what)
			if err != nil {
				return err
			}
			if len(cells) != 4 || len(q.Values) > 4 {
				return fmt.Errorf("%s: %d cells and %d digits, want 4 cells and at most 4 digits", what, len(cells), len(q.Values))
			}
			for _, d := range q.Values {
				if d < 1 || d > rd.n {
					return fmt.Errorf("%s: %d is not a digit 1..%d", what, d, rd.n)
				}
			}
			p.Quadruples = append(p.Quadruples, Quadruple{Cells: cells, Digits: q.Values})
		}
	case "negative":
		var ns []string
		if err := json.Unmarshal(b, &ns); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		for _, n := range ns {
			switch n {
			case "ratio":
				p.NegativeRatio = true
			case "difference":
				p.NegativeDifference = true
			case "xv":
				p.NegativeXV = true
			default:
				return fmt.Errorf("negative: %q is not read (ratio, difference, xv are)", n)
			}
		}
	default:
		if ignoredKeys[key] {
			return nil
		}
		return fmt.Errorf("constraint %q is not read (docs/sudoku.md#variants lists those that are)", key)
	}
	return nil
}
