package htn

import (
	"cmp"
	"context"
	"errors"
	"math/bits"
	"slices"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
)

// SolveGrow searches for a plan of a task grounded on demand as the
// search goes (ground.Grow): the depth-first search of Solve, asking the
// grounding for the methods of each compound task in the state where its
// turn comes. The analyses of the whole task are off, as the task may
// still grow: no dead-end kills, choice groups, look-ahead or goal
// watching, and the network is taken to be recursive (depth caps, and
// duplicates detected by content). Exhausting the search proves that
// there is no plan (ErrNoPlan): the grounding leaves out only method
// instances that cannot lead to one. A partially ordered network is
// searched as Solve searches one, eagerly and then completely; a task
// whose subtasks may not begin at once gets the methods that may apply
// in any state, its check telling where (ground.Grow.Serve).
//
// When the actions made outgrow the room the task holds for them, the
// compound tasks' IDs move, and the search starts over on the grown task
// with what it has grounded so far.
func SolveGrow(ctx context.Context, g *ground.Grow, opt Options) (*ground.Solution, *Stats, error) {
	return solveGrow(ctx, g, opt, nil)
}

// solveGrow is SolveGrow, or with bb OptimizeGrow's branch and bound.
func solveGrow(ctx context.Context, g *ground.Grow, opt Options, bb *branchBound) (*ground.Solution, *Stats, error) {
	start := time.Now()
	stats := &Stats{Search: "depth-first, grounding on demand"}
	if bb != nil {
		stats.Search += ", branch and bound"
	}
	defer func() { stats.Duration = time.Since(start) }()
	opt.Search = DFS
	opt.NoDeadEnds, opt.NoGroups, opt.NoLookahead, opt.RecursionBound = true, true, true, false
	for {
		v := newGrowView(g)
		s := newDFS(ctx, v, opt, stats, nil)
		if s.bnb = bb; bb != nil {
			bb.forget() // the IDs may have moved
		}
		ok, err := s.run()
		if errors.Is(err, errRelaid) {
			stats.Restarts++
			continue
		}
		if err != nil {
			return nil, stats, err
		}
		if !ok && !v.total && !opt.CompletePO {
			// as solve: the eager search of a partially ordered network
			// proves nothing, the complete one runs after it
			stats.Complete, opt.CompletePO = true, true
			continue
		}
		if !ok {
			return nil, stats, ErrNoPlan
		}
		return solutionFromPath(len(g.Task.Initial), s.nodes, s.path), stats, nil
	}
}

// errRelaid ends a search over a growing task whose compound tasks' IDs
// moved (ground.Grow.Serve).
var errRelaid = errors.New("the growing task's IDs moved")

// newGrowView is the view of a growing task: its indexes of methods,
// first actions and costs, and the goals each task may reach, kept up to
// date as it grows (dfs.serve), and none of the analyses of the whole
// task.
func newGrowView(g *ground.Grow) *view {
	t := g.Task
	v := &view{t: t, grow: g, nA: len(t.Actions), recursive: true, total: g.Total()}
	v.acost = make([]int64, v.nA)
	v.growGoals()
	v.grown(0)
	return v
}

// growGoals sets up the goals a search over a growing task watches (see
// view.goals; no landmarks): which ones each task may reach is told by
// the lifted domain's effects (ground.Watch), as tasks are made
// (grown). (Without, IPC Blocksworld-GTOHP p21 went on for millions of
// nodes past a block taken off its goal place, which 998 nodes of the
// ground search avoid at once.)
func (v *view) growGoals() {
	t := v.t
	init := sets.NewBits(len(t.Facts))
	for _, f := range t.Init {
		init.Add(int(f))
	}
	pos := unmetFirst(t.Goal, func(f ground.FactID) bool { return !init.Has(int(f)) })
	v.watchGoals(pos, func(f ground.FactID) bool { return init.Has(int(f)) })
	if len(v.goals) == 0 {
		return
	}
	v.goalW = (len(v.goals) + 63) / 64
	v.watch = v.grow.Watch(v.goals, v.goalsPos)
	for i := range v.goals {
		if v.watch.Conditional(i) {
			v.oneWay = []bool{}
			break
		}
	}
}

// grown brings the view up to date with a growing task whose first
// fromMethods methods it knows, and whose actions beyond the first
// fromActions are new.
func (v *view) grown(fromActions int) {
	t := v.t
	v.nFacts = len(t.Facts)
	for a := fromActions; a < v.nA; a++ {
		v.acost[a] = int64(t.ActionCost(ground.TaskID(a)))
	}
	for f := len(v.oneWay); v.oneWay != nil && f < v.nFacts; f++ {
		v.oneWay = append(v.oneWay, v.grow.OneWay(ground.FactID(f)))
	}
	if v.watch != nil {
		// the goals the new tasks may reach
		from := v.nA + len(v.taskMeths)
		n := t.NumTasks() * v.goalW
		v.goalMask = slices.Grow(v.goalMask, n-len(v.goalMask))[:n]
		v.goalMaskU = slices.Grow(v.goalMaskU, n-len(v.goalMaskU))[:n]
		mark := func(id int) {
			v.watch.Mark(ground.TaskID(id), v.reachable(int32(id)), v.goalMaskU[id*v.goalW:(id+1)*v.goalW])
		}
		for a := fromActions; a < v.grow.NumActions(); a++ {
			mark(a)
		}
		for id := from; id < t.NumTasks(); id++ {
			mark(id)
		}
	}
	for len(v.taskMeths) < len(t.Compounds) {
		v.taskMeths = append(v.taskMeths, nil)
	}
	for m := len(v.meths); m < len(t.Methods); m++ {
		sm := &t.Methods[m]
		c := int(sm.Task) - v.nA
		v.taskMeths[c] = append(v.taskMeths[c], int32(m))
		first := int32(-1)
		if len(sm.Subtasks) > 0 && int(sm.Subtasks[0]) < v.nA {
			first = int32(sm.Subtasks[0])
		}
		v.first = append(v.first, first)
	}
	v.meths = t.Methods
}

// growBatch is the number of method instances the search over a growing
// task asks for at first (tryServed); each further batch is twice as
// large. A task with thousands of instances in a state (IPC Childsnack's
// top task) costs only those tried.
const growBatch = 8

// tryServed is tryMethods over a growing task: the methods are asked of
// the grounding in the current state, a batch at a time (the network is
// totally ordered and node best is in the front: its turn), in the
// domain's order or, in every other run, the reverse (dfs.reverse); for a
// task whose methods targets order (growTargetOf), all at once, nearest
// the targets first. (Sorting each batch on its own instead took IPC
// Logistics-Learned 40-0 from 4,849 nodes to 803,730.)
func (s *dfs) tryServed(best int32) (bool, error) {
	now, alone := s.eager(best)
	t := s.growTargetOf(best)
	skip, limit := 0, growBatch
	if t != nil {
		limit = 0
	}
	for {
		ms, more, err := s.serve(best, skip, limit)
		if err != nil {
			return false, err
		}
		if t != nil {
			s.nearestFirst(t, ms)
		}
		for _, m := range ms {
			if ok, err := s.tryMethod(best, int32(m), now, alone, -1); ok || err != nil {
				return ok, err
			}
		}
		if !more {
			break
		}
		skip += len(ms)
		limit *= 2
	}
	s.failedAll(best)
	return false, nil
}

// growTargetOf returns, over a growing task, the targets that order the
// methods of network node n (see target.go): its task's own, or else
// those of a compound task right after it; nil if none.
func (s *dfs) growTargetOf(n int32) *ground.Targets {
	if s.opt.NoValueOrder {
		return nil
	}
	g := s.v.grow
	if t := g.Targets(ground.TaskID(s.nodes[n].id)); t != nil {
		return t
	}
	for _, y := range s.nodes[n].succ {
		if nd := &s.nodes[y]; nd.kind == nodeTask && int(nd.id) >= s.v.nA {
			if t := g.Targets(ground.TaskID(nd.id)); t != nil {
				return t
			}
		}
	}
	return nil
}

type growDistKey struct {
	t *ground.Targets
	m ground.MethodID
}

// nearestFirst sorts methods ms nearest the targets t first (stable),
// their distances kept.
func (s *dfs) nearestFirst(t *ground.Targets, ms []ground.MethodID) {
	if s.gDist == nil {
		s.gDist = map[growDistKey]int32{}
	}
	dist := func(m ground.MethodID) int32 {
		k := growDistKey{t, m}
		d, ok := s.gDist[k]
		if !ok {
			d = s.v.grow.Distance(t, m)
			s.gDist[k] = d
		}
		return d
	}
	slices.SortStableFunc(ms, func(a, b ground.MethodID) int { return cmp.Compare(dist(a), dist(b)) })
}

// serve asks the growing task for a batch of the methods of compound node
// n's task in the current state (or any, see below) and makes room for
// what is new.
func (s *dfs) serve(n int32, skip, limit int) ([]ground.MethodID, bool, error) {
	acts := s.v.grow.NumActions()
	// in partial order, a task decomposed where its subtasks may not
	// begin at once (the complete search, or a task not in the front)
	// gets the methods that may apply in any state: the check before its
	// subtasks tells where
	now, _ := s.eager(n)
	anyState := !s.v.total && !now
	ms, more, relaid, err := s.v.grow.Serve(ground.TaskID(s.nodes[n].id), s.state, anyState, s.reverse, skip, limit)
	if err != nil {
		return nil, false, err
	}
	if relaid {
		return nil, false, errRelaid
	}
	v, t := s.v, s.v.t
	v.grown(acts)
	for len(s.state)*64 < v.nFacts {
		s.state = append(s.state, 0)
	}
	for c := len(s.count); c < len(t.Compounds); c++ {
		s.count = append(s.count, s.growCount(c))
	}
	for len(s.inNet) < t.NumTasks() {
		s.inNet = append(s.inNet, 0)
	}
	for len(s.methDead) < len(t.Methods) {
		s.methDead = append(s.methDead, false)
		s.checkIn = append(s.checkIn, 0)
	}
	if s.weight != nil {
		for len(s.weight) < len(t.Compounds) {
			s.weight = append(s.weight, 0)
		}
	}
	return ms, more, nil
}

// growCount is the count of live methods compound task c (TaskID-nA)
// of a growing task starts with and keeps, as what is served depends on
// the state: 1 when it has at most one method instance in any state
// (ground.Grow.Single), else 2, so that choosing the task to decompose in
// a partially ordered network (chooseTask) takes a task without a choice
// first, and with Focus carries the latest decomposition on first (with
// every task at 1, IPC Barman-BDI pfile05 took the earliest task of the
// front each time and ran out of time where the ground search takes 242
// nodes). None is taken for dead: another state may have methods.
func (s *dfs) growCount(c int) int32 {
	if s.v.grow.Single(ground.TaskID(s.v.nA + c)) {
		return 1
	}
	return 2
}

// growGoalLost reports whether, over a growing task, a goal is not met
// and each task of the network that may reach it could only do so by a
// way that needs a one-way fact now gone (ground.Watch.MayNow): in IPC
// Multiarm-Blocksworld a block is stacked on its goal place only while
// its goal_on fact, deleted as it is placed, holds, so a block taken off
// its place after that is off for good.
func (s *dfs) growGoalLost() bool {
	// a look at every node cost more than it saved (IPC
	// Blocksworld-HPDDL pfile_700: 2.2 s to 5.8 s for the same nodes):
	// at every growGoalLook-th node, and where the one-way facts
	// changed, a goal lost shows a few nodes late at most
	if s.oneWayHash == s.lookedHash && s.stats.Nodes%growGoalLook != 0 {
		return false
	}
	s.lookedHash = s.oneWayHash
	w := s.v.watch
	gw := s.v.goalW
	reach := s.goalScratch[:gw]
	clear(reach)
	for _, n := range s.alive.Members {
		if nd := &s.nodes[n]; nd.kind == nodeTask {
			for k, x := range s.reachNow(nd.id) {
				reach[k] |= x
			}
		}
	}
	for i, g := range s.v.goals {
		if s.has(g) == (i < s.v.goalsPos) || s.goalByU[i] > 0 || !w.Conditional(i) {
			continue
		}
		if reach[i>>6]&(1<<(i&63)) == 0 {
			return true
		}
	}
	return false
}

// growGoalLook: growGoalLost looks at every growGoalLook-th node, and
// where the one-way facts changed.
const growGoalLook = 8

type reachNowKey struct {
	id   int32
	hash uint64
}

// maxReachNow bounds the masks dfs.reachNow keeps.
const maxReachNow = 1 << 16

// reachNow is the mask of the goals task id may still reach in the
// current state (ground.Watch.MayNow), kept by the hash of its one-way
// facts, on which alone it depends.
func (s *dfs) reachNow(id int32) []uint64 {
	k := reachNowKey{id, s.oneWayHash}
	if m, ok := s.reachMasks[k]; ok {
		return m
	}
	if s.reachMasks == nil || len(s.reachMasks) >= maxReachNow {
		s.reachMasks = map[reachNowKey][]uint64{}
	}
	gw := s.v.goalW
	m := slices.Clone(s.v.goalMaskU[int(id)*gw : int(id+1)*gw])
	for k, x := range s.v.reachable(id) {
		for x &^= m[k]; x != 0; x &= x - 1 {
			if i := k<<6 + bits.TrailingZeros64(x); s.v.watch.MayNow(ground.TaskID(id), i, s.state) {
				m[k] |= 1 << (i & 63)
			}
		}
	}
	s.reachMasks[k] = m
	return m
}
