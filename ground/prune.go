package ground

import (
	"fmt"
	"slices"
)

// prune computes the fluent facts of every instance, removes what can never
// be part of a solution, to a fixpoint, and builds the final task:
//
//   - an action or method whose positive precondition no reachable action
//     adds (and that is false initially), or whose negative precondition no
//     reachable action deletes (and that is true initially), is removed;
//   - a method with a removed subtask is removed; a compound task without a
//     method that can bottom out in actions is removed (least fixpoint);
//   - what the initial network can no longer reach is removed;
//
// and facts that are true throughout (initially true, never deleted) or
// false throughout are compiled away.
func (g *grounder) prune() (*Task, error) {
	if g.groundFacts(); g.err != nil {
		return nil, g.err
	}
	lv := &liveness{g: g, actAlive: make([]bool, len(g.gActs)), methAlive: make([]bool, len(g.gMethods))}
	for i := range lv.actAlive {
		lv.actAlive[i] = true
	}
	for i := range lv.methAlive {
		lv.methAlive[i] = true
	}
	for {
		if err := g.ctx.Err(); err != nil {
			return nil, err
		}
		lv.possibleFacts()
		changed := lv.impossiblePreconditions()
		changed = lv.bottomOut() || changed
		changed = lv.topDown() || changed
		if g.err != nil {
			return nil, g.err
		}
		if !changed {
			break
		}
	}
	for _, r := range g.initial {
		if r.prim && !lv.actAlive[r.idx] || !r.prim && !lv.taskOK[r.idx] {
			return nil, fmt.Errorf("%w: initial task %s can never be accomplished", ErrUnsolvable, g.refName(r))
		}
	}
	goal, goalNeg, err := g.goal(lv.canTrue, lv.canFalse)
	if err != nil {
		return nil, err
	}
	t := g.build(lv.actAlive, lv.methAlive, lv.canTrue, lv.canFalse, goal, goalNeg)
	if g.err != nil {
		return nil, g.err
	}
	return t, nil
}

// stopped reports, every 4,096 calls, whether the context has ended (its
// error is then g.err): the loops over every instance call it, so that a
// grounding of millions of instances stops soon after its deadline.
func (g *grounder) stopped(i int) bool {
	if i&4095 == 0 && g.err == nil {
		g.err = g.ctx.Err()
	}
	return g.err != nil
}

// liveness is the state of prune's fixpoint: the actions and methods
// still alive, what their effects can make true or false, and the
// compound tasks that can bottom out in actions.
type liveness struct {
	g                   *grounder
	actAlive, methAlive []bool
	canTrue, canFalse   []bool // per fact
	posUsers, negUsers  *csr   // per fact: the actions with it as a positive, negative precondition
	taskOK              []bool // per ground task: some live method bottoms out
}

// possibleFacts finds, by the delete relaxation with negative
// preconditions, the facts that can be true and those that can be false
// in a reachable state: true initially or added by a live action whose
// preconditions can hold, false initially or deleted by one. Facts that a
// live action adds but that no applicable one does (a snake that would
// enter a wall to free the wall) are found impossible, and with them the
// actions that need them.
func (lv *liveness) possibleFacts() {
	g := lv.g
	nf := len(g.facts)
	lv.canTrue = append(lv.canTrue[:0], g.initSet...)
	lv.canFalse = make([]bool, nf)
	for f := range lv.canFalse {
		lv.canFalse[f] = !g.initSet[f]
	}
	if lv.posUsers == nil {
		lv.posUsers = csrOf(nf, len(g.gActs), func(i int) []int32 { return g.gActs[i].pre })
		lv.negUsers = csrOf(nf, len(g.gActs), func(i int) []int32 { return g.gActs[i].negPre })
	}
	missing := make([]int32, len(g.gActs))
	var ready []int32
	for i := range g.gActs {
		if g.stopped(i) {
			return
		}
		a := &g.gActs[i]
		if !lv.actAlive[i] {
			missing[i] = -1
			continue
		}
		n := int32(0)
		for _, f := range a.pre {
			if f < 0 {
				n = -1 // never reachable
				break
			}
			if !lv.canTrue[f] {
				n++
			}
		}
		if n >= 0 {
			for _, f := range a.negPre {
				if !lv.canFalse[f] {
					n++
				}
			}
		}
		missing[i] = n
		if n == 0 {
			ready = append(ready, int32(i))
		}
	}
	wake := func(users *csr, f int32) {
		for _, u := range users.row(f) {
			if missing[u] > 0 {
				if missing[u]--; missing[u] == 0 {
					ready = append(ready, u)
				}
			}
		}
	}
	for n := 0; len(ready) > 0; n++ {
		if g.stopped(n) {
			return
		}
		a := &g.gActs[ready[len(ready)-1]]
		ready = ready[:len(ready)-1]
		for _, f := range a.add {
			if !lv.canTrue[f] {
				lv.canTrue[f] = true
				wake(lv.posUsers, f)
			}
		}
		for _, f := range a.del {
			if !lv.canFalse[f] {
				lv.canFalse[f] = true
				wake(lv.negUsers, f)
			}
		}
	}
}

// csr is a compressed sparse row index: for each of n keys, a list of
// int32s.
type csr struct {
	start []int32
	vals  []int32
}

func (c *csr) row(k int32) []int32 { return c.vals[c.start[k]:c.start[k+1]] }

// csrOf indexes, for each key below n, the items i < m whose keys(i)
// contain it (negative keys ignored; an item is listed once per key
// occurrence).
func csrOf[K ~int32](n, m int, keys func(i int) []K) *csr {
	c := &csr{start: make([]int32, n+1)}
	for i := 0; i < m; i++ {
		for _, k := range keys(i) {
			if k >= 0 {
				c.start[k+1]++
			}
		}
	}
	for k := 0; k < n; k++ {
		c.start[k+1] += c.start[k]
	}
	c.vals = make([]int32, c.start[n])
	fill := slices.Clone(c.start[:n])
	for i := 0; i < m; i++ {
		for _, k := range keys(i) {
			if k >= 0 {
				c.vals[fill[k]] = int32(i)
				fill[k]++
			}
		}
	}
	return c
}

func (lv *liveness) possible(pre, neg []int32) bool {
	for _, f := range pre {
		if f < 0 || !lv.canTrue[f] {
			return false
		}
	}
	for _, f := range neg {
		if !lv.canFalse[f] {
			return false
		}
	}
	return true
}

// impossiblePreconditions kills the actions and methods whose
// preconditions can never hold, and the methods with a dead action as a
// subtask. It reports whether it killed anything.
func (lv *liveness) impossiblePreconditions() bool {
	g := lv.g
	changed := false
	for i := range g.gActs {
		if g.stopped(i) {
			return false
		}
		if lv.actAlive[i] && !lv.possible(g.gActs[i].pre, g.gActs[i].negPre) {
			lv.actAlive[i] = false
			changed = true
		}
	}
	for i := range g.gMethods {
		if g.stopped(i) {
			return false
		}
		m := &g.gMethods[i]
		if !lv.methAlive[i] {
			continue
		}
		ok := lv.possible(m.pre, m.negPre)
		for _, r := range m.subtasks {
			if r.prim && !lv.actAlive[r.idx] {
				ok = false
			}
		}
		if !ok {
			lv.methAlive[i] = false
			changed = true
		}
	}
	return changed
}

// bottomOut finds, as a least fixpoint, the compound tasks with a live
// method whose compound subtasks all bottom out, and kills the methods
// with a subtask that does not.
func (lv *liveness) bottomOut() bool {
	g := lv.g
	if g.err != nil {
		return false
	}
	lv.taskOK = make([]bool, len(g.gTasks))
	missing := make([]int, len(g.gMethods)) // compound subtasks not yet OK
	users := make([][]int32, len(g.gTasks)) // methods using a task
	var queue []int32
	for i := range g.gMethods {
		if g.stopped(i) {
			return false
		}
		if !lv.methAlive[i] {
			continue
		}
		for _, r := range g.gMethods[i].subtasks {
			if !r.prim {
				missing[i]++
				users[r.idx] = append(users[r.idx], int32(i))
			}
		}
		if missing[i] == 0 {
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		mi := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		t := g.gMethods[mi].task
		if lv.taskOK[t] {
			continue
		}
		lv.taskOK[t] = true
		for _, u := range users[t] {
			if missing[u]--; missing[u] == 0 {
				queue = append(queue, u)
			}
		}
	}
	changed := false
	for i := range g.gMethods {
		if g.stopped(i) {
			return false
		}
		if lv.methAlive[i] && missing[i] > 0 {
			lv.methAlive[i] = false
			changed = true
		}
	}
	return changed
}

// topDown kills the actions and methods that the initial network no longer
// reaches through live methods.
func (lv *liveness) topDown() bool {
	g := lv.g
	reachT := make([]bool, len(g.gTasks))
	reachA := make([]bool, len(g.gActs))
	var stack []int32
	reach := func(r gRef) {
		switch {
		case r.prim:
			reachA[r.idx] = true
		case !reachT[r.idx]:
			reachT[r.idx] = true
			stack = append(stack, r.idx)
		}
	}
	for _, r := range g.initial {
		reach(r)
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, mi := range g.gTasks[t].methods {
			if lv.methAlive[mi] {
				for _, r := range g.gMethods[mi].subtasks {
					reach(r)
				}
			}
		}
	}
	changed := false
	for i := range g.gActs {
		if g.stopped(i) {
			return false
		}
		if lv.actAlive[i] && !reachA[i] {
			lv.actAlive[i] = false
			changed = true
		}
	}
	for i := range g.gMethods {
		if g.stopped(i) {
			return false
		}
		if lv.methAlive[i] && !reachT[g.gMethods[i].task] {
			lv.methAlive[i] = false
			changed = true
		}
	}
	return changed
}

// goal grounds the goal into the fluent facts that must be true and false
// at the end; it fails when the goal can never hold.
func (g *grounder) goal(canTrue, canFalse []bool) (goal, goalNeg []int32, err error) {
	g.norm.scopeVars = g.p.GoalVars
	dnf, err := g.norm.dnf(g.p.Goal, false, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("goal: %w", err)
	}
	if len(dnf) == 0 {
		return nil, nil, fmt.Errorf("%w: the goal is unsatisfiable", ErrUnsolvable)
	}
	if len(dnf) > 1 {
		return nil, nil, fmt.Errorf("disjunctive goals are %w", ErrNotSupported)
	}
	tup := make([]int32, 0, 8)
	for _, l := range dnf[0] {
		if l.pred == eqPred {
			continue // decided by the normaliser: constants only
		}
		for _, a := range l.args {
			if a.IsVar() {
				return nil, nil, fmt.Errorf("existential goals are %w", ErrNotSupported)
			}
		}
		tup = g.ground(l.args, nil, tup[:0])
		if g.static[l.pred] {
			_, in := g.rels[l.pred].find(tup)
			if in == l.neg {
				return nil, nil, fmt.Errorf("%w: the goal asks for a static fact that does not hold", ErrUnsolvable)
			}
			continue
		}
		f := g.factOf(l.pred, tup)
		switch {
		case !l.neg && (f < 0 || !canTrue[f]):
			return nil, nil, fmt.Errorf("%w: goal fact %s can never hold", ErrUnsolvable, g.litName(l.pred, tup))
		case l.neg && f >= 0 && !canFalse[f]:
			return nil, nil, fmt.Errorf("%w: goal fact %s can never be false", ErrUnsolvable, g.litName(l.pred, tup))
		case !l.neg:
			goal = append(goal, f)
		case f >= 0:
			goalNeg = append(goalNeg, f)
		}
	}
	return goal, goalNeg, nil
}

func (g *grounder) refName(r gRef) string {
	if r.prim {
		a := &g.gActs[r.idx]
		return g.callName(g.d.Actions[a.schema.lifted].Name, a.binding[:a.schema.nparams])
	}
	t := &g.gTasks[r.idx]
	if t.schema < 0 {
		return "(a task with free variables)"
	}
	return g.callName(g.d.Tasks[t.schema].Name, t.args)
}

func (g *grounder) callName(name string, args []int32) string { return callName(g.p, name, args) }

func (g *grounder) litName(pred int, tup []int32) string {
	return "(" + g.callName(g.d.Predicates[pred].Name, tup) + ")"
}

// groundFacts fills the fact lists of every action and method.
func (g *grounder) groundFacts() {
	tup := make([]int32, 0, 8)
	// the lists are made in bufs, then kept in a slab
	var bufs [2][]int32
	keep := func(k int, xs []int32) []int32 {
		bufs[k] = xs[:0]
		return g.ints.copy(uniq(xs))
	}
	// lits grounds the fluent literals under b, leaving out those marked
	// moved (taken by a split)
	lits := func(pos, neg []lit, movedPos, movedNeg []bool, b []int32) ([]int32, []int32) {
		pre, negPre := bufs[0][:0], bufs[1][:0]
		for i, l := range pos {
			if g.static[l.pred] || movedPos != nil && movedPos[i] {
				continue
			}
			tup = g.ground(l.args, b, tup[:0])
			if f := g.factOf(l.pred, tup); f >= 0 {
				pre = append(pre, f)
			} else {
				pre = append(pre, -1) // unreachable: cannot happen after the joins
			}
		}
		for i, l := range neg {
			if movedNeg != nil && movedNeg[i] {
				continue
			}
			tup = g.ground(l.args, b, tup[:0])
			if f := g.factOf(l.pred, tup); f >= 0 {
				negPre = append(negPre, f)
			}
		}
		return keep(0, pre), keep(1, negPre)
	}
	for i := range g.gActs {
		if g.stopped(i) {
			return
		}
		a := &g.gActs[i]
		a.pre, a.negPre = lits(a.schema.pos, a.schema.neg, nil, nil, a.binding)
		add, del := bufs[0][:0], bufs[1][:0]
		for _, e := range a.schema.effects {
			tup = g.ground(e.args, a.binding, tup[:0])
			f := g.factOf(e.pred, tup)
			if f < 0 {
				continue // deleting a fact that is never true
			}
			if e.del {
				del = append(del, f)
			} else {
				add = append(add, f)
			}
		}
		a.add, a.del = keep(0, add), keep(1, del)
	}
	for i := range g.gMethods {
		if g.stopped(i) {
			return
		}
		m := &g.gMethods[i]
		switch {
		case m.schema != nil:
			m.pre, m.negPre = lits(m.schema.pos, m.schema.neg, m.schema.movedPos, m.schema.movedNeg, m.binding)
		case m.split != nil:
			m.pre, m.negPre = lits(m.split.pos, m.split.neg, nil, nil, m.binding)
		}
	}
}

func uniq(xs []int32) []int32 {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// build renumbers what survived into a Task. Facts that are constant (true
// or false throughout) are dropped from every list.
func (g *grounder) build(actAlive, methAlive, canTrue, canFalse []bool, goal, goalNeg []int32) *Task {
	b := &taskBuilder{g: g, t: &Task{Problem: g.p, InitialTotal: g.initialTotal, memo: &memo{}}, canTrue: canTrue, canFalse: canFalse}
	b.factMap = make([]FactID, len(g.facts))
	for i := range b.factMap {
		b.factMap[i] = -1
	}
	if !b.actions(actAlive) || !b.compounds(methAlive) || !b.methods(methAlive) {
		return nil
	}
	b.initialAndGoal(goal, goalNeg)
	return b.t
}

// taskBuilder is build's state: the task made so far and the maps from
// the grounder's facts, actions and tasks to its IDs. The task's many
// small slices (arguments, fact lists) are cut from slabs: one
// allocation per few thousand values instead of one each.
type taskBuilder struct {
	g                 *grounder
	t                 *Task
	canTrue, canFalse []bool
	factMap           []FactID // grounder fact -> FactID, -1 until used
	actMap            []TaskID // grounder action -> TaskID, -1 if dropped
	taskMap           []int    // grounder task -> compound index, -1 if dropped
	facts             slab[FactID]
	ints              slab[int]
	buf               []FactID
}

// constTrue and constFalse tell a fact that is always true (false).
func (b *taskBuilder) constTrue(f int32) bool  { return !b.canFalse[f] }
func (b *taskBuilder) constFalse(f int32) bool { return !b.canTrue[f] }

// mapFacts returns facts fs as FactIDs, without those drop tells (nil
// for none), giving each fact met for the first time its ID.
func (b *taskBuilder) mapFacts(fs []int32, drop func(int32) bool) []FactID {
	b.buf = b.buf[:0]
	for _, f := range fs {
		if f < 0 || drop(f) {
			continue
		}
		if b.factMap[f] < 0 {
			b.factMap[f] = FactID(len(b.t.Facts))
			fa := b.g.facts[f]
			b.t.Facts = append(b.t.Facts, Fact{Pred: fa.Pred, Args: b.ints.copy(fa.Args)})
		}
		b.buf = append(b.buf, b.factMap[f])
	}
	if len(b.buf) == 0 {
		return nil
	}
	return b.facts.copy(b.buf)
}

func (b *taskBuilder) argsOf(xs []int32) []int {
	out := b.ints.take(len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// actions makes the live actions (false when the grounding stopped).
func (b *taskBuilder) actions(actAlive []bool) bool {
	g, t := b.g, b.t
	b.actMap = make([]TaskID, len(g.gActs))
	nAlive := 0
	for _, ok := range actAlive {
		if ok {
			nAlive++
		}
	}
	t.Actions = make([]Action, 0, nAlive)
	for i := range g.gActs {
		if g.stopped(i) {
			return false
		}
		if !actAlive[i] {
			b.actMap[i] = -1
			continue
		}
		a := &g.gActs[i]
		b.actMap[i] = TaskID(len(t.Actions))
		t.Actions = append(t.Actions, Action{
			Schema: a.schema.lifted,
			Args:   b.argsOf(a.binding[:a.schema.nparams]),
			Pre:    b.mapFacts(a.pre, b.constTrue),
			NegPre: b.mapFacts(a.negPre, b.constFalse),
			// adding a fact that is always true, or deleting one that is
			// always false, changes nothing
			Add: b.mapFacts(a.add, b.constTrue),
			Del: b.mapFacts(a.del, b.constFalse),
		})
	}
	return true
}

// compounds makes the compound tasks: those with a live method (false
// when the grounding stopped).
func (b *taskBuilder) compounds(methAlive []bool) bool {
	g, t := b.g, b.t
	b.taskMap = make([]int, len(g.gTasks))
	for i := range b.taskMap {
		b.taskMap[i] = -1
	}
	for i := range g.gMethods {
		if g.stopped(i) {
			return false
		}
		if methAlive[i] {
			b.taskMap[g.gMethods[i].task] = 0
		}
	}
	nc := 0
	for i := range b.taskMap {
		if b.taskMap[i] == 0 {
			b.taskMap[i] = nc
			nc++
		}
	}
	t.Compounds = make([]Compound, nc)
	for i, gt := range g.gTasks {
		if c := b.taskMap[i]; c >= 0 {
			t.Compounds[c] = Compound{Schema: gt.schema, Args: b.argsOf(gt.args)}
		}
	}
	return true
}

// refID is the TaskID of the grounder's task r.
func (b *taskBuilder) refID(r gRef) TaskID {
	if r.prim {
		return b.actMap[r.idx]
	}
	return TaskID(len(b.t.Actions) + b.taskMap[r.idx])
}

// methods makes the live methods and each compound task's list of them
// (false when the grounding stopped). The methods, their subtask lists
// and each task's method list are cut from slices sized in advance:
// appending them one by one was the largest allocation of grounding a
// Sudoku (BenchmarkTop1465).
func (b *taskBuilder) methods(methAlive []bool) bool {
	g, t := b.g, b.t
	na := len(t.Actions)
	nm := 0
	perTask := make([]int32, len(t.Compounds))
	for i := range g.gMethods {
		if methAlive[i] {
			nm++
			perTask[b.taskMap[g.gMethods[i].task]]++
		}
	}
	t.Methods = make([]Method, 0, nm)
	var tids slab[TaskID]
	var mids slab[MethodID]
	for c := range t.Compounds {
		t.Compounds[c].Methods = mids.take(int(perTask[c]))[:0]
	}
	for i := range g.gMethods {
		if g.stopped(i) {
			return false
		}
		if !methAlive[i] {
			continue
		}
		gm := &g.gMethods[i]
		m := Method{
			Schema:   -1,
			Task:     TaskID(na + b.taskMap[gm.task]),
			Pre:      b.mapFacts(gm.pre, b.constTrue),
			NegPre:   b.mapFacts(gm.negPre, b.constFalse),
			Ordering: gm.ordering,
			Total:    gm.total,
		}
		if gm.schema != nil {
			m.Schema = gm.schema.lifted
		}
		m.Args = b.methodArgs(gm)
		if len(gm.subtasks) > 0 {
			m.Subtasks = tids.take(len(gm.subtasks))
			for k, r := range gm.subtasks {
				m.Subtasks[k] = b.refID(r)
			}
		}
		id := MethodID(len(t.Methods))
		t.Methods = append(t.Methods, m)
		c := &t.Compounds[int(m.Task)-na]
		c.Methods = append(c.Methods, id)
	}
	return true
}

// methodArgs returns the arguments of ground method gm: its schema's
// parameters, the values of a split method's variables, or else its
// whole binding.
func (b *taskBuilder) methodArgs(gm *gMethod) []int {
	switch {
	case gm.schema != nil:
		return b.argsOf(gm.binding[:gm.schema.nparams])
	case gm.split != nil:
		args := b.ints.take(len(gm.split.vars))
		for k, v := range gm.split.vars {
			args[k] = int(gm.binding[v])
		}
		return args
	}
	return b.argsOf(gm.binding)
}

// initialAndGoal makes the initial network, the goal and the initial
// state, which keeps only the facts some action or method mentions:
// the others do not matter.
func (b *taskBuilder) initialAndGoal(goal, goalNeg []int32) {
	g, t := b.g, b.t
	for _, r := range g.initial {
		t.Initial = append(t.Initial, b.refID(r))
	}
	t.InitialOrder = g.initialOrder
	var init []int32
	for f, in := range g.initSet {
		if in {
			init = append(init, int32(f))
		}
	}
	t.Goal = b.mapFacts(goal, b.constTrue)
	t.GoalNeg = b.mapFacts(goalNeg, b.constFalse)
	for _, f := range init {
		if b.factMap[f] >= 0 {
			t.Init = append(t.Init, b.factMap[f])
		}
	}
	slices.Sort(t.Init)
}
