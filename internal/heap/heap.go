// Package heap holds priority queues of (node, cost) pairs: a binary
// min-heap (Min) and a monotone radix heap (Radix), written out so
// that pushing and popping do not box items (container/heap would
// allocate for each). The TDG and relaxed composition heuristics of the
// progression search and the depth analyses of the ground task use it.
package heap

import "cmp"

// ItemOf is a node (a fact, task, ...) with a cost of type C.
type ItemOf[C cmp.Ordered] struct {
	Node int32
	Cost C
}

// Item is a node with a 32-bit cost.
type Item = ItemOf[int32]

// Of is a min-heap on Cost. The zero value is empty; a slice whose items
// all have the same cost is a heap already.
type Of[C cmp.Ordered] []ItemOf[C]

// Min is a min-heap of 32-bit costs.
type Min = Of[int32]

// Push adds an item.
func (h *Of[C]) Push(it ItemOf[C]) {
	*h = append(*h, it)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if q[p].Cost <= q[i].Cost {
			break
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
}

// Pop removes and returns an item of least cost; the heap must not be
// empty.
func (h *Of[C]) Pop() ItemOf[C] {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(q) && q[l].Cost < q[m].Cost {
			m = l
		}
		if r := l + 1; r < len(q) && q[r].Cost < q[m].Cost {
			m = r
		}
		if m == i {
			break
		}
		q[m], q[i] = q[i], q[m]
		i = m
	}
	*h = q
	return top
}
