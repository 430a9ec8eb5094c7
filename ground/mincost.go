package ground

import "math"

// MinCost returns a lower bound on the cost of the actions compound
// task id of a growing task decomposes into, however it grows: the least
// over its lifted task's methods of the sum over their subtasks (an
// action's cost, a compound task's bound in turn), computed once for the
// lifted domain, where every ground instance's methods are among its
// task's; 0 for a synthetic task (a rest of a network, or an action with
// variables of its own, whose bound it does not keep), and
// math.MaxInt64 for a task without a decomposition in the lifted
// domain.
func (g *Grow) MinCost(id TaskID) int64 {
	c := int(id) - len(g.Task.Actions)
	lid := g.lzOf[c]
	if lid < 0 {
		return 0
	}
	if g.minCost == nil {
		g.minCost = liftedMinCost(g.lz)
	}
	return g.minCost[g.lz.tasks[lid].Ref.Index]
}

// liftedMinCost is the least cost of the actions each lifted compound
// task decomposes into, ignoring preconditions and arguments (a fixpoint
// from no decomposition upwards: each round lowers a task to the least
// over its methods of their subtasks' costs).
func liftedMinCost(lz *Lazy) []int64 {
	d := lz.d
	cost := make([]int64, len(d.Tasks))
	for i := range cost {
		cost[i] = math.MaxInt64
	}
	for changed := true; changed; {
		changed = false
		for mi := range d.Methods {
			m := &d.Methods[mi]
			if lz.methods[mi] == nil {
				continue // never applicable
			}
			var sum int64
			for _, st := range m.Network.Subtasks {
				var c int64
				switch {
				case !st.Task.Primitive:
					c = cost[st.Task.Index]
				case lz.actions[st.Task.Index] == nil:
					c = math.MaxInt64 // never applicable
				default:
					c = int64(d.ActionCost(st.Task.Index))
				}
				if c == math.MaxInt64 {
					sum = math.MaxInt64
					break
				}
				sum += c // action costs below 2^31, networks far shorter than 2^32
			}
			if sum < cost[m.Task] {
				cost[m.Task], changed = sum, true
			}
		}
	}
	return cost
}
