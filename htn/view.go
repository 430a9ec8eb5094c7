package htn

import (
	"context"
	"math"
	"slices"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/heap"
)

// view is the search's reading of a ground task: the indexes that
// dead-end detection and the heuristics need. It is built once per task
// and never changed. The task's analyses (recursion, total order, the
// permanence of facts) come from package ground.
type view struct {
	t *ground.Task
	// grow, when set, grounds t on demand: t grows as the search goes
	// (SolveGrow); acts is the number of its actions the view has seen
	grow   *ground.Grow
	acts   int
	nA     int // actions: TaskIDs below nA
	nFacts int
	meths  []ground.Method // the task's methods, by MethodID
	// taskMeths[c] lists the methods of compound task c (indexed from 0,
	// i.e. TaskID-nA).
	taskMeths [][]int32
	// users[id] lists the methods having task id as a subtask.
	users [][]int32
	// neverDel[f]: no action deletes f, so once true it stays true;
	// neverAdd[f]: no action adds f, so once false it stays false.
	neverDel, neverAdd []bool
	// killOnTrue[f]: what f becoming permanently true makes inapplicable
	// forever, and preUsers[f] the methods and actions with f among their
	// preconditions, which f permanently false (neverAdd, or no adder left
	// in reach) rules out (references as in the trail).
	killOnTrue, preUsers [][]int32
	// acost[a] is the cost of action a (1 in a domain without costs) and
	// cost[id] the least cost of the actions task id decomposes into
	acost     []int64
	cost      []int64 // costInf: the task has no decomposition into actions
	recursive bool
	// comp[c] (per compound task, TaskID-nA) is its strongly connected
	// component of the task graph (ground.Task.Components), and
	// recursing[m] tells whether method m has a subtask in its task's
	// component: a decomposition that can recur. Both only when the task
	// is recursive.
	comp      []int32
	nComp     int
	recursing []bool
	total     bool // every network is totally ordered
	// first[m] is the action a totally ordered method m begins with, or
	// -1 (its first subtask is compound, or its order is partial)
	first []int32
	// key[m] is a precondition of method m few of its task's methods
	// share, keyed[c] the methods of compound task c by their keys where
	// it has many, and pos[m] the place of method m in its task's list
	// (keyed.go)
	key   []int32
	keyed []*keyedMethods
	pos   []int32
	// settled[c] (per compound task, TaskID-nA): the preconditions of
	// its methods and of their primitive subtasks can only go from true
	// to false (positive ones on facts no action adds, negative ones on
	// facts no action deletes), so that a method that is not dead now
	// holds now, and no later step can revive one; in a network that
	// cannot recur, its compound subtasks are settled too, all the way
	// down. Such a task can be decomposed ahead of its turn without
	// guessing at a future state. (Without the subtasks, IPC Woodworking
	// decomposed a later part's processing ahead, and every wrong choice
	// there was found only at its turn, after the search had tried every
	// way of processing the parts before it: 14.hddl timed out, 2,298
	// nodes with them.)
	settled []bool
	// goals are the goal facts the search watches (the positive ones,
	// then the negative ones, at most maxGoals, those not met initially
	// first), and goalMask[id*goalW:(id+1)*goalW] the goals a
	// decomposition of task id may reach: an action adding (for a
	// negative goal, deleting) one, somewhere below it
	goals    []ground.FactID
	goalsPos int
	// goals[lmFrom:lmTo], among the positive ones, are landmarks (see
	// landmarks): facts to make true at some point, not to hold at the
	// end; lmOf[f] is fact f's index among them, or -1 (nil without)
	lmFrom, lmTo int
	lmOf         []int32
	goalW        int
	goalMask     []uint64
	// watch tells which goals a growing task's tasks may reach (nil
	// for a task that does not grow, or without goals), and goalMaskU
	// (laid out as goalMask) those they may reach by a way that needs
	// no one-way fact
	watch     *ground.Watch
	goalMaskU []uint64
	// marked tells, over a growing task, the tasks whose goal masks are
	// filled: a task's are filled when first asked for (reachable), as
	// most tasks made are never in a network the depth-first search
	// looks at (the greedy search's grounding below the tasks it met,
	// the instances of a task served in a state and never tried)
	marked []bool
	// oneWay[f], over a growing task with goals a task may reach only
	// by ways that need one-way facts, tells fact f is one (nil else)
	oneWay []bool
	// goalTells[c] (per compound task, TaskID-nA): the subtasks of c's
	// methods do not all reach the same goals, so the goal order can
	// tell them apart (see dfs.goalOrder)
	goalTells []bool
	// targets[c] (per compound task, TaskID-nA; nil for all without)
	// are the targets of a recursive task, tMask[k*tW:(k+1)*tW] the facts
	// the tasks of component k may add, and back[f] the facts an action
	// moves from to f (see target.go)
	targets [][]ground.FactID
	tW      int
	tMask   []uint64
	back    [][]ground.FactID
}

// maxGoals bounds the goals the search watches: each costs a look at
// every search node, and a word per 64 of them per task. A goal left out
// is found lost only at the end: with 256, IPC Blocksworld-GTOHP p26
// (288 goals) thrashed through a million nodes over a block taken off
// its goal place, and 6,228 nodes find the plan when all are watched.
const maxGoals = 4096

// reachable returns the mask of the goals a decomposition of task id may
// reach (nil without goals).
func (v *view) reachable(id int32) []uint64 {
	if v.goalMask == nil {
		return nil
	}
	if v.watch != nil && !v.marked[id] {
		v.mark(id)
	}
	return v.goalMask[int(id)*v.goalW : int(id+1)*v.goalW]
}

// reachableU is reachable's counterpart for goalMaskU.
func (v *view) reachableU(id int32) []uint64 {
	if v.watch != nil && !v.marked[id] {
		v.mark(id)
	}
	return v.goalMaskU[int(id)*v.goalW : int(id+1)*v.goalW]
}

// refs in trails and kill lists: methods as m >= 0, actions as -1-a.
func methodRef(m int32) int32 { return m }
func actionRef(a int32) int32 { return -1 - a }

func newView(ctx context.Context, t *ground.Task) (*view, error) {
	v := &view{t: t, nA: len(t.Actions), nFacts: len(t.Facts), meths: t.Methods}
	v.index()
	v.actionCosts()
	if err := v.costs(ctx); err != nil {
		return nil, err
	}
	v.goalMasks()
	v.recursion()
	v.total = t.TotallyOrdered()
	v.firstActions()
	v.keyPreconditions()
	v.settle()
	return v, nil
}

// index fills taskMeths, users, the permanence of facts, killOnTrue and
// preUsers.
func (v *view) index() {
	t := v.t
	v.taskMeths = make([][]int32, len(t.Compounds))
	for c := range t.Compounds {
		ms := make([]int32, len(t.Compounds[c].Methods))
		for i, m := range t.Compounds[c].Methods {
			ms[i] = int32(m)
		}
		v.taskMeths[c] = ms
	}
	v.users = make([][]int32, t.NumTasks())
	for mi := range t.Methods {
		for _, s := range t.Methods[mi].Subtasks {
			v.users[s] = append(v.users[s], int32(mi))
		}
	}
	v.neverAdd, v.neverDel = t.Permanence()
	v.killOnTrue = make([][]int32, v.nFacts)
	v.preUsers = make([][]int32, v.nFacts)
	index := func(ref int32, pre, neg []ground.FactID) {
		for _, f := range pre {
			v.preUsers[f] = append(v.preUsers[f], ref)
		}
		for _, f := range neg {
			if v.neverDel[f] {
				v.killOnTrue[f] = append(v.killOnTrue[f], ref)
			}
		}
	}
	for i, a := range t.Actions {
		index(actionRef(int32(i)), a.Pre, a.NegPre)
	}
	for i := range v.meths {
		index(methodRef(int32(i)), v.meths[i].Pre, v.meths[i].NegPre)
	}
}

// actionCosts fills acost.
func (v *view) actionCosts() {
	t := v.t
	v.acost = make([]int64, v.nA)
	for a := range v.acost {
		v.acost[a] = int64(t.ActionCost(ground.TaskID(a)))
	}
}

// recursion fills recursive and, in a recursive task, comp, nComp,
// recursing and the targets (target.go).
func (v *view) recursion() {
	t := v.t
	v.recursive = t.Recursive()
	if !v.recursive {
		return
	}
	v.comp, v.nComp = t.Components()
	v.recursing = make([]bool, len(v.meths))
	for m := range v.meths {
		c := v.comp[int(v.meths[m].Task)-v.nA]
		for _, s := range v.meths[m].Subtasks {
			if int(s) >= v.nA && v.comp[int(s)-v.nA] == c {
				v.recursing[m] = true
			}
		}
	}
	v.targetIndex()
}

// firstActions fills first.
func (v *view) firstActions() {
	v.first = make([]int32, len(v.meths))
	for m := range v.meths {
		v.first[m] = -1
		if sm := &v.meths[m]; (sm.Total || len(sm.Subtasks) == 1) && len(sm.Subtasks) > 0 && int(sm.Subtasks[0]) < v.nA {
			v.first[m] = int32(sm.Subtasks[0])
		}
	}
}

// settle fills settled (see view.settled).
func (v *view) settle() {
	t := v.t
	v.settled = make([]bool, len(t.Compounds))
	decreasing := func(pre, neg []ground.FactID) bool {
		for _, f := range pre {
			if !v.neverAdd[f] {
				return false
			}
		}
		for _, f := range neg {
			if !v.neverDel[f] {
				return false
			}
		}
		return true
	}
	for c, ms := range v.taskMeths {
		ok := true
		for _, m := range ms {
			sm := &v.meths[m]
			ok = ok && decreasing(sm.Pre, sm.NegPre)
			for _, st := range sm.Subtasks {
				if int(st) < v.nA {
					a := &t.Actions[st]
					ok = ok && decreasing(a.Pre, a.NegPre)
				}
			}
		}
		v.settled[c] = ok
	}
	if !v.recursive {
		// and so must be their compound subtasks, all the way down (the
		// task graph is acyclic)
		done := make([]bool, len(t.Compounds))
		var deep func(c int) bool
		deep = func(c int) bool {
			if !done[c] {
				done[c] = true
				for _, m := range v.taskMeths[c] {
					for _, st := range v.meths[m].Subtasks {
						if v.settled[c] && int(st) >= v.nA && !deep(int(st)-v.nA) {
							v.settled[c] = false
						}
					}
				}
			}
			return v.settled[c]
		}
		for c := range v.settled {
			deep(c)
		}
	}
}

// watchGoals sets the goals the search watches (see view.goals): the
// positive ones pos as ordered by the caller, then the negative ones,
// those true initially first, at most maxGoals.
func (v *view) watchGoals(pos []ground.FactID, initially func(ground.FactID) bool) {
	v.goals = append(pos, unmetFirst(v.t.GoalNeg, initially)...)
	v.goalsPos = len(pos)
	if len(v.goals) > maxGoals {
		v.goals = v.goals[:maxGoals]
		v.goalsPos = min(v.goalsPos, maxGoals)
		v.lmFrom, v.lmTo = min(v.lmFrom, maxGoals), min(v.lmTo, maxGoals)
	}
}

// goalMasks fills goals and goalMask.
func (v *view) goalMasks() {
	t := v.t
	// the goals not met initially go first, so that a cap keeps them
	init := make([]bool, v.nFacts)
	for _, f := range t.Init {
		init[f] = true
	}
	pos := unmetFirst(t.Goal, func(f ground.FactID) bool { return !init[f] })
	unmet := 0
	for unmet < len(pos) && !init[pos[unmet]] {
		unmet++
	}
	lms := v.landmarks(pos[:unmet], init)
	v.lmFrom, v.lmTo = unmet, unmet+len(lms)
	pos = slices.Concat(pos[:unmet], lms, pos[unmet:])
	v.watchGoals(pos, func(f ground.FactID) bool { return init[f] })
	if v.lmTo > v.lmFrom {
		v.lmOf = make([]int32, v.nFacts)
		for f := range v.lmOf {
			v.lmOf[f] = -1
		}
		for i := v.lmFrom; i < v.lmTo; i++ {
			v.lmOf[v.goals[i]] = int32(i - v.lmFrom)
		}
	}
	if len(v.goals) == 0 {
		return
	}
	w := (len(v.goals) + 63) / 64
	v.goalW = w
	v.goalMask = make([]uint64, t.NumTasks()*w)
	index := make(map[ground.FactID][]int, len(v.goals))
	for i, g := range v.goals {
		index[g] = append(index[g], i)
	}
	var work []int32
	for a := range t.Actions {
		m := v.reachable(int32(a))
		set := func(effs []ground.FactID, neg bool) {
			for _, f := range effs {
				for _, i := range index[f] {
					if (i >= v.goalsPos) == neg {
						m[i>>6] |= 1 << (i & 63)
					}
				}
			}
		}
		set(t.Actions[a].Add, false)
		set(t.Actions[a].Del, true)
		if slices.ContainsFunc(m, func(x uint64) bool { return x != 0 }) {
			work = append(work, int32(a))
		}
	}
	// up the hierarchy to a fixpoint: masks only grow
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		mx := v.reachable(x)
		for _, m := range v.users[x] {
			c := int32(v.meths[m].Task)
			mc := v.reachable(c)
			grew := false
			for k, bits := range mx {
				if mc[k]|bits != mc[k] {
					mc[k] |= bits
					grew = true
				}
			}
			if grew {
				work = append(work, c)
			}
		}
	}
	v.goalTelling()
}

// landmarks returns facts that every plan makes true at some point,
// found by backchaining from the goal facts not met initially (Hoffmann,
// Porteous, Sebastia: "Ordered Landmarks in Planning", JAIR 2004): a
// fact false initially must be added by an action, so a precondition
// shared by every action adding it must hold at some point before; that
// one, if false initially, is a landmark in turn. Such a fact need not
// hold at the end (an observation's marker the next observation deletes,
// say), but a network that has not made it true yet and whose tasks
// cannot add it is a dead end, as one that cannot reach a goal is. At most
// maxGoals, in the order found (nearest the goal first).
func (v *view) landmarks(goals []ground.FactID, init []bool) []ground.FactID {
	if len(goals) == 0 {
		return nil
	}
	t := v.t
	adders := make([][]int32, v.nFacts)
	for a := range t.Actions {
		for _, f := range t.Actions[a].Add {
			adders[f] = append(adders[f], int32(a))
		}
	}
	known := make([]bool, v.nFacts)
	for _, g := range goals {
		known[g] = true
	}
	var out []ground.FactID
	shared := make([]int32, v.nFacts) // per fact: adders needing it, for the fact in hand
	queue := slices.Clone(goals)
	work := 0 // preconditions looked at, bounded by landmarkWork
	for len(queue) > 0 && len(out) < maxGoals && work < landmarkWork {
		f := queue[0]
		queue = queue[1:]
		as := adders[f]
		if len(as) == 0 {
			continue
		}
		var cand []ground.FactID
		for _, a := range as {
			work += len(t.Actions[a].Pre)
			for _, p := range t.Actions[a].Pre {
				if shared[p]++; shared[p] == 1 {
					cand = append(cand, p)
				}
			}
		}
		for _, p := range cand {
			if int(shared[p]) == len(as) && !init[p] && !known[p] {
				known[p] = true
				out = append(out, p)
				queue = append(queue, p)
			}
			shared[p] = 0
		}
	}
	return out[:min(len(out), maxGoals)]
}

// landmarkWork bounds the preconditions the landmarks' backchaining looks
// at (each fact's adders' preconditions are read once per fact queued):
// a goal of thousands of facts, each added by thousands of actions, stops
// early with the landmarks found so far, which are landmarks all the same.
const landmarkWork = 1 << 24

// goalTelling fills goalTells.
func (v *view) goalTelling() {
	v.goalTells = make([]bool, len(v.taskMeths))
	first, mask := make([]uint64, v.goalW), make([]uint64, v.goalW)
	for c, ms := range v.taskMeths {
		for i, m := range ms {
			v.methodGoals(m, mask)
			if i == 0 {
				copy(first, mask)
			} else if !slices.Equal(first, mask) {
				v.goalTells[c] = true
				break
			}
		}
	}
}

// methodGoals sets mask to the goals the subtasks of method m may reach.
func (v *view) methodGoals(m int32, mask []uint64) {
	clear(mask)
	for _, t := range v.meths[m].Subtasks {
		for k, x := range v.reachable(int32(t)) {
			mask[k] |= x
		}
	}
}

// unmetFirst returns the facts fs, those unmet first (each part in order).
func unmetFirst(fs []ground.FactID, unmet func(ground.FactID) bool) []ground.FactID {
	out := make([]ground.FactID, 0, len(fs))
	for _, f := range fs {
		if unmet(f) {
			out = append(out, f)
		}
	}
	for _, f := range fs {
		if !unmet(f) {
			out = append(out, f)
		}
	}
	return out
}

// costs computes the least cost of the actions each task decomposes into
// (ignoring preconditions; in a domain without costs, the least number of
// actions): the admissible heuristic of the best-first searches, summed
// over the tasks of a network. It is Knuth's
// generalisation of Dijkstra's algorithm: tasks are settled in order of
// cost, and a method offers its task the sum of its subtasks' costs once
// all of them are settled. Tasks that only recurse keep costInf. Costs
// are exact up to costMax, where they saturate (a task whose cheapest
// decomposition doubles a thousand times).
func (v *view) costs(ctx context.Context) error {
	nt := v.t.NumTasks()
	v.cost = make([]int64, nt)
	remaining := make([]int32, len(v.meths))
	acc := make([]int64, len(v.meths))
	var pq heap.Of[int64]
	for i := range v.cost {
		v.cost[i] = costInf
	}
	offer := func(id ground.TaskID, c int64) {
		if c < v.cost[id] {
			v.cost[id] = c
			pq.Push(heap.ItemOf[int64]{Node: int32(id), Cost: c})
		}
	}
	for a := 0; a < v.nA; a++ {
		offer(ground.TaskID(a), v.acost[a])
	}
	for m := range v.meths {
		remaining[m] = int32(len(v.meths[m].Subtasks))
		if remaining[m] == 0 {
			offer(v.meths[m].Task, 0)
		}
	}
	settled := make([]bool, nt)
	for n := 0; len(pq) > 0; n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		it := pq.Pop()
		if settled[it.Node] || it.Cost != v.cost[it.Node] {
			continue
		}
		settled[it.Node] = true
		for _, m := range v.users[it.Node] {
			acc[m] = addCost(acc[m], it.Cost)
			if remaining[m]--; remaining[m] == 0 {
				offer(v.meths[m].Task, acc[m])
			}
		}
	}
	return nil
}

// costInf is the estimate of what cannot be done; costMax the largest
// finite cost an estimate takes (sums saturate there, far below costInf,
// so that A*'s g + w·h cannot overflow either: g stays below 2^62).
const (
	costInf = math.MaxInt64
	costMax = 1 << 56
)

// addCost adds two finite costs, saturating at costMax.
func addCost(a, b int64) int64 { return min(a+b, costMax) }
