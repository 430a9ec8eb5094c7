package csp

import (
	"fmt"
	"math/bits"

	"github.com/htnsat/htnsat/sudoku"
)

// Dom is a domain: bit d-1 is set when digit d is possible (n ≤ 64).
type Dom uint64

// Count is the number of digits left.
func (d Dom) Count() int { return bits.OnesCount64(uint64(d)) }

// Has tells whether digit v is possible.
func (d Dom) Has(v int) bool { return d&(1<<(v-1)) != 0 }

// Single is the digit of a one-digit domain (0 otherwise).
func (d Dom) Single() int {
	if d == 0 || d&(d-1) != 0 {
		return 0
	}
	return bits.TrailingZeros64(uint64(d)) + 1
}

// Digits lists the possible digits in increasing order.
func (d Dom) Digits() []int {
	var out []int
	for x := uint64(d); x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros64(x)+1)
	}
	return out
}

func bit(v int) Dom { return 1 << (v - 1) }

// Unit is an all-different constraint over cells (indexes in row-major
// order), named for people ("row 3", "column 7", "box 5").
type Unit struct {
	Name  string
	Cells []int
}

// Model is the constraint network of a grid: its n×n cells, the
// all-different units and, per cell, the units it is in and its peers
// (the cells sharing a unit with it).
type Model struct {
	N, Box  int
	Units   []Unit
	unitsOf [][]int
	peers   [][]int
}

// NewModel is the network of an n×n grid with boxes of k×k cells (k from
// sudoku.MinBox to sudoku.MaxBox) and the standard units: rows, columns,
// boxes, in that order.
func NewModel(k int) *Model {
	n := k * k
	m := &Model{N: n, Box: k}
	for r := 0; r < n; r++ {
		u := Unit{Name: fmt.Sprintf("row %d", r+1)}
		for c := 0; c < n; c++ {
			u.Cells = append(u.Cells, r*n+c)
		}
		m.Units = append(m.Units, u)
	}
	for c := 0; c < n; c++ {
		u := Unit{Name: fmt.Sprintf("column %d", c+1)}
		for r := 0; r < n; r++ {
			u.Cells = append(u.Cells, r*n+c)
		}
		m.Units = append(m.Units, u)
	}
	for b := 0; b < n; b++ {
		u := Unit{Name: fmt.Sprintf("box %d", b+1)}
		r0, c0 := b/k*k, b%k*k
		for i := 0; i < n; i++ {
			u.Cells = append(u.Cells, (r0+i/k)*n+c0+i%k)
		}
		m.Units = append(m.Units, u)
	}
	m.index()
	return m
}

// AddUnit adds an all-different constraint (a diagonal, an extra region)
// over cells given in row-major order.
func (m *Model) AddUnit(u Unit) {
	m.Units = append(m.Units, u)
	m.index()
}

func (m *Model) index() {
	nc := m.N * m.N
	m.unitsOf = make([][]int, nc)
	for i, u := range m.Units {
		for _, c := range u.Cells {
			m.unitsOf[c] = append(m.unitsOf[c], i)
		}
	}
	m.peers = make([][]int, nc)
	seen := make([]int, nc)
	for i := range seen {
		seen[i] = -1
	}
	for c := 0; c < nc; c++ {
		for _, u := range m.unitsOf[c] {
			for _, p := range m.Units[u].Cells {
				if p != c && seen[p] != c {
					seen[p] = c
					m.peers[c] = append(m.peers[c], p)
				}
			}
		}
	}
}

// CellName is "r3c7" for a cell index.
func (m *Model) CellName(c int) string { return sudoku.CellName(c/m.N, c%m.N) }

// Full is the domain of every digit.
func (m *Model) Full() Dom { return Dom(1)<<m.N - 1 }

// State is the domains of every cell, in row-major order.
type State []Dom

// Clone returns an independent copy.
func (s State) Clone() State { return append(State(nil), s...) }

// Solved tells whether every domain holds one digit.
func (s State) Solved() bool {
	for _, d := range s {
		if d.Single() == 0 {
			return false
		}
	}
	return true
}

// Empty is the first cell whose domain is empty, or -1.
func (s State) Empty() int {
	for c, d := range s {
		if d == 0 {
			return c
		}
	}
	return -1
}

// Grid is the grid of the assigned cells of s.
func (s State) Grid(k int) sudoku.Grid {
	g := sudoku.New(k)
	for c, d := range s {
		g.Cells[c] = d.Single()
	}
	return g
}

// Initial is the state of a grid before any propagation: a given digit's
// cell holds that digit, a blank every digit.
func (m *Model) Initial(g sudoku.Grid) State {
	s := make(State, m.N*m.N)
	for c := range s {
		if v := g.Cells[c]; v != 0 {
			s[c] = bit(v)
		} else {
			s[c] = m.Full()
		}
	}
	return s
}

// FC is forward checking from the assigned cells of g: each given digit is
// removed from its peers' domains, once (a cell left with one digit is not
// assigned by it). It reports false if a domain empties.
func (m *Model) FC(g sudoku.Grid, s State) bool {
	for c, v := range g.Cells {
		if v == 0 {
			continue
		}
		for _, p := range m.peers[c] {
			s[p] &^= bit(v)
		}
	}
	for c, v := range g.Cells {
		if v != 0 {
			s[c] = bit(v)
		}
	}
	return s.Empty() < 0
}

// AC makes s arc consistent on the binary ≠ decomposition of every unit:
// a cell with one digit left removes it from its peers, to the fixpoint.
// It reports false if a domain empties.
func (m *Model) AC(s State) bool {
	queue := make([]int, 0, len(s))
	for c, d := range s {
		switch {
		case d == 0:
			return false
		case d.Single() != 0:
			queue = append(queue, c)
		}
	}
	return m.acFrom(s, queue)
}

// acFrom propagates the single-digit cells of queue.
func (m *Model) acFrom(s State, queue []int) bool {
	for len(queue) > 0 {
		c := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		b := s[c]
		for _, p := range m.peers[c] {
			if s[p]&b == 0 {
				continue
			}
			s[p] &^= b
			switch {
			case s[p] == 0:
				return false
			case s[p].Single() != 0:
				queue = append(queue, p)
			}
		}
	}
	return true
}
