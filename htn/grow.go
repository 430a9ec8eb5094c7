package htn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
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
//
// Unless Options.NoClose (or the goal is lifted), a search that has not
// ended after a tenth of the time (closeProbe) stops, and g is closed if
// it can be (ground.Grow.Close) and searched by SolveClosed with every
// analysis of the whole task; else the search over g goes on afresh.
func SolveGrow(ctx context.Context, g *ground.Grow, opt Options) (*ground.Solution, *Stats, error) {
	return solveGrow(ctx, g, opt, nil)
}

// solveGrow is SolveGrow, or with bb OptimizeGrow's branch and bound
// (depth-first search only). Without bb, a search that has not ended by
// closeProbe is stopped, and the task closed (ground.Grow.Close) and
// searched as a full grounding where it can be, else searched again as
// it grows.
func solveGrow(ctx context.Context, g *ground.Grow, opt Options, bb *branchBound) (*ground.Solution, *Stats, error) {
	start := time.Now()
	// (a lifted goal is checked by the searches over a growing task
	// only: Solve would not see it)
	if bb != nil || opt.NoClose || g.LiftedGoal() {
		return searchGrowing(ctx, g, opt, bb, start)
	}
	pctx, cancel := context.WithDeadline(ctx, start.Add(closeProbe(ctx, start)))
	sol, probe, err := searchGrowing(pctx, g, opt, nil, start)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return sol, probe, err
	}
	closed, err := g.Close(ctx, closeLimit, closeDeadline(ctx, time.Now()))
	var st *Stats
	switch {
	case err != nil:
		return nil, probe, err
	case closed:
		// the task no longer grows: the search of a full grounding,
		// compacted as one is, with every analysis of the whole task
		sol, st, err = SolveClosed(ctx, g, opt)
	default:
		sol, st, err = searchGrowing(ctx, g, opt, nil, start)
	}
	st.Nodes += probe.Nodes
	st.Duration = time.Since(start)
	return sol, st, err
}

// searchGrowing is the search over a growing task, or with bb
// OptimizeGrow's branch and bound.
func searchGrowing(ctx context.Context, g *ground.Grow, opt Options, bb *branchBound, start time.Time) (*ground.Solution, *Stats, error) {
	stats := &Stats{}
	defer func() { stats.Duration = time.Since(start) }()
	opt.NoDeadEnds, opt.NoGroups, opt.NoLookahead, opt.RecursionBound = true, true, true, false
	if bb != nil {
		opt.Search = DFS
	}
	var sol *ground.Solution
	var err error
	switch opt.Search {
	case DFS:
		stats.Search = "depth-first"
		sol, err = growDFS(ctx, g, opt, bb, nil, stats)
	case GBFS, AStar:
		stats.Search = opt.Search.String()
		sol, err = growBestFirst(ctx, g, opt, opt.Search, nil, stats)
	default:
		sol, err = growPortfolio(ctx, g, opt, stats)
	}
	stats.Search += ", grounding on demand"
	if bb != nil {
		stats.Search += ", branch and bound"
	}
	return sol, stats, err
}

// SolveClosed searches a growing task that ground.Grow.Close closed as
// Solve searches a full grounding, its tasks with a single method
// inlined first (ground.Compact); the solution is over g.Task.
func SolveClosed(ctx context.Context, g *ground.Grow, opt Options) (*ground.Solution, *Stats, error) {
	f, err := ground.Compact(ctx, g.Task)
	if err != nil {
		return nil, &Stats{}, err
	}
	sol, st, err := Solve(ctx, f.Task, opt)
	st.Search += ", grounding on demand, closed"
	if err != nil {
		return nil, st, err
	}
	return f.Unfold(sol), st, nil
}

// closeLimit bounds the actions and methods ground.Grow.Close makes
// before a search over a growing task gives up closing it.
const closeLimit = 1 << 20

// closeShare is the part of the time left that closing a growing task
// may take, and closeWait the longest (closeDeadline); the search over
// the task as it grows comes first, for a probeShare-th of the time, and
// probeWait at most (closeProbe), as closing and the analyses of the
// whole task cost more than many a plan found at once.
const (
	closeShare = 4
	closeWait  = 30 * time.Second
	probeShare = 10
	probeWait  = 3 * time.Second
)

// closeProbe is how long the search over a growing task runs before it
// is closed.
func closeProbe(ctx context.Context, start time.Time) time.Duration {
	return timeShare(ctx, start, probeShare, probeWait)
}

// closeDeadline is when ground.Grow.Close, begun at start, gives up.
func closeDeadline(ctx context.Context, start time.Time) time.Time {
	return start.Add(timeShare(ctx, start, closeShare, closeWait))
}

// timeShare is a div-th of the time ctx leaves from start, or most if
// that is sooner or ctx has no deadline.
func timeShare(ctx context.Context, start time.Time, div int, most time.Duration) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return min(most, d.Sub(start)/time.Duration(div))
	}
	return most
}

// growDFS is the depth-first search over a growing task, started over
// on the grown task when the IDs move (by its own grounding or, in a
// portfolio, another member's), with the run the move broke off and the
// caps it had (growResume).
func growDFS(ctx context.Context, g *ground.Grow, opt Options, bb *branchBound, p *pauser, stats *Stats) (*ground.Solution, error) {
	resume := &growResume{}
	for {
		v := newGrowView(g, true)
		s := newDFS(ctx, v, opt, stats, nil)
		s.pause, s.resume = p, resume
		if s.bnb = bb; bb != nil {
			bb.forget() // the IDs may have moved
		}
		ok, err := s.run()
		if errors.Is(err, errRelaid) {
			stats.Restarts++
			resume.broken = true
			continue
		}
		if err != nil {
			return nil, err
		}
		if !ok && !v.total && !opt.CompletePO {
			// as solve: the eager search of a partially ordered network
			// proves nothing, the complete one runs after it
			stats.Complete, opt.CompletePO = true, true
			continue
		}
		if !ok {
			return nil, ErrNoPlan
		}
		return solutionFromPath(len(g.Task.Initial), s.nodes, s.path), nil
	}
}

// growBestFirst is growDFS's counterpart for the best-first searches
// (greedy or A*): their estimate the relaxed composition (rcGrow, which
// first serves every task met in any state, up to a bound) where
// Options.Heuristic picks it as over a full grounding, else the least
// cost of the network's tasks in the lifted domain
// (ground.Grow.MinCost).
func growBestFirst(ctx context.Context, g *ground.Grow, opt Options, search Search, p *pauser, stats *Stats) (*ground.Solution, error) {
	for {
		// the best-first searches watch no goals
		v := newGrowView(g, false)
		sol, _, err := bestFirst(ctx, v, opt, search, stats, p)
		switch {
		case errors.Is(err, errRelaid):
			stats.Restarts++
			continue
		case errors.Is(err, ErrNoPlan) && !v.total && !opt.CompletePO:
			stats.Complete, opt.CompletePO = true, true
			continue
		}
		return sol, err
	}
}

// growPortfolio runs depth-first search and greedy best-first search
// over a growing task in turns (portfolio.go), the former with twice the
// other's share: greedy search finds plans where depth-first search is
// lost in a wrong early choice (IPC PCP, partial order), as over a full
// grounding. Both grow the same task; a member that finds its IDs moved
// by the other starts over on the grown task.
func growPortfolio(ctx context.Context, g *ground.Grow, opt Options, stats *Stats) (*ground.Solution, error) {
	limit := opt.MaxNodes
	opt.MaxNodes = 0
	members := []*member{
		{name: "dfs", weight: 2, run: func(p *pauser, st *Stats) (*ground.Solution, error) { return growDFS(ctx, g, opt, nil, p, st) }},
		{name: "gbfs", weight: 1, run: func(p *pauser, st *Stats) (*ground.Solution, error) {
			return growBestFirst(ctx, g, opt, GBFS, p, st)
		}},
	}
	var kept []*member
	for _, m := range members {
		if w, ok := opt.Weights[m.name]; ok {
			m.weight = w
		}
		if m.weight > 0 {
			kept = append(kept, m)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("the portfolio has no member: every weight is 0")
	}
	// each member's exhaustion, its complete search's in partial order,
	// is a proof
	return portfolio(ctx, kept, portfolioProbe, portfolioSlice, true, limit, stats)
}

// growResume is where a depth-first search over a growing task stood in
// its schedule of restarts (the order of methods and the budget) and of
// caps when the IDs moved: the search started over on the grown task
// goes on from there rather than from the first run in the domain's
// order. (Starting afresh, IPC Blocksworld-HPDDL pfile_700 met three
// moves and spent 70,000 nodes in the domain's order before the reverse
// order's run that plans it.)
type growResume struct {
	broken                           bool // by a move: restore
	reverse                          bool
	budget                           float64
	netCap, depthCap, repCap, recCap int
}

// save records s's order and caps as its run begins, and the run's
// budget.
func (r *growResume) save(s *dfs, budget float64) {
	if r == nil {
		return
	}
	r.reverse, r.budget = s.reverse, budget
	r.netCap, r.depthCap, r.repCap, r.recCap = s.netCap, s.depthCap, s.repCap, s.recCap
}

// restore puts the order and caps save recorded back into a new search
// s after a move (runWithRestarts takes the budget).
func (r *growResume) restore(s *dfs) {
	if r == nil || !r.broken {
		return
	}
	s.reverse = r.reverse
	s.netCap, s.depthCap, s.repCap, s.recCap = r.netCap, r.depthCap, r.repCap, r.recCap
}

// errRelaid ends a search over a growing task whose compound tasks' IDs
// moved (ground.Grow.Serve).
var errRelaid = errors.New("the growing task's IDs moved")

// newGrowView is the view of a growing task: its indexes of methods,
// first actions and costs, and with goals (the depth-first search's) the
// goals each task may reach, kept up to date as it grows (dfs.serve),
// and none of the analyses of the whole task.
func newGrowView(g *ground.Grow, goals bool) *view {
	t := g.Task
	v := &view{t: t, grow: g, nA: len(t.Actions), recursive: true, total: g.Total()}
	v.acost = make([]int64, v.nA)
	v.cost = make([]int64, v.nA)
	if goals {
		v.growGoals()
	}
	v.grown()
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

// grown brings the view up to date with its growing task: the facts,
// actions, compound tasks and methods made since it last looked, by any
// search over the task (the members of a portfolio take turns growing
// it).
func (v *view) grown() {
	t := v.t
	v.nFacts = len(t.Facts)
	fromActions := v.acts
	v.acts = v.grow.NumActions()
	for a := fromActions; a < v.acts; a++ {
		v.acost[a] = int64(t.ActionCost(ground.TaskID(a)))
		v.cost[a] = v.acost[a]
	}
	// a compound task's least cost in the lifted domain (the TDG
	// estimate of the best-first searches)
	for id := len(v.cost); id < t.NumTasks(); id++ {
		v.cost = append(v.cost, v.grow.MinCost(ground.TaskID(id)))
	}
	for f := len(v.oneWay); v.oneWay != nil && f < v.nFacts; f++ {
		v.oneWay = append(v.oneWay, v.grow.OneWay(ground.FactID(f)))
	}
	if v.watch != nil {
		// room for the goals the new tasks may reach, filled when first
		// asked for (view.marked)
		n := t.NumTasks() * v.goalW
		v.goalMask = slices.Grow(v.goalMask, n-len(v.goalMask))[:n]
		v.goalMaskU = slices.Grow(v.goalMaskU, n-len(v.goalMaskU))[:n]
		for len(v.marked) < t.NumTasks() {
			v.marked = append(v.marked, false)
		}
	}
	for len(v.taskMeths) < len(t.Compounds) {
		v.taskMeths = append(v.taskMeths, nil)
		if v.keyed != nil {
			v.keyed = append(v.keyed, nil)
		}
	}
	for m := len(v.meths); m < len(t.Methods); m++ {
		sm := &t.Methods[m]
		c := int(sm.Task) - v.nA
		v.taskMeths[c] = append(v.taskMeths[c], int32(m))
		if v.keyed != nil {
			v.keyed[c] = nil // served, not scanned (tryServed)
			v.pos = append(v.pos, int32(len(v.taskMeths[c])-1))
			v.key = append(v.key, 0)
		}
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

// mark fills the goal masks of task id of a growing task (view.marked).
func (v *view) mark(id int32) {
	w := v.goalW
	v.marked[id] = true
	v.watch.Mark(ground.TaskID(id), v.goalMask[int(id)*w:int(id+1)*w], v.goalMaskU[int(id)*w:int(id+1)*w])
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
	// in partial order, a task decomposed where its subtasks may not
	// begin at once (the complete search, or a task not in the front)
	// gets the methods that may apply in any state: the check before its
	// subtasks tells where
	now, _ := s.eager(n)
	anyState := !s.v.total && !now
	key := servedKey{id: s.nodes[n].id, any: anyState, reverse: s.reverse, skip: skip, limit: limit}
	if !anyState {
		key.state = s.zobrist
	}
	if a, ok := s.served[key]; ok {
		return slices.Clone(a.ms), a.more, nil
	}
	ms, more, relaid, err := s.v.grow.Serve(ground.TaskID(s.nodes[n].id), s.state, anyState, s.reverse, skip, limit)
	if err != nil {
		return nil, false, err
	}
	if s.served == nil || len(s.served) >= maxServed {
		s.served = map[servedKey]servedAnswer{}
	}
	s.served[key] = servedAnswer{slices.Clone(ms), more}
	if relaid {
		return nil, false, errRelaid
	}
	v, t := s.v, s.v.t
	v.grown()
	for len(s.state)*64 < v.nFacts {
		s.state = append(s.state, 0)
	}
	for c := len(s.count); c < len(t.Compounds); c++ {
		s.count = append(s.count, s.growCount(c))
	}
	for len(s.inNet) < t.NumTasks() {
		s.inNet = append(s.inNet, 0)
	}
	if p := s.prot; p != nil {
		for len(p.need) < v.nFacts {
			p.need = append(p.need, 0)
		}
		for len(p.seen) < t.NumTasks() {
			p.seen = append(p.seen, 0)
		}
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
func (s *dfs) growCount(c int) int32 { return growCount(s.v, c) }

// growCount is dfs.growCount over view v.
func growCount(v *view, c int) int32 {
	if v.grow.Single(ground.TaskID(v.nA + c)) {
		return 1
	}
	return 2
}

// servedKey is a question serve asked the growing task: a task's methods
// in a state (by its hash; none for any state), in an order, a batch.
type servedKey struct {
	id          int32
	state       [2]uint64
	any         bool
	reverse     bool
	skip, limit int
}

type servedAnswer struct {
	ms   []ground.MethodID
	more bool
}

// maxServed bounds the answers serve keeps: a search that meets a state
// again asks the same questions again (IPC PCP, whose few propositions
// make few states, spent half its time in the growing task's answers
// before), where one that never does only fills the table, which then
// starts afresh.
const maxServed = 1 << 16

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
	// changed, a goal lost shows a few nodes late at most; and at every
	// node while the last look found one lost, so that the search
	// backing up from there meets the loss at each node that still has
	// it, not at every eighth (a loss by a decomposition, which changes
	// no fact, showed at a node whose subtree was then searched but for
	// every eighth node: IPC Multiarm-Blocksworld pfile_02_055 went from
	// 3,369 nodes to millions when checks stopped being nodes of their
	// own and the looks fell elsewhere)
	if !s.lostLast && s.oneWayHash == s.lookedHash && s.stats.Nodes%growGoalLook != 0 {
		return false
	}
	s.lookedHash = s.oneWayHash
	s.lostLast = s.goalsOutOfReach()
	return s.lostLast
}

// goalsOutOfReach is growGoalLost's look: whether a goal in question (not
// met, and reached only through one-way facts) is beyond the reach of
// every task of the network in the current state.
func (s *dfs) goalsOutOfReach() bool {
	w := s.v.watch
	gw := s.v.goalW
	// the goals in question: not met, and every task that may reach
	// one needs a one-way fact for it; none, and nothing is looked at
	// (IPC PCP's networks of hundreds of tasks: 80% of the search's time
	// went to looking at each task for a goal met)
	want := s.goalScratch[:gw]
	clear(want)
	left := 0
	for i, g := range s.v.goals {
		if s.has(g) == (i < s.v.goalsPos) || s.goalByU[i] > 0 || !w.Conditional(i) {
			continue
		}
		want[i>>6] |= 1 << (i & 63)
		left++
	}
	if left == 0 {
		return false
	}
	// each task once (many nodes share one), until every goal in
	// question is found in reach
	if s.lookStamp++; len(s.looked) < len(s.inNet) {
		s.looked = append(s.looked, make([]uint32, len(s.inNet)-len(s.looked))...)
	}
	for _, n := range s.alive.Members {
		nd := &s.nodes[n]
		if nd.kind != nodeTask || s.looked[nd.id] == s.lookStamp {
			continue
		}
		s.looked[nd.id] = s.lookStamp
		if left = s.reachNow(nd.id, want, left); left == 0 {
			return false
		}
	}
	return true
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

// reachMask is what reachNow knows of the goals a task may still reach
// in states alike in their one-way facts: those known (a bit set over
// the view's goals), and of those, the ones it may reach.
type reachMask struct {
	known, may []uint64
}

// reachNow clears from want, the goals in question (left of them), those
// task id may still reach in the current state (ground.Watch.MayNow),
// and returns how many are left. What it finds is kept by the hash of
// the state's one-way facts, on which alone it depends, and it asks
// only of the goals in want that it does not know (a whole task's
// goals at each look took a quarter of the time of IPC
// Blocksworld-HPDDL pfile_1000's search, whose goals are a thousand).
func (s *dfs) reachNow(id int32, want []uint64, left int) int {
	key := reachNowKey{id, s.oneWayHash}
	r, ok := s.reachMasks[key]
	if !ok {
		if s.reachMasks == nil || len(s.reachMasks) >= maxReachNow {
			s.reachMasks = map[reachNowKey]*reachMask{}
		}
		gw := s.v.goalW
		may := slices.Clone(s.v.reachableU(id))
		r = &reachMask{known: make([]uint64, gw), may: may}
		reach := s.v.reachable(id)
		for k := range r.known {
			// beyond its reach: known not to be reached
			r.known[k] = may[k]
			if reach == nil {
				r.known[k] = ^uint64(0)
			} else {
				r.known[k] |= ^reach[k]
			}
		}
		s.reachMasks[key] = r
	}
	for k := range want {
		if y := want[k] & r.may[k]; y != 0 {
			want[k] &^= y
			left -= bits.OnesCount64(y)
		}
		for x := want[k] &^ r.known[k]; x != 0; x &= x - 1 {
			i := k<<6 + bits.TrailingZeros64(x)
			bit := uint64(1) << (i & 63)
			r.known[k] |= bit
			if s.v.watch.MayNow(ground.TaskID(id), i, s.state) {
				r.may[k] |= bit
				want[k] &^= bit
				if left--; left == 0 {
					return 0
				}
			}
		}
	}
	return left
}
