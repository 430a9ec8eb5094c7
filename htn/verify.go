package htn

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/htnsat/htnsat/hddl"
)

// Verify checks a plan against the lifted problem, independently of the
// grounder and the planners: the actions are executable in order from the
// initial state; the decomposition lines form a tree over the plan's ids
// whose roots are the tasks of the initial network; every decomposition
// uses a method of its task with the subtasks the method prescribes;
// orderings hold; every method precondition holds where the method's first
// subtask runs; the goal holds at the end. Method variables that the plan
// does not bind (the column variables of m-check-row) are found by matching
// the precondition against the state, not by enumerating their types.
//
// It returns nil for a valid plan, or a *PlanError naming the plan line.
func Verify(p *hddl.Problem, plan *Plan) error {
	v := &verifier{p: p, d: p.Domain, plan: plan, atoms: map[string]int32{}, typeObjs: map[int][]int{}}
	v.byPred = make([][]int32, len(v.d.Predicates))
	return v.run()
}

type verifier struct {
	p    *hddl.Problem
	d    *hddl.Domain
	plan *Plan

	atoms    map[string]int32 // ground atom key -> id
	atomArgs [][]int32
	byPred   [][]int32 // predicate -> atom ids
	key      []byte
	states   [][]uint64 // states[i]: before action i; states[len]: final

	typeObjs map[int][]int
	nodes    map[int]*vnode
	actPos   map[int]int  // action id -> position
	scope    []hddl.Param // the variables of the formula being evaluated
}

// vnode is one task of the decomposition tree.
type vnode struct {
	id, line int
	prim     bool
	schema   int     // action or compound task index
	args     []int32 // objects
	pos      int     // primitive: position in the plan
	method   int
	binding  []int32  // method variables (-1: not bound by the plan)
	children []*vnode // children[k] is method subtask k
	first    int      // first action position in the subtree, -1 if none
	last     int
}

func (v *verifier) errf(line int, format string, args ...any) error {
	return &PlanError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (v *verifier) run() error {
	if err := v.buildTree(); err != nil {
		return err
	}
	if err := v.simulate(); err != nil {
		return err
	}
	if err := v.placeRoot(); err != nil {
		return err
	}
	if g := v.p.Goal; g != nil {
		v.scope = v.p.GoalVars
		b := make([]int32, len(v.scope))
		for i := range b {
			b[i] = -1
		}
		ok, err := v.holds(g, b, len(v.plan.Actions))
		if err != nil {
			return err
		}
		if !ok {
			return v.errf(0, "the goal does not hold at the end of the plan")
		}
	}
	return nil
}

// ---------------------------------------------------------------- atoms and states

func (v *verifier) atomKey(pred int, args []int32) []byte {
	k := binary.AppendUvarint(v.key[:0], uint64(pred))
	for _, a := range args {
		k = binary.AppendUvarint(k, uint64(a))
	}
	v.key = k
	return k
}

// atomID returns the id of a ground atom, or -1 if it was never true.
func (v *verifier) atomID(pred int, args []int32) int32 {
	if id, ok := v.atoms[string(v.atomKey(pred, args))]; ok {
		return id
	}
	return -1
}

// intern returns the id of a ground atom, creating it.
func (v *verifier) intern(pred int, args []int32) int32 {
	k := v.atomKey(pred, args)
	if id, ok := v.atoms[string(k)]; ok {
		return id
	}
	id := int32(len(v.atomArgs))
	v.atoms[string(k)] = id
	v.atomArgs = append(v.atomArgs, append([]int32(nil), args...))
	v.byPred[pred] = append(v.byPred[pred], id)
	return id
}

func has(s []uint64, id int32) bool {
	w := int(id >> 6)
	return id >= 0 && w < len(s) && s[w]&(1<<(uint(id)&63)) != 0
}

func set(s []uint64, id int32, on bool) []uint64 {
	w := int(id >> 6)
	for len(s) <= w {
		s = append(s, 0)
	}
	if on {
		s[w] |= 1 << (uint(id) & 63)
	} else {
		s[w] &^= 1 << (uint(id) & 63)
	}
	return s
}

func (v *verifier) objectsOf(t int) []int {
	if o, ok := v.typeObjs[t]; ok {
		return o
	}
	o := v.p.ObjectsOfType(t)
	v.typeObjs[t] = o
	return o
}

// ---------------------------------------------------------------- the tree

func (v *verifier) object(name string, line int) (int32, error) {
	i := v.p.ObjectIndex(name)
	if i < 0 {
		return 0, v.errf(line, "unknown object %s", name)
	}
	return int32(i), nil
}

func (v *verifier) args(names []string, params []hddl.Param, what string, line int) ([]int32, error) {
	if len(names) != len(params) {
		return nil, v.errf(line, "%s expects %d arguments, got %d", what, len(params), len(names))
	}
	out := make([]int32, len(names))
	for i, n := range names {
		o, err := v.object(n, line)
		if err != nil {
			return nil, err
		}
		if !v.d.IsSubtype(v.p.Objects[o].Type, params[i].Type) {
			return nil, v.errf(line, "argument %d of %s must be of type %s, but %s is of type %s",
				i+1, what, v.d.Types[params[i].Type].Name, n, v.d.Types[v.p.Objects[o].Type].Name)
		}
		out[i] = o
	}
	return out, nil
}

func (v *verifier) buildTree() error {
	d := v.d
	v.nodes = map[int]*vnode{}
	v.actPos = map[int]int{}
	for i, a := range v.plan.Actions {
		ai := d.ActionIndex(a.Name)
		if ai < 0 {
			if d.TaskIndex(a.Name) >= 0 {
				return v.errf(a.Line, "%s is a compound task, not an action", a.Name)
			}
			return v.errf(a.Line, "unknown action %s", a.Name)
		}
		args, err := v.args(a.Args, d.Actions[ai].Params(), "action "+a.Name, a.Line)
		if err != nil {
			return err
		}
		if _, dup := v.nodes[a.ID]; dup {
			return v.errf(a.Line, "id %d used twice", a.ID)
		}
		v.nodes[a.ID] = &vnode{id: a.ID, line: a.Line, prim: true, schema: ai, args: args, pos: i, first: i, last: i}
		v.actPos[a.ID] = i
	}
	for _, dc := range v.plan.Decomps {
		ti := d.TaskIndex(dc.Task)
		if ti < 0 {
			if d.ActionIndex(dc.Task) >= 0 {
				return v.errf(dc.Line, "%s is an action and cannot be decomposed", dc.Task)
			}
			return v.errf(dc.Line, "unknown task %s", dc.Task)
		}
		args, err := v.args(dc.Args, d.Tasks[ti].Params, "task "+dc.Task, dc.Line)
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
		v.nodes[dc.ID] = &vnode{id: dc.ID, line: dc.Line, schema: ti, args: args, method: mi, first: -1, last: -1}
	}
	// parents: every id but the roots is the subtask of exactly one task
	parent := map[int]int{}
	for _, r := range v.plan.Root {
		if _, ok := v.nodes[r]; !ok {
			return v.errf(0, "root lists task id %d, which no line defines", r)
		}
		if _, dup := parent[r]; dup {
			return v.errf(0, "root lists task id %d twice", r)
		}
		parent[r] = -1
	}
	for _, dc := range v.plan.Decomps {
		for _, s := range dc.Subtasks {
			if _, ok := v.nodes[s]; !ok {
				return v.errf(dc.Line, "subtask id %d is defined by no line", s)
			}
			if prev, dup := parent[s]; dup {
				if prev < 0 {
					return v.errf(dc.Line, "task %d is in the root and also a subtask", s)
				}
				return v.errf(dc.Line, "task %d is a subtask of both %d and %d", s, prev, dc.ID)
			}
			parent[s] = dc.ID
		}
	}
	for _, a := range v.plan.Actions {
		if _, ok := parent[a.ID]; !ok {
			return v.errf(a.Line, "action %d is not part of the decomposition", a.ID)
		}
	}
	for _, dc := range v.plan.Decomps {
		if _, ok := parent[dc.ID]; !ok {
			return v.errf(dc.Line, "task %d is not reachable from the root", dc.ID)
		}
	}
	// children matched to method subtasks, depth first from the roots
	visiting := map[int]bool{}
	var build func(id int) error
	build = func(id int) error {
		n := v.nodes[id]
		if n.prim {
			return nil
		}
		if visiting[id] {
			return v.errf(n.line, "task %d is its own descendant", id)
		}
		visiting[id] = true
		dc := v.decomp(id)
		if err := v.matchMethod(n, dc); err != nil {
			return err
		}
		for _, c := range n.children {
			if err := build(c.id); err != nil {
				return err
			}
			if c.first >= 0 && (n.first < 0 || c.first < n.first) {
				n.first = c.first
			}
			if c.last > n.last {
				n.last = c.last
			}
		}
		return nil
	}
	for _, r := range v.plan.Root {
		if err := build(r); err != nil {
			return err
		}
	}
	return nil
}

func (v *verifier) decomp(id int) *Decomposition {
	for i := range v.plan.Decomps {
		if v.plan.Decomps[i].ID == id {
			return &v.plan.Decomps[i]
		}
	}
	return nil
}

// taskOf returns the TaskRef and arguments of a node.
func (n *vnode) ref() hddl.TaskRef { return hddl.TaskRef{Primitive: n.prim, Index: n.schema} }

func (v *verifier) nodeName(n *vnode) string {
	var b strings.Builder
	b.WriteString("(" + v.d.TaskName(n.ref()))
	for _, a := range n.args {
		b.WriteString(" " + v.p.Objects[a].Name)
	}
	b.WriteString(")")
	return b.String()
}

// unify binds method variables so that terms equal the objects vals.
func unify(terms []hddl.Term, vals []int32, b []int32) bool {
	for i, t := range terms {
		if !t.IsVar() {
			if int32(t.Obj()) != vals[i] {
				return false
			}
			continue
		}
		x := t.Var()
		switch {
		case b[x] < 0:
			b[x] = vals[i]
		case b[x] != vals[i]:
			return false
		}
	}
	return true
}

// matchMethod binds the method's variables from the task and assigns the
// listed subtasks to the method's subtasks.
func (v *verifier) matchMethod(n *vnode, dc *Decomposition) error {
	m := &v.d.Methods[n.method]
	b := make([]int32, len(m.Vars))
	for i := range b {
		b[i] = -1
	}
	if !unify(m.TaskArgs, n.args, b) {
		return v.errf(n.line, "method %s cannot decompose %s: its task arguments do not match", m.Name, v.nodeName(n))
	}
	subs := m.Network.Subtasks
	if len(dc.Subtasks) != len(subs) {
		return v.errf(n.line, "method %s has %d subtasks, the plan gives %d", m.Name, len(subs), len(dc.Subtasks))
	}
	listed := make([]*vnode, len(dc.Subtasks))
	for i, s := range dc.Subtasks {
		listed[i] = v.nodes[s]
	}
	assign := make([]*vnode, len(subs))
	used := make([]bool, len(listed))
	// Total order: the i-th listed subtask is the i-th subtask of the
	// method. Partial order: any assignment that unifies (backtracking).
	var rec func(k int, b []int32) []int32
	rec = func(k int, b []int32) []int32 {
		if k == len(subs) {
			return b
		}
		for i, c := range listed {
			if used[i] || (m.Network.Total && i != k) {
				continue
			}
			if c.prim != subs[k].Task.Primitive || c.schema != subs[k].Task.Index {
				continue
			}
			nb := cloneBinding(b)
			if !unify(subs[k].Args, c.args, nb) {
				continue
			}
			used[i] = true
			assign[k] = c
			if res := rec(k+1, nb); res != nil {
				return res
			}
			used[i] = false
		}
		return nil
	}
	res := rec(0, b)
	if res == nil {
		if m.Network.Total {
			for k := range subs {
				c := listed[k]
				want := v.subtaskName(&subs[k], b)
				if c.prim != subs[k].Task.Primitive || c.schema != subs[k].Task.Index || !unify(subs[k].Args, c.args, b) {
					return v.errf(n.line, "subtask %d of method %s must be %s, found %s (id %d)", k+1, m.Name, want, v.nodeName(c), c.id)
				}
			}
		}
		return v.errf(n.line, "the subtasks listed do not match those of method %s", m.Name)
	}
	n.binding = res
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

// ---------------------------------------------------------------- execution

// simulate executes the actions from the initial state, recording the
// state before each action and the final state.
func (v *verifier) simulate() error {
	var s []uint64
	tup := make([]int32, 0, 8)
	for _, a := range v.p.Init {
		tup = tup[:0]
		for _, o := range a.Args {
			tup = append(tup, int32(o))
		}
		s = set(s, v.intern(a.Pred, tup), true)
	}
	v.states = make([][]uint64, 0, len(v.plan.Actions)+1)
	for i, pa := range v.plan.Actions {
		v.states = append(v.states, s)
		n := v.nodes[pa.ID]
		a := &v.d.Actions[n.schema]
		v.scope = a.Vars
		b := make([]int32, len(a.Vars))
		for k := range b {
			b[k] = -1
		}
		copy(b, n.args)
		ok, err := v.holds(a.Precondition, b, i)
		if err != nil {
			return err
		}
		if !ok {
			return v.errf(pa.Line, "the precondition of %s does not hold%s", v.nodeName(n), v.why(a.Precondition, b, i))
		}
		var adds, dels []int32
		if err := v.effects(a.Effect, b, i, &adds, &dels); err != nil {
			return err
		}
		next := append([]uint64(nil), s...)
		for _, id := range dels {
			next = set(next, id, false)
		}
		for _, id := range adds {
			next = set(next, id, true)
		}
		s = next
	}
	v.states = append(v.states, s)
	return nil
}

func (v *verifier) ground(args []hddl.Term, b []int32) []int32 {
	out := make([]int32, len(args))
	for i, t := range args {
		if t.IsVar() {
			out[i] = b[t.Var()]
		} else {
			out[i] = int32(t.Obj())
		}
	}
	return out
}

func (v *verifier) effects(f *hddl.Formula, b []int32, at int, adds, dels *[]int32) error {
	if f == nil {
		return nil
	}
	switch f.Kind {
	case hddl.FAtom:
		*adds = append(*adds, v.intern(f.Pred, v.ground(f.Args, b)))
	case hddl.FNot:
		a := f.Subs[0]
		if id := v.atomID(a.Pred, v.ground(a.Args, b)); id >= 0 {
			*dels = append(*dels, id)
		}
	case hddl.FAnd:
		for _, s := range f.Subs {
			if err := v.effects(s, b, at, adds, dels); err != nil {
				return err
			}
		}
	case hddl.FForall:
		return v.each(f.Vars, b, func() error { return v.effects(f.Subs[0], b, at, adds, dels) })
	case hddl.FWhen:
		ok, err := v.holds(f.Subs[0], b, at)
		if err != nil || !ok {
			return err
		}
		return v.effects(f.Subs[1], b, at, adds, dels)
	}
	return nil
}

// each calls fn for every assignment of objects to vars (by type).
func (v *verifier) each(vars []int, b []int32, fn func() error) error {
	if len(vars) == 0 {
		return fn()
	}
	x := vars[0]
	for _, o := range v.objectsOf(v.scope[x].Type) {
		b[x] = int32(o)
		if err := v.each(vars[1:], b, fn); err != nil {
			b[x] = -1
			return err
		}
	}
	b[x] = -1
	return nil
}

// ---------------------------------------------------------------- formulas

// holds evaluates a formula in state at, under binding b. The scope's
// variable types come from v.scope (set by the caller).
func (v *verifier) holds(f *hddl.Formula, b []int32, at int) (bool, error) {
	if f == nil {
		return true, nil
	}
	s := v.states[at]
	switch f.Kind {
	case hddl.FTrue:
		return true, nil
	case hddl.FAtom:
		return has(s, v.atomID(f.Pred, v.ground(f.Args, b))), nil
	case hddl.FEqual:
		g := v.ground(f.Args, b)
		return g[0] == g[1], nil
	case hddl.FNot:
		ok, err := v.holds(f.Subs[0], b, at)
		return !ok, err
	case hddl.FAnd:
		for _, sub := range f.Subs {
			if ok, err := v.holds(sub, b, at); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case hddl.FOr:
		for _, sub := range f.Subs {
			if ok, err := v.holds(sub, b, at); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case hddl.FImply:
		ok, err := v.holds(f.Subs[0], b, at)
		if err != nil || !ok {
			return true, err
		}
		return v.holds(f.Subs[1], b, at)
	case hddl.FForall, hddl.FExists:
		want := f.Kind == hddl.FExists
		found := !want
		errStop := fmt.Errorf("stop")
		err := v.each(f.Vars, b, func() error {
			ok, err := v.holds(f.Subs[0], b, at)
			if err != nil {
				return err
			}
			if ok == want {
				found = want
				return errStop
			}
			return nil
		})
		if err != nil && err != errStop {
			return false, err
		}
		return found, nil
	}
	return false, fmt.Errorf("cannot evaluate %s", f.Kind)
}

// why names the first literal of a conjunction that fails, for messages.
func (v *verifier) why(f *hddl.Formula, b []int32, at int) string {
	if f == nil {
		return ""
	}
	subs := []*hddl.Formula{f}
	if f.Kind == hddl.FAnd {
		subs = f.Subs
	}
	for _, s := range subs {
		if ok, err := v.holds(s, b, at); err == nil && !ok {
			return ": " + v.formulaString(s, b) + " is false"
		}
	}
	return ""
}

func (v *verifier) formulaString(f *hddl.Formula, b []int32) string {
	term := func(t hddl.Term) string {
		switch {
		case !t.IsVar():
			return v.p.Objects[t.Obj()].Name
		case b != nil && t.Var() < len(b) && b[t.Var()] >= 0:
			return v.p.Objects[b[t.Var()]].Name
		}
		return v.scope[t.Var()].Name
	}
	switch f.Kind {
	case hddl.FAtom, hddl.FEqual:
		name := "="
		if f.Kind == hddl.FAtom {
			name = v.d.Predicates[f.Pred].Name
		}
		parts := []string{name}
		for _, a := range f.Args {
			parts = append(parts, term(a))
		}
		return "(" + strings.Join(parts, " ") + ")"
	case hddl.FNot:
		return "(not " + v.formulaString(f.Subs[0], b) + ")"
	}
	return "(" + f.Kind.String() + " ...)"
}

// ---------------------------------------------------------------- method preconditions

// satisfy finds values for the method variables the plan left unbound such
// that the precondition holds in state at: positive atoms of the top-level
// conjunction are matched against the atoms true in the state, and only a
// variable that no such atom mentions is tried over its type.
func (v *verifier) satisfy(f *hddl.Formula, b []int32, at int) (bool, error) {
	if f == nil {
		return true, nil
	}
	var conj []*hddl.Formula
	var flatten func(*hddl.Formula)
	flatten = func(g *hddl.Formula) {
		if g.Kind == hddl.FAnd {
			for _, s := range g.Subs {
				flatten(s)
			}
			return
		}
		conj = append(conj, g)
	}
	flatten(f)
	unbound := func(g *hddl.Formula) int {
		n := 0
		for _, t := range g.Args {
			if t.IsVar() && b[t.Var()] < 0 {
				n++
			}
		}
		return n
	}
	s := v.states[at]
	var rec func() (bool, error)
	rec = func() (bool, error) {
		// the positive atom with the fewest candidates binds next
		var best *hddl.Formula
		bestN := -1
		for _, g := range conj {
			if g.Kind != hddl.FAtom || unbound(g) == 0 {
				continue
			}
			if n := len(v.byPred[g.Pred]); bestN < 0 || n < bestN {
				best, bestN = g, n
			}
		}
		if best == nil {
			// variables no positive atom mentions: their types
			for x := range b {
				if b[x] < 0 && v.mentions(f, x) {
					return v.tryType(x, b, func() (bool, error) { return rec() })
				}
			}
			return v.holds(f, b, at)
		}
		for _, id := range v.byPred[best.Pred] {
			if !has(s, id) {
				continue
			}
			saved := append([]int32(nil), b...)
			if unify(best.Args, v.atomArgs[id], b) && v.typesOK(best.Args, b) {
				if ok, err := rec(); err != nil || ok {
					return ok, err
				}
			}
			copy(b, saved)
		}
		return false, nil
	}
	return rec()
}

func (v *verifier) typesOK(args []hddl.Term, b []int32) bool {
	for _, t := range args {
		if t.IsVar() && !v.d.IsSubtype(v.p.Objects[b[t.Var()]].Type, v.scope[t.Var()].Type) {
			return false
		}
	}
	return true
}

func (v *verifier) tryType(x int, b []int32, fn func() (bool, error)) (bool, error) {
	for _, o := range v.objectsOf(v.scope[x].Type) {
		b[x] = int32(o)
		if ok, err := fn(); err != nil || ok {
			return ok, err
		}
	}
	b[x] = -1
	return false, nil
}

// mentions reports whether variable x occurs free in f.
func (v *verifier) mentions(f *hddl.Formula, x int) bool {
	for _, t := range f.Args {
		if t.IsVar() && t.Var() == x {
			return true
		}
	}
	for _, q := range f.Vars {
		if q == x {
			return false
		}
	}
	for _, s := range f.Subs {
		if v.mentions(s, x) {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- placement

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
