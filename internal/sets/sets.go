// Package sets holds the small set types that several packages share: a
// bitset over small non-negative integers, a set of indices with O(1)
// insertion and removal, and an order-keeping duplicate filter.
package sets

import (
	"math/bits"
	"slices"
)

// Bits is a set of small non-negative integers, 64 to a word.
type Bits []uint64

// NewBits returns an empty set with room for 0..n-1.
func NewBits(n int) Bits { return make(Bits, (n+63)/64) }

// Has reports whether i is in the set.
func (b Bits) Has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

// Add puts i in the set.
func (b Bits) Add(i int) { b[i>>6] |= 1 << (uint(i) & 63) }

// Remove takes i out of the set.
func (b Bits) Remove(i int) { b[i>>6] &^= 1 << (uint(i) & 63) }

// Flip adds i if it is absent, removes it otherwise.
func (b Bits) Flip(i int) { b[i>>6] ^= 1 << (uint(i) & 63) }

// Empty reports whether the set has no member.
func (b Bits) Empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// And returns the intersection of b and c (of equal length) as a new set.
func (b Bits) And(c Bits) Bits {
	out := make(Bits, len(b))
	for i := range b {
		out[i] = b[i] & c[i]
	}
	return out
}

// AndInto writes the intersection of b and c (of equal length) into dst
// (as long) and returns it.
func (b Bits) AndInto(c, dst Bits) Bits {
	for i := range b {
		dst[i] = b[i] & c[i]
	}
	return dst
}

// AndCount is the size of the intersection of b and c.
func (b Bits) AndCount(c Bits) int {
	n := 0
	for i := range b {
		n += bits.OnesCount64(b[i] & c[i])
	}
	return n
}

// Union adds the members of c to b (as long as b) and reports whether b
// grew.
func (b Bits) Union(c Bits) bool {
	grew := false
	for i, w := range c {
		if w&^b[i] != 0 {
			b[i] |= w
			grew = true
		}
	}
	return grew
}

// Members lists the members in increasing order.
func (b Bits) Members() []int { return b.AppendMembers(nil) }

// AppendMembers appends the members to out in increasing order.
func (b Bits) AppendMembers(out []int) []int {
	for i, w := range b {
		for w != 0 {
			out = append(out, i*64+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return out
}

// Index is a set of indices 0..n-1 kept in a slice in no particular order,
// with the position of each member, so that adding and removing take
// constant time (a removed member's place goes to the last one).
type Index[T ~int32] struct {
	Members []T
	pos     []int32 // per index: its place in Members, or -1
}

// Grow makes room for indices up to n-1.
func (s *Index[T]) Grow(n int) {
	for len(s.pos) < n {
		s.pos = append(s.pos, -1)
	}
}

// Truncate forgets indices n and above, which must not be members.
func (s *Index[T]) Truncate(n int) { s.pos = s.pos[:n] }

// Has reports whether x is a member.
func (s *Index[T]) Has(x T) bool { return s.pos[x] >= 0 }

// Add adds x, which must not be a member.
func (s *Index[T]) Add(x T) {
	s.pos[x] = int32(len(s.Members))
	s.Members = append(s.Members, x)
}

// Remove removes x, which must be a member.
func (s *Index[T]) Remove(x T) {
	i := s.pos[x]
	last := s.Members[len(s.Members)-1]
	s.Members[i] = last
	s.pos[last] = i
	s.Members = s.Members[:len(s.Members)-1]
	s.pos[x] = -1
}

// Pop removes and returns the member added last among those left (the
// set as a stack of distinct indices); the set must not be empty.
func (s *Index[T]) Pop() T {
	x := s.Members[len(s.Members)-1]
	s.Members = s.Members[:len(s.Members)-1]
	s.pos[x] = -1
	return x
}

// Clear removes every member.
func (s *Index[T]) Clear() {
	for _, x := range s.Members {
		s.pos[x] = -1
	}
	s.Members = s.Members[:0]
}

// Dedup removes repeated elements in place, keeping the first of each in
// its order, and returns the shortened slice.
func Dedup[T comparable](xs []T) []T {
	if len(xs) < 2 {
		return xs
	}
	if len(xs) <= 32 {
		// short lists: a scan beats a map
		out := xs[:1]
		for _, x := range xs[1:] {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
		return out
	}
	seen := make(map[T]struct{}, len(xs))
	out := xs[:0]
	for _, x := range xs {
		if _, dup := seen[x]; !dup {
			seen[x] = struct{}{}
			out = append(out, x)
		}
	}
	return out
}
