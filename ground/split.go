package ground

import (
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// Splitting methods.
//
// A method's variables that its task does not bind fall into independent
// groups: two variables are in one group when a literal of the
// precondition or a subtask mentions both. Grounding the method binds
// every group, so its instances are the product of the groups' bindings.
// When a group is mentioned by exactly one subtask and by static literals
// only, its binding matters to that subtask alone: the subtask is replaced
// by a synthetic task, whose arguments are the task's variables the group's
// literals mention and whose methods, one per binding of the group, each
// have the original subtask as their only subtask. The instances then add
// up instead of multiplying: in the IPC Woodworking domain a method with
// three such groups of 2, 2 and 4 variables goes from more than 3·10^8
// join steps to a few thousand instances. Plans are unchanged: a synthetic
// task stands where its subtask stood, and plans are written without it
// (Solution.ToPlan). A fluent literal ties the group to the state in
// which the method starts, so a group with one is never split.

// split is one group of a method's variables split off into a synthetic
// task.
type split struct {
	index int   // among the schema's splits
	sub   int   // the subtask it replaces
	vars  []int // the group's variables, the synthetic methods' Args
	ctx   []int // bound variables its literals and subtask mention: the synthetic task's Args
	q     *query
	pl    *joinPlan // q with ctx bound
	rel   *relation
	gid   []int32 // tuple index of rel -> synthetic gTask
}

// splitMethod finds the groups of schema s of method m to split off, and
// the query of the rest. It leaves s unchanged when no split pays: with a
// single group and nothing else unbound, the instances are the group's
// bindings either way.
func (g *grounder) splitMethod(s *schema, m *hddl.Method) {
	sg := g.splitGroups(s, m)
	var cands []int
	for r, gr := range sg.groups {
		if len(gr.subs) == 1 && !gr.fluent {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 || len(cands) == 1 && len(sg.groups) == 1 {
		return
	}
	slices.Sort(cands)
	nv := len(s.vars)
	inSplit := make([]bool, nv)
	dropAtom := make([]bool, len(s.q.atoms))
	dropFilter := make([]bool, len(s.q.filters))
	for _, r := range cands {
		sp := sg.newSplit(s, r, inSplit, dropAtom, dropFilter)
		sp.index = len(s.splits)
		s.splits = append(s.splits, sp)
	}
	s.main = mainQuery(s, inSplit, dropAtom, dropFilter)
	s.splitOf = make([]int, len(m.Network.Subtasks))
	for k := range s.splitOf {
		s.splitOf[k] = -1
	}
	for i, sp := range s.splits {
		s.splitOf[sp.sub] = i
	}
}

// splitEdge is a literal or subtask of a method, joining the variables it
// mentions.
type splitEdge struct {
	args   []hddl.Term
	fluent bool
	sub    int // subtask index, or -1
	atom   int // index in the query's atoms, or -1
	filter int // index in the query's filters, or -1
}

// splitGroup is one group of a method's unbound variables: the subtasks
// that mention it, whether a fluent literal does, and its edges.
type splitGroup struct {
	subs   []int
	fluent bool
	edges  []int
}

// methodSplit is the partition of a method's unbound variables into
// groups, by the union-find root of each.
type methodSplit struct {
	bound  []bool // bound by the task
	uf     unionFind
	edges  []splitEdge
	groups map[int]*splitGroup
}

// splitGroups partitions the variables of s that the task of m leaves
// unbound: two are in one group when a literal or subtask mentions both.
func (g *grounder) splitGroups(s *schema, m *hddl.Method) *methodSplit {
	nv := len(s.vars)
	sg := &methodSplit{bound: make([]bool, nv), uf: newUnionFind(nv), groups: map[int]*splitGroup{}}
	for _, t := range m.TaskArgs {
		if t.IsVar() {
			sg.bound[t.Var()] = true
		}
	}
	for i, a := range s.q.atoms {
		e := splitEdge{args: a.args, sub: -1, atom: i, filter: -1}
		if i < len(s.pos) {
			e.fluent = !g.static[s.pos[i].pred]
		}
		sg.edges = append(sg.edges, e)
	}
	for i, f := range s.q.filters {
		sg.edges = append(sg.edges, splitEdge{args: f.args, sub: -1, atom: -1, filter: i})
	}
	for _, l := range s.neg {
		sg.edges = append(sg.edges, splitEdge{args: l.args, fluent: true, sub: -1, atom: -1, filter: -1})
	}
	for k := range m.Network.Subtasks {
		sg.edges = append(sg.edges, splitEdge{args: m.Network.Subtasks[k].Args, sub: k, atom: -1, filter: -1})
	}
	free := func(t hddl.Term) bool { return t.IsVar() && !sg.bound[t.Var()] && !s.q.skip[t.Var()] }
	for _, e := range sg.edges {
		first := -1
		for _, t := range e.args {
			if !free(t) {
				continue
			}
			if first < 0 {
				first = sg.uf.find(t.Var())
			} else {
				sg.uf.union(t.Var(), first)
				first = sg.uf.find(first)
			}
		}
	}
	for v := 0; v < nv; v++ {
		if !sg.bound[v] && !s.q.skip[v] {
			sg.groups[sg.uf.find(v)] = &splitGroup{}
		}
	}
	for i, e := range sg.edges {
		seen := map[int]bool{}
		for _, t := range e.args {
			if !free(t) || seen[sg.uf.find(t.Var())] {
				continue
			}
			r := sg.uf.find(t.Var())
			seen[r] = true
			gr := sg.groups[r]
			gr.edges = append(gr.edges, i)
			gr.fluent = gr.fluent || e.fluent
			if e.sub >= 0 {
				gr.subs = append(gr.subs, e.sub)
			}
		}
	}
	return sg
}

// newSplit makes the split of group r: its variables, the bound
// variables its literals and subtask mention (the synthetic task's
// arguments), and the query of its literals; it marks what the split takes
// from the method.
func (sg *methodSplit) newSplit(s *schema, r int, inSplit, dropAtom, dropFilter []bool) *split {
	nv := len(s.vars)
	gr := sg.groups[r]
	sp := &split{sub: gr.subs[0]}
	q := &query{name: s.q.name + " (split)", vars: s.vars, need: make([]bool, nv), skip: make([]bool, nv)}
	for v := range q.skip {
		q.skip[v] = true
	}
	isCtx := make([]bool, nv)
	for v := 0; v < nv; v++ {
		if !sg.bound[v] && !s.q.skip[v] && sg.uf.find(v) == r {
			sp.vars = append(sp.vars, v)
			inSplit[v] = true
			q.need[v], q.skip[v] = true, false
		}
	}
	for _, ei := range gr.edges {
		e := sg.edges[ei]
		for _, t := range e.args {
			if t.IsVar() && sg.bound[t.Var()] && !isCtx[t.Var()] {
				isCtx[t.Var()] = true
				q.skip[t.Var()] = false
			}
		}
		switch {
		case e.atom >= 0:
			q.atoms = append(q.atoms, s.q.atoms[e.atom])
			dropAtom[e.atom] = true
		case e.filter >= 0:
			q.filters = append(q.filters, s.q.filters[e.filter])
			dropFilter[e.filter] = true
		}
	}
	for v := 0; v < nv; v++ {
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
	b := g.unbound(s)
	for i, v := range sp.ctx {
		b[v] = t.args[i]
	}
	tup := make([]int32, 0, 8)
	return g.j.run(sp.pl, b, func(b []int32) error {
		gm := gMethod{task: ti, total: true}
		for _, v := range sp.vars {
			gm.binding = append(gm.binding, b[v])
		}
		r, ok, err := g.ref(&m.Network.Subtasks[sp.sub], b, tup)
		if err != nil || !ok {
			return err
		}
		gm.subtasks = []gRef{r}
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
