package sudoku

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MinBox and MaxBox bound the box size k of an n = k*k grid.
const (
	MinBox = 2
	MaxBox = 7
)

// Grid is an n×n Sudoku grid, n = Box*Box. Cells are in row-major order;
// 0 is a blank, 1..n a digit.
type Grid struct {
	Box   int
	Cells []int
}

// New returns an empty grid with boxes of size k×k.
func New(k int) Grid {
	return Grid{Box: k, Cells: make([]int, k*k*k*k)}
}

// Size is n, the number of rows, columns, boxes and digits.
func (g Grid) Size() int { return g.Box * g.Box }

// At returns the digit at row r, column c (0 if blank).
func (g Grid) At(r, c int) int { return g.Cells[r*g.Size()+c] }

// Set stores digit d at row r, column c.
func (g Grid) Set(r, c, d int) { g.Cells[r*g.Size()+c] = d }

// BoxOf returns the index of the box holding row r, column c, counting
// boxes in row-major order.
func (g Grid) BoxOf(r, c int) int { return (r/g.Box)*g.Box + c/g.Box }

// Clone returns an independent copy.
func (g Grid) Clone() Grid {
	return Grid{Box: g.Box, Cells: append([]int(nil), g.Cells...)}
}

// Givens counts the filled cells.
func (g Grid) Givens() int {
	n := 0
	for _, v := range g.Cells {
		if v != 0 {
			n++
		}
	}
	return n
}

// Blanks counts the empty cells.
func (g Grid) Blanks() int { return len(g.Cells) - g.Givens() }

// CellName is "r3c7" (1-based) for row r, column c (0-based).
func CellName(r, c int) string { return fmt.Sprintf("r%dc%d", r+1, c+1) }

// ErrConflict is wrapped by errors about two equal digits in a unit.
var ErrConflict = errors.New("conflicting digits")

// Check reports the first rule violation among the filled cells: a digit
// out of range or the same digit twice in a row, column or box.
func (g Grid) Check() error {
	n := g.Size()
	if g.Box < MinBox || g.Box > MaxBox || len(g.Cells) != n*n {
		return fmt.Errorf("not a %d×%d grid", n, n)
	}
	for i, v := range g.Cells {
		if v < 0 || v > n {
			return fmt.Errorf("cell %s holds %d, outside 1..%d", CellName(i/n, i%n), v, n)
		}
	}
	type unit struct {
		kind  string
		cells func(u, i int) (int, int)
	}
	units := []unit{
		{"row", func(u, i int) (int, int) { return u, i }},
		{"column", func(u, i int) (int, int) { return i, u }},
		{"box", func(u, i int) (int, int) {
			return (u/g.Box)*g.Box + i/g.Box, (u%g.Box)*g.Box + i%g.Box
		}},
	}
	for _, un := range units {
		for u := 0; u < n; u++ {
			seen := make([]int, n+1) // digit -> 1 + cell index in unit
			for i := 0; i < n; i++ {
				r, c := un.cells(u, i)
				v := g.At(r, c)
				if v == 0 {
					continue
				}
				if j := seen[v]; j != 0 {
					r0, c0 := un.cells(u, j-1)
					return fmt.Errorf("%w: digit %s twice in %s %d (cells %s and %s)",
						ErrConflict, Symbol(v, n), un.kind, u+1, CellName(r0, c0), CellName(r, c))
				}
				seen[v] = i + 1
			}
		}
	}
	return nil
}

// IsSolved reports whether the grid is full and breaks no rule.
func (g Grid) IsSolved() bool { return g.Blanks() == 0 && g.Check() == nil }

// Extends reports whether g keeps every given of puzzle p.
func (g Grid) Extends(p Grid) error {
	if g.Box != p.Box || len(g.Cells) != len(p.Cells) {
		return errors.New("grids of different sizes")
	}
	n := g.Size()
	for i, v := range p.Cells {
		if v != 0 && g.Cells[i] != v {
			return fmt.Errorf("cell %s: given %s changed to %s", CellName(i/n, i%n), Symbol(v, n), Symbol(g.Cells[i], n))
		}
	}
	return nil
}

// symbols are the digit characters of the one-line form: 1-9 then A-Z, so
// 16×16 grids use 1-9A-G and 25×25 grids 1-9A-P.
const symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Symbol is the one-line character (or number) for digit d of an n-grid.
func Symbol(d, n int) string {
	switch {
	case d == 0:
		return "."
	case n <= len(symbols) && d <= len(symbols):
		return symbols[d-1 : d]
	}
	return strconv.Itoa(d)
}

// Line returns the one-line form: one character per cell, "." for blanks
// (1-9, then A-Z). Grids larger than 35×35 are written as space-separated
// numbers with 0 for blanks.
func (g Grid) Line() string {
	n := g.Size()
	var b strings.Builder
	if n > len(symbols) {
		for i, v := range g.Cells {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(v))
		}
		return b.String()
	}
	for _, v := range g.Cells {
		b.WriteString(Symbol(v, n))
	}
	return b.String()
}

// String renders the grid for a terminal, with box borders.
func (g Grid) String() string {
	n := g.Size()
	w := len(Symbol(n, n))
	var b strings.Builder
	sep := func() {
		for bx := 0; bx < g.Box; bx++ {
			b.WriteString("+")
			b.WriteString(strings.Repeat("-", g.Box*(w+1)+1))
		}
		b.WriteString("+\n")
	}
	for r := 0; r < n; r++ {
		if r%g.Box == 0 {
			sep()
		}
		for c := 0; c < n; c++ {
			if c%g.Box == 0 {
				b.WriteString("| ")
			}
			s := Symbol(g.At(r, c), n)
			b.WriteString(strings.Repeat(" ", w-len(s)))
			b.WriteString(s)
			b.WriteByte(' ')
		}
		b.WriteString("|\n")
	}
	sep()
	return b.String()
}
