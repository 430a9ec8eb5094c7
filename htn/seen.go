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
	// m maps each node to, for the nodes a depth-first search found
	// failed (dfs.search), the size of the subtree searched
	m map[[2]uint64]int32
	// g holds, for the searches that keep the cheapest path to a node
	// (cheaper), the least g each node was reached with
	g      map[[2]uint64]int32
	s1, s2 maphash.Seed
	// max, when above 0, bounds the nodes recorded: the set starts over
	// when it is full, forgetting nodes (which only prunes less) rather
	// than filling the memory
	max int
}

func newSeenSet() *seenSet {
	return &seenSet{m: map[[2]uint64]int32{}, s1: maphash.MakeSeed(), s2: maphash.MakeSeed()}
}

// add records key and reports whether it was there already.
func (v *seenSet) add(key []byte) bool { return v.addHash(v.hash(key)) }

// addHash records hash h and reports whether it was there already.
func (v *seenSet) addHash(h [2]uint64) bool {
	if _, ok := v.get(h); ok {
		return true
	}
	v.put(h, 0)
	return false
}

// hash is key's entry in the set.
func (v *seenSet) hash(key []byte) [2]uint64 {
	return [2]uint64{maphash.Bytes(v.s1, key), maphash.Bytes(v.s2, key)}
}

// get returns the number recorded with h, and whether h is there.
func (v *seenSet) get(h [2]uint64) (int32, bool) {
	n, ok := v.m[h]
	return n, ok
}

// put records h with number n.
func (v *seenSet) put(h [2]uint64, n int32) {
	if v.max > 0 && len(v.m) >= v.max {
		clear(v.m)
	}
	v.m[h] = n
}

// cheaper records that key was reached at cost g and reports whether
// that is cheaper than before (or the first time): a node reached again
// at a lower cost must be searched again for the search to stay optimal.
func (v *seenSet) cheaper(key []byte, g int32) bool {
	if v.g == nil {
		v.g = map[[2]uint64]int32{}
	}
	h := v.hash(key)
	if old, ok := v.g[h]; ok && old <= g {
		return false
	}
	v.g[h] = g
	return true
}

func (v *seenSet) reset() { clear(v.m); clear(v.g) }
