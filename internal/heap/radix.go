package heap

import "math/bits"

// Radix is a monotone priority queue of (node, cost) pairs (a radix heap:
// Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the shortest
// path problem", JACM 1990): every cost pushed must be at least the cost
// last popped, as in Dijkstra's algorithm and Knuth's generalisation of it
// that the relaxed composition heuristic runs. An item sits in the bucket
// of the highest bit in which its cost differs from the last popped one;
// a pop empties the lowest non-empty bucket into lower ones, so each item
// moves at most 32 times and a push is an append. Costs are non-negative.
// The zero value is empty.
type Radix struct {
	buckets [33][]Item
	last    int32
	n       int
}

func (r *Radix) bucket(c int32) int { return bits.Len32(uint32(c ^ r.last)) }

// Len is the number of items.
func (r *Radix) Len() int { return r.n }

// Reset empties the queue, keeping its memory, and sets the least cost
// that may be pushed to 0.
func (r *Radix) Reset() {
	for i := range r.buckets {
		r.buckets[i] = r.buckets[i][:0]
	}
	r.last, r.n = 0, 0
}

// Push adds an item; its cost must not be below the last popped one.
func (r *Radix) Push(it Item) {
	b := r.bucket(it.Cost)
	r.buckets[b] = append(r.buckets[b], it)
	r.n++
}

// Pop removes and returns an item of least cost; the queue must not be
// empty.
func (r *Radix) Pop() Item {
	if len(r.buckets[0]) == 0 {
		i := 1
		for len(r.buckets[i]) == 0 {
			i++
		}
		// the least cost of bucket i becomes the last popped one: every
		// item of the bucket then differs from it in a lower bit only
		b := r.buckets[i]
		m := b[0].Cost
		for _, it := range b[1:] {
			m = min(m, it.Cost)
		}
		r.last = m
		for _, it := range b {
			j := r.bucket(it.Cost)
			r.buckets[j] = append(r.buckets[j], it)
		}
		r.buckets[i] = b[:0]
	}
	b := r.buckets[0]
	it := b[len(b)-1]
	r.buckets[0] = b[:len(b)-1]
	r.n--
	return it
}
