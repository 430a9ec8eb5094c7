package ground

import (
	"errors"
	"fmt"
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// instantiate grounds the hierarchy top-down: the initial task network
// (its free variables bound component by component), then for every
// reachable compound task its methods, whose parameters are bound by the
// task, by joins over their preconditions and primitive subtasks, and only
// as a last resort by enumeration.
func (g *grounder) instantiate() error {
	if err := g.initialNetwork(); err != nil {
		return err
	}
	for i := 0; i < len(g.gTasks); i++ {
		if g.stopped(i) {
			return g.err
		}
		if err := g.expand(int32(i)); err != nil {
			return err
		}
	}
	return nil
}

// task returns the ground compound task of a lifted task and arguments,
// creating it if needed.
func (g *grounder) task(schema int, args []int32) int32 {
	ti, isNew := g.taskRel[schema].add(args)
	if !isNew {
		return g.taskGID[schema][ti]
	}
	id := int32(len(g.gTasks))
	g.taskGID[schema] = append(g.taskGID[schema], id)
	g.gTasks = append(g.gTasks, gTask{schema: schema, args: g.ints.copy(args)})
	return id
}

// action returns the ground action of a lifted action and parameters, or
// false if no such action is reachable. Ground actions are made here, on
// first demand.
func (g *grounder) action(schema int, args []int32) (int32, bool, error) {
	full := g.actFull[schema]
	if full == nil {
		ti, ok := g.actRel[schema].find(args)
		if !ok {
			return 0, false, nil
		}
		gid := g.actGID[schema][ti]
		if gid < 0 {
			s := g.actions[schema][0]
			b := g.scratch(len(s.vars))
			copy(b, args)
			var err error
			gid, err = g.newAction(s, b)
			g.release(b)
			if err != nil {
				return 0, false, err
			}
			g.actGID[schema][ti] = gid
		}
		return gid, true, nil
	}
	if ti, ok := full.find(args); ok {
		return g.actGID[schema][ti], true, nil
	}
	s := g.actions[schema][0]
	key := make([]int32, len(s.kept))
	for i, v := range s.kept {
		key[i] = args[v]
	}
	if _, ok := g.actRel[schema].find(key); !ok {
		return 0, false, nil
	}
	for v, x := range args {
		if !g.isOfType(int(x), s.vars[v].Type) {
			return 0, false, nil
		}
	}
	b := g.scratch(len(s.vars))
	copy(b, args)
	full.add(args)
	gid, err := g.newAction(s, b)
	g.release(b)
	if err != nil {
		return 0, false, err
	}
	g.actGID[schema] = append(g.actGID[schema], gid)
	return gid, true, nil
}

// ref grounds a subtask under a binding; ok is false for a primitive
// subtask with no reachable action.
func (g *grounder) ref(st *hddl.Subtask, b []int32, tup []int32) (gRef, bool, error) {
	tup = g.ground(st.Args, b, tup[:0])
	if st.Task.Primitive {
		a, ok, err := g.action(st.Task.Index, tup)
		return gRef{prim: true, idx: a}, ok, err
	}
	return gRef{idx: g.task(st.Task.Index, tup)}, true, nil
}

// expand instantiates the methods of ground compound task ti.
func (g *grounder) expand(ti int32) error {
	t := &g.gTasks[ti]
	if t.split != nil {
		return g.expandSplit(ti)
	}
	if t.schema < 0 {
		return nil // choice tasks get their methods when they are made
	}
	args := t.args
	argInts := int32sToInts(args)
	tup := g.scratch(8)[:0]
	defer g.release(tup)
	for mi := range g.d.Methods {
		m := &g.d.Methods[mi]
		if m.Task != t.schema {
			continue
		}
		for _, s := range g.methods[mi] {
			binding := g.scratch(len(s.vars))
			if !g.unify(m.TaskArgs, argInts, binding, s) {
				g.release(binding)
				continue
			}
			pl, ok := s.plans[-2]
			if !ok {
				bound := make([]bool, len(binding))
				for i, x := range binding {
					bound[i] = x >= 0
				}
				q := s.q
				if s.main != nil {
					q = s.main
				}
				pl = q.plan(bound)
				s.plans[-2] = pl
			}
			err := g.j.run(pl, binding, func(b []int32) error {
				gm := gMethod{schema: s, binding: g.ints.copy(b), task: ti, total: m.Network.Total,
					subtasks: g.refs.take(len(m.Network.Subtasks))[:0]}
				for k := range m.Network.Subtasks {
					if s.splitOf != nil && s.splitOf[k] >= 0 {
						// a split stands where its first subtask stood
						if sp := s.splits[s.splitOf[k]]; sp.subs[0] == k {
							gm.subtasks = append(gm.subtasks, gRef{idx: g.splitTask(s, sp, b)})
						}
						continue
					}
					r, ok, err := g.ref(&m.Network.Subtasks[k], b, tup)
					if err != nil || !ok {
						// not ok: a free argument of an action of the wrong type
						return err
					}
					gm.subtasks = append(gm.subtasks, r)
				}
				gm.ordering = s.ordering // shared by the schema's instances, never changed
				g.gTasks[ti].methods = append(g.gTasks[ti].methods, int32(len(g.gMethods)))
				g.gMethods = append(g.gMethods, gm)
				return g.budget(s)
			})
			g.release(binding)
			if err != nil {
				return err
			}
			t = &g.gTasks[ti] // g.gTasks may have grown
		}
	}
	return nil
}

func int32sToInts(xs []int32) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// initialNetwork grounds the initial task network. Tasks that share free
// variables (directly, or through :constraints) form a component; the
// component is widened until every other task is ordered the same way with
// respect to all its members, so that it can stand as one node. A
// component with free variables becomes a synthetic choice task with one
// method per binding of its variables; tasks without free variables stand
// for themselves. So n fill tasks with a digit variable each give n choice
// tasks of 9 methods, not one method per combination of n digits.
func (g *grounder) initialNetwork() error {
	p := g.p
	net := &p.Initial
	n := len(net.Subtasks)
	if err := emptyNetworkParam(p); err != nil {
		return err
	}
	// union-find over tasks, joined through shared variables
	uf := newUnionFind(n)
	find, union := uf.find, uf.union
	varTask := map[int]int{} // variable -> a task using it
	for i, st := range net.Subtasks {
		for _, t := range st.Args {
			if t.IsVar() {
				if j, ok := varTask[t.Var()]; ok {
					union(i, j)
				} else {
					varTask[t.Var()] = i
				}
			}
		}
	}
	g.norm.scopeVars = p.Vars
	cons, err := g.norm.dnf(p.Constraints, false, nil)
	if err != nil {
		return fmt.Errorf("initial task network constraints: %w", err)
	}
	if len(cons) == 0 {
		return fmt.Errorf("%w: the constraints of the initial task network are unsatisfiable", ErrUnsolvable)
	}
	if len(cons) > 1 {
		return fmt.Errorf("disjunctive constraints on the initial task network are %w", ErrNotSupported)
	}
	if err := g.looseConstraints(cons[0], varTask); err != nil {
		return err
	}
	for _, l := range cons[0] {
		first := -1
		for _, t := range l.args {
			if !t.IsVar() {
				continue
			}
			j, ok := varTask[t.Var()]
			if !ok {
				continue // a variable no task uses
			}
			if first < 0 {
				first = j
			} else {
				union(first, j)
			}
		}
	}
	if err := widenToModules(g.ctx, uf, n, net.Ordering, net.Total); err != nil {
		return err
	}
	// components in order of their first task
	compOf := map[int]int{}
	var comps [][]int
	for i := 0; i < n; i++ {
		r := find(i)
		c, ok := compOf[r]
		if !ok {
			c = len(comps)
			compOf[r] = c
			comps = append(comps, nil)
		}
		comps[c] = append(comps[c], i)
	}
	node := make([]int, n) // task -> component
	for c, ms := range comps {
		for _, m := range ms {
			node[m] = c
		}
	}
	tup := make([]int32, 0, 8)
	sc := newComponentScratch(len(p.Vars), n)
	for _, ms := range comps {
		// a component's join ticks the joiner a few times only, and a
		// network of 1,296 free fill tasks has as many components
		if err := g.ctx.Err(); err != nil {
			return err
		}
		r, err := g.component(ms, cons[0], tup, sc)
		if err != nil {
			return err
		}
		g.initial = append(g.initial, r)
	}
	seen := map[Order]bool{}
	for _, o := range net.Ordering {
		a, b := node[o.Before], node[o.After]
		if a == b {
			continue
		}
		k := Order{Before: int32(a), After: int32(b)}
		if !seen[k] {
			seen[k] = true
			g.initialOrder = append(g.initialOrder, k)
		}
	}
	g.initialTotal = net.Total
	if net.Total {
		g.initialOrder = g.initialOrder[:0]
		for i := 1; i < len(comps); i++ {
			g.initialOrder = append(g.initialOrder, Order{Before: int32(i - 1), After: int32(i)})
		}
	}
	return nil
}

// componentScratch holds the buffers component reuses from one
// component to the next (a network of n tasks has up to n components, so
// buffers per variable or per task made for each would cost n²).
type componentScratch struct {
	inComp  []bool  // per variable of the network: in the component
	skip    []bool  // per variable: not in the component
	none    []int32 // per variable: -1 (no binding)
	binding []int32 // per variable: the join's binding
	bound   []bool  // per variable: false
	pos     []int32 // per task of the network: its place in the component, -1 if not in it
}

func newComponentScratch(nVars, nTasks int) *componentScratch {
	sc := &componentScratch{inComp: make([]bool, nVars), skip: make([]bool, nVars), none: make([]int32, nVars),
		binding: make([]int32, nVars), bound: make([]bool, nVars), pos: make([]int32, nTasks)}
	for i := range sc.none {
		sc.none[i] = -1
	}
	for i := range sc.pos {
		sc.pos[i] = -1
	}
	return sc
}

// component grounds one component of the initial network: a task without
// free variables directly, otherwise a choice task whose methods are the
// bindings of the component's variables.
func (g *grounder) component(ms []int, cons conj, tup []int32, sc *componentScratch) (gRef, error) {
	net := &g.p.Initial
	varList := componentVars(net, ms, cons, sc)
	defer func() {
		for _, v := range varList {
			sc.inComp[v] = false
		}
	}()
	if len(varList) == 0 && len(ms) == 1 {
		r, ok, err := g.ref(&net.Subtasks[ms[0]], sc.none, tup)
		if err != nil {
			return gRef{}, err
		}
		if !ok {
			return gRef{}, fmt.Errorf("%w: initial task %s is not reachable", ErrUnsolvable, g.d.TaskName(net.Subtasks[ms[0]].Task))
		}
		return r, nil
	}
	q, err := g.componentQuery(ms, cons, sc)
	if err != nil {
		return gRef{}, err
	}
	ordering := componentOrdering(net, ms, sc)
	return g.choiceTask(q, ms, varList, ordering, tup, sc)
}

// componentVars returns the variables of component ms of the initial
// network, sorted, marked in sc.inComp: its tasks', and those a
// constraint relates to them, which no task uses, bound with them, or
// the constraint would never be checked (a filter waits for all its
// variables).
func componentVars(net *hddl.Network, ms []int, cons conj, sc *componentScratch) []int {
	var varList []int
	mark := func(t hddl.Term) bool {
		if t.IsVar() && !sc.inComp[t.Var()] {
			sc.inComp[t.Var()] = true
			varList = append(varList, t.Var())
			return true
		}
		return false
	}
	for _, m := range ms {
		for _, t := range net.Subtasks[m].Args {
			mark(t)
		}
	}
	for grown := len(varList) > 0; grown; {
		grown = false
		for _, l := range cons {
			if !touches(l, sc.inComp) {
				continue
			}
			for _, t := range l.args {
				grown = mark(t) || grown
			}
		}
	}
	slices.Sort(varList)
	return varList
}

// touches reports whether literal l has a variable in vars.
func touches(l lit, vars []bool) bool {
	for _, t := range l.args {
		if t.IsVar() && vars[t.Var()] {
			return true
		}
	}
	return false
}

// componentQuery is the query over the component's variables: primitive
// members are atoms, and so are compound ones the bottom-up pass
// bounds; constraints over its variables are filters.
func (g *grounder) componentQuery(ms []int, cons conj, sc *componentScratch) (*query, error) {
	p := g.p
	net := &p.Initial
	q := &query{name: "the initial task network", vars: p.Vars, need: sc.inComp, skip: sc.skip}
	for v := range p.Vars {
		q.skip[v] = !sc.inComp[v]
	}
	for _, m := range ms {
		st := &net.Subtasks[m]
		switch {
		case st.Task.Primitive:
			q.atoms = append(q.atoms, atom{rel: g.actRel[st.Task.Index], args: g.keptArgs(st.Task.Index, st.Args)})
		case g.needBU[st.Task.Index]:
			q.atoms = append(q.atoms, atom{rel: g.buRel[st.Task.Index], args: st.Args})
		}
	}
	for _, l := range cons {
		if !touches(l, sc.inComp) {
			continue
		}
		if err := g.addConstraint(q, l); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// componentOrdering sorts the members ms and returns the ordering among
// them, by their positions in ms.
func componentOrdering(net *hddl.Network, ms []int, sc *componentScratch) []Order {
	slices.Sort(ms)
	for i, m := range ms {
		sc.pos[m] = int32(i)
	}
	var ordering []Order
	for _, o := range net.Ordering {
		a, b := sc.pos[o.Before], sc.pos[o.After]
		if a >= 0 && b >= 0 {
			ordering = append(ordering, Order{Before: a, After: b})
		}
	}
	for _, m := range ms {
		sc.pos[m] = -1
	}
	return ordering
}

// choiceTask makes the choice task of a component: a method per answer
// of q, binding varList, whose subtasks are the members ms so bound.
func (g *grounder) choiceTask(q *query, ms, varList []int, ordering []Order, tup []int32, sc *componentScratch) (gRef, error) {
	net := &g.p.Initial
	choice := int32(len(g.gTasks))
	g.gTasks = append(g.gTasks, gTask{schema: -1})
	binding := sc.binding
	copy(binding, sc.none)
	pl := q.plan(sc.bound)
	s := &schema{name: "the initial task network"}
	err := g.j.run(pl, binding, func(b []int32) error {
		gm := gMethod{task: choice, ordering: ordering, total: net.Total,
			binding: g.ints.take(len(varList))[:0], subtasks: g.refs.take(len(ms))[:0]}
		for _, v := range varList {
			gm.binding = append(gm.binding, b[v])
		}
		for _, m := range ms {
			r, ok, err := g.ref(&net.Subtasks[m], b, tup)
			if err != nil || !ok {
				return err
			}
			gm.subtasks = append(gm.subtasks, r)
		}
		g.gTasks[choice].methods = append(g.gTasks[choice].methods, int32(len(g.gMethods)))
		g.gMethods = append(g.gMethods, gm)
		return g.budget(s)
	})
	if err != nil {
		return gRef{}, err
	}
	return gRef{idx: choice}, nil
}

// emptyNetworkParam returns ErrUnsolvable when a parameter of the initial
// network has a type without objects: the network has no instance,
// whether a task uses the parameter or not (the joins bind only the
// variables something uses). Both groundings ask it first.
func emptyNetworkParam(p *hddl.Problem) error {
	for _, v := range p.Vars[:p.NumParams] {
		if len(p.ObjectsOfType(v.Type)) == 0 {
			return fmt.Errorf("%w: the initial task network's variable %s has type %s, which has no objects", ErrUnsolvable, v.Name, p.Domain.Types[v.Type].Name)
		}
	}
	return nil
}

// addConstraint adds a literal of the initial network's constraints to q:
// an equality as a filter, a static atom as an atom (or, negated, a
// filter).
func (g *grounder) addConstraint(q *query, l lit) error {
	switch {
	case l.pred == eqPred && !l.neg:
		q.filters = append(q.filters, filter{kind: fEqual, args: l.args})
	case l.pred == eqPred:
		q.filters = append(q.filters, filter{kind: fNotEqual, args: l.args})
	case g.static[l.pred] && !l.neg:
		q.atoms = append(q.atoms, atom{rel: g.rels[l.pred], args: l.args})
	case g.static[l.pred]:
		q.filters = append(q.filters, filter{kind: fNotIn, rel: g.rels[l.pred], args: l.args})
	default:
		return fmt.Errorf("constraints on the initial task network over fluent predicates are %w", ErrNotSupported)
	}
	return nil
}

// errMet stops the join of looseConstraints at its first answer.
var errMet = errors.New("met")

// looseConstraints checks the constraints of the initial network that no
// task's variable takes part in (their variables occur in no task, or
// they have none): no component filters by them, but unless some binding
// of their variables meets them all, the network has no instance.
func (g *grounder) looseConstraints(cons conj, used map[int]int) error {
	p := g.p
	q := &query{name: "the constraints of the initial task network", vars: p.Vars, need: make([]bool, len(p.Vars)), skip: make([]bool, len(p.Vars))}
	for v := range q.skip {
		q.skip[v] = true
	}
	loose := 0
	for _, l := range cons {
		inTask := false
		for _, t := range l.args {
			if t.IsVar() {
				_, ok := used[t.Var()]
				inTask = inTask || ok
			}
		}
		if inTask {
			continue
		}
		for _, t := range l.args {
			if t.IsVar() {
				q.need[t.Var()], q.skip[t.Var()] = true, false
			}
		}
		if err := g.addConstraint(q, l); err != nil {
			return err
		}
		loose++
	}
	if loose == 0 {
		return nil
	}
	binding := make([]int32, len(p.Vars))
	for i := range binding {
		binding[i] = -1
	}
	err := g.j.run(q.plan(make([]bool, len(p.Vars))), binding, func([]int32) error { return errMet })
	switch {
	case err == errMet:
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("%w: no binding of the initial task network's variables meets its constraints", ErrUnsolvable)
}

// slab hands out slices cut from larger blocks, for the many small
// slices of a ground task; each is capped, so that an append to one
// never writes into the next.
type slab[T any] struct{ buf []T }

// take returns a slice of n zero values (empty, not nil, for n = 0).
// Blocks start small and double up to 4,096 values, so a small task does
// not pay for a large block.
func (s *slab[T]) take(n int) []T {
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]T, 0, max(min(4096, max(256, 2*cap(s.buf))), n))
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	return s.buf[start : start+n : start+n]
}

// copy returns a slab copy of xs (nil for an empty xs, as append to a nil
// slice gives).
func (s *slab[T]) copy(xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	out := s.take(len(xs))
	copy(out, xs)
	return out
}
