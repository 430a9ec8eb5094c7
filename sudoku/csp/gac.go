package csp

import "math/bits"

// gacUnit filters the domains of the cells of one all-different
// constraint to generalised arc consistency with Régin's algorithm: a
// maximum matching of cells to digits, then every digit of a cell is kept
// only if some maximum matching uses it (it lies on an alternating path
// from a free digit or on an alternating cycle). changed is called for
// each cell whose domain shrank. It reports false when no matching covers
// the cells (the constraint cannot be satisfied).
func gacUnit(s State, cells []int, changed func(int)) bool {
	k := len(cells)
	if k > 64 {
		panic("csp: a unit of more than 64 cells")
	}
	var mv [64]int // the digit matched to each cell of the unit
	var mx [65]int // the unit position matched to each digit, -1 if free
	for v := range mx {
		mx[v] = -1
	}
	var visited Dom
	var try func(i int) bool
	try = func(i int) bool {
		for d := s[cells[i]]; d != 0; d &= d - 1 {
			v := bits.TrailingZeros64(uint64(d)) + 1
			if visited.Has(v) {
				continue
			}
			visited |= bit(v)
			if mx[v] < 0 || try(mx[v]) {
				mx[v], mv[i] = i, v
				return true
			}
		}
		return false
	}
	// a greedy start, then augmenting paths for the cells left over
	var union Dom
	for i, c := range cells {
		union |= s[c]
		for d := s[c]; d != 0; d &= d - 1 {
			if v := bits.TrailingZeros64(uint64(d)) + 1; mx[v] < 0 {
				mx[v], mv[i] = i, v
				break
			}
		}
	}
	for i := range cells {
		if mv[i] == 0 {
			visited = 0
			if !try(i) {
				return false
			}
		}
	}
	// digits reachable by an even alternating path from a free digit: a
	// free digit v, and the matched digit of any cell that could take a
	// reachable digit instead of its own
	var reach Dom
	for d := union; d != 0; d &= d - 1 {
		if v := bits.TrailingZeros64(uint64(d)) + 1; mx[v] < 0 {
			reach |= bit(v)
		}
	}
	for grew := reach != 0; grew; {
		grew = false
		for i, c := range cells {
			if m := bit(mv[i]); reach&m == 0 && s[c]&reach != 0 {
				reach |= m
				grew = true
			}
		}
	}
	// the cell graph: i -> j when cell i could take j's matched digit;
	// alternating cycles are its strongly connected parts (closure by
	// Warshall's algorithm over bit sets)
	var to [64]uint64
	for i, c := range cells {
		for j := range cells {
			if j != i && s[c].Has(mv[j]) {
				to[i] |= 1 << j
			}
		}
	}
	for m := 0; m < k; m++ {
		for i := 0; i < k; i++ {
			if to[i]&(1<<m) != 0 {
				to[i] |= to[m]
			}
		}
	}
	for i, c := range cells {
		keep := bit(mv[i]) | s[c]&reach
		for d := s[c] &^ keep; d != 0; d &= d - 1 {
			v := bits.TrailingZeros64(uint64(d)) + 1
			if j := mx[v]; j >= 0 && to[j]&(1<<i) != 0 {
				keep |= bit(v)
			}
		}
		if keep != s[c] {
			s[c] = keep
			changed(c)
		}
	}
	return true
}

// GACUnit makes one unit generalised arc consistent. It reports false if
// the unit cannot be satisfied.
func (m *Model) GACUnit(s State, u int) bool {
	return gacUnit(s, m.Units[u].Cells, func(int) {})
}

// GAC makes every unit generalised arc consistent, to the fixpoint. It
// reports false if a unit cannot be satisfied.
func (m *Model) GAC(s State) bool {
	all := make([]int, len(m.Units))
	for u := range all {
		all[u] = u
	}
	return m.gacFrom(s, all)
}

// gacFrom propagates from the units given (s is consistent on the others).
func (m *Model) gacFrom(s State, units []int) bool {
	queued := make([]bool, len(m.Units))
	queue := append([]int(nil), units...)
	for _, u := range queue {
		queued[u] = true
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		queued[u] = false
		ok := gacUnit(s, m.Units[u].Cells, func(c int) {
			for _, w := range m.unitsOf[c] {
				if !queued[w] && w != u {
					queued[w] = true
					queue = append(queue, w)
				}
			}
		})
		if !ok {
			return false
		}
	}
	return true
}
