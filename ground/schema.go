package ground

import (
	"fmt"
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// schema is a lifted action or method after normalisation: one disjunct
// of its precondition, as a query over its variables.
type schema struct {
	name    string // "action FILL-CELL" or "method m-check-row"
	lifted  int    // index of the lifted action or method
	vars    []hddl.Param
	nparams int
	pos     []lit // positive atoms
	neg     []lit // negative atoms
	q       *query
	// atomLit[i] is the index in pos of query atom i, or subtaskAtom(k)
	// for the atom of subtask k (over the reachable actions, or over the
	// task's bottom-up relation).
	atomLit []int
	plans   map[int]*joinPlan // by anchor atom (-1: none) for actions, by 0 for methods
	effects []effect          // actions
	effSeen []*relation       // per effect of an action with free parameters: bound values enumerated (see newEffectKey)
	// kept lists an action's parameters that occur in its precondition;
	// the others are free (see freeParams). nil for methods.
	kept []int
	free bool // some parameter is free
	// splits are the groups of a method's variables split off into
	// synthetic tasks (split.go); main is then the query of the rest, and
	// splitOf[k] the split that replaces subtask k, or -1.
	splits  []*split
	main    *query
	splitOf []int
	// ordering is a method's ordering, shared by its ground instances
	ordering []Order
	// movedPos and movedNeg mark the fluent literals the splits took: the
	// method's own instances leave them out of their preconditions
	movedPos, movedNeg []bool
}

// prepare finds the static predicates, loads the initial state and
// normalises every action and method.
func (g *grounder) prepare() error {
	d := g.d
	np := len(d.Predicates)
	g.static = make([]bool, np)
	for i := range g.static {
		g.static[i] = true
	}
	for ai := range d.Actions {
		g.norm.scopeVars = d.Actions[ai].Vars
		effs, err := g.norm.effects(d.Actions[ai].Effect, nil, nil)
		if err != nil {
			return fmt.Errorf("action %s: %w", d.Actions[ai].Name, err)
		}
		for _, e := range effs {
			g.static[e.pred] = false
		}
	}
	g.rels = make([]*relation, np)
	g.factIDs = make([][]int32, np)
	for i, pr := range d.Predicates {
		g.rels[i] = newRelation(len(pr.Params))
	}
	tup := make([]int32, 0, 8)
	for _, a := range g.p.Init {
		tup = tup[:0]
		for _, o := range a.Args {
			tup = append(tup, int32(o))
		}
		if g.static[a.Pred] {
			g.rels[a.Pred].add(tup)
		} else if id, isNew := g.addFact(a.Pred, tup); isNew {
			g.initSet[id] = true
		}
	}
	g.delRel = make([]*relation, np)
	g.initOf = make([][]int32, np)
	for id, in := range g.initSet {
		if in {
			p := g.facts[id].Pred
			g.initOf[p] = append(g.initOf[p], int32(id))
		}
	}
	g.actions = make([][]*schema, len(d.Actions))
	g.actRel = make([]*relation, len(d.Actions))
	g.actFull = make([]*relation, len(d.Actions))
	g.actGID = make([][]int32, len(d.Actions))
	for ai := range d.Actions {
		a := &d.Actions[ai]
		ss, err := g.actionSchemas(ai)
		if err != nil {
			return err
		}
		g.actions[ai] = ss
		g.actRel[ai] = newRelation(a.NumParams)
		if len(ss) == 1 && ss[0].free {
			g.actRel[ai] = newRelation(len(ss[0].kept))
			g.actFull[ai] = newRelation(a.NumParams)
		}
	}
	g.taskRel = make([]*relation, len(d.Tasks))
	g.taskGID = make([][]int32, len(d.Tasks))
	g.buRel = make([]*relation, len(d.Tasks))
	for ti, t := range d.Tasks {
		g.taskRel[ti] = newRelation(len(t.Params))
		g.buRel[ti] = newRelation(len(t.Params))
	}
	dnfs := make([][]conj, len(d.Methods))
	for mi := range d.Methods {
		m := &d.Methods[mi]
		g.norm.scopeVars = m.Vars
		dnf, err := g.norm.dnf(m.Precondition, false, nil)
		if err != nil {
			return fmt.Errorf("method %s: %w", m.Name, err)
		}
		dnfs[mi] = dnf
	}
	g.needBU = g.demand(dnfs)
	g.methods = make([][]*schema, len(d.Methods))
	for mi := range d.Methods {
		g.methods[mi] = g.methodSchemas(mi, dnfs[mi])
	}
	return nil
}

// addFact adds a reachable fluent fact and returns its id.
func (g *grounder) addFact(pred int, tup []int32) (int32, bool) {
	ti, isNew := g.rels[pred].add(tup)
	if !isNew {
		return g.factIDs[pred][ti], false
	}
	id := int32(len(g.facts))
	args := g.objArgs.take(len(tup))
	for i, x := range tup {
		args[i] = int(x)
	}
	g.facts = append(g.facts, Fact{Pred: pred, Args: args})
	g.initSet = append(g.initSet, false)
	g.factIDs[pred] = append(g.factIDs[pred], id)
	return id, true
}

// factOf returns the id of a reachable fluent fact, or -1.
func (g *grounder) factOf(pred int, tup []int32) int32 {
	if ti, ok := g.rels[pred].find(tup); ok {
		return g.factIDs[pred][ti]
	}
	return -1
}

// subtaskAtom marks, in schema.atomLit, the atom of subtask k.
func subtaskAtom(k int) int { return -2 - k }

// newSchema builds the query of one disjunct: positive static and fluent
// atoms are joined, equalities and negated static atoms are filters,
// negated fluent atoms are kept for the ground precondition.
func (g *grounder) newSchema(name string, lifted int, vars []hddl.Param, nparams int, c conj) *schema {
	s := &schema{name: name, lifted: lifted, vars: vars, nparams: nparams, plans: map[int]*joinPlan{}}
	q := &query{name: name, vars: vars, need: make([]bool, len(vars)), skip: make([]bool, len(vars))}
	for _, l := range c {
		switch {
		case l.pred == eqPred && !l.neg:
			q.filters = append(q.filters, filter{kind: fEqual, args: l.args})
		case l.pred == eqPred:
			q.filters = append(q.filters, filter{kind: fNotEqual, args: l.args})
		case !l.neg:
			s.pos = append(s.pos, l)
			s.atomLit = append(s.atomLit, len(s.pos)-1)
			q.atoms = append(q.atoms, atom{rel: g.rels[l.pred], args: l.args, desc: g.d.Predicates[l.pred].Name})
		case g.static[l.pred]:
			q.filters = append(q.filters, filter{kind: fNotIn, rel: g.rels[l.pred], args: l.args})
		default:
			s.neg = append(s.neg, l)
		}
	}
	s.q = q
	return s
}

func (g *grounder) actionSchemas(ai int) ([]*schema, error) {
	a := &g.d.Actions[ai]
	g.norm.scopeVars = a.Vars
	dnf, err := g.norm.dnf(a.Precondition, false, nil)
	if err != nil {
		return nil, fmt.Errorf("action %s: %w", a.Name, err)
	}
	if len(dnf) > 1 {
		return nil, fmt.Errorf("%s: action %s: disjunctive preconditions of actions are %w", a.Pos, a.Name, ErrNotSupported)
	}
	effs, err := g.norm.effects(a.Effect, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("action %s: %w", a.Name, err)
	}
	var out []*schema
	for _, c := range dnf {
		s := g.newSchema("action "+a.Name, ai, a.Vars, a.NumParams, c)
		s.effects = effs
		s.kept, s.free = freeParams(s)
		for v := range a.Vars {
			s.q.need[v] = v < a.NumParams
			s.q.skip[v] = v >= a.NumParams
		}
		for v := 0; v < a.NumParams; v++ {
			s.q.need[v], s.q.skip[v] = false, true
		}
		for _, v := range s.kept {
			s.q.need[v], s.q.skip[v] = true, false
		}
		// a negated fluent atom over kept parameters only filters the
		// reachable instances; one over a free parameter is left to the
		// ground precondition, so that the parameter stays free
		for _, l := range s.neg {
			if g.overKept(s, l.args) {
				g.negFilter(s, l)
			}
		}
		for _, l := range c {
			for _, t := range l.args {
				if t.IsVar() && t.Var() >= a.NumParams {
					return nil, fmt.Errorf("%s: action %s: existential preconditions of actions are %w", a.Pos, a.Name, ErrNotSupported)
				}
			}
		}
		out = append(out, s)
	}
	return out, nil
}

func (g *grounder) methodSchemas(mi int, dnf []conj) []*schema {
	m := &g.d.Methods[mi]
	var out []*schema
	for _, c := range dnf {
		s := g.newSchema("method "+m.Name, mi, m.Vars, m.NumParams, c)
		for _, l := range s.neg {
			g.negFilter(s, l)
		}
		// subtasks are atoms over the reachable actions and, where they
		// bind variables, over the compound task instances that can be
		// decomposed bottom-up
		for k, st := range m.Network.Subtasks {
			switch {
			case st.Task.Primitive:
				s.q.atoms = append(s.q.atoms, atom{rel: g.actRel[st.Task.Index], args: g.keptArgs(st.Task.Index, st.Args), desc: g.d.Actions[st.Task.Index].Name})
				s.atomLit = append(s.atomLit, subtaskAtom(k))
			case g.needBU[st.Task.Index]:
				s.q.atoms = append(s.q.atoms, atom{rel: g.buRel[st.Task.Index], args: st.Args, desc: g.d.Tasks[st.Task.Index].Name})
				s.atomLit = append(s.atomLit, subtaskAtom(k))
			}
			for _, t := range st.Args {
				if t.IsVar() {
					s.q.need[t.Var()] = true
				}
			}
		}
		for _, t := range m.TaskArgs {
			if t.IsVar() {
				s.q.need[t.Var()] = true
			}
		}
		for _, l := range c {
			for _, t := range l.args {
				if t.IsVar() {
					s.q.need[t.Var()] = true
				}
			}
		}
		// quantified variables that were expanded away take no value
		for v := m.NumParams; v < len(m.Vars); v++ {
			s.q.skip[v] = !s.q.need[v]
		}
		for _, o := range m.Network.Ordering {
			s.ordering = append(s.ordering, Order{Before: int32(o.Before), After: int32(o.After)})
		}
		g.splitMethod(s, m)
		out = append(out, s)
	}
	return out
}

// freeParams splits an action's parameters into those its precondition
// mentions (in a positive atom or an equality or static filter), which the
// reachability analysis binds by joins, and the free others. Generated
// domains have many free parameters that only carry a value into the
// effects (the ConstantVariable parameters of the IPC Woodworking
// domain): enumerating them over their types while searching for
// reachable actions multiplies the actions by the product of the types,
// although the methods that use the action fix them. So a free parameter
// is left unbound in the analysis (the facts its effects add are counted
// for every value of its type), and a ground action is made only when a
// method or the initial network asks for it with all its arguments.
func freeParams(s *schema) (kept []int, free bool) {
	used := make([]bool, s.nparams)
	mark := func(args []hddl.Term) {
		for _, t := range args {
			if t.IsVar() && t.Var() < s.nparams {
				used[t.Var()] = true
			}
		}
	}
	for _, a := range s.q.atoms {
		mark(a.args)
	}
	for _, f := range s.q.filters {
		mark(f.args)
	}
	for v, u := range used {
		if u {
			kept = append(kept, v)
		} else {
			free = true
		}
	}
	return kept, free
}

// negFilter adds to s's query the filter that the negated fluent atom l
// can be false, and starts tracking the deletions of its predicate.
func (g *grounder) negFilter(s *schema, l lit) {
	s.q.filters = append(s.q.filters, filter{kind: fCanBeFalse, pred: l.pred, args: l.args})
	if g.delRel[l.pred] == nil {
		g.delRel[l.pred] = newRelation(len(g.d.Predicates[l.pred].Params))
	}
}

// overKept reports whether every variable of args is a kept parameter of
// the action schema s.
func (g *grounder) overKept(s *schema, args []hddl.Term) bool {
	for _, t := range args {
		if t.IsVar() && !slices.Contains(s.kept, t.Var()) {
			return false
		}
	}
	return true
}

// canBeFalse reports whether the fluent fact pred(tup) can be false in a
// reachable state of the delete relaxation with negative preconditions:
// it is never reached, false initially, or deleted by a reachable action.
// Before and during the reachability analysis this is what has been found
// so far; the analysis reruns the queries a new deletion can satisfy.
func (g *grounder) canBeFalse(pred int, tup []int32) bool {
	ti, ok := g.rels[pred].find(tup)
	if !ok || !g.initSet[g.factIDs[pred][ti]] {
		return true
	}
	d := g.delRel[pred]
	if d == nil {
		return true
	}
	_, ok = d.find(tup)
	return ok
}

// keptArgs returns the arguments of a primitive subtask at the kept
// parameters of its action: the columns of actRel.
func (g *grounder) keptArgs(ai int, args []hddl.Term) []hddl.Term {
	ss := g.actions[ai]
	if len(ss) != 1 || !ss[0].free {
		return args
	}
	out := make([]hddl.Term, len(ss[0].kept))
	for i, v := range ss[0].kept {
		out[i] = args[v]
	}
	return out
}
