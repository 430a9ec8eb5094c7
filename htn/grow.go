package htn

import (
	"context"
	"errors"
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
// instances that cannot lead to one.
//
// When the actions made outgrow the room the task holds for them, the
// compound tasks' IDs move, and the search starts over on the grown task
// with what it has grounded so far.
func SolveGrow(ctx context.Context, g *ground.Grow, opt Options) (*ground.Solution, *Stats, error) {
	start := time.Now()
	stats := &Stats{Search: "depth-first, grounding on demand"}
	defer func() { stats.Duration = time.Since(start) }()
	opt.Search = DFS
	opt.NoDeadEnds, opt.NoGroups, opt.NoLookahead, opt.RecursionBound = true, true, true, false
	for {
		v := newGrowView(g)
		s := newDFS(ctx, v, opt, stats, nil)
		ok, err := s.run()
		if errors.Is(err, errRelaid) {
			stats.Restarts++
			continue
		}
		if err != nil {
			return nil, stats, err
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
	v := &view{t: t, grow: g, nA: len(t.Actions), recursive: true, total: true}
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
	v.goals = append(pos, unmetFirst(t.GoalNeg, func(f ground.FactID) bool { return init.Has(int(f)) })...)
	v.goalsPos = len(pos)
	if len(v.goals) > maxGoals {
		v.goals = v.goals[:maxGoals]
		v.goalsPos = min(v.goalsPos, maxGoals)
	}
	if len(v.goals) == 0 {
		return
	}
	v.goalW = (len(v.goals) + 63) / 64
	v.watch = v.grow.Watch(v.goals, v.goalsPos)
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
	if v.watch != nil {
		// the goals the new tasks may reach
		from := v.nA + len(v.taskMeths)
		v.goalMask = slices.Grow(v.goalMask, t.NumTasks()*v.goalW-len(v.goalMask))[:t.NumTasks()*v.goalW]
		for a := fromActions; a < v.grow.NumActions(); a++ {
			v.watch.Mark(ground.TaskID(a), v.reachable(int32(a)))
		}
		for id := from; id < t.NumTasks(); id++ {
			v.watch.Mark(ground.TaskID(id), v.reachable(int32(id)))
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
// domain's order or, in every other run, the reverse (dfs.reverse).
func (s *dfs) tryServed(best int32) (bool, error) {
	now, alone := s.eager(best)
	skip, limit := 0, growBatch
	for {
		ms, more, err := s.serve(best, skip, limit)
		if err != nil {
			return false, err
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

// serve asks the growing task for a batch of the methods of compound node
// n's task in the current state and makes room for what is new.
func (s *dfs) serve(n int32, skip, limit int) ([]ground.MethodID, bool, error) {
	acts := s.v.grow.NumActions()
	ms, more, relaid, err := s.v.grow.Serve(ground.TaskID(s.nodes[n].id), s.state, s.reverse, skip, limit)
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
	// a compound task counts one live method more than it has: one
	// with none so far is not dead, as another state may have some
	for len(s.count) < len(t.Compounds) {
		s.count = append(s.count, 1)
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

// growGoalLost reports whether, over a growing task, a goal is not met
// and each task of the network that may reach it could only do so by a
// way that needs a one-way fact now gone (ground.Watch.MayNow): in IPC
// Multiarm-Blocksworld a block is stacked on its goal place only while
// its goal_on fact, deleted as it is placed, holds, so a block taken off
// its place after that is off for good.
func (s *dfs) growGoalLost() bool {
	w := s.v.watch
	for i, g := range s.v.goals {
		if s.has(g) == (i < s.v.goalsPos) || !w.Conditional(i) || s.lmMet(i) {
			continue
		}
		lost := true
		for _, n := range s.alive.Members {
			nd := &s.nodes[n]
			if nd.kind != nodeTask || s.v.reachable(nd.id)[i>>6]&(1<<(i&63)) == 0 {
				continue
			}
			if w.MayNow(ground.TaskID(nd.id), i, s.state) {
				lost = false
				break
			}
		}
		if lost {
			return true
		}
	}
	return false
}
