package htn

// heapItem is a node (a fact or task) with a cost.
type heapItem struct{ node, cost int32 }

// minHeap is a binary min-heap on cost, written out so that pushing and
// popping do not box items (container/heap would allocate for each). The
// costs of the TDG and relaxed composition heuristics use it.
type minHeap []heapItem

func (h *minHeap) push(it heapItem) {
	*h = append(*h, it)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if q[p].cost <= q[i].cost {
			break
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
}

func (h *minHeap) pop() heapItem {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(q) && q[l].cost < q[m].cost {
			m = l
		}
		if r := l + 1; r < len(q) && q[r].cost < q[m].cost {
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
