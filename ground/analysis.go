package ground

import (
	"fmt"
	"slices"

	"github.com/htnsat/htnsat/internal/heap"
)

// Analyses of a ground task that the engines share. Each is derived here,
// once, from the task alone, as Fast Downward's translator derives
// invariants before search; no engine derives them again.

// Linearize returns an order of the n tasks of a network that its ordering
// allows: a topological order, taking the smallest index among the tasks
// ready at each step. It fails on pairs out of range and on cycles.
func Linearize(n int, order []Order) ([]int, error) {
	succ := make([][]int32, n)
	indeg := make([]int, n)
	for _, o := range order {
		if o.Before < 0 || int(o.Before) >= n || o.After < 0 || int(o.After) >= n || o.Before == o.After {
			return nil, fmt.Errorf("ordering %d<%d out of range", o.Before, o.After)
		}
		succ[o.Before] = append(succ[o.Before], o.After)
		indeg[o.After]++
	}
	// ready is kept sorted in decreasing order, so the smallest is last
	var ready []int
	for i := n - 1; i >= 0; i-- {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	out := make([]int, 0, n)
	for len(ready) > 0 {
		x := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		out = append(out, x)
		grew := false
		for _, y := range succ[x] {
			if indeg[y]--; indeg[y] == 0 {
				ready = append(ready, int(y))
				grew = true
			}
		}
		if grew {
			slices.SortFunc(ready, func(a, b int) int { return b - a })
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("cyclic ordering")
	}
	return out, nil
}

// Depth is the number of levels of the deepest decomposition of the
// initial network, counting the initial network as level 1 and an action
// as a level of its own, or -1 when some task can decompose into itself
// (the task is recursive, and no depth bounds its decompositions).
func (t *Task) Depth() int {
	nt := t.NumTasks()
	depth := make([]int32, nt)
	state := make([]int8, nt) // 0 new, 1 on the stack, 2 done
	// an explicit stack: hierarchies can be deep
	type frame struct {
		id   TaskID
		m, s int // next method index and subtask index
	}
	var stack []frame
	visit := func(root TaskID) bool {
		if t.IsPrimitive(root) || state[root] == 2 {
			return true
		}
		state[root] = 1
		depth[root] = 1
		stack = append(stack[:0], frame{id: root})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			ms := t.Compound(f.id).Methods
			if f.m == len(ms) {
				state[f.id] = 2
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					p := stack[len(stack)-1].id
					depth[p] = max(depth[p], 1+depth[f.id])
				}
				continue
			}
			subs := t.Methods[ms[f.m]].Subtasks
			if f.s == len(subs) {
				f.m, f.s = f.m+1, 0
				continue
			}
			s := subs[f.s]
			f.s++
			switch {
			case t.IsPrimitive(s):
				depth[f.id] = max(depth[f.id], 2)
			case state[s] == 1:
				return false
			case state[s] == 2:
				depth[f.id] = max(depth[f.id], 1+depth[s])
			default:
				state[s] = 1
				depth[s] = 1
				stack = append(stack, frame{id: s})
			}
		}
		return true
	}
	d := 0
	for _, id := range t.Initial {
		if !visit(id) {
			return -1
		}
		if t.IsPrimitive(id) {
			d = max(d, 1)
		} else {
			d = max(d, int(depth[id]))
		}
	}
	// compound tasks the initial network does not reach (none, after
	// pruning) may still recurse
	for i := range t.Compounds {
		if !visit(t.CompoundID(i)) {
			return -1
		}
	}
	return d
}

// MinDepth is the fewest levels a decomposition of the initial network
// can have (counted as in Depth): every plan's tree is at least this deep.
// A task without any decomposition counts as infinitely deep; MinDepth is
// then -1. It is Knuth's generalisation of Dijkstra's algorithm to the
// task/method graph: a method's depth is one more than its deepest
// subtask's, known once all of them are, and a task takes its shallowest
// method.
func (t *Task) MinDepth() int {
	na := len(t.Actions)
	nc := len(t.Compounds)
	const inf = int32(1 << 30)
	depth := make([]int32, nc) // tentative, then final
	for i := range depth {
		depth[i] = inf
	}
	done := make([]bool, nc)
	missing := make([]int32, len(t.Methods)) // compound subtasks not yet final
	deepest := make([]int32, len(t.Methods)) // deepest final subtask so far
	users := make([][]int32, nc)             // methods with c as a subtask
	var h heap.Min
	settleMethod := func(m int) {
		c := int(t.Methods[m].Task) - na
		if d := 1 + deepest[m]; d < depth[c] {
			depth[c] = d
			h.Push(heap.Item{Node: int32(c), Cost: d})
		}
	}
	for m := range t.Methods {
		for _, s := range t.Methods[m].Subtasks {
			if t.IsPrimitive(s) {
				deepest[m] = max(deepest[m], 1)
			} else {
				missing[m]++
				users[int(s)-na] = append(users[int(s)-na], int32(m))
			}
		}
		if missing[m] == 0 {
			settleMethod(m)
		}
	}
	for len(h) > 0 {
		it := h.Pop()
		d, c := it.Cost, it.Node
		if done[c] || d != depth[c] {
			continue
		}
		done[c] = true
		for _, m := range users[c] {
			deepest[m] = max(deepest[m], d)
			if missing[m]--; missing[m] == 0 {
				settleMethod(int(m))
			}
		}
	}
	out := int32(0)
	for _, id := range t.Initial {
		if t.IsPrimitive(id) {
			out = max(out, 1)
			continue
		}
		out = max(out, depth[int(id)-na])
	}
	if out >= inf {
		return -1
	}
	return int(out)
}

// Recursive reports whether some task can decompose into itself.
func (t *Task) Recursive() bool { return t.Depth() < 0 }

// TotallyOrdered reports whether the initial network and every method's
// network with more than one task are totally ordered.
func (t *Task) TotallyOrdered() bool {
	if !t.InitialTotal && len(t.Initial) > 1 {
		return false
	}
	for i := range t.Methods {
		if !t.Methods[i].Total && len(t.Methods[i].Subtasks) > 1 {
			return false
		}
	}
	return true
}

// Permanence tells, per fact, whether no action adds it (once false it
// stays false) and whether no action deletes it (once true it stays true).
func (t *Task) Permanence() (neverAdded, neverDeleted []bool) {
	neverAdded = make([]bool, len(t.Facts))
	neverDeleted = make([]bool, len(t.Facts))
	for f := range neverAdded {
		neverAdded[f], neverDeleted[f] = true, true
	}
	for i := range t.Actions {
		for _, f := range t.Actions[i].Add {
			neverAdded[f] = false
		}
		for _, f := range t.Actions[i].Del {
			neverDeleted[f] = false
		}
	}
	return neverAdded, neverDeleted
}

// Components partitions the compound tasks into the strongly connected
// components of the task graph (an edge from a task to each compound
// subtask of each of its methods): comp[i] is the component of compound
// task i (an index into t.Compounds). Components are numbered bottom-up:
// every compound subtask of a method of a task in component k lies in
// component k or in one numbered below k, so a single pass in increasing
// order sees each component after everything it decomposes into. It is
// Tarjan's algorithm, iterative, linear in the methods' subtasks.
func (t *Task) Components() (comp []int32, n int) {
	na := len(t.Actions)
	nc := len(t.Compounds)
	const unseen = -1
	index := make([]int32, nc) // discovery order, unseen before
	low := make([]int32, nc)
	comp = make([]int32, nc)
	onStack := make([]bool, nc)
	for i := range index {
		index[i] = unseen
	}
	// a task being explored, with a cursor over its methods' subtasks
	type frame struct {
		c, m, s int32 // task, index into its methods, index into that method's subtasks
	}
	var stack []int32
	var frames []frame
	next := int32(0)
	push := func(c int32) {
		index[c], low[c] = next, next
		next++
		stack = append(stack, c)
		onStack[c] = true
		frames = append(frames, frame{c: c})
	}
	for root := range int32(nc) {
		if index[root] != unseen {
			continue
		}
		push(root)
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			ms := t.Compounds[f.c].Methods
			descended := false
			for int(f.m) < len(ms) && !descended {
				sub := t.Methods[ms[f.m]].Subtasks
				for int(f.s) < len(sub) {
					s := sub[f.s]
					f.s++
					if t.IsPrimitive(s) {
						continue
					}
					w := int32(int(s) - na)
					if index[w] == unseen {
						push(w) // f is stale from here on
						descended = true
						break
					}
					if onStack[w] {
						low[f.c] = min(low[f.c], index[w])
					}
				}
				if !descended {
					f.m++
					f.s = 0
				}
			}
			if descended {
				continue
			}
			c := f.c
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				p := frames[len(frames)-1].c
				low[p] = min(low[p], low[c])
			}
			if low[c] == index[c] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(n)
					if w == c {
						break
					}
				}
				n++
			}
		}
	}
	return comp, n
}
