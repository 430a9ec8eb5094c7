package verify

import (
	"fmt"

	"github.com/htnsat/htnsat/hddl"
)

// Placement: every task of the tree where its orderings and its method's
// precondition allow.

// placeRoot checks the initial network: the root tasks are its tasks (free
// variables bound consistently), and every task is placed where its
// orderings and method preconditions allow.
func (v *verifier) placeRoot() error {
	net := &v.p.Initial
	roots := make([]*vnode, len(v.plan.Root))
	for i, r := range v.plan.Root {
		roots[i] = v.nodes[r]
	}
	b := make([]int32, len(v.p.Vars))
	for i := range b {
		b[i] = -1
	}
	assign := make([]*vnode, len(net.Subtasks))
	used := make([]bool, len(roots))
	var rec func(k int, b []int32) []int32
	rec = func(k int, b []int32) []int32 {
		if k == len(net.Subtasks) {
			return b
		}
		st := &net.Subtasks[k]
		for i, c := range roots {
			if used[i] || c.prim != st.Task.Primitive || c.schema != st.Task.Index {
				continue
			}
			nb := cloneBinding(b)
			if !unify(st.Args, c.args, nb) {
				continue
			}
			used[i], assign[k] = true, c
			if res := rec(k+1, nb); res != nil {
				return res
			}
			used[i] = false
		}
		return nil
	}
	var res []int32
	if len(roots) == len(net.Subtasks) {
		res = rec(0, b)
	}
	if res == nil {
		for k := range net.Subtasks {
			st := &net.Subtasks[k]
			found := false
			for _, c := range roots {
				if c.prim == st.Task.Primitive && c.schema == st.Task.Index && unify(st.Args, c.args, append([]int32(nil), b...)) {
					found = true
				}
			}
			if !found {
				v.scope = v.p.Vars
				return v.errf(0, "task %s of the initial network is not covered by the root", v.subtaskName(st, b))
			}
		}
		if len(roots) != len(net.Subtasks) {
			return v.errf(0, "the initial task network has %d tasks, the root lists %d", len(net.Subtasks), len(roots))
		}
		return v.errf(0, "the root tasks do not match the initial task network")
	}
	v.scope = v.p.Vars
	if v.p.Constraints != nil {
		ok, err := v.satisfy(v.p.Constraints, res, 0)
		if err != nil {
			return err
		}
		if !ok {
			return v.errf(0, "the constraints of the initial task network do not hold")
		}
	}
	_, err := v.placeChildren(assign, &net.Ordering, 0, len(v.plan.Actions))
	return err
}

// placeChildren places the subtasks of one network (ordered by order)
// within the window [lo, hi] of states, returning the latest state used.
func (v *verifier) placeChildren(children []*vnode, order *[]hddl.Order, lo, hi int) (int, error) {
	n := len(children)
	before := make([][]bool, n) // transitive ordering
	for i := range before {
		before[i] = make([]bool, n)
	}
	for _, o := range *order {
		before[o.Before][o.After] = true
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if before[i][k] {
				for j := 0; j < n; j++ {
					if before[k][j] {
						before[i][j] = true
					}
				}
			}
		}
	}
	topo := topoSort(n, before)
	end := make([]int, n)
	placed := make([]bool, n)
	latest := lo
	for _, i := range topo {
		c := children[i]
		clo, chi := lo, hi
		for j := 0; j < n; j++ {
			if before[j][i] {
				if !placed[j] {
					return 0, v.errf(c.line, "internal: ordering not topological")
				}
				clo = max(clo, end[j])
			}
			if before[i][j] && children[j].first >= 0 {
				chi = min(chi, children[j].first)
			}
		}
		e, err := v.place(c, clo, chi)
		if err != nil {
			return 0, err
		}
		end[i], placed[i] = e, true
		latest = max(latest, e)
	}
	return latest, nil
}

func topoSort(n int, before [][]bool) []int {
	indeg := make([]int, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if before[i][j] {
				indeg[j]++
			}
		}
	}
	var out []int
	done := make([]bool, n)
	for len(out) < n {
		for i := 0; i < n; i++ {
			if !done[i] && indeg[i] == 0 {
				done[i] = true
				out = append(out, i)
				for j := 0; j < n; j++ {
					if before[i][j] {
						indeg[j]--
					}
				}
				break
			}
		}
	}
	return out
}

// place checks node n within the window [lo, hi] of state indices and
// returns the state index at which it ends.
func (v *verifier) place(n *vnode, lo, hi int) (int, error) {
	if n.prim {
		if n.pos < lo {
			return 0, v.errf(n.line, "%s comes too early: the ordering puts it after what the plan executes later", v.nodeName(n))
		}
		if n.pos+1 > hi {
			return 0, v.errf(n.line, "%s comes too late: the ordering puts it before an action the plan executes earlier", v.nodeName(n))
		}
		return n.pos + 1, nil
	}
	m := &v.d.Methods[n.method]
	v.scope = m.Vars
	// the method's precondition holds at its first subtask: for a task
	// with actions, no later than its first action; the earliest such
	// state leaves its empty subtasks the most room
	top := hi
	if n.first >= 0 {
		top = min(top, n.first)
	}
	if n.first >= 0 && n.first < lo {
		return 0, v.errf(n.line, "%s starts too early for the ordering", v.nodeName(n))
	}
	pm := -1
	for s := lo; s <= top && pm < 0; s++ {
		b := append([]int32(nil), n.binding...)
		ok, err := v.satisfy(m.Precondition, b, s)
		if err != nil {
			return 0, err
		}
		if ok {
			pm, n.binding = s, b
		}
	}
	if pm < 0 {
		where := fmt.Sprintf("in any state between %d and %d", lo, top)
		if lo == top {
			where = fmt.Sprintf("in state %d (before action %d)", lo, lo)
		}
		return 0, v.errf(n.line, "the precondition of method %s for %s does not hold %s%s", m.Name, v.nodeName(n), where, v.why(m.Precondition, n.binding, max(lo, min(top, len(v.states)-1))))
	}
	e, err := v.placeChildren(n.children, &m.Network.Ordering, pm, hi)
	if err != nil {
		return 0, err
	}
	if n.last >= 0 {
		e = max(e, n.last+1)
	}
	return max(e, pm), nil
}

// cloneBinding copies a binding; the copy is never nil, so that a method
// or network without variables still yields a (empty) binding.
func cloneBinding(b []int32) []int32 { return append(make([]int32, 0, len(b)), b...) }
