package satenc

import (
	"encoding/binary"
	"slices"

	"github.com/htnsat/htnsat/ground"
)

// alignment places the subtasks of the methods of a vertex among its
// children. Left-aligned (the i-th subtask at the i-th child, as in
// totSAT and Lilotane), a task that ends methods of different lengths
// lands at different children: the release task of Multiarm-Blocksworld
// ends in its recursion after four subtasks in one method and after two in
// another, so each vertex that may hold it gets two recursive children,
// and the tree doubles every second layer. An alignment may leave children
// of a method blank (a blank child holds no task and changes no fact), and
// places each method's subtasks, in order, where the same task, or at
// least a compound task, already stands, so that the recursion stays at
// one child. The width does not grow: it is the longest method's length.
type alignment struct {
	width int32
	slots [][]int32 // per method of the vertex (vertex.methods): the child of each subtask, in the order used; nil: the i-th at the i-th
}

// slot is the child of the j-th subtask of the k-th method.
func (a *alignment) slot(k, j int) int {
	if a.slots == nil || a.slots[k] == nil {
		return j
	}
	return int(a.slots[k][j])
}

// Costs of putting a task at a child where it does not stand yet: an
// action adds a variable; a compound task adds a subtree, and most where
// no compound task stands (the child would be decomposed only for it).
const (
	alignAction      = 1
	alignCompound    = 10
	alignNewCompound = 1000
	alignUnreachable = 1 << 30
)

// alignFor returns the alignment of a vertex with methods ms (sorted) and,
// if hasPrim, actions (which pass down to the first child). Vertices with
// the same methods share one.
func (e *Encoding) alignFor(ms []ground.MethodID, hasPrim bool) *alignment {
	// methods all of one length (or none) leave nothing to choose
	w := 0
	if hasPrim {
		w = 1
	}
	for _, m := range ms {
		w = max(w, len(e.order[m]))
	}
	if !slices.ContainsFunc(ms, func(m ground.MethodID) bool { n := len(e.order[m]); return n > 0 && n < w }) {
		for len(e.lefts) <= w {
			e.lefts = append(e.lefts, &alignment{width: int32(len(e.lefts))})
		}
		return e.lefts[w]
	}
	key := e.alignKey[:0]
	if hasPrim {
		key = append(key, 1)
	} else {
		key = append(key, 0)
	}
	for _, m := range ms {
		key = binary.LittleEndian.AppendUint32(key, uint32(m))
	}
	e.alignKey = key
	if a, ok := e.aligns[string(key)]; ok {
		return a
	}
	if e.aligns == nil {
		e.aligns = map[string]*alignment{}
	}
	a := e.align(ms, w)
	e.aligns[string(key)] = a
	return a
}

// align places the methods ms among w children, the longest methods
// first, each at the children where it costs least (the leftmost such
// children on a tie), given the tasks the methods placed before it put
// there.
func (e *Encoding) align(ms []ground.MethodID, w int) *alignment {
	t := e.t
	a := &alignment{width: int32(w), slots: make([][]int32, len(ms))}
	at := make([]map[ground.TaskID]bool, w) // the tasks placed at each child
	compound := make([]bool, w)
	for i := range at {
		at[i] = map[ground.TaskID]bool{}
	}
	byLength := make([]int, len(ms))
	for k := range byLength {
		byLength[k] = k
	}
	// longest first, in the vertex's order among equals
	slices.SortStableFunc(byLength, func(x, y int) int {
		return len(e.order[ms[y]]) - len(e.order[ms[x]])
	})
	var dp []int
	var from []int32
	for _, k := range byLength {
		m := ms[k]
		o := e.order[m]
		n := len(o)
		slots := make([]int32, n)
		if n == w {
			for j := range slots {
				slots[j] = int32(j)
			}
		} else if n > 0 {
			cost := func(j, i int) int {
				tk := t.Methods[m].Subtasks[o[j]]
				switch {
				case at[i][tk]:
					return 0
				case t.IsPrimitive(tk):
					return alignAction
				case compound[i]:
					return alignCompound
				}
				return alignNewCompound
			}
			// dp[j*w+i]: the least cost of the first j+1 subtasks with
			// the (j+1)-th at child i; from: the child of the j-th then
			dp = append(dp[:0], make([]int, n*w)...)
			from = append(from[:0], make([]int32, n*w)...)
			for i := range w {
				dp[i] = alignUnreachable
				if i <= w-n {
					dp[i] = cost(0, i)
				}
			}
			for j := 1; j < n; j++ {
				best, arg := alignUnreachable, int32(-1)
				for i := range w {
					dp[j*w+i] = alignUnreachable
					if i > 0 && dp[(j-1)*w+i-1] < best {
						best, arg = dp[(j-1)*w+i-1], int32(i-1)
					}
					if i >= j && i <= w-n+j && arg >= 0 {
						dp[j*w+i] = best + cost(j, i)
						from[j*w+i] = arg
					}
				}
			}
			last, best := -1, alignUnreachable
			for i := n - 1; i < w; i++ {
				if c := dp[(n-1)*w+i]; c < best {
					last, best = i, c
				}
			}
			for j := n - 1; j >= 0; j-- {
				slots[j] = int32(last)
				last = int(from[j*w+last])
			}
		}
		for j, i := range slots {
			tk := t.Methods[m].Subtasks[o[j]]
			at[i][tk] = true
			if !t.IsPrimitive(tk) {
				compound[i] = true
			}
		}
		left := true
		for j, i := range slots {
			left = left && int(i) == j
		}
		if !left {
			a.slots[k] = slots
		}
	}
	return a
}
