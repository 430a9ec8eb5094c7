package verify

import (
	"fmt"

	"github.com/htnsat/htnsat/hddl"
)

// Placement: every task of the tree where its orderings and its method's
// precondition allow. A task's window is the range of states it may use:
// it starts after the ends of the tasks ordered before it and ends before
// the first action of any task ordered after it.

// placeRoot checks the initial network: the root tasks are its tasks (free
// variables bound consistently, and to objects of their types), its
// constraints hold, and every task is placed where its orderings and
// method preconditions allow.
func (v *verifier) placeRoot() error {
	net := &v.p.Initial
	b := make([]int32, len(v.p.Vars))
	for i := range b {
		b[i] = -1
	}
	mt := &matcher{v: v, vars: v.p.Vars, b: b}
	var assign []*vnode
	if len(v.roots) == len(net.Subtasks) {
		var err error
		var order *matchOrder
		if net.Total || len(net.Ordering) > 0 {
			order = newMatchOrder(len(net.Subtasks), net.Ordering, net.Total)
		}
		if assign, _, err = mt.match(net.Subtasks, v.roots, false, order); err != nil {
			return err
		}
		if assign == nil {
			// as in matchMethod: placing tells what is out of order
			mt.undo(0)
			if assign, _, err = mt.match(net.Subtasks, v.roots, false, nil); err != nil {
				return err
			}
		}
	}
	v.scope = v.p.Vars
	if assign == nil {
		for k := range net.Subtasks {
			st := &net.Subtasks[k]
			found := false
			for _, c := range v.roots {
				mark := len(mt.trail)
				if c.prim == st.Task.Primitive && c.schema == st.Task.Index && mt.unify(st.Args, c.args) {
					found = true
				}
				mt.undo(mark)
				if found {
					break
				}
			}
			if !found {
				for _, c := range v.roots {
					if c.prim == st.Task.Primitive && c.schema == st.Task.Index {
						if x, o := mt.badType(st.Args, c.args); x >= 0 {
							return v.errf(0, "root task %s (id %d) binds variable %s of the initial network to %s, which is of type %s, not %s",
								v.nodeName(c), c.id, v.p.Vars[x].Name, v.p.Objects[o].Name, v.d.Types[v.p.Objects[o].Type].Name, v.d.Types[v.p.Vars[x].Type].Name)
						}
					}
				}
				return v.errf(0, "task %s of the initial network is not covered by the root", v.subtaskName(st, b))
			}
		}
		if len(v.roots) != len(net.Subtasks) {
			return v.errf(0, "the initial task network has %d tasks, the root lists %d", len(net.Subtasks), len(v.roots))
		}
		return v.errf(0, "the root tasks do not match the initial task network")
	}
	if err := v.someObject(v.p.Vars[:v.p.NumParams], b, 0, "the initial task network"); err != nil {
		return err
	}
	if v.p.Constraints != nil {
		ok, err := v.satisfy(v.p.Constraints, b, 0)
		if err != nil {
			return err
		}
		if !ok {
			return v.errf(0, "the constraints of the initial task network do not hold")
		}
	}
	_, err := v.placeChildren(assign, net.Ordering, net.Total, 0, v.final)
	return err
}

// placeChildren places the subtasks of one network within the window
// [lo, hi] of states and returns the latest state they use, and so on
// down the tree. The work is linear in the networks' tasks and
// orderings: a task's lower bound comes from its direct predecessors
// (their ends grow along every chain), its upper bound from the earliest
// action among all its successors. The tree is walked with a stack of its
// own, not by recursion: a valid plan may nest a million decompositions.
func (v *verifier) placeChildren(children []*vnode, order []hddl.Order, total bool, lo, hi int) (int, error) {
	stack := []*network{newNetwork(nil, children, order, total, lo, hi)}
	for {
		f := stack[len(stack)-1]
		pushed := false
		for f.k < len(f.topo) && !pushed {
			i := f.topo[f.k]
			clo := f.lo
			for _, j := range f.g.pred(i) {
				clo = max(clo, f.end[j])
			}
			c, chi := f.children[i], f.firstAfter[i]
			if c.prim {
				e, err := v.placeAction(c, clo, chi)
				if err != nil {
					return 0, err
				}
				f.done(e)
				continue
			}
			pm, err := v.precondition(c, clo, chi)
			if err != nil {
				return 0, err
			}
			m := &v.d.Methods[c.method]
			sub := newNetwork(c, c.children, m.Network.Ordering, m.Network.Total, pm, chi)
			sub.pm = pm
			stack = append(stack, sub)
			pushed = true
		}
		if pushed {
			continue
		}
		// every task of f placed: its end is the parent's task's end
		e := f.latest
		if n := f.task; n != nil {
			if n.last >= 0 {
				e = max(e, n.last+1)
			}
			e = max(e, f.pm)
		}
		stack = stack[:len(stack)-1]
		if len(stack) == 0 {
			return e, nil
		}
		stack[len(stack)-1].done(e)
	}
}

// network is one task network being placed: the task it decomposes (nil
// for the initial network), its graph, and how far placing it got. A plan
// a million decompositions deep keeps a million of them on placeChildren's
// stack, most of one subtask: those share one graph and keep their two
// per-task values in the struct itself (one, two), with no allocation
// beyond it.
type network struct {
	task       *vnode
	children   []*vnode
	g          *orderGraph
	topo       []int
	firstAfter []int // per task: the earliest action of a task ordered after it, or hi
	end        []int // per task placed: the state at which it ends
	k          int   // tasks of topo placed
	lo, latest int
	pm         int    // the state at which the task's method precondition holds
	one        [2]int // firstAfter and end of a network of one task
}

// oneGraph is the graph of every network of one task (never written).
var oneGraph = newOrderGraph(1, nil, true)

// oneTopo is its topological order (never written).
var oneTopo = []int{0}

func newNetwork(task *vnode, children []*vnode, order []hddl.Order, total bool, lo, hi int) *network {
	n := len(children)
	f := &network{task: task, children: children, lo: lo, latest: lo}
	if n == 1 {
		f.g, f.topo = &oneGraph, oneTopo
		f.one[0] = hi // no task after it
		f.firstAfter, f.end = f.one[0:1:1], f.one[1:2:2]
		return f
	}
	g := newOrderGraph(n, order, total)
	f.g = &g
	f.topo = f.g.topoSort()
	f.firstAfter = f.g.scratch(0)
	for k := n - 1; k >= 0; k-- {
		i := f.topo[k]
		a := hi
		for _, j := range f.g.succ(i) {
			a = min(a, f.firstAfter[j])
			if children[j].first >= 0 {
				a = min(a, children[j].first)
			}
		}
		f.firstAfter[i] = a
	}
	f.end = f.g.scratch(1)
	return f
}

// done records that the task at topo[k] ends at state e and moves on.
func (f *network) done(e int) {
	f.end[f.topo[f.k]] = e
	f.latest = max(f.latest, e)
	f.k++
}

// orderGraph is a network's orderings as successor and predecessor lists,
// each list a stretch of one block (so a network costs one allocation,
// not one per task), with room for the topological order and two
// per-task scratch lists.
type orderGraph struct {
	n                            int
	succAt, predAt, succs, preds []int // succ(i) = succs[succAt[i]:succAt[i+1]]
	rest                         []int // topological order, then scratch
}

// newOrderGraph makes the graph of n tasks with the given orderings, or
// the chain 0 < 1 < ... < n-1 when total is set.
func newOrderGraph(n int, order []hddl.Order, total bool) orderGraph {
	m := len(order)
	if total {
		m = max(n-1, 0)
	}
	edge := func(k int) (before, after int) {
		if total {
			return k, k + 1
		}
		return order[k].Before, order[k].After
	}
	block := make([]int, 2*(n+1)+2*m+3*n)
	g := orderGraph{n: n, succAt: block[:n+1], predAt: block[n+1 : 2*n+2]}
	g.succs, g.preds = block[2*n+2:2*n+2+m], block[2*n+2+m:2*n+2+2*m]
	g.rest = block[2*n+2+2*m:]
	for k := range m {
		b, a := edge(k)
		g.succAt[b+1]++
		g.predAt[a+1]++
	}
	for i := range n {
		g.succAt[i+1] += g.succAt[i]
		g.predAt[i+1] += g.predAt[i]
	}
	// fill in the orderings' order, as appending did
	sNext, pNext := g.scratch(0), g.scratch(1)
	copy(sNext, g.succAt[:n])
	copy(pNext, g.predAt[:n])
	for k := range m {
		b, a := edge(k)
		g.succs[sNext[b]] = a
		sNext[b]++
		g.preds[pNext[a]] = b
		pNext[a]++
	}
	return g
}

func (g *orderGraph) succ(i int) []int { return g.succs[g.succAt[i]:g.succAt[i+1]] }
func (g *orderGraph) pred(i int) []int { return g.preds[g.predAt[i]:g.predAt[i+1]] }

// scratch is per-task scratch list k (0 or 1), zeroed.
func (g *orderGraph) scratch(k int) []int {
	s := g.rest[(k+1)*g.n : (k+2)*g.n]
	clear(s)
	return s
}

// topoSort orders the tasks so that every task comes after its
// predecessors (Kahn's algorithm; the orderings are acyclic, as the
// parser checked). It uses scratch list 0.
func (g *orderGraph) topoSort() []int {
	indeg := g.scratch(0)
	out := g.rest[:0:g.n]
	for i := range g.n {
		indeg[i] = g.predAt[i+1] - g.predAt[i]
		if indeg[i] == 0 {
			out = append(out, i)
		}
	}
	for k := 0; k < len(out); k++ {
		for _, j := range g.succ(out[k]) {
			if indeg[j]--; indeg[j] == 0 {
				out = append(out, j)
			}
		}
	}
	return out
}

// placeAction checks that action n falls within the window [lo, hi] of
// state indices and returns the state at which it ends.
func (v *verifier) placeAction(n *vnode, lo, hi int) (int, error) {
	if err := v.tick(); err != nil {
		return 0, err
	}
	if n.pos < lo {
		return 0, v.errf(n.line, "%s comes too early: the ordering puts it after what the plan executes later", v.nodeName(n))
	}
	if n.pos+1 > hi {
		return 0, v.errf(n.line, "%s comes too late: the ordering puts it before an action the plan executes earlier", v.nodeName(n))
	}
	return n.pos + 1, nil
}

// precondition finds the state, within the window [lo, hi], at which the
// method precondition of compound task n holds (and binds the method's
// variables the plan left open) and returns it.
func (v *verifier) precondition(n *vnode, lo, hi int) (int, error) {
	if err := v.tick(); err != nil {
		return 0, err
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
		b := cloneBinding(n.binding)
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
		return 0, v.errf(n.line, "the precondition of method %s for %s does not hold %s%s", m.Name, v.nodeName(n), where, v.why(m.Precondition, n.binding, max(lo, min(top, v.final))))
	}
	if err := v.someObject(m.Params(), n.binding, n.line, "method "+m.Name); err != nil {
		return 0, err
	}
	return pm, nil
}

// cloneBinding copies a binding; the copy is never nil, so that a method
// or network without variables still yields a (empty) binding.
func cloneBinding(b []int32) []int32 { return append(make([]int32, 0, len(b)), b...) }

// someObject checks that every parameter the plan left unbound (and the
// precondition did not bind) could be bound: its type has an object.
// A method whose parameter has none has no ground instance at all. The
// variables of the precondition's quantifiers are not parameters: a
// forall over a type without objects holds, an exists fails, and
// satisfy has decided that.
func (v *verifier) someObject(params []hddl.Param, b []int32, line int, what string) error {
	for x, o := range b[:len(params)] {
		if o < 0 && len(v.objectsOf(params[x].Type)) == 0 {
			return v.errf(line, "%s has variable %s of type %s, which has no objects: no instance of it exists", what, params[x].Name, v.d.Types[params[x].Type].Name)
		}
	}
	return nil
}
