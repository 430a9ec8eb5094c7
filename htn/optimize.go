package htn

import (
	"container/heap"
	"context"
	"errors"
	"math"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/progress"
)

// Anytime configures Optimize.
type Anytime struct {
	// Found is called with each plan cheaper than every plan before it,
	// and its cost; an error stops the search and is returned.
	Found func(sol *ground.Solution, cost int64) error
	// Optimal searches for a proof from the start: A* alone, without the
	// first plan of the portfolio and the weighted rounds that improve it
	// quickly.
	Optimal bool
	// Bound is the cost of a plan known from elsewhere (0: none): only
	// cheaper plans are searched for.
	Bound int64
	// Known, if set, is read during the search: the cost of the best plan
	// known elsewhere (another engine's, searching side by side), which
	// bounds the search as its own plans do.
	Known func() int64
}

// Weights of h in the rounds of the improving search (f = g + w·h), in
// quarters: 5, 3, 2, 1.5, 1.25, then plain A*. Each plan found moves the
// search to the next weight, and so does a round that expands its budget
// of nodes without one: roundBudget for the first, twice as many for
// each next one. Where the estimate is weak, a weighted search digs
// deep without finding anything cheaper, and plain A* is the better use
// of the time (AssemblyHierarchical depth04 of IPC 2020: nothing better
// than the first plan's 28 actions in 6 M nodes at weight 5, the
// optimal 10 by A* in 7.6 M nodes).
var anytimeWeights = []int64{20, 12, 8, 6, 5, 4}

const roundBudget = 50_000

// Optimize searches for cheap plans of t, anytime: the first plan as
// Solve finds it, then ever cheaper ones by a branch and bound over a
// best-first search (Anytime.Found is told of each), until the search
// space holds nothing cheaper, which proves the last plan optimal, or
// until ctx ends. The search after the first plan is a weighted A* whose
// weight decreases with each plan found and each node budget spent
// (anytimeWeights; after Richter, Thayer and Ruml,
// "The joy of forgetting: faster anytime search via restarting", ICAPS
// 2010, without the restarts): a node whose cost so far plus the least
// cost of the actions its tasks decompose into (the TDG estimate,
// admissible) reaches the best plan's cost is pruned, a node reached again
// more cheaply is searched again, and in a partially ordered network
// every interleaving is tried (Options.CompletePO), so that an exhausted
// search is a proof.
//
// It returns the cheapest plan found and whether it is proven optimal.
// The error is nil when a plan was found, even if ctx ended the search
// after it (the plan is then not proven optimal); without a plan it is
// Solve's error (ErrNoPlan when the search space, bounded by
// Anytime.Bound, holds no plan).
func Optimize(ctx context.Context, t *ground.Task, opt Options, any Anytime) (sol *ground.Solution, optimal bool, stats *Stats, err error) {
	start := time.Now()
	v, err := newView(ctx, t)
	if err != nil {
		return nil, false, &Stats{}, err
	}
	stats = &Stats{Search: opt.Search.String()}
	defer func() { stats.Duration = time.Since(start) }()
	bound := any.Bound
	if bound <= 0 {
		bound = math.MaxInt64
	}
	weights := anytimeWeights
	if any.Optimal {
		weights = weights[len(weights)-1:]
		stats.Search = "astar"
	} else if any.Bound > 0 {
		stats.Search = "bnb"
	} else {
		first, err := solve(ctx, v, opt, stats)
		if err != nil {
			return nil, false, stats, err
		}
		c := v.solutionCost(first)
		if any.Found != nil {
			if err := any.Found(first, c); err != nil {
				return first, false, stats, err
			}
		}
		sol, bound = first, c
		stats.Search += "+bnb"
	}
	opt.CompletePO = true
	b := &bfs{v: v, opt: opt, visited: newSeenSet(), stats: stats}
	b.known = any.Known
	err = b.branchAndBound(ctx, weights, &bound, func(s *ground.Solution, c int64) error {
		sol = s
		stats.Improved++
		if any.Found != nil {
			return any.Found(s, c)
		}
		return nil
	})
	switch {
	case err == nil && sol != nil:
		return sol, true, stats, nil
	case err == nil:
		return nil, false, stats, ErrNoPlan
	case sol != nil && isContextErr(err):
		return sol, false, stats, nil
	}
	return sol, false, stats, err
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// solutionCost is the cost of a solution's actions.
func (v *view) solutionCost(sol *ground.Solution) int64 {
	var c int64
	for _, n := range sol.Order {
		c += v.acost[sol.Nodes[n].Task]
	}
	return c
}

// branchAndBound runs the weighted A* rounds of Optimize, pruning every
// node that cannot lead to a plan cheaper than *bound and calling found
// with each cheaper plan. It returns nil when the search space is
// exhausted.
func (b *bfs) branchAndBound(ctx context.Context, weights []int64, bound *int64, found func(*ground.Solution, int64) error) error {
	t, stats := b.v.t, b.stats
	root := b.root()
	pruned := func(n *bnode) bool {
		if b.known != nil && stats.Nodes&63 == 0 {
			*bound = min(*bound, b.known())
		}
		return n.g+n.h >= *bound
	}
	if root.h == costInf || pruned(root) {
		return nil
	}
	round := 0
	open := &bheap{astar: true, wq: weights[round]}
	budget := int64(roundBudget)
	roundEnd := stats.Nodes + budget
	next := func() {
		if round < len(weights)-1 {
			round++
			open.wq = weights[round]
			heap.Init(open)
			budget *= 2
			roundEnd = stats.Nodes + budget
		}
	}
	heap.Push(open, root)
	for open.Len() > 0 {
		n := heap.Pop(open).(*bnode)
		if pruned(n) {
			continue
		}
		stats.Nodes++
		if stats.Nodes&63 == 0 {
			progress.From(ctx).AddNodes(64)
		}
		// a node of a wide partial order has thousands of successors
		// (every interleaving is tried): the context, which the memory
		// guard cancels too, is looked at every node
		if err := ctx.Err(); err != nil {
			return err
		}
		if b.opt.MaxNodes > 0 && stats.Nodes > b.opt.MaxNodes {
			return ErrNodeLimit
		}
		if len(n.net.ents) == 0 {
			if !holdsIn(n.state, t.Goal, t.GoalNeg) {
				continue
			}
			*bound = n.g
			if err := found(b.solution(n), n.g); err != nil {
				return err
			}
			next()
			continue
		}
		if stats.Nodes >= roundEnd {
			next()
		}
		succ, err := b.successors(n)
		if err != nil {
			return err
		}
		for _, c := range succ {
			if c.h == costInf || pruned(c) {
				stats.DeadEnds++
				continue
			}
			if !b.visited.cheaper(b.keyOf(c), c.g) {
				stats.Duplicates++
				continue
			}
			heap.Push(open, c)
		}
	}
	return nil
}
