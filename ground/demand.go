package ground

import "github.com/htnsat/htnsat/hddl"

// demand decides which tasks get a bottom-up relation: those whose
// instances bind a variable that nothing else binds, in a method's
// top-down query (where the task's arguments are bound) or in the initial
// network, and then, for the rules computing such a relation (where nothing
// is bound beforehand), the tasks that bind variables there. Elsewhere a
// compound subtask would only filter, and its relation, which counts every
// instance the task could have anywhere, could be far larger than the
// instances the hierarchy reaches (all houses of a Minecraft world).
func (g *grounder) demand(dnfs [][]conj) []bool {
	d := g.d
	need := make([]bool, len(d.Tasks))
	for mi := range d.Methods {
		for _, c := range dnfs[mi] {
			g.markUnbound(&d.Methods[mi], c, true, need)
		}
	}
	g.markInitial(need)
	// the rules of a needed task's relation need the tasks that bind
	// variables there, to a fixpoint
	for changed := true; changed; {
		changed = false
		for mi := range d.Methods {
			if !need[d.Methods[mi].Task] {
				continue
			}
			for _, c := range dnfs[mi] {
				if g.markUnbound(&d.Methods[mi], c, false, need) {
					changed = true
				}
			}
		}
	}
	return need
}

// markUnbound marks the compound subtasks of method m (precondition
// disjunct c) that bind a variable nothing else binds, and reports
// whether it marked one. topDown says that the task's arguments are
// bound (the method is instantiated for a given task).
func (g *grounder) markUnbound(m *hddl.Method, c conj, topDown bool, need []bool) bool {
	b := g.boundVars(m, c, topDown)
	changed := false
	for _, st := range m.Network.Subtasks {
		if st.Task.Primitive || need[st.Task.Index] {
			continue
		}
		for _, t := range st.Args {
			if t.IsVar() && !b[t.Var()] {
				need[st.Task.Index] = true
				changed = true
				break
			}
		}
	}
	return changed
}

// boundVars returns the variables of method m bound by atoms other than
// compound subtasks: positive literals of c, the kept arguments of
// primitive subtasks, the task's arguments when topDown, and, through
// equalities, whatever equals a bound term.
func (g *grounder) boundVars(m *hddl.Method, c conj, topDown bool) []bool {
	b := make([]bool, len(m.Vars))
	mark := func(args []hddl.Term) {
		for _, t := range args {
			if t.IsVar() {
				b[t.Var()] = true
			}
		}
	}
	if topDown {
		mark(m.TaskArgs)
	}
	for _, l := range c {
		if l.pred != eqPred && !l.neg {
			mark(l.args)
		}
	}
	for _, st := range m.Network.Subtasks {
		if st.Task.Primitive {
			mark(g.keptArgs(st.Task.Index, st.Args))
		}
	}
	for changed := true; changed; {
		changed = false
		for _, l := range c {
			if l.pred != eqPred || l.neg {
				continue
			}
			x, y := l.args[0], l.args[1]
			xb, yb := !x.IsVar() || b[x.Var()], !y.IsVar() || b[y.Var()]
			if xb != yb {
				mark(l.args)
				changed = true
			}
		}
	}
	return b
}

// markInitial marks the compound tasks of the initial network with free
// variables that no primitive task of the network binds.
func (g *grounder) markInitial(need []bool) {
	net := &g.p.Initial
	bnd := make([]bool, len(g.p.Vars))
	for _, st := range net.Subtasks {
		if st.Task.Primitive {
			for _, t := range g.keptArgs(st.Task.Index, st.Args) {
				if t.IsVar() {
					bnd[t.Var()] = true
				}
			}
		}
	}
	for _, st := range net.Subtasks {
		if st.Task.Primitive {
			continue
		}
		for _, t := range st.Args {
			if t.IsVar() && !bnd[t.Var()] {
				need[st.Task.Index] = true
			}
		}
	}
}
