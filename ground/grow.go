package ground

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
)

// Grow serves the ground task of a totally ordered problem on demand, for
// a search over a task too large to ground in full: Task holds what has
// been made so far, and grows when the search asks for the methods of a
// compound task in a state (Serve). The instances are those Lazy makes
// there (their precondition holds in the state, their actions do not
// need a fact gone for good, their compound subtasks may be feasible),
// each with its ground precondition, so that a method made in one state
// is checked like any other where it is tried later. A compound task
// that was never served has no methods yet: it is not dead. A method
// variable that neither the task, the precondition nor the subtasks
// before the first that uses it bind is not enumerated over its type: the
// instance's network ends, from that subtask on, in a synthetic task that
// binds it where the subtask's turn comes, by what applies there (as the
// initial network's variables; plans show the method's own subtasks).
//
// Task keeps the layout of TaskIDs (actions below len(Task.Actions),
// compound tasks above) by holding room for actions:
// Task.Actions[NumActions():] are placeholders that no method uses. When the actions made outgrow
// that room, it doubles, and every compound task's ID moves by the same
// amount (Serve reports it: IDs held from before are stale). Facts,
// compound tasks and methods are appended; nothing made is changed or
// removed, but for the methods appended to a compound task's list.
// Analyses of the whole task (Depth, Permanence, ChoiceGroups…) do not
// hold for a task that may grow.
type Grow struct {
	Task *Task
	lz   *Lazy
	nAct int      // actions made: Task.Actions[nAct:] are placeholders
	id   []TaskID // by lazy task: its TaskID, or -1 while unmet
	lzOf []int32  // by compound task (TaskID-len(Task.Actions)): its lazy task, or -1-k for synthetic task synth[k]
	// synth are the synthetic tasks that bind the variables of the
	// initial network (see network), by -1-lzOf, and synthKey their IDs
	synth    []openRest
	synthKey map[string]TaskID
	made     map[string]MethodID
	// open keeps serveOpen's last answer (serveExists' too), the method
	// instances of synthetic task c in a state, all of them: a search asks for them
	// a batch at a time in the same state, and each batch enumerated
	// them all (IPC Woodworking 17: 79% of the search's time)
	open struct {
		c     int
		any   bool // in any state (Serve's anyState)
		state []uint64
		ms    []MethodID
	}
	lifted  bool           // the goal is lifted (LiftedGoal)
	minCost []int64        // by lifted compound task (MinCost), made when first asked
	effects *liftedEffects // made when first asked (Watch, Distance)
	targets *liftedTargets // made when first asked (Targets)
	// Relaid counts the moves of compound tasks' IDs.
	Relaid int
	// closed counts the compound tasks Close has served in any state, in
	// the order of Task.Compounds
	closed int
	opt    Options // NewGrow's, for Close
}

// growRoom is the room for actions a growing task starts with by
// default (Options.GrowRoom). A search over the task starts over when
// the IDs move (htn.SolveGrow): with room for 1,024, IPC
// Blocksworld-HPDDL pfile_700's 4,087 actions moved them three times,
// each time costing the search what it had done in the run. The room
// costs a few bytes per action in the task and its searches.
const growRoom = 1 << 14

// NewGrow prepares p for grounding on demand into a growing Task (see
// Lazy for the options and what is refused). The feasibility
// questions of its grounding adapt to their cost (feasTrial).
func NewGrow(ctx context.Context, p *hddl.Problem, opt Options) (*Grow, error) {
	var reach []*relation
	if !opt.NoReach {
		var err error
		if reach, err = reachFacts(ctx, p, opt); err != nil {
			return nil, err
		}
	}
	return newGrow(ctx, p, opt, reach)
}

// newGrow starts a growing task of p, its initial network and goal,
// over a grounding of its own whose reachable facts are reach (nil: not
// known).
func newGrow(ctx context.Context, p *hddl.Problem, opt Options, reach []*relation) (*Grow, error) {
	lz, err := newLazy(ctx, p, opt)
	if err != nil {
		return nil, err
	}
	lz.groundPre, lz.feasAdaptive, lz.deferFree = true, true, true
	lz.reach = reach
	room := opt.GrowRoom
	if room <= 0 {
		room = growRoom
	}
	g := &Grow{lz: lz, opt: opt, made: map[string]MethodID{}, synthKey: map[string]TaskID{}, Task: &Task{Problem: p, InitialTotal: p.Initial.Total}}
	g.Task.Actions = make([]Action, room)
	if err := g.goal(); err != nil {
		return nil, err
	}
	open := make([]int32, len(p.Vars))
	for i := range open {
		open[i] = -1
	}
	var initial []TaskID
	if p.Initial.Total {
		initial, err = g.network(-1, 0, open)
	} else {
		initial, err = g.looseNetwork(open)
	}
	if err != nil {
		return nil, err
	}
	g.Task.Initial = initial
	g.Task.InitialOrder = ordering(p.Initial, len(initial))
	g.Task.Init = append([]FactID(nil), lz.init...)
	g.syncFacts()
	return g, nil
}

// Total reports whether every network of the problem is totally
// ordered.
func (g *Grow) Total() bool { return g.lz.total }

// Single tells that compound task id has at most one method instance in
// any state, as far as the lifted domain tells: its task has a single
// method, all of whose variables the task's arguments bind (a synthetic
// task may have more).
func (g *Grow) Single(id TaskID) bool {
	c := int(id) - len(g.Task.Actions)
	lid := g.lzOf[c]
	if lid < 0 {
		return false
	}
	ms := g.lz.methodsOf[g.lz.tasks[lid].Ref.Index]
	if len(ms) != 1 || len(g.lz.methods[ms[0]]) != 1 {
		return false
	}
	m := &g.lz.d.Methods[ms[0]]
	bound := make([]bool, len(m.Vars))
	for _, a := range m.TaskArgs {
		if a.IsVar() {
			bound[a.Var()] = true
		}
	}
	return !slices.Contains(bound, false)
}

// ordering is the order of a network's n ground tasks: a chain in a
// totally ordered network (the tasks of a synthetic task's rest
// included), the lifted network's pairs otherwise.
func ordering(net hddl.Network, n int) []Order {
	var out []Order
	if net.Total {
		for k := 1; k < n; k++ {
			out = append(out, Order{Before: int32(k - 1), After: int32(k)})
		}
		return out
	}
	for _, o := range net.Ordering {
		out = append(out, Order{Before: int32(o.Before), After: int32(o.After)})
	}
	return out
}

// goal grounds the problem's goal into Task.Goal and GoalNeg; a goal
// with variables or disjunctions is left lifted (see LiftedGoal).
func (g *Grow) goal() error {
	lz := g.lz
	if lz.goal == nil {
		return nil
	}
	if len(lz.goal) != 1 || len(lz.goal[0].vars) > 0 {
		g.lifted = true
		return nil
	}
	sc := lz.goal[0]
	for _, l := range sc.eq {
		x, y := lz.term(l.args[0], nil), lz.term(l.args[1], nil)
		if (x == y) == l.neg {
			return fmt.Errorf("%w: the goal asks for an equality that does not hold", plan.ErrUnsolvable)
		}
	}
	for _, ls := range [][]lit{sc.pos, sc.neg} {
		for _, l := range ls {
			if lz.static[l.pred] {
				f := lz.intern(l.pred, lz.objectArgs(l))
				if lz.staticOn[f] == l.neg {
					return fmt.Errorf("%w: the goal asks for a static fact that does not hold", plan.ErrUnsolvable)
				}
			}
		}
	}
	g.Task.Goal, g.Task.GoalNeg = lz.groundLits(sc, nil)
	return nil
}

// LiftedGoal tells that the problem's goal has variables or
// disjunctions: Task.Goal and GoalNeg are empty, and GoalHolds tells
// whether a state meets it.
func (g *Grow) LiftedGoal() bool { return g.lifted }

// GoalHolds reports whether a state (as in Serve) meets the problem's
// goal.
func (g *Grow) GoalHolds(state []uint64) bool { return g.lz.Goal(&State{bits: state}) }

// objectArgs is the arguments of a literal without variables.
func (lz *Lazy) objectArgs(l lit) []int32 {
	args := make([]int32, len(l.args))
	for i, a := range l.args {
		args[i] = lz.term(a, nil)
	}
	return args
}

// NumActions is the number of actions made: Task.Actions beyond them are
// placeholders.
func (g *Grow) NumActions() int { return g.nAct }

// Serve returns the method instances of compound task id that apply in
// a state (its fluent facts as a bit set over FactIDs, as sets.Bits), or
// with anyState in any state the problem may reach (Lazy.Methods with no
// state: a partially ordered network's task decomposed before its
// subtasks' turn), in the domain's order of methods or the reverse: after the first skip of
// them, at most limit (0: all), and whether there are more; the same
// state gives the same order, so that a search can ask for a task's
// instances a few at a time, as Lazy.Methods. The instances met first
// are appended to the task's methods, with the tasks, actions and facts
// they use. relaid reports that compound tasks' IDs moved (id among
// them): IDs held from before, the methods returned excepted, are stale.
func (g *Grow) Serve(id TaskID, state []uint64, anyState, reverse bool, skip, limit int) (ms []MethodID, more, relaid bool, err error) {
	t := g.Task
	c := int(id) - len(t.Actions)
	lid := g.lzOf[c]
	var st *State
	if !anyState {
		st = &State{bits: state}
	}
	if lid < 0 {
		return g.serveOpen(c, st, reverse, skip, limit)
	}
	insts, more, err := g.lz.Methods(lid, st, reverse, skip, limit)
	if err != nil {
		return nil, false, false, err
	}
	// room for the new actions first, so that the new methods are made
	// with the IDs that last
	need := 0
	for _, m := range insts {
		for _, st := range m.Subtasks {
			if g.lz.tasks[st].Ref.Primitive && (int(st) >= len(g.id) || g.id[st] < 0) {
				need++
			}
		}
	}
	relaid = g.room(need)
	id = g.id[lid]
	for _, m := range insts {
		k := string(g.lz.keyOf(uint32(m.Method), []int32{lid}, m.Subtasks, []int32{-1}, factIDs(m.Pre), []int32{-1}, factIDs(m.NegPre), m.Rest.key()))
		mid, ok := g.made[k]
		if !ok {
			net := g.lz.d.Methods[m.Method].Network
			gm := Method{Schema: m.Method, Task: id, Pre: m.Pre, NegPre: m.NegPre, Total: net.Total, Subtasks: make([]TaskID, len(m.Subtasks))}
			for i, st := range m.Subtasks {
				if gm.Subtasks[i], err = g.taskID(st); err != nil {
					return nil, false, relaid, err
				}
			}
			if m.Rest != nil {
				rest, err := g.network(m.Method, m.Rest.From, m.Rest.Sub)
				if err != nil {
					return nil, false, relaid, err
				}
				gm.Subtasks = append(gm.Subtasks, rest...)
			}
			gm.Ordering = ordering(net, len(gm.Subtasks))
			mid = MethodID(len(t.Methods))
			g.made[k] = mid
			t.Methods = append(t.Methods, gm)
			t.Compounds[c].Methods = append(t.Compounds[c].Methods, mid)
		}
		ms = append(ms, mid)
	}
	g.syncFacts()
	return ms, more, relaid, nil
}

// Close grows a task anew from g's initial network, over a grounding of
// its own (the reachable facts g's), serving every compound task in any
// state, those that serving makes in turn, and so on, until every
// compound task has been served: the task is closed, it holds every
// method instance that may apply anywhere below the initial network, as
// a full grounding does, and g becomes it (IDs held from before are
// stale: Relaid), with no room left for actions (a search of the whole
// task would count the placeholders: a portfolio's choices and the
// relaxed composition estimate's bound do). It gives up, leaving g as it
// was, once the task holds more than limit actions and methods, or one
// compound task more than a closeTaskShare-th of them, or past deadline
// (zero: none), or when ctx ends (its error). It reports whether g is
// closed. (Grown in g itself, or over g's grounding, a task given up on
// kept what it had made, the facts among it, which the joins in a state
// go through: IPC Blocksworld-HPDDL pfile_700's search went from 210,295
// nodes in 3.4 s to 17,333 in 6 s after a closing given up at 524,288
// methods, and to 25,167 over g's grounding.) The task's grounding looks
// at ctx from then on. Instances are asked a batch at a time, each batch
// as large as all before, so that the size, the deadline and ctx are
// looked at while a task with many instances is served.
func (g *Grow) Close(ctx context.Context, limit int, deadline time.Time) (bool, error) {
	cctx := ctx
	if !deadline.IsZero() {
		// the joins of a batch stop at the deadline too
		var cancel context.CancelFunc
		cctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	c, err := newGrow(cctx, g.Task.Problem, g.opt, g.lz.reach)
	if err == nil {
		var closed bool
		if closed, err = c.close(cctx, limit); err == nil && !closed {
			return false, nil
		}
	}
	if err != nil {
		return false, ctx.Err() // nil when only the deadline passed
	}
	c.lz.ctx = ctx
	c.Relaid = g.Relaid + 1
	*g = *c
	return true, nil
}

// close is Close in g itself, until ctx ends.
func (g *Grow) close(ctx context.Context, limit int) (bool, error) {
	t := g.Task
	skip := 0
	for g.closed < len(t.Compounds) {
		if g.nAct+len(t.Methods) > limit || skip > limit/closeTaskShare {
			return false, nil
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		id := TaskID(len(t.Actions) + g.closed)
		ms, more, _, err := g.Serve(id, nil, true, false, skip, max(closeBatch, skip))
		if err != nil {
			return false, err
		}
		if more {
			skip += len(ms)
			continue
		}
		g.closed, skip = g.closed+1, 0
	}
	g.relay(max(g.nAct, 1))
	return true, nil
}

// closeBatch is the number of a task's instances Close asks for first;
// past a closeTaskShare-th of its limit in one task, Close gives up.
const (
	closeBatch     = 32
	closeTaskShare = 16
)

// taskID returns the TaskID of lazy task lid, making the ground action
// or compound task when it is met first. An action needs room
// (Serve makes it beforehand).
func (g *Grow) taskID(lid int32) (TaskID, error) {
	for int(lid) >= len(g.id) {
		g.id = append(g.id, -1)
	}
	if g.id[lid] >= 0 {
		return g.id[lid], nil
	}
	t := g.Task
	lt := &g.lz.tasks[lid]
	if !lt.Ref.Primitive {
		g.id[lid] = TaskID(len(t.Actions) + len(t.Compounds))
		t.Compounds = append(t.Compounds, Compound{Schema: lt.Ref.Index, Args: lt.Args})
		g.lzOf = append(g.lzOf, lid)
		return g.id[lid], nil
	}
	a := g.lz.action(lid)
	if a.exists && !a.never {
		// a synthetic task whose methods are the action under each
		// binding of its precondition's own variables (serveExists)
		g.id[lid] = g.addSynth(openRest{meth: -1, k: -1, act: lid}, lt.Args)
		return g.id[lid], nil
	}
	if g.nAct == len(t.Actions) {
		g.relay(2 * len(t.Actions))
	}
	if a.never {
		// Lazy leaves out the instances with such subtasks: this is a
		// task of the initial network
		return 0, fmt.Errorf("%w: the action %s of the initial network is never applicable", plan.ErrUnsolvable, g.lz.TaskName(lid))
	}
	act := Action{Schema: lt.Ref.Index, Args: lt.Args, Pre: a.pre, NegPre: a.neg, Add: a.add, Del: a.del}
	t.Actions[g.nAct] = act
	g.id[lid] = TaskID(g.nAct)
	g.nAct++
	return g.id[lid], nil
}

// room makes room for need more actions, doubling it as often as need
// be, and reports whether compound tasks' IDs moved.
func (g *Grow) room(need int) bool {
	room := len(g.Task.Actions)
	for g.nAct+need > room {
		room *= 2
	}
	if room == len(g.Task.Actions) {
		return false
	}
	g.relay(room)
	return true
}

// relay makes room for room actions (more, or fewer down to the actions
// made): compound tasks' IDs move.
func (g *Grow) relay(room int) {
	t := g.Task
	room = max(room, g.nAct)
	shift := TaskID(room - len(t.Actions))
	if shift == 0 {
		return
	}
	g.Relaid++
	old := TaskID(len(t.Actions))
	move := func(id TaskID) TaskID {
		if id >= old {
			return id + shift
		}
		return id
	}
	for i := range g.id {
		if g.id[i] >= 0 {
			g.id[i] = move(g.id[i])
		}
	}
	for i := range t.Methods {
		m := &t.Methods[i]
		m.Task = move(m.Task)
		for k := range m.Subtasks {
			m.Subtasks[k] = move(m.Subtasks[k])
		}
	}
	for k := range t.Initial {
		t.Initial[k] = move(t.Initial[k])
	}
	for k, id := range g.synthKey {
		g.synthKey[k] = move(id)
	}
	if shift < 0 {
		t.Actions = t.Actions[:room]
		return
	}
	t.Actions = append(t.Actions, make([]Action, int(shift))...)
}

// syncFacts appends the facts made since the last call to Task.Facts.
func (g *Grow) syncFacts() {
	t := g.Task
	t.Facts = append(t.Facts, g.lz.facts[len(t.Facts):]...)
}

// openRest is the rest of the initial network (meth -1) or of method
// meth's from task k on under a binding of its variables (-1: open), the
// first task with an open variable: a synthetic task whose methods bind
// those of that task.
// For an action whose precondition has variables of its own, k is -1
// and act the action's lazy task: the synthetic task stands for it, its
// methods being the action under each binding of those variables.
// With one, it stands for task k alone, not the rest of the network
// (looseNetwork).
type openRest struct {
	meth int
	k    int
	sub  []int32
	act  int32
	one  bool
}

// looseNetwork returns the tasks of a partially ordered initial network,
// as network does, but for each task with an open variable a synthetic
// task that binds that task's variables alone: there is no rest of the
// network to stand for. A variable shared by two tasks is refused
// (ErrNotSupported).
func (g *Grow) looseNetwork(open []int32) ([]TaskID, error) {
	lz := g.lz
	ts := lz.Initial()
	user := make([]int, len(open))
	need := 0
	for k, ot := range ts {
		for _, a := range ot.Args {
			if !a.IsVar() {
				continue
			}
			if v := a.Var(); user[v] == 0 {
				user[v] = k + 1
			} else if user[v] != k+1 {
				return nil, fmt.Errorf("grounding on demand into a growing task of a partially ordered initial network whose tasks share a variable is %w", ErrNotSupported)
			}
		}
		if lid := lz.Bind(ot, open); lid >= 0 && lz.tasks[lid].Ref.Primitive {
			need++
		}
	}
	g.room(need)
	var out []TaskID
	for k, ot := range ts {
		if lid := lz.Bind(ot, open); lid >= 0 {
			id, err := g.taskID(lid)
			if err != nil {
				return nil, err
			}
			out = append(out, id)
			continue
		}
		out = append(out, g.addSynth(openRest{meth: -1, k: k, sub: slices.Clone(open), one: true}, nil))
	}
	return out, nil
}

// network returns the tasks of the initial network (meth -1) or of
// method meth's from task k on under the binding sub of its variables:
// its tasks up to the first with a variable open, then a synthetic task
// standing for the rest, which binds that task's variables as it is
// decomposed (serveOpen), each binding where the task's turn comes.
func (g *Grow) network(meth, k int, sub []int32) ([]TaskID, error) {
	lz := g.lz
	initial := lz.netTasks(meth)
	var lids []int32
	need := 0
	for ; k < len(initial); k++ {
		lid := lz.Bind(initial[k], sub)
		if lid < 0 {
			if !ownVars(initial, k, sub) {
				break
			}
			// a task whose open variables no later task has: a
			// synthetic task of its own binds them (-1-k), and the
			// network goes on, as the full grounding makes a choice
			// task for it
			lid = int32(-1 - k)
		} else if lz.tasks[lid].Ref.Primitive && (int(lid) >= len(g.id) || g.id[lid] < 0) {
			need++
		}
		lids = append(lids, lid)
	}
	g.room(need)
	var out []TaskID
	for _, lid := range lids {
		if lid < 0 {
			out = append(out, g.oneSynth(meth, int(-1-lid), sub))
			continue
		}
		id, err := g.taskID(lid)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	if k == len(initial) {
		return out, nil
	}
	key := string(lz.keyOf(uint32(k), []int32{int32(meth)}, sub))
	id, ok := g.synthKey[key]
	if !ok {
		var vals []int
		for _, x := range sub {
			if x >= 0 {
				vals = append(vals, int(x))
			}
		}
		id = g.addSynth(openRest{meth: meth, k: k, sub: slices.Clone(sub)}, vals)
		g.synthKey[key] = id
	}
	return append(out, id), nil
}

// ownVars reports whether the variables open under sub of task k of a
// network ts appear in no later task.
func ownVars(ts []OpenTask, k int, sub []int32) bool {
	for _, a := range ts[k].Args {
		if !a.IsVar() || sub[a.Var()] >= 0 {
			continue
		}
		for _, ot := range ts[k+1:] {
			for _, b := range ot.Args {
				if b.IsVar() && b.Var() == a.Var() {
					return false
				}
			}
		}
	}
	return true
}

// oneSynth returns the synthetic task that binds the open variables of
// task k of method meth's network (-1: the initial network's) under sub,
// and stands for that task alone (openRest.one), made if new.
func (g *Grow) oneSynth(meth, k int, sub []int32) TaskID {
	lz := g.lz
	ot := lz.netTasks(meth)[k]
	// only the task's own variables: the same task under any binding
	// of the others is one
	own := make([]int32, len(sub))
	for i := range own {
		own[i] = -1
	}
	var vals []int
	for _, a := range ot.Args {
		if a.IsVar() {
			own[a.Var()] = sub[a.Var()]
		}
		if x := lz.term(a, sub); x >= 0 {
			vals = append(vals, int(x))
		}
	}
	key := string(lz.keyOf(uint32(k)|1<<29, []int32{int32(meth)}, own))
	if id, ok := g.synthKey[key]; ok {
		return id
	}
	id := g.addSynth(openRest{meth: meth, k: k, sub: own, one: true}, vals)
	g.synthKey[key] = id
	return id
}

// addSynth makes the synthetic compound task r (its objects args, for
// its name) and returns its ID.
func (g *Grow) addSynth(r openRest, args []int) TaskID {
	t := g.Task
	id := TaskID(len(t.Actions) + len(t.Compounds))
	t.Compounds = append(t.Compounds, Compound{Schema: -1, Args: args})
	g.lzOf = append(g.lzOf, int32(-1-len(g.synth)))
	g.synth = append(g.synth, r)
	return id
}

// serveOpen serves synthetic task c (see network) in state s: a method
// for each binding of its first task's open variables under which that
// task may be decomposed or applied in s (skip, limit and reverse as in
// Serve).
func (g *Grow) serveOpen(c int, s *State, reverse bool, skip, limit int) (ms []MethodID, more, relaid bool, err error) {
	lz := g.lz
	rest := g.synth[-1-g.lzOf[c]]
	if ms := g.kept(c, s); ms != nil {
		ms, more = batch(ms, reverse, skip, limit)
		return ms, more, false, nil
	}
	if rest.k < 0 {
		return g.serveExists(c, rest.act, s, reverse, skip, limit)
	}
	ot := lz.netTasks(rest.meth)[rest.k]
	var bindings [][]int32
	if ot.Ref.Primitive {
		if bindings, err = lz.OpenActions(ot, rest.sub, s); err != nil {
			return nil, false, false, err
		}
	} else {
		insts, _, err := lz.OpenMethods(ot, rest.sub, s, false, 0, 0)
		if err != nil {
			return nil, false, false, err
		}
		for _, m := range insts {
			bindings = append(bindings, m.Args)
		}
	}
	t := g.Task
	start := len(t.Actions)
	seen := map[MethodID]bool{}
	for _, args := range bindings {
		sub := slices.Clone(rest.sub)
		for i, a := range ot.Args {
			if a.IsVar() {
				sub[a.Var()] = args[i]
			}
		}
		tag := uint32(1<<31 | rest.k)
		if rest.one {
			tag |= 1 << 29
		}
		k := string(lz.keyOf(tag, []int32{int32(rest.meth)}, sub))
		mid, ok := g.made[k]
		if !ok {
			var subs []TaskID
			if rest.one {
				subs, err = g.bound(ot, sub)
			} else {
				subs, err = g.network(rest.meth, rest.k, sub)
			}
			if err != nil {
				return nil, false, len(t.Actions) != start, err
			}
			mid = MethodID(len(t.Methods))
			g.made[k] = mid
			m := Method{Schema: -1, Task: TaskID(len(t.Actions) + c), Total: true, Subtasks: subs}
			for i := 1; i < len(subs); i++ {
				m.Ordering = append(m.Ordering, Order{Before: int32(i - 1), After: int32(i)})
			}
			for _, x := range sub {
				if x >= 0 {
					m.Args = append(m.Args, int(x))
				}
			}
			t.Methods = append(t.Methods, m)
			t.Compounds[c].Methods = append(t.Compounds[c].Methods, mid)
		}
		if !seen[mid] {
			seen[mid] = true
			ms = append(ms, mid)
		}
	}
	g.syncFacts()
	g.keep(c, s, ms)
	ms, more = batch(ms, reverse, skip, limit)
	return ms, more, len(t.Actions) != start, nil
}

// kept returns a copy of serveOpen's last answer if it was for synthetic
// task c in state s (nil: any state), or nil.
func (g *Grow) kept(c int, s *State) []MethodID {
	o := &g.open
	if c != o.c || o.ms == nil || o.any != (s == nil) || s != nil && !slices.Equal(s.bits, o.state) {
		return nil
	}
	return slices.Clone(o.ms)
}

// keep keeps serveOpen's answer ms for synthetic task c in state s.
func (g *Grow) keep(c int, s *State, ms []MethodID) {
	o := &g.open
	o.c, o.any, o.ms, o.state = c, s == nil, slices.Clone(ms), o.state[:0]
	if s != nil {
		o.state = append(o.state, s.bits...)
	}
}

// bound returns open task ot under binding sub, which binds all of its
// variables, as the only task of a network.
func (g *Grow) bound(ot OpenTask, sub []int32) ([]TaskID, error) {
	lid := g.lz.Bind(ot, sub)
	if g.lz.tasks[lid].Ref.Primitive && (int(lid) >= len(g.id) || g.id[lid] < 0) {
		g.room(1)
	}
	id, err := g.taskID(lid)
	return []TaskID{id}, err
}

// batch is the part of ms Serve returns: reversed or not, from skip on,
// at most limit (0: all), and whether there are more.
func batch(ms []MethodID, reverse bool, skip, limit int) ([]MethodID, bool) {
	if reverse {
		slices.Reverse(ms)
	}
	ms = ms[min(skip, len(ms)):]
	if limit > 0 && len(ms) > limit {
		return ms[:limit], true
	}
	return ms, false
}

// serveExists serves synthetic task c, which stands for action act whose
// precondition has variables of its own (see taskID), in state s: a
// method for each ground precondition under which the action applies in
// s, its only subtask the action with that precondition (skip, limit and
// reverse as in Serve). A plan shows the action, not the synthetic task.
func (g *Grow) serveExists(c int, act int32, s *State, reverse bool, skip, limit int) (ms []MethodID, more, relaid bool, err error) {
	lz := g.lz
	lt := &lz.tasks[act]
	sc := lz.actions[lt.Ref.Index]
	a := lz.action(act)
	b := make([]int32, len(sc.vars))
	for i := range b {
		b[i] = -1
	}
	for i, o := range lt.Args {
		b[i] = int32(o)
	}
	type variant struct{ pre, neg []FactID }
	var vs []variant
	seen := map[string]bool{}
	bd := &binder{lz: lz, s: sc, b: b, state: s, need: make([]bool, len(sc.vars)), done: make([]bool, len(sc.pos)), scan: s == nil}
	markFilterVars(sc, bd.need)
	if s == nil {
		anyState(sc, bd.need)
	}
	bd.yield = func(b []int32) bool {
		pre, neg := lz.groundLits(sc, b)
		k := string(lz.keyOf(uint32(act), factIDs(pre), []int32{-1}, factIDs(neg)))
		if !seen[k] {
			seen[k] = true
			vs = append(vs, variant{pre, neg})
		}
		if int64(len(vs)) > lz.budget {
			err = fmt.Errorf("%w: the action %s has more than %d ways to meet its precondition in one state", ErrTooLarge, lz.TaskName(act), lz.budget)
			return false
		}
		return true
	}
	bd.run()
	if err == nil {
		err = lz.ctx.Err()
	}
	if err != nil {
		return nil, false, false, err
	}
	t := g.Task
	start := len(t.Actions)
	for _, v := range vs {
		k := string(lz.keyOf(uint32(act)|1<<30, factIDs(v.pre), []int32{-1}, factIDs(v.neg)))
		mid, ok := g.made[k]
		if !ok {
			g.room(1)
			id := TaskID(g.nAct)
			t.Actions[g.nAct] = Action{Schema: lt.Ref.Index, Args: lt.Args, Pre: v.pre, NegPre: v.neg, Add: a.add, Del: a.del}
			g.nAct++
			mid = MethodID(len(t.Methods))
			g.made[k] = mid
			t.Methods = append(t.Methods, Method{Schema: -1, Task: TaskID(len(t.Actions) + c), Total: true, Subtasks: []TaskID{id}})
			t.Compounds[c].Methods = append(t.Compounds[c].Methods, mid)
		}
		ms = append(ms, mid)
	}
	g.syncFacts()
	g.keep(c, s, ms)
	ms, more = batch(ms, reverse, skip, limit)
	return ms, more, len(t.Actions) != start, nil
}

// A Watch tells which of a list of facts the decompositions of a growing
// task's tasks may add or delete (from the effects of the lifted domain
// carried up through its methods: see liftedEffects): whatever the state
// (Mark), a fact a task's mask leaves out can never be added (deleted)
// below it, however far the task grows; in a state (MayNow), the ways
// that need a one-way fact gone are left out too.
type Watch struct {
	g       *Grow
	fs      []FactID
	delFrom int
	byFact  map[FactID][]int32
	byPred  map[int32][]int32
	// byArg lists the facts of fs by predicate, argument position and
	// object: a pattern with a bound argument tests only those
	byArg map[watchKey][]int32
	cond  []bool // by fact of fs: some way to it needs a one-way fact
}

// watchKey is a predicate, one of its argument positions and an object.
type watchKey struct{ pred, pos, obj int32 }

// Watch prepares to tell which of facts fs tasks may add (fs[:delFrom])
// or delete (fs[delFrom:]).
func (g *Grow) Watch(fs []FactID, delFrom int) *Watch {
	if g.effects == nil {
		g.effects = newLiftedEffects(g.lz)
	}
	w := &Watch{g: g, fs: fs, delFrom: delFrom, byFact: map[FactID][]int32{}, byPred: map[int32][]int32{}, byArg: map[watchKey][]int32{}, cond: make([]bool, len(fs))}
	for i, f := range fs {
		w.byFact[f] = append(w.byFact[f], int32(i))
		fact := &g.lz.facts[f]
		p := int32(fact.Pred)
		w.byPred[p] = append(w.byPred[p], int32(i))
		for pos, o := range fact.Args {
			k := watchKey{p, int32(pos), int32(o)}
			w.byArg[k] = append(w.byArg[k], int32(i))
		}
	}
	for _, ps := range g.effects.task {
		for _, p := range ps {
			if p.needs == nil {
				continue
			}
			for _, i := range w.byPred[p.pred] {
				w.cond[i] = w.cond[i] || (int(i) >= delFrom) == p.del
			}
		}
	}
	return w
}

// Mark sets bit i of mask (64 to a word) for each fact fs[i] some
// decomposition of task id may add (i < delFrom) or delete, and of umask
// (nil: none) for those it may by a way that needs no one-way fact.
func (w *Watch) Mark(id TaskID, mask, umask []uint64) {
	g := w.g
	set := func(i int32) {
		mask[i>>6] |= 1 << (i & 63)
		if umask != nil {
			umask[i>>6] |= 1 << (i & 63)
		}
	}
	w.g.visit(id, func(add, del []FactID) {
		for _, f := range add {
			for _, i := range w.byFact[f] {
				if int(i) < w.delFrom {
					set(i)
				}
			}
		}
		for _, f := range del {
			for _, i := range w.byFact[f] {
				if int(i) >= w.delFrom {
					set(i)
				}
			}
		}
	}, func(ref hddl.TaskRef, arg func(i int) int32) {
		ps := g.effects.of(ref)
		for pi := range ps {
			p := &ps[pi]
			for _, i := range w.candidates(p, arg) {
				if (int(i) >= w.delFrom) == p.del && p.matches(arg, &g.lz.facts[w.fs[i]], nil) {
					if p.needs == nil {
						set(i)
					} else {
						mask[i>>6] |= 1 << (i & 63)
					}
				}
			}
		}
	})
}

// candidates returns the facts of fs pattern p may match under the task's
// arguments arg(i): those of its predicate, or, where the pattern fixes
// an argument, the fewest of those with that object there.
func (w *Watch) candidates(p *effectPattern, arg func(i int) int32) []int32 {
	best := w.byPred[p.pred]
	for pos, a := range p.args {
		if len(best) == 0 {
			break
		}
		if a == anyArg || isLocal(a) {
			continue
		}
		o := guardArg(a, arg)
		if o < 0 {
			continue
		}
		if c := w.byArg[watchKey{p.pred, int32(pos), o}]; len(c) < len(best) {
			best = c
		}
	}
	return best
}

// OneWay reports whether fact f is of a one-way predicate: deleted by
// some action, added by none (MayNow looks only at those facts of a
// state).
func (g *Grow) OneWay(f FactID) bool { return g.lz.oneWay(g.lz.facts[f].Pred) }

// Conditional reports whether some way to fact fs[i] needs a one-way
// fact, so that MayNow may say no where Mark says yes.
func (w *Watch) Conditional(i int) bool { return w.cond[i] }

// MayNow reports whether some decomposition of task id may still add
// (delete) fact fs[i] from the state (its fluent facts as a bit set over
// FactIDs): one of Mark's ways whose one-way facts hold there.
func (w *Watch) MayNow(id TaskID, i int, state []uint64) bool {
	return w.g.mayChange(id, w.fs[i], i >= w.delFrom, &State{bits: state})
}

// MayAdd reports whether some decomposition of task id may add fact f,
// as the lifted domain tells (the effect patterns, whatever one-way facts
// they need): false only when none can, whatever is grounded later. An
// action answers by its ground effects.
func (g *Grow) MayAdd(id TaskID, f FactID) bool {
	if g.effects == nil {
		g.effects = newLiftedEffects(g.lz)
	}
	return g.mayChange(id, f, false, nil)
}

// mayChange reports whether some decomposition of task id may add (del:
// delete) fact f, in state s when not nil (the one-way facts a pattern
// needs must hold there).
func (g *Grow) mayChange(id TaskID, f FactID, del bool, s *State) bool {
	may := false
	var loc [maxLocals]int32
	g.visit(id, func(add, dels []FactID) {
		if del {
			may = may || slices.Contains(dels, f)
		} else {
			may = may || slices.Contains(add, f)
		}
	}, func(ref hddl.TaskRef, arg func(i int) int32) {
		fact := &g.lz.facts[f]
		for _, p := range g.effects.of(ref) {
			if may {
				return
			}
			if p.pred == int32(fact.Pred) && p.del == del && p.matches(arg, fact, loc[:]) && (s == nil || g.lz.needsHold(&p, arg, loc[:], s)) {
				may = true
			}
		}
	})
	return may
}

// visit tells facts the ground effects of task id when it is an action
// (or stands for one), or else pats each lifted task below it with its
// arguments (-1: open).
func (g *Grow) visit(id TaskID, facts func(add, del []FactID), pats func(ref hddl.TaskRef, arg func(i int) int32)) {
	t := g.Task
	if int(id) < len(t.Actions) {
		facts(t.Actions[id].Add, t.Actions[id].Del)
		return
	}
	lid := g.lzOf[int(id)-len(t.Actions)]
	if lid >= 0 {
		lt := &g.lz.tasks[lid]
		pats(lt.Ref, func(i int) int32 { return int32(lt.Args[i]) })
		return
	}
	r := &g.synth[-1-lid]
	if r.k < 0 {
		// an action with variables of its own in its precondition
		a := g.lz.action(r.act)
		facts(a.add, a.del)
		return
	}
	// the rest of a network, from task k on (task k alone for one)
	ts := g.lz.netTasks(r.meth)[r.k:]
	if r.one {
		ts = ts[:1]
	}
	for _, ot := range ts {
		pats(ot.Ref, func(i int) int32 {
			if a := ot.Args[i]; a.IsVar() {
				return r.sub[a.Var()]
			}
			return int32(ot.Args[i].Obj())
		})
	}
}
