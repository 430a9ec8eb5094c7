package sets

import (
	"math"
	"math/bits"
)

// U64Map maps uint64 keys to int32 values by open addressing (linear
// probing, Fibonacci hashing); its zero value is an empty map. The
// grounder keys its relations' tuples by packed uint64s (Go's map spent
// about a quarter of grounding a Sudoku problem hashing and probing them)
// and the SAT encoding its clauses' literal pairs.
type U64Map struct {
	keys []uint64 // key+1 per slot; 0 is an empty slot
	vals []int32
	n    int
	// the key MaxUint64 (four values of 65,535) has no key+1: kept apart
	hasMax bool
	maxVal int32
}

func (m *U64Map) slot(k uint64) int {
	shift := 64 - bits.TrailingZeros(uint(len(m.keys)))
	return int((k * 0x9E3779B97F4A7C15) >> shift)
}

// Get returns the value of k.
func (m *U64Map) Get(k uint64) (int32, bool) {
	if k == math.MaxUint64 {
		return m.maxVal, m.hasMax
	}
	if len(m.keys) == 0 {
		return 0, false
	}
	mask := len(m.keys) - 1
	for i := m.slot(k); ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k + 1:
			return m.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// GetOrPut returns the value of k and false, or stores v for k and
// returns v and true.
func (m *U64Map) GetOrPut(k uint64, v int32) (int32, bool) {
	if k == math.MaxUint64 {
		if m.hasMax {
			return m.maxVal, false
		}
		m.hasMax, m.maxVal = true, v
		m.n++
		return v, true
	}
	if 4*(m.n+1) > 3*len(m.keys) {
		m.resize(max(8, 2*len(m.keys)))
	}
	mask := len(m.keys) - 1
	for i := m.slot(k); ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k + 1:
			return m.vals[i], false
		case 0:
			m.keys[i], m.vals[i] = k+1, v
			m.n++
			return v, true
		}
	}
}

// Reserve makes room for n keys in all, so that putting them does not
// grow the table again.
func (m *U64Map) Reserve(n int) {
	size := max(8, len(m.keys))
	for 3*size < 4*n {
		size *= 2
	}
	if size > len(m.keys) {
		m.resize(size)
	}
}

// resize moves every key into a table of size slots (a power of two).
func (m *U64Map) resize(size int) {
	keys, vals := m.keys, m.vals
	m.keys, m.vals = make([]uint64, size), make([]int32, size)
	mask := size - 1
	for j, k1 := range keys {
		if k1 == 0 {
			continue
		}
		i := m.slot(k1 - 1)
		for m.keys[i] != 0 {
			i = (i + 1) & mask
		}
		m.keys[i], m.vals[i] = k1, vals[j]
	}
}

// Len is the number of keys.
func (m *U64Map) Len() int { return m.n }
