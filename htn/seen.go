package htn

import (
	"hash/maphash"
	"unsafe"

	"github.com/htnsat/htnsat/plan"
)

// seenSet records the search nodes visited, each by a 128-bit hash of its
// encoding (state and network) instead of the encoding itself: a deep
// network's encoding runs to kilobytes, and a set of them filled the
// memory of a recursive domain within seconds (Freecell-Learned
// probfreecell-03-5: 8 GiB after 78k nodes). Two nodes share a hash with
// a probability of about 2^-128 per pair, which would only prune one of
// them; a plan is verified all the same.
type seenSet struct {
	// t maps each node to, for the nodes a depth-first search found
	// failed (dfs.search), the size of the subtree searched
	t seenTable
	// g holds, for the searches that keep the cheapest path to a node
	// (cheaper), the least g each node was reached with
	g      map[[2]uint64]int64
	s1, s2 maphash.Seed
	// max, when above 0, bounds the nodes recorded: the set starts over
	// when it is full, forgetting nodes (which only prunes less) rather
	// than filling the memory
	max int
	// gauge, when set, tells the memory used and the limit: a table
	// whose doubling would take the process past roomShare of the limit
	// starts over instead (fits)
	gauge plan.MemoryGauge
}

// roomShare is the share of the memory limit a seen set may take the
// process to when its table doubles: past it the table starts over at
// the size it has, which only prunes less, where growing would end the
// search at the limit. IPC 2023 Freecell's depth-first search records
// every node of its recursive network and meets none again in 3 million:
// the table was nine tenths of its heap (probfreecell-08-1 after 20 s:
// 1,152 of 1,287 MB).
const roomShare = 0.75

func newSeenSet() *seenSet {
	return &seenSet{s1: maphash.MakeSeed(), s2: maphash.MakeSeed()}
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
	return v.t.get(h)
}

// put records h with number n.
func (v *seenSet) put(h [2]uint64, n int32) {
	if v.max > 0 && v.t.n >= v.max || !v.fits() {
		v.t.clear()
	}
	v.t.put(h, n)
}

// fits reports whether the table can take one more entry: it has room,
// or no gauge, or its doubling leaves the process within roomShare of
// the memory limit. The gauge is read only when the table is full: once
// per doubling, or once per fill after it starts over.
func (v *seenSet) fits() bool {
	t := &v.t
	if v.gauge == nil || !t.full() {
		return true
	}
	used, limit := v.gauge()
	if limit <= 0 {
		return true
	}
	grown := int64(2*len(t.slots)) * int64(unsafe.Sizeof(seenSlot{}))
	return float64(used+grown) <= roomShare*float64(limit)
}

// cheaper records that key was reached at cost g and reports whether
// that is cheaper than before (or the first time): a node reached again
// at a lower cost must be searched again for the search to stay optimal.
func (v *seenSet) cheaper(key []byte, g int64) bool {
	if v.g == nil {
		v.g = map[[2]uint64]int64{}
	}
	h := v.hash(key)
	if old, ok := v.g[h]; ok && old <= g {
		return false
	}
	v.g[h] = g
	return true
}

func (v *seenSet) reset() { v.t.clear(); clear(v.g) }

// seenTable is an open-addressing hash table from 128-bit hashes to
// numbers, probed linearly from the hash's low bits. Sets of millions of
// nodes miss the cache at nearly every look-up; a Go map's look-up reads
// a group's control word and then its slot, this one the slot alone
// (the depth-first search of IPC Logistics-Learned probLOGISTICS-37-0
// spent 27 % of its time in the map's look-ups; BenchmarkDFSRecursive).
// The all-zero hash marks an empty slot, so a hash that is all zero is
// stored as {0, 1} (slotKey), which only merges two of 2^128.
type seenTable struct {
	slots []seenSlot // a power of two long, or empty
	n     int
}

type seenSlot struct {
	h [2]uint64
	v int32
}

// slotKey is hash h as stored: never all zero, the empty slot's mark.
func slotKey(h [2]uint64) [2]uint64 {
	if h == [2]uint64{} {
		h[1] = 1
	}
	return h
}

func (t *seenTable) get(h [2]uint64) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	h = slotKey(h)
	mask := uint64(len(t.slots) - 1)
	for i := h[0] & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.h == h {
			return s.v, true
		}
		if s.h == [2]uint64{} {
			return 0, false
		}
	}
}

// full reports whether the next new entry makes the table grow.
func (t *seenTable) full() bool { return 4*(t.n+1) > 3*len(t.slots) }

func (t *seenTable) put(h [2]uint64, v int32) {
	h = slotKey(h)
	if t.full() {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := h[0] & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.h == h {
			s.v = v
			return
		}
		if s.h == [2]uint64{} {
			s.h, s.v = h, v
			t.n++
			return
		}
	}
}

// grow doubles the table (from 1,024 slots) and places every entry again.
func (t *seenTable) grow() {
	old := t.slots
	t.slots = make([]seenSlot, max(1024, 2*len(old)))
	t.n = 0
	for _, s := range old {
		if s.h != [2]uint64{} {
			t.put(s.h, s.v)
		}
	}
}

func (t *seenTable) clear() {
	clear(t.slots)
	t.n = 0
}
