package ground

import (
	"fmt"
	"slices"
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
