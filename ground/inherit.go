package ground

import (
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// inheritThrough extends inherit past the first subtask: a precondition
// a subtask needs where its turn comes, which no subtask before it in the
// method may make true (for a negated one, false), must already hold
// where the method is chosen, as the network is totally ordered; so it
// joins the method's query. A subtask's preconditions are an action's,
// or those every decomposition of a compound task needs at its start
// (taskNeeds). Whether an earlier subtask may change an atom is told by
// the lifted effect patterns (liftedEffects), argument by argument: two
// variables meet only where their types share an object (IPC Transport:
// a vehicle driven by (get_to ?v ?l1) is never the package that
// (load ?v ?l1 ?p) needs at ?l1, so the delivery is chosen only where the
// package is, instead of at every place the vehicle may first go to).
// Only in a totally ordered method, and in a partially ordered problem
// only for a task decomposed where its subtasks begin at once (see
// Lazy.total), as tasks outside the method may run in between otherwise.
func (lz *Lazy) inheritThrough() {
	d := lz.d
	le := newLiftedEffects(lz)
	needs := make([][]lit, len(d.Tasks))
	known := make([]int8, len(d.Tasks)) // 0 not yet, 1 computing, 2 done
	meet := map[[2]int]bool{}
	for mi := range d.Methods {
		m := &d.Methods[mi]
		ss := lz.methods[mi]
		if len(ss) == 0 || !m.Network.Total {
			continue
		}
		sts := m.Network.Subtasks
		var add []lit
		for k, st := range sts {
			for _, l := range lz.subtaskNeeds(st, needs, known) {
				if k > 0 && lz.mayChange(le, m, sts[:k], l, meet) {
					continue
				}
				add = append(add, l)
			}
		}
		for _, s := range ss {
			for _, l := range add {
				to := &s.pos
				if l.neg {
					to = &s.neg
				}
				if !slices.ContainsFunc(*to, func(x lit) bool { return x.pred == l.pred && slices.Equal(x.args, l.args) }) {
					*to = append(*to, lit{pred: l.pred, args: l.args})
				}
			}
			lz.sortStatic(s)
		}
	}
}

// subtaskNeeds returns the preconditions subtask st of a method needs at
// its turn, over the method's terms (neg for negated atoms): its action's
// (without the action's own variables) or its compound task's
// (taskNeeds).
func (lz *Lazy) subtaskNeeds(st hddl.Subtask, needs [][]lit, known []int8) []lit {
	var from []lit
	var nParams int
	if st.Task.Primitive {
		as := lz.actions[st.Task.Index]
		if as == nil {
			return nil
		}
		nParams = lz.d.Actions[st.Task.Index].NumParams
		from = append(from, as.pos...)
		for _, l := range as.neg {
			from = append(from, lit{pred: l.pred, args: l.args, neg: true})
		}
	} else {
		from = lz.taskNeeds(st.Task.Index, needs, known)
		nParams = len(st.Args)
	}
	var out []lit
next:
	for _, l := range from {
		r := lit{pred: l.pred, neg: l.neg, args: make([]hddl.Term, len(l.args))}
		for i, x := range l.args {
			if x.IsVar() {
				if x.Var() >= nParams {
					continue next // a variable of the action's own
				}
				x = st.Args[x.Var()]
			}
			r.args[i] = x
		}
		out = append(out, r)
	}
	return out
}

// taskNeeds returns the preconditions every decomposition of compound
// task t needs at its start, over its parameters (variable i: parameter
// i): for a task with a single method (and a single disjunct), the
// atoms of its query over the task's parameters alone, which hold the
// preconditions inherited from its subtasks; none for any other, or for
// a task met again below itself.
func (lz *Lazy) taskNeeds(t int, needs [][]lit, known []int8) []lit {
	if known[t] != 0 {
		return needs[t] // nil while computing: a cycle
	}
	known[t] = 1
	defer func() { known[t] = 2 }()
	ms := lz.methodsOf[t]
	if len(ms) != 1 || len(lz.methods[ms[0]]) != 1 {
		return nil
	}
	m := &lz.d.Methods[ms[0]]
	param := make([]int, len(m.Vars))
	for i := range param {
		param[i] = -1
	}
	for j, a := range m.TaskArgs {
		if a.IsVar() && param[a.Var()] < 0 {
			param[a.Var()] = j
		}
	}
	sc := lz.methods[ms[0]][0]
	var out []lit
	add := func(l lit, neg bool) {
		r := lit{pred: l.pred, neg: neg, args: make([]hddl.Term, len(l.args))}
		for i, x := range l.args {
			if x.IsVar() {
				if param[x.Var()] < 0 {
					return
				}
				x = hddl.Term(param[x.Var()])
			}
			r.args[i] = x
		}
		out = append(out, r)
	}
	for _, l := range sc.pos {
		add(l, false)
	}
	for _, l := range sc.neg {
		add(l, true)
	}
	if m.Network.Total && len(m.Network.Subtasks) > 0 && !m.Network.Subtasks[0].Task.Primitive {
		// the first subtask's needs, over the method's terms, then
		// the task's
		for _, l := range lz.subtaskNeeds(m.Network.Subtasks[0], needs, known) {
			add(l, l.neg)
		}
	}
	needs[t] = out
	return out
}

// mayChange reports whether one of subtasks sts of method m may make
// atom l (over m's terms) true, or for a negated one false.
func (lz *Lazy) mayChange(le *liftedEffects, m *hddl.Method, sts []hddl.Subtask, l lit, meet map[[2]int]bool) bool {
	if lz.static[l.pred] {
		return false
	}
	for _, st := range sts {
		for _, p := range le.of(st.Task) {
			if p.pred != int32(l.pred) || p.del != l.neg {
				continue
			}
			if lz.mayMeet(m, st, &p, l, meet) {
				return true
			}
		}
	}
	return false
}

// mayMeet reports whether pattern p of subtask st may be atom l, both
// over method m's terms.
func (lz *Lazy) mayMeet(m *hddl.Method, st hddl.Subtask, p *effectPattern, l lit, meet map[[2]int]bool) bool {
	for i, a := range p.args {
		t := l.args[i]
		var u hddl.Term
		switch {
		case a == anyArg || isLocal(a):
			continue
		case a < 0:
			u = hddl.Term(a) // the object -1-a, as a Term
		default:
			u = st.Args[a]
		}
		if !lz.termsMeet(m, u, t, meet) {
			return false
		}
	}
	return true
}

// termsMeet reports whether terms u and t of method m may be the same
// object.
func (lz *Lazy) termsMeet(m *hddl.Method, u, t hddl.Term, meet map[[2]int]bool) bool {
	switch {
	case u == t:
		return true
	case !u.IsVar() && !t.IsVar():
		return false
	case !u.IsVar():
		return lz.isOfType(u.Obj(), m.Vars[t.Var()].Type)
	case !t.IsVar():
		return lz.isOfType(t.Obj(), m.Vars[u.Var()].Type)
	}
	a, b := m.Vars[u.Var()].Type, m.Vars[t.Var()].Type
	k := [2]int{min(a, b), max(a, b)}
	if v, ok := meet[k]; ok {
		return v
	}
	v := slices.ContainsFunc(lz.objectsOf(a), func(o int) bool { return lz.isOfType(o, b) })
	meet[k] = v
	return v
}
