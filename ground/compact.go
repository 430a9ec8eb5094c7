package ground

import (
	"context"
	"slices"
)

// Compaction: the ground task the engines see.
//
// A compound task with exactly one method offers no choice: every method
// that has it as a subtask can take that method's subtasks in its place
// (pandaPI's expansion of abstract tasks with a single method). Grounded
// domains are full of such tasks — compiled conditional effects and method
// preconditions, one-binding helper tasks — and each is a node the
// progression search expands and a vertex the SAT encoding gives clauses,
// for no decision at all. A pure test (check-row of the Sudoku model) is
// the case without subtasks: it disappears, and its precondition joins the
// method's.
//
// A method's precondition holds where its first subtask runs, so an
// inlined method's precondition may join the outer method's only when
// the inlined task has nothing but inlined tests before it there, and
// only when that is exact: in a totally ordered task nothing happens
// between the two points, and elsewhere the precondition must be
// permanent in the direction it is checked (a positive fact no action
// adds, a negative one no action deletes), so that holding later implies
// holding earlier. An inlined method without precondition goes anywhere.
//
// The tasks and methods that only inlined places used leave the task; the
// Folding maps solutions back to the original task, rebuilding each
// inlined task's node and its method.

// maxInlined bounds the subtasks of a compacted method (nested inlining
// could otherwise multiply them) and the methods whose subtasks it
// inlines into.
const maxInlined = 512

// Folding is a compacted task and the map back to the task it came from.
type Folding struct {
	// Task is the compacted task. It has the facts and actions of Orig
	// with the same IDs; its compound tasks and methods are those of Orig
	// that remain in use, renumbered, with inlined subtasks replaced.
	Task *Task
	// Orig is the task that was compacted.
	Orig *Task
	// origTask maps a compound TaskID of Task to Orig's; origMethod and
	// macros give, per method of Task, its method in Orig and, when it
	// inlined subtasks, how to rebuild its children (nil otherwise). All
	// are nil when nothing was compacted.
	origTask   []TaskID
	origMethod []MethodID
	macros     []*macro
}

// macro rebuilds the children of an Orig method from the subtasks of the
// compacted one.
type macro struct {
	method MethodID // in Orig
	kids   []macroKid
}

// macroKid is one subtask of an Orig method: the subtask at position pos
// of the compacted method's subtasks (relative to the macro's offset), or
// (pos < 0) an inlined task of Orig decomposed by its only method, whose
// children start at offset off: rebuilt by sub when something was inlined
// into that method too, else its subtasks one to one.
type macroKid struct {
	pos    int32
	task   TaskID
	method MethodID
	off    int32
	sub    *macro
}

// form is a method of Orig after inlining into it.
type form struct {
	subtasks []TaskID
	ordering []Order
	total    bool
	pre, neg []FactID
	mac      *macro // nil: nothing inlined
}

type compactor struct {
	t            *Task
	total        bool // t is totally ordered
	neverAdded   []bool
	neverDeleted []bool
	forms        []*form
	formBuf      []form  // the forms, one allocation for all
	state        []uint8 // per method: 0 not seen, 1 in progress, 2 done
	chainBuf     []Order
	// the macros, their kids and the new subtask lists are cut from
	// slabs; start is the splice's scratch
	macros slab[macro]
	kids   slab[macroKid]
	tids   slab[TaskID]
	start  []int32
}

// Compact inlines the compound tasks of t that have exactly one method,
// pure tests included. It never changes t. It fails only when ctx ends.
func Compact(ctx context.Context, t *Task) (*Folding, error) {
	c := &compactor{t: t, total: t.TotallyOrdered(), forms: make([]*form, len(t.Methods)), formBuf: make([]form, len(t.Methods)), state: make([]uint8, len(t.Methods))}
	c.neverAdded, c.neverDeleted = t.Permanence()
	any := false
	for mi := range t.Methods {
		if mi&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if c.formOf(MethodID(mi)).mac != nil {
			any = true
		}
	}
	if !any {
		return NoFolding(t), nil
	}
	return c.build(), ctx.Err()
}

// NoFolding is the folding of t that compacts nothing: its Task is t and
// Unfold returns solutions unchanged.
func NoFolding(t *Task) *Folding { return &Folding{Task: t, Orig: t} }

// inlinable returns the only method of task id when id is a compound task
// with exactly one method whose form is known (not on the current path of
// the recursion, which would inline a task into itself).
func (c *compactor) inlinable(id TaskID) (MethodID, bool) {
	t := c.t
	if t.IsPrimitive(id) {
		return 0, false
	}
	ms := t.Compound(id).Methods
	if len(ms) != 1 || c.state[ms[0]] == 1 {
		return 0, false
	}
	return ms[0], true
}

// permanent reports whether a precondition that holds at some point held
// at every earlier point at which the same method could be checked.
func (c *compactor) permanent(pre, neg []FactID) bool {
	for _, f := range pre {
		if !c.neverAdded[f] {
			return false
		}
	}
	for _, f := range neg {
		if !c.neverDeleted[f] {
			return false
		}
	}
	return true
}

// formOf computes (once) the form of method mi: its subtasks with the
// inlinable ones replaced by their method's form.
func (c *compactor) formOf(mi MethodID) *form {
	if c.state[mi] == 2 {
		return c.forms[mi]
	}
	t := c.t
	m := &t.Methods[mi]
	f := &c.formBuf[mi]
	*f = form{subtasks: m.Subtasks, ordering: m.Ordering, total: m.Total, pre: m.Pre, neg: m.NegPre}
	c.forms[mi] = f
	n := len(m.Subtasks)
	if n == 0 || n > maxInlined || !slices.ContainsFunc(m.Subtasks, c.single) {
		c.state[mi] = 2
		return f
	}
	c.state[mi] = 1
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	var preds [][]int32
	if !m.Total {
		var err error
		if order, err = Linearize(n, m.Ordering); err != nil {
			c.state[mi] = 2
			return f
		}
		preds = make([][]int32, n)
		for _, o := range m.Ordering {
			preds[o.After] = append(preds[o.After], o.Before)
		}
	}
	// decide, in an order the method allows, which subtasks to inline
	type slot struct {
		inl     *form    // the inlined form, or nil
		method  MethodID // its method
		atStart bool     // only empty inlined subtasks before it
	}
	slots := make([]slot, n)
	empty := func(k int) bool { return slots[k].inl != nil && len(slots[k].inl.subtasks) == 0 }
	size, any := n, false
	pre, neg := slices.Clone(m.Pre), slices.Clone(m.NegPre)
	for i, k := range order {
		if m.Total {
			slots[k].atStart = i == 0 || slots[order[i-1]].atStart && empty(order[i-1])
		} else {
			slots[k].atStart = true
			for _, p := range preds[k] {
				slots[k].atStart = slots[k].atStart && slots[p].atStart && empty(int(p))
			}
		}
		sm, ok := c.inlinable(m.Subtasks[k])
		if !ok {
			continue
		}
		sf := c.formOf(sm)
		if len(sf.pre)+len(sf.neg) > 0 && !(slots[k].atStart && (c.total || c.permanent(sf.pre, sf.neg))) {
			continue
		}
		if size-1+len(sf.subtasks) > maxInlined {
			continue
		}
		size += len(sf.subtasks) - 1
		slots[k].inl, slots[k].method, any = sf, sm, true
		pre = append(pre, sf.pre...)
		neg = append(neg, sf.neg...)
	}
	c.state[mi] = 2
	if !any {
		return f
	}
	// splice: block k of the new subtasks is subtask k or its inlined form
	mac := &c.macros.take(1)[0]
	*mac = macro{method: mi, kids: c.kids.take(n)}
	c.start = slices.Grow(c.start[:0], n+1)[:n+1]
	start := c.start
	subtasks := c.tids.take(size)[:0]
	var ordering []Order
	total := m.Total
	for k := range slots {
		total = total && (slots[k].inl == nil || slots[k].inl.total)
	}
	for k := 0; k < n; k++ {
		start[k] = int32(len(subtasks))
		sf := slots[k].inl
		if sf == nil {
			mac.kids[k] = macroKid{pos: int32(len(subtasks))}
			subtasks = append(subtasks, m.Subtasks[k])
			continue
		}
		mac.kids[k] = macroKid{pos: -1, task: m.Subtasks[k], method: slots[k].method, off: start[k], sub: sf.mac}
		if !total {
			for _, o := range sf.ordering {
				ordering = append(ordering, Order{Before: o.Before + start[k], After: o.After + start[k]})
			}
		}
		subtasks = append(subtasks, sf.subtasks...)
	}
	start[n] = int32(len(subtasks))
	switch {
	case len(subtasks) <= 1:
		total, ordering = true, nil
	case total:
		ordering = c.chain(len(subtasks))
	default:
		ordering = append(ordering, blockOrder(m, start, ordering)...)
	}
	*f = form{subtasks: subtasks, ordering: ordering, total: total, pre: sortedSet(pre), neg: sortedSet(neg), mac: mac}
	return f
}

// single reports whether id is a compound task with a single method.
func (c *compactor) single(id TaskID) bool {
	return !c.t.IsPrimitive(id) && len(c.t.Compound(id).Methods) == 1
}

// chain returns the total ordering of n subtasks, shared by all methods
// (orderings are never changed).
func (c *compactor) chain(n int) []Order {
	for i := len(c.chainBuf); i < n-1; i++ {
		c.chainBuf = append(c.chainBuf, Order{Before: int32(i), After: int32(i + 1)})
	}
	return c.chainBuf[: n-1 : n-1]
}

// sortedSet sorts xs and removes repeats, in place.
func sortedSet(xs []FactID) []FactID {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// blockOrder orders the blocks of a spliced partially ordered method m:
// block k holds the new subtasks [start[k], start[k+1]), ordered inside
// by inner. For every pair of subtasks a < b of m, directly or through
// blocks that became empty, the last subtasks of a's block precede the
// first of b's.
func blockOrder(m *Method, start []int32, inner []Order) []Order {
	n := len(m.Subtasks)
	succ := make([][]int32, n)
	for _, o := range m.Ordering {
		succ[o.Before] = append(succ[o.Before], o.After)
	}
	if m.Total {
		for k := 0; k+1 < n; k++ {
			succ[k] = append(succ[k], int32(k+1))
		}
	}
	hasPred := make([]bool, start[n])
	hasSucc := make([]bool, start[n])
	for _, o := range inner {
		hasSucc[o.Before], hasPred[o.After] = true, true
	}
	var out []Order
	visited := make([]int, n) // the block a of the last visit, plus one
	for a := 0; a < n; a++ {
		if start[a] == start[a+1] {
			continue
		}
		// the nonempty blocks after a, through empty ones
		stack := slices.Clone(succ[a])
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if visited[b] == a+1 {
				continue
			}
			visited[b] = a + 1
			if start[b] == start[b+1] {
				stack = append(stack, succ[b]...)
				continue
			}
			for x := start[a]; x < start[a+1]; x++ {
				if hasSucc[x] {
					continue
				}
				for y := start[b]; y < start[b+1]; y++ {
					if !hasPred[y] {
						out = append(out, Order{Before: x, After: y})
					}
				}
			}
		}
	}
	return out
}

// build makes the compacted task from the forms: the compound tasks the
// initial network still reaches, renumbered in their order in Orig, and
// their methods.
func (c *compactor) build() *Folding {
	t := c.t
	na := len(t.Actions)
	newID := make([]TaskID, len(t.Compounds)) // -1: gone
	for i := range newID {
		newID[i] = -1
	}
	var stack []TaskID
	reach := func(id TaskID) {
		if !t.IsPrimitive(id) && newID[int(id)-na] < 0 {
			newID[int(id)-na] = 0
			stack = append(stack, id)
		}
	}
	for _, id := range t.Initial {
		reach(id)
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, mi := range t.Compound(id).Methods {
			for _, s := range c.forms[mi].subtasks {
				reach(s)
			}
		}
	}
	f := &Folding{Orig: t}
	for i := range t.Compounds {
		if newID[i] >= 0 {
			newID[i] = TaskID(na + len(f.origTask))
			f.origTask = append(f.origTask, t.CompoundID(i))
		}
	}
	mapTask := func(id TaskID) TaskID {
		if t.IsPrimitive(id) {
			return id
		}
		return newID[int(id)-na]
	}
	// the kept methods' subtasks and IDs live in two shared arrays
	nm, ns := 0, 0
	for _, oid := range f.origTask {
		for _, mi := range t.Compound(oid).Methods {
			nm++
			ns += len(c.forms[mi].subtasks)
		}
	}
	subBuf := make([]TaskID, 0, ns)
	mapTasks := func(ids []TaskID) []TaskID {
		at := len(subBuf)
		for _, id := range ids {
			subBuf = append(subBuf, mapTask(id))
		}
		return subBuf[at:len(subBuf):len(subBuf)]
	}
	ct := *t
	ct.memo = &memo{}
	ct.Compounds = make([]Compound, len(f.origTask))
	ct.Methods = make([]Method, 0, nm)
	f.origMethod = make([]MethodID, 0, nm)
	f.macros = make([]*macro, 0, nm)
	idBuf := make([]MethodID, nm)
	for i, oid := range f.origTask {
		oc := t.Compound(oid)
		nc := &ct.Compounds[i]
		*nc = *oc
		nc.Methods = idBuf[:len(oc.Methods):len(oc.Methods)]
		idBuf = idBuf[len(oc.Methods):]
		for j, mi := range oc.Methods {
			fm := c.forms[mi]
			om := &t.Methods[mi]
			nc.Methods[j] = MethodID(len(ct.Methods))
			ct.Methods = append(ct.Methods, Method{
				Schema: om.Schema, Args: om.Args, Task: TaskID(na + i),
				Pre: fm.pre, NegPre: fm.neg, Subtasks: mapTasks(fm.subtasks), Ordering: fm.ordering, Total: fm.total,
			})
			f.origMethod = append(f.origMethod, mi)
			f.macros = append(f.macros, fm.mac)
		}
	}
	ct.Initial = make([]TaskID, len(t.Initial))
	for i, id := range t.Initial {
		ct.Initial[i] = mapTask(id)
	}
	f.Task = &ct
	return f
}

// Unfold turns a solution of the compacted task into one of the original:
// tasks and methods get their IDs in Orig back, and each inlined task is
// put back as a node, decomposed by its only method, with the subtasks
// that replaced it as its children.
func (f *Folding) Unfold(sol *Solution) *Solution {
	if f.origMethod == nil {
		return sol
	}
	t := f.Task
	out := &Solution{Roots: sol.Roots, Order: sol.Order, Nodes: slices.Clone(sol.Nodes)}
	// expand rebuilds the children of mac's method from the compacted
	// node's children kids, mac's positions starting at base
	var expand func(mac *macro, kids []int32, base int32) []int32
	expand = func(mac *macro, kids []int32, base int32) []int32 {
		children := make([]int32, len(mac.kids))
		for i, k := range mac.kids {
			if k.pos >= 0 {
				children[i] = kids[base+k.pos]
				continue
			}
			n := int32(len(out.Nodes))
			out.Nodes = append(out.Nodes, SolNode{Task: k.task, Method: k.method})
			var cs []int32
			if k.sub != nil {
				cs = expand(k.sub, kids, base+k.off)
			} else {
				m := len(f.Orig.Methods[k.method].Subtasks)
				cs = slices.Clone(kids[base+k.off : base+k.off+int32(m)])
			}
			out.Nodes[n].Children = cs
			children[i] = n
		}
		return children
	}
	for i, nd := range sol.Nodes {
		if t.IsPrimitive(nd.Task) {
			continue
		}
		out.Nodes[i].Task = f.origTask[int(nd.Task)-len(t.Actions)]
		out.Nodes[i].Method = f.origMethod[nd.Method]
		if mac := f.macros[nd.Method]; mac != nil {
			kids := expand(mac, nd.Children, 0)
			out.Nodes[i].Children = kids
		}
	}
	return out
}
