package htn

import "hash/maphash"

// seenSet records the search nodes visited, each by a 128-bit hash of its
// encoding (state and network) instead of the encoding itself: a deep
// network's encoding runs to kilobytes, and a set of them filled the
// memory of a recursive domain within seconds (Freecell-Learned
// probfreecell-03-5: 8 GiB after 78k nodes). Two nodes share a hash with
// a probability of about 2^-128 per pair, which would only prune one of
// them; a plan is verified all the same.
type seenSet struct {
	m map[[2]uint64]struct{}
	// g holds, for the searches that keep the cheapest path to a node
	// (cheaper), the least g each node was reached with
	g      map[[2]uint64]int32
	s1, s2 maphash.Seed
}

func newSeenSet() *seenSet {
	return &seenSet{m: map[[2]uint64]struct{}{}, s1: maphash.MakeSeed(), s2: maphash.MakeSeed()}
}

// add records key and reports whether it was there already.
func (v *seenSet) add(key []byte) bool {
	h := [2]uint64{maphash.Bytes(v.s1, key), maphash.Bytes(v.s2, key)}
	if _, ok := v.m[h]; ok {
		return true
	}
	v.m[h] = struct{}{}
	return false
}

// cheaper records that key was reached at cost g and reports whether
// that is cheaper than before (or the first time): a node reached again
// at a lower cost must be searched again for the search to stay optimal.
func (v *seenSet) cheaper(key []byte, g int32) bool {
	if v.g == nil {
		v.g = map[[2]uint64]int32{}
	}
	h := [2]uint64{maphash.Bytes(v.s1, key), maphash.Bytes(v.s2, key)}
	if old, ok := v.g[h]; ok && old <= g {
		return false
	}
	v.g[h] = g
	return true
}

func (v *seenSet) reset() { clear(v.m); clear(v.g) }
