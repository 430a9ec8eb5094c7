package ground

import (
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// Splitting methods.
//
// Grounding a method binds all its variables, so its instances are the
// product of the values each takes. A variable that only one subtask
// mentions (besides the method's literals) matters to that subtask alone:
// the subtask is replaced by a synthetic task, whose arguments are the
// subtask's other variables (and those its literals share with the rest
// of the method), and whose methods, one per binding of the local
// variables that satisfies their literals, each have the original subtask
// as their only subtask. The instances then add up instead of multiplying:
// in IPC Childsnack, serving a child takes any sandwich, bread, content
// and tray, but bread and content matter only to making the sandwich, so
// each (sandwich, tray) pair needs one method and each (sandwich, bread,
// content) triple one synthetic one; in IPC Woodworking a method with three
// such groups goes from more than 3·10^8 join steps to a few thousand
// instances. This is the parameter splitting of pandaPI's parser.
//
// In a totally ordered method a variable may also pass a value between
// consecutive subtasks (IPC Factories delivers a resource from wherever
// it is: the truck goes to ?ls, picks the resource up there, goes to the
// destination and drops it): the subtasks from its first occurrence to its
// last then split off together, and the synthetic methods have them as
// their subtasks, in order. Groups whose spans overlap merge; when merging
// leaves nothing worth splitting, the one-subtask groups are tried.
//
// Plans are unchanged: a synthetic task stands where its subtasks stood,
// and plans are written without it (Solution.ToPlan).
//
// A method's precondition holds in the state where its first subtask
// starts. A literal over static facts holds in every state, so it moves
// with the variables it mentions. A fluent literal moves only to the
// subtask that comes first, and only in a totally ordered problem: the
// synthetic method's precondition then holds in that same state, since
// nothing can run between the two.

// split is the local variables of one subtask, or of a span of them,
// split off into a synthetic task.
type split struct {
	index int   // among the schema's splits
	subs  []int // the subtasks it replaces: one, or consecutive ones of a totally ordered method
	// ordering is the synthetic methods' ordering: the chain over subs
	ordering []Order
	vars     []int // the local variables, the synthetic methods' Args
	ctx      []int // the other variables its subtask and literals mention: the synthetic task's Args
	pos      []lit // the fluent literals moved to the synthetic methods
	neg      []lit
	q        *query
	pl       *joinPlan // q with ctx bound
	rel      *relation
	gid      []int32 // tuple index of rel -> synthetic gTask
}

// splitEdge is a literal of a method: a query atom (pos, static or
// fluent), a filter (equality or negated static atom) or a negated fluent
// atom (neg).
type splitEdge struct {
	args   []hddl.Term
	fluent bool
	atom   int // index in the query's atoms, or -1
	filter int // index in the query's filters, or -1
	pos    int // index in the schema's pos, or -1
	neg    int // index in the schema's neg, or -1
}

// methodEdges lists the literals of schema s.
func (g *grounder) methodEdges(s *schema) []splitEdge {
	var edges []splitEdge
	for i, a := range s.q.atoms {
		e := splitEdge{args: a.args, atom: i, filter: -1, pos: -1, neg: -1}
		if i < len(s.atomLit) && s.atomLit[i] >= 0 {
			e.pos = s.atomLit[i]
			e.fluent = !g.static[s.pos[e.pos].pred]
		} else {
			continue // a subtask, not a literal
		}
		edges = append(edges, e)
	}
	for i, f := range s.q.filters {
		edges = append(edges, splitEdge{args: f.args, atom: -1, filter: i, pos: -1, neg: -1})
	}
	for i, l := range s.neg {
		edges = append(edges, splitEdge{args: l.args, fluent: true, atom: -1, filter: -1, pos: -1, neg: i})
	}
	return edges
}

// firstSubtask is the subtask ordered before every other one, or -1.
func firstSubtask(m *hddl.Method) int {
	n := len(m.Network.Subtasks)
	switch {
	case n == 0:
		return -1
	case m.Network.Total:
		return 0
	}
	preds := make([]int, n)
	for _, o := range m.Network.Ordering {
		preds[o.After]++
	}
	first := -1
	for k := range n {
		if preds[k] == 0 {
			if first >= 0 {
				return -1
			}
			first = k
		}
	}
	// the only task without a predecessor precedes all others (the
	// ordering is acyclic)
	return first
}

// splitMethod finds, for every subtask of schema s of method m, the
// variables local to it that can be split off, and the query of the rest.
// It leaves s unchanged when no split pays.
func (g *grounder) splitMethod(s *schema, m *hddl.Method) {
	nv := len(s.vars)
	subs := m.Network.Subtasks
	if len(subs) == 0 {
		return
	}
	bound := make([]bool, nv)
	for _, t := range m.TaskArgs {
		if t.IsVar() {
			bound[t.Var()] = true
		}
	}
	// the subtasks each unbound variable occurs in
	occ := make([][]int, nv)
	for k := range subs {
		for _, t := range subs[k].Args {
			if v := t.Var(); t.IsVar() && !bound[v] && !s.q.skip[v] && !slices.Contains(occ[v], k) {
				occ[v] = append(occ[v], k)
			}
		}
	}
	// first with spans (a local variable of a totally ordered method may
	// pass a value between consecutive subtasks), then, if that does not
	// pay (the spans merged too much), with one subtask per variable
	var p *splitPlan
	if m.Network.Total {
		p = g.planSplits(s, m, bound, occ, true)
	}
	if p == nil {
		p = g.planSplits(s, m, bound, occ, false)
	}
	if p == nil {
		return
	}
	splits, inSplit, dropAtom, dropFilter, movedPos, movedNeg := p.splits, p.inSplit, p.dropAtom, p.dropFilter, p.movedPos, p.movedNeg
	for i, sp := range splits {
		sp.index = i
	}
	s.splits = splits
	s.main = mainQuery(s, inSplit, dropAtom, dropFilter)
	s.movedPos, s.movedNeg = movedPos, movedNeg
	s.splitOf = make([]int, len(subs))
	for k := range s.splitOf {
		s.splitOf[k] = -1
	}
	for i, sp := range s.splits {
		for _, k := range sp.subs {
			s.splitOf[k] = i
		}
	}
	// a split of several subtasks stands for them as one: renumber the
	// method's ordering
	newPos := make([]int32, len(subs))
	n := int32(0)
	for k := range subs {
		if i := s.splitOf[k]; i >= 0 && s.splits[i].subs[0] != k {
			newPos[k] = newPos[s.splits[i].subs[0]]
			continue
		}
		newPos[k] = n
		n++
	}
	if int(n) < len(subs) {
		var ordering []Order
		for _, o := range s.ordering {
			if a, b := newPos[o.Before], newPos[o.After]; a != b && !slices.Contains(ordering, Order{Before: a, After: b}) {
				ordering = append(ordering, Order{Before: a, After: b})
			}
		}
		s.ordering = ordering
	}
}

// splitPlan is a way to split a method: the splits and what they take
// from it.
type splitPlan struct {
	splits                        []*split
	inSplit, dropAtom, dropFilter []bool
	movedPos, movedNeg            []bool
}

// planSplits groups the unbound variables of schema s of method m (occ:
// the subtasks each occurs in) into splits, with spans of subtasks or
// (spans false) one subtask each, and returns the plan, or nil when no
// split pays.
func (g *grounder) planSplits(s *schema, m *hddl.Method, bound []bool, occ [][]int, spans bool) *splitPlan {
	nv := len(s.vars)
	subs := m.Network.Subtasks
	// candidate variables: those in one subtask, or with spans in several
	cand := make([]bool, nv)
	for v := range cand {
		cand[v] = len(occ[v]) == 1 || len(occ[v]) > 1 && spans
	}
	first := -1
	if g.p.IsTotalOrder() {
		first = firstSubtask(m)
	}
	edges := g.methodEdges(s)
	// group[v] is the group of subtasks candidate v splits off with: its
	// own subtask, or the span of subtasks its occurrences cover, merged
	// with the spans it overlaps. Drop the variables whose literals tie
	// them elsewhere, to a fixpoint: a fluent literal on a group without
	// the first subtask, or a literal joining variables of two groups.
	var group []int // per variable: the group's first subtask, or -1
	var span []int  // per subtask: the group's first subtask, or -1
	for changed := true; changed; {
		changed = false
		group, span = splitGroups(len(subs), occ, cand)
		for _, e := range edges {
			k := -1
			for _, t := range e.args {
				if !t.IsVar() || group[t.Var()] < 0 {
					continue
				}
				gk := group[t.Var()]
				if e.fluent && span[max(first, 0)] != gk || first < 0 && e.fluent || k >= 0 && gk != k {
					for _, u := range e.args {
						if u.IsVar() && cand[u.Var()] {
							cand[u.Var()] = false
							changed = true
						}
					}
					break
				}
				k = gk
			}
			if changed {
				break
			}
		}
	}
	// A variable in no subtask whose literals all tie it to one group
	// (and to variables the task binds) is local to that group as well:
	// left to the method, it would be bound by nothing once those
	// literals move and take every value of its type (IPC 2023
	// SharpSAT: a unit clause's literal splits off with its subtasks,
	// and the literal's occurrence counts, which only a static literal
	// on it mentions, stayed behind: 24 x 24 bindings each).
	for changed := true; changed; {
		changed = false
		for v := range nv {
			if bound[v] || group[v] >= 0 || len(occ[v]) > 0 || s.q.skip[v] {
				continue
			}
			if gk := localGroup(v, edges, bound, group, span, first); gk >= 0 {
				group[v] = gk
				changed = true
			}
		}
	}
	splitVars := make([][]int, len(subs)) // per group, by its first subtask
	nSplit := 0
	for v, gk := range group {
		if gk >= 0 {
			splitVars[gk] = append(splitVars[gk], v)
			nSplit++
		}
	}
	if nSplit == 0 {
		return nil
	}
	inSplit := make([]bool, nv)
	dropAtom := make([]bool, len(s.q.atoms))
	dropFilter := make([]bool, len(s.q.filters))
	movedPos := make([]bool, len(s.pos))
	movedNeg := make([]bool, len(s.neg))
	var splits []*split
	for gk, vars := range splitVars {
		if len(vars) == 0 {
			continue
		}
		var ks []int
		for k := range subs {
			if span[k] == gk {
				ks = append(ks, k)
			}
		}
		sp := newSplit(s, m, ks, vars, edges, inSplit, dropAtom, dropFilter, movedPos, movedNeg)
		splits = append(splits, sp)
	}
	if !splitPays(s, splits, bound, inSplit) {
		return nil
	}
	return &splitPlan{splits, inSplit, dropAtom, dropFilter, movedPos, movedNeg}
}

// localGroup returns the group every literal of variable v ties it to,
// or -1: each literal that mentions v must mention variables of that one
// group (besides v and variables the task binds), and a fluent one only
// the group of the first subtask (see planSplits); a literal with
// another variable the method keeps, or none of the group's, keeps v in
// the method.
func localGroup(v int, edges []splitEdge, bound []bool, group, span []int, first int) int {
	gk := -1
	for _, e := range edges {
		if !slices.ContainsFunc(e.args, func(t hddl.Term) bool { return t.IsVar() && t.Var() == v }) {
			continue
		}
		eg := -1
		for _, t := range e.args {
			if !t.IsVar() {
				continue
			}
			switch u := t.Var(); {
			case u == v, bound[u]:
			case group[u] >= 0 && (eg < 0 || eg == group[u]):
				eg = group[u]
			default:
				return -1
			}
		}
		if eg < 0 || gk >= 0 && eg != gk || e.fluent && (first < 0 || span[first] != eg) {
			return -1
		}
		gk = eg
	}
	return gk
}

// splitGroups groups the subtasks of a method for the candidate
// variables: a variable occurring in one subtask groups it alone, one
// occurring in several groups the span from the first to the last, and
// overlapping spans merge. group[v] is the first subtask of v's group
// (-1 for a variable that is not a candidate) and span[k] that of k's
// group (-1 for a subtask in no group).
func splitGroups(n int, occ [][]int, cand []bool) (group, span []int) {
	span = make([]int, n)
	for k := range span {
		span[k] = -1
	}
	// mark each candidate's span, then merge overlapping marks left to
	// right: end[k] is the furthest subtask a span starting at k reaches
	end := make([]int, n)
	for k := range end {
		end[k] = -1
	}
	for v, ks := range occ {
		if !cand[v] || len(ks) == 0 {
			continue
		}
		lo, hi := slices.Min(ks), slices.Max(ks)
		end[lo] = max(end[lo], hi)
	}
	for k := 0; k < n; {
		if end[k] < 0 {
			k++
			continue
		}
		lo, hi := k, end[k]
		for j := k; j <= hi; j++ {
			hi = max(hi, end[j])
			span[j] = lo
		}
		k = hi + 1
	}
	group = make([]int, len(occ))
	for v, ks := range occ {
		group[v] = -1
		if cand[v] && len(ks) > 0 {
			group[v] = span[ks[0]]
		}
	}
	return group, span
}

// splitPays reports whether splitting saves instances: unless some
// variable stays unbound in the method, or a synthetic task leaves out a
// variable the task binds (so that several of the method's instances share
// it), the synthetic tasks only add a level.
func splitPays(s *schema, splits []*split, bound, inSplit []bool) bool {
	if len(splits) > 1 {
		return true
	}
	for v := range s.vars {
		if !bound[v] && !inSplit[v] && !s.q.skip[v] && s.q.need[v] {
			return true
		}
	}
	for _, sp := range splits {
		for v, b := range bound {
			if b && !slices.Contains(sp.ctx, v) {
				return true
			}
		}
	}
	return false
}

// newSplit makes the split of the local variables vars of subtask k: the
// query of the literals that mention them, the context it needs bound,
// and the fluent literals it takes; it marks what it takes from the method.
func newSplit(s *schema, m *hddl.Method, ks []int, vars []int, edges []splitEdge, inSplit, dropAtom, dropFilter, movedPos, movedNeg []bool) *split {
	nv := len(s.vars)
	sp := &split{subs: ks, vars: vars}
	for i := 1; i < len(ks); i++ {
		sp.ordering = append(sp.ordering, Order{Before: int32(i - 1), After: int32(i)})
	}
	q := &query{name: s.q.name + " (split)", vars: s.vars, need: make([]bool, nv), skip: make([]bool, nv)}
	for v := range q.skip {
		q.skip[v] = true
	}
	mine := make([]bool, nv)
	for _, v := range vars {
		mine[v], inSplit[v] = true, true
		q.need[v], q.skip[v] = true, false
	}
	isCtx := make([]bool, nv)
	addCtx := func(args []hddl.Term) {
		for _, t := range args {
			if t.IsVar() && !mine[t.Var()] {
				isCtx[t.Var()] = true
				q.skip[t.Var()] = false
			}
		}
	}
	// the subtasks' own atoms (their reachable instances) go with them
	for _, k := range ks {
		addCtx(m.Network.Subtasks[k].Args)
		for i := range s.q.atoms {
			if s.atomLit[i] == subtaskAtom(k) {
				q.atoms = append(q.atoms, s.q.atoms[i])
				dropAtom[i] = true
			}
		}
	}
	for _, e := range edges {
		touches := false
		for _, t := range e.args {
			if t.IsVar() && mine[t.Var()] {
				touches = true
			}
		}
		if !touches {
			continue
		}
		addCtx(e.args)
		switch {
		case e.atom >= 0:
			q.atoms = append(q.atoms, s.q.atoms[e.atom])
			dropAtom[e.atom] = true
		case e.filter >= 0:
			q.filters = append(q.filters, s.q.filters[e.filter])
			dropFilter[e.filter] = true
		}
		if e.pos >= 0 && e.fluent {
			sp.pos = append(sp.pos, s.pos[e.pos])
			movedPos[e.pos] = true
		}
		if e.neg >= 0 {
			sp.neg = append(sp.neg, s.neg[e.neg])
			movedNeg[e.neg] = true
		}
	}
	for v := range nv {
		if isCtx[v] {
			sp.ctx = append(sp.ctx, v)
		}
	}
	known := make([]bool, nv)
	for _, v := range sp.ctx {
		known[v] = true
	}
	sp.q, sp.pl = q, q.plan(known)
	sp.rel = newRelation(len(sp.ctx))
	return sp
}

// mainQuery is the query of what the splits leave of the method.
func mainQuery(s *schema, inSplit, dropAtom, dropFilter []bool) *query {
	main := &query{name: s.q.name, vars: s.vars, need: slices.Clone(s.q.need), skip: slices.Clone(s.q.skip)}
	for i, a := range s.q.atoms {
		if !dropAtom[i] {
			main.atoms = append(main.atoms, a)
		}
	}
	for i, f := range s.q.filters {
		if !dropFilter[i] {
			main.filters = append(main.filters, f)
		}
	}
	for v, in := range inSplit {
		if in {
			main.need[v], main.skip[v] = false, true
		}
	}
	return main
}

// splitTask returns the synthetic task of split sp under binding b of
// the method, creating it if needed.
func (g *grounder) splitTask(s *schema, sp *split, b []int32) int32 {
	key := make([]int32, len(sp.ctx))
	for i, v := range sp.ctx {
		key[i] = b[v]
	}
	ti, isNew := sp.rel.add(key)
	if !isNew {
		return sp.gid[ti]
	}
	id := int32(len(g.gTasks))
	sp.gid = append(sp.gid, id)
	g.gTasks = append(g.gTasks, gTask{schema: -1, args: key, split: sp, owner: s})
	return id
}

// expandSplit makes the methods of synthetic task ti: one per binding of
// its group, with the original subtask as the only subtask.
func (g *grounder) expandSplit(ti int32) error {
	t := &g.gTasks[ti]
	sp, s := t.split, t.owner
	m := &g.d.Methods[s.lifted]
	b := g.scratch(len(s.vars))
	defer g.release(b)
	for i, v := range sp.ctx {
		b[v] = t.args[i]
	}
	tup := make([]int32, 0, 8)
	return g.j.run(sp.pl, b, func(b []int32) error {
		gm := gMethod{task: ti, total: true, split: sp, owner: s, binding: g.ints.copy(b), ordering: sp.ordering,
			subtasks: g.refs.take(len(sp.subs))[:0]}
		for _, k := range sp.subs {
			r, ok, err := g.ref(&m.Network.Subtasks[k], b, tup)
			if err != nil || !ok {
				return err
			}
			gm.subtasks = append(gm.subtasks, r)
		}
		g.gTasks[ti].methods = append(g.gTasks[ti].methods, int32(len(g.gMethods)))
		g.gMethods = append(g.gMethods, gm)
		return g.budget(s)
	})
}

// unionFind is a disjoint-set forest over 0..n-1.
type unionFind []int

func newUnionFind(n int) unionFind {
	uf := make(unionFind, n)
	for i := range uf {
		uf[i] = i
	}
	return uf
}

func (uf unionFind) find(x int) int {
	for uf[x] != x {
		uf[x] = uf[uf[x]]
		x = uf[x]
	}
	return x
}

// union merges the sets of a and b; b's root becomes the root.
func (uf unionFind) union(a, b int) { uf[uf.find(a)] = uf.find(b) }
