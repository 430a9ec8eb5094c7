package verify

import (
	"strings"

	"github.com/htnsat/htnsat/hddl"
)

// The decomposition tree: the plan's lines made into nodes, the forest
// below the root line walked once (every id must be reached exactly once,
// every line reached), and every decomposition matched to its method.

func (v *verifier) object(name string, line int) (int32, error) {
	i := v.p.ObjectIndex(name)
	if i < 0 {
		return 0, v.errf(line, "unknown object %s", name)
	}
	return int32(i), nil
}

// kind and name say what the arguments are of ("action", "fill-cell"), for
// messages.
func (v *verifier) args(names []string, params []hddl.Param, kind, name string, line int) ([]int32, error) {
	what := func() string { return kind + " " + name }
	if len(names) != len(params) {
		return nil, v.errf(line, "%s expects %d arguments, got %d", what(), len(params), len(names))
	}
	out := v.int32s(len(names))
	for i, n := range names {
		o, err := v.object(n, line)
		if err != nil {
			return nil, err
		}
		if !v.d.IsSubtype(v.p.Objects[o].Type, params[i].Type) {
			return nil, v.errf(line, "argument %d of %s must be of type %s, but %s is of type %s",
				i+1, what(), v.d.Types[params[i].Type].Name, n, v.d.Types[v.p.Objects[o].Type].Name)
		}
		out[i] = o
	}
	return out, nil
}

// buildTree makes a node of every line, walks the forest from the root
// line, and matches every decomposition to its method.
func (v *verifier) buildTree() error {
	if err := v.makeNodes(); err != nil {
		return err
	}
	order, err := v.reach()
	if err != nil {
		return err
	}
	// the actions each subtree spans, children before parents: what a
	// subtree spans does not depend on which of its method's subtasks it
	// is, and matching a partial order needs it
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		if n.prim {
			continue
		}
		for _, id := range n.dc.Subtasks {
			c := v.nodes[id]
			if c.first >= 0 && (n.first < 0 || c.first < n.first) {
				n.first = c.first
			}
			n.last = max(n.last, c.last)
		}
	}
	for _, n := range order {
		if err := v.tick(); err != nil {
			return err
		}
		if !n.prim {
			if err := v.matchMethod(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// makeNodes makes a node of every action and decomposition line.
func (v *verifier) makeNodes() error {
	d := v.d
	v.nodes = make(map[int]*vnode, len(v.plan.Actions)+len(v.plan.Decomps))
	slab := make([]vnode, len(v.plan.Actions)+len(v.plan.Decomps)) // one allocation for every node
	for i, a := range v.plan.Actions {
		ai := d.ActionIndex(a.Name)
		if ai < 0 {
			if d.TaskIndex(a.Name) >= 0 {
				return v.errf(a.Line, "%s is a compound task, not an action", a.Name)
			}
			return v.errf(a.Line, "unknown action %s", a.Name)
		}
		args, err := v.args(a.Args, d.Actions[ai].Params(), "action", a.Name, a.Line)
		if err != nil {
			return err
		}
		if _, dup := v.nodes[a.ID]; dup {
			return v.errf(a.Line, "id %d used twice", a.ID)
		}
		slab[i] = vnode{id: a.ID, line: a.Line, prim: true, schema: ai, args: args, pos: i, first: i, last: i}
		v.nodes[a.ID] = &slab[i]
	}
	for i := range v.plan.Decomps {
		dc := &v.plan.Decomps[i]
		ti := d.TaskIndex(dc.Task)
		if ti < 0 {
			if d.ActionIndex(dc.Task) >= 0 {
				return v.errf(dc.Line, "%s is an action and cannot be decomposed", dc.Task)
			}
			return v.errf(dc.Line, "unknown task %s", dc.Task)
		}
		args, err := v.args(dc.Args, d.Tasks[ti].Params, "task", dc.Task, dc.Line)
		if err != nil {
			return err
		}
		mi := d.MethodIndex(dc.Method)
		if mi < 0 {
			return v.errf(dc.Line, "unknown method %s", dc.Method)
		}
		if d.Methods[mi].Task != ti {
			return v.errf(dc.Line, "method %s decomposes %s, not %s", dc.Method, d.Tasks[d.Methods[mi].Task].Name, dc.Task)
		}
		if _, dup := v.nodes[dc.ID]; dup {
			return v.errf(dc.Line, "id %d used twice", dc.ID)
		}
		n := &slab[len(v.plan.Actions)+i]
		*n = vnode{id: dc.ID, line: dc.Line, schema: ti, args: args, dc: dc, method: mi, first: -1, last: -1}
		v.nodes[dc.ID] = n
	}
	return nil
}

// reach walks the forest from the root line, breadth first, and returns
// its nodes in that order (every parent before its children). Every id
// must be reached exactly once: an id listed twice, or a task that is its
// own descendant, is an error at the line that reaches it again; a line
// the walk does not reach (a detached subtree, or a cycle of its own) is
// an error at that line, whatever it would execute.
func (v *verifier) reach() ([]*vnode, error) {
	order := make([]*vnode, 0, len(v.nodes))
	for _, r := range v.plan.Root {
		n := v.nodes[r]
		if n == nil {
			return nil, v.errf(0, "root lists task id %d, which no line defines", r)
		}
		if n.reached {
			return nil, v.errf(0, "root lists task id %d twice", r)
		}
		n.reached = true
		order = append(order, n)
		v.roots = append(v.roots, n)
	}
	for i := 0; i < len(order); i++ {
		if err := v.tick(); err != nil {
			return nil, err
		}
		n := order[i]
		if n.prim {
			continue
		}
		for _, s := range n.dc.Subtasks {
			c := v.nodes[s]
			if c == nil {
				return nil, v.errf(n.line, "subtask id %d is defined by no line", s)
			}
			if c.reached {
				p := c.parent
				switch {
				case c == n:
					return nil, v.errf(n.line, "task %d lists itself as a subtask", n.id)
				case p == nil:
					return nil, v.errf(n.line, "task %d is in the root and also a subtask of %d", s, n.id)
				case v.ancestor(c, n):
					return nil, v.errf(n.line, "task %d is a subtask of its own descendant %d", s, n.id)
				}
				return nil, v.errf(n.line, "task %d is a subtask of both %d and %d", s, p.id, n.id)
			}
			c.reached, c.parent = true, n
			order = append(order, c)
		}
	}
	// the first line, in the file, that the walk did not reach
	line, what, id := 0, "", 0
	for _, a := range v.plan.Actions {
		if !v.nodes[a.ID].reached {
			line, what, id = a.Line, "action", a.ID
			break
		}
	}
	for _, dc := range v.plan.Decomps {
		if !v.nodes[dc.ID].reached && (line == 0 || dc.Line < line) {
			line, what, id = dc.Line, "task", dc.ID
			break
		}
	}
	if what != "" {
		return nil, v.errf(line, "%s %d is not reached from the root", what, id)
	}
	return order, nil
}

// ancestor reports whether a is n or above n.
func (v *verifier) ancestor(a, n *vnode) bool {
	for ; n != nil; n = n.parent {
		if n == a {
			return true
		}
	}
	return false
}

func (v *verifier) nodeName(n *vnode) string {
	var b strings.Builder
	b.WriteString("(" + v.d.TaskName(hddl.TaskRef{Primitive: n.prim, Index: n.schema}))
	for _, a := range n.args {
		b.WriteString(" " + v.p.Objects[a].Name)
	}
	b.WriteString(")")
	return b.String()
}

// matchMethod binds the method's variables from the task and assigns the
// listed subtasks to the method's subtasks.
func (v *verifier) matchMethod(n *vnode) error {
	m := &v.d.Methods[n.method]
	b := make([]int32, len(m.Vars))
	for i := range b {
		b[i] = -1
	}
	mt := &matcher{v: v, vars: m.Vars, b: b, trail: v.methodTrail[:0]}
	defer func() { v.methodTrail = mt.trail[:0] }() // reused by the next method
	if !mt.unify(m.TaskArgs, n.args) {
		if x, o := mt.badType(m.TaskArgs, n.args); x >= 0 {
			return v.errf(n.line, "method %s cannot decompose %s: variable %s must be of type %s, but %s is of type %s",
				m.Name, v.nodeName(n), m.Vars[x].Name, v.d.Types[m.Vars[x].Type].Name, v.p.Objects[o].Name, v.d.Types[v.p.Objects[o].Type].Name)
		}
		return v.errf(n.line, "method %s cannot decompose %s: its task arguments do not match", m.Name, v.nodeName(n))
	}
	subs := m.Network.Subtasks
	if len(n.dc.Subtasks) != len(subs) {
		return v.errf(n.line, "method %s has %d subtasks, the plan gives %d", m.Name, len(subs), len(n.dc.Subtasks))
	}
	listed := make([]*vnode, len(subs))
	for i, s := range n.dc.Subtasks {
		listed[i] = v.nodes[s]
	}
	// total order: the i-th listed subtask is the i-th subtask of the
	// method; partial order: any assignment that unifies
	order := v.order(n.method, m.Network)
	base := len(mt.trail) // the task's arguments bound
	assign, k, err := mt.match(subs, listed, m.Network.Total, order)
	if assign == nil && err == nil && order != nil {
		// no assignment keeps the order: take one that does not, for
		// placing to say what comes too early or too late
		mt.undo(base)
		assign, k, err = mt.match(subs, listed, false, nil)
	}
	if err != nil {
		return err
	}
	if assign == nil {
		if m.Network.Total {
			c := listed[k]
			if c.prim != subs[k].Task.Primitive || c.schema != subs[k].Task.Index {
				return v.errf(n.line, "subtask %d of method %s must be %s, found %s (id %d)", k+1, m.Name, v.subtaskName(&subs[k], mt.b), v.nodeName(c), c.id)
			}
			if x, o := mt.badType(subs[k].Args, c.args); x >= 0 {
				return v.errf(n.line, "subtask %d of method %s binds variable %s to %s, which is of type %s, not %s",
					k+1, m.Name, m.Vars[x].Name, v.p.Objects[o].Name, v.d.Types[v.p.Objects[o].Type].Name, v.d.Types[m.Vars[x].Type].Name)
			}
			return v.errf(n.line, "subtask %d of method %s must be %s, found %s (id %d)", k+1, m.Name, v.subtaskName(&subs[k], mt.b), v.nodeName(c), c.id)
		}
		return v.errf(n.line, "the subtasks listed do not match those of method %s", m.Name)
	}
	n.binding = mt.b
	n.children = assign
	return nil
}

func (v *verifier) subtaskName(st *hddl.Subtask, b []int32) string {
	var s strings.Builder
	s.WriteString("(" + v.d.TaskName(st.Task))
	for _, t := range st.Args {
		switch {
		case !t.IsVar():
			s.WriteString(" " + v.p.Objects[t.Obj()].Name)
		case b[t.Var()] >= 0:
			s.WriteString(" " + v.p.Objects[b[t.Var()]].Name)
		default:
			s.WriteString(" ?")
		}
	}
	s.WriteString(")")
	return s.String()
}

// matcher binds the variables of one scope (a method's or the initial
// network's) in place, remembering which it bound so that a failed choice
// can be taken back; a variable takes only objects of its type.
type matcher struct {
	v     *verifier
	vars  []hddl.Param
	b     []int32
	trail []int // variables bound, in order
}

// unify binds variables so that terms equal the objects vals; on failure
// the caller undoes to the trail's length before the call.
func (mt *matcher) unify(terms []hddl.Term, vals []int32) bool {
	v := mt.v
	for i, t := range terms {
		if !t.IsVar() {
			if int32(t.Obj()) != vals[i] {
				return false
			}
			continue
		}
		x := t.Var()
		switch {
		case mt.b[x] == vals[i]:
		case mt.b[x] >= 0:
			return false
		case !v.d.IsSubtype(v.p.Objects[vals[i]].Type, mt.vars[x].Type):
			return false
		default:
			mt.b[x] = vals[i]
			mt.trail = append(mt.trail, x)
		}
	}
	return true
}

// undo unbinds the variables bound after the trail had length n.
func (mt *matcher) undo(n int) {
	for _, x := range mt.trail[n:] {
		mt.b[x] = -1
	}
	mt.trail = mt.trail[:n]
}

// badType finds a variable of terms that vals would bind to an object of
// the wrong type, for messages; x is -1 when there is none.
func (mt *matcher) badType(terms []hddl.Term, vals []int32) (x int, obj int32) {
	v := mt.v
	for i, t := range terms {
		if t.IsVar() && !v.d.IsSubtype(v.p.Objects[vals[i]].Type, mt.vars[t.Var()].Type) {
			return t.Var(), vals[i]
		}
	}
	return -1, 0
}

// match assigns the nodes listed to the subtasks subs, one each, so that
// every node has its subtask's task and unifies with its arguments. With
// ordered, node k must be subtask k; then on failure k is the first
// subtask that does not match. Otherwise the assignment is searched by
// backtracking, trying node k for subtask k first, so that a plan that
// lists the subtasks in the method's order is matched in linear time.
//
// order, when not nil, is the subtasks' ordering: a node goes to subtask
// k only if its actions fall after those of the nodes given to the
// subtasks ordered before k, so that which of two alike subtasks a node
// is does not depend on the order the plan lists them in. The subtasks
// are then searched in a topological order of the ordering: when k's
// turn comes, every subtask before it has its node, and the latest action
// among them is the largest of its direct predecessors' (reach), so the
// check costs k's predecessors, not a transitive closure (which a network
// of 100,000 tasks could not hold).
func (mt *matcher) match(subs []hddl.Subtask, listed []*vnode, ordered bool, order *matchOrder) ([]*vnode, int, error) {
	n := len(subs)
	fits := func(k int, c *vnode) bool { return c.prim == subs[k].Task.Primitive && c.schema == subs[k].Task.Index }
	assign := make([]*vnode, n)
	if ordered {
		for k := range subs {
			if !fits(k, listed[k]) || !mt.unify(subs[k].Args, listed[k].args) {
				return nil, k, nil
			}
			assign[k] = listed[k]
		}
		return assign, 0, nil
	}
	// the nodes listed, by task
	type taskKey struct {
		prim   bool
		schema int
	}
	byTask := map[taskKey][]int{}
	for i, c := range listed {
		k := taskKey{c.prim, c.schema}
		byTask[k] = append(byTask[k], i)
	}
	// candidate p of subtask k: node k itself first, then the others of
	// its task
	cand := func(k, p int) (int, bool) {
		if p == 0 {
			return k, true
		}
		bucket := byTask[taskKey{subs[k].Task.Primitive, subs[k].Task.Index}]
		if p-1 >= len(bucket) {
			return 0, false
		}
		return bucket[p-1], true
	}
	used := make([]bool, n)
	next := make([]int, n)   // next candidate to try, per subtask
	chosen := make([]int, n) // node assigned, per subtask
	mark := make([]int, n)   // trail length before subtask k was bound
	reach := make([]int, n)  // per subtask with its node: the latest action of it and of every subtask before it (-1: none)
	// after is the latest action of the subtasks ordered before k, all
	// of which have their nodes
	after := func(k int) int {
		a := -1
		if order != nil {
			for _, j := range order.g.pred(k) {
				a = max(a, reach[j])
			}
		}
		return a
	}
	seq := func(q int) int { return q } // the subtask searched q-th
	if order != nil {
		seq = func(q int) int { return order.seq[q] }
	}
	for q := 0; q < n; {
		if err := mt.v.tick(); err != nil {
			return nil, 0, err
		}
		k := seq(q)
		if next[k] == 0 {
			mark[k] = len(mt.trail)
		}
		bound := after(k)
		found := false
		for {
			i, ok := cand(k, next[k])
			if !ok {
				break
			}
			next[k]++
			c := listed[i]
			if used[i] || (next[k] > 1 && i == k) || !fits(k, c) || c.first >= 0 && c.first <= bound {
				continue
			}
			if mt.unify(subs[k].Args, c.args) {
				used[i], chosen[k], found = true, i, true
				reach[k] = max(bound, c.last)
				break
			}
			mt.undo(mark[k])
		}
		if found {
			q++
			continue
		}
		// back to the previous subtask's next candidate
		next[k] = 0
		if q--; q < 0 {
			return nil, 0, nil
		}
		k = seq(q)
		used[chosen[k]] = false
		mt.undo(mark[k])
	}
	for k, i := range chosen {
		assign[k] = listed[i]
	}
	return assign, 0, nil
}

// matchOrder is the ordering of a network's subtasks as match uses it:
// its graph and a topological order to search the subtasks in.
type matchOrder struct {
	g   orderGraph
	seq []int
}

func newMatchOrder(n int, order []hddl.Order, total bool) *matchOrder {
	g := newOrderGraph(n, order, total)
	return &matchOrder{g: g, seq: append([]int(nil), g.topoSort()...)}
}

// order returns the ordering of a method's partial order for match, made
// once per method (nil for a total order, which match checks by
// position, or no ordering).
func (v *verifier) order(method int, net hddl.Network) *matchOrder {
	if net.Total || len(net.Ordering) == 0 {
		return nil
	}
	o, ok := v.orders[method]
	if !ok {
		o = newMatchOrder(len(net.Subtasks), net.Ordering, false)
		v.orders[method] = o
	}
	return o
}
