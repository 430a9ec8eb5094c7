package htn

import (
	"context"
	"errors"
	"math"

	"github.com/htnsat/htnsat/ground"
)

// OptimizeGrow is SolveGrow going on after the first plan, by branch and
// bound over the same depth-first search: a node whose actions so far
// plus a lower bound on the cost of its network's tasks (an action's
// cost, a compound task's least cost in the lifted domain,
// ground.Grow.MinCost) reach the best plan's cost is cut, and a node met
// again is searched again only when reached more cheaply. found is told
// of each plan cheaper than those before it, with its cost; its error
// ends the search. A search that nothing else cut (depth or network
// bound) and that ends proves the last plan optimal (true), or, without
// a plan, that there is none (ErrNoPlan); in partial order, the complete
// search's end does, as in SolveGrow. The error is nil when a plan was
// found, even if ctx ended the search after it.
func OptimizeGrow(ctx context.Context, g *ground.Grow, opt Options, found func(*ground.Solution, int64) error) (optimal bool, stats *Stats, err error) {
	bb := &branchBound{bound: math.MaxInt64, found: found}
	_, stats, err = solveGrow(ctx, g, opt, bb)
	switch {
	case bb.plans == 0:
		return false, stats, err
	case err == nil || errors.Is(err, ErrNoPlan):
		return true, stats, nil
	case isContextErr(err):
		return false, stats, nil
	}
	return false, stats, err
}

// branchBound is the state of OptimizeGrow's search: the cost of the
// best plan (math.MaxInt64: none yet), the plans found, and the least
// cost each node was reached with (by nodeHash).
type branchBound struct {
	bound int64
	found func(*ground.Solution, int64) error
	plans int
	seen  map[[2]uint64]int64
}

// maxBoundSeen bounds the nodes branchBound records: beyond, it starts
// afresh (the search stays correct, it may search a node again).
const maxBoundSeen = 1 << 22

// open reports whether the current node of s is to be searched: its
// actions so far plus the bound on its tasks stay below the best plan's
// cost, and it was not reached before as cheaply.
func (b *branchBound) open(s *dfs) bool {
	lb := s.g
	for _, n := range s.alive.Members {
		nd := &s.nodes[n]
		if nd.kind != nodeTask {
			continue
		}
		var k int64
		if int(nd.id) < s.v.nA {
			k = s.v.acost[nd.id]
		} else if k = s.v.grow.MinCost(ground.TaskID(nd.id)); k == math.MaxInt64 {
			return false
		}
		if lb += k; lb >= b.bound {
			return false
		}
	}
	if lb >= b.bound {
		return false
	}
	h := s.nodeHash()
	if g, ok := b.seen[h]; ok && g <= s.g {
		return false
	}
	if b.seen == nil || len(b.seen) >= maxBoundSeen {
		b.seen = map[[2]uint64]int64{}
	}
	b.seen[h] = s.g
	return true
}

// plan records the plan of s's current node, which has no task left and
// meets the goal: its cost bounds the search from now on.
func (b *branchBound) plan(s *dfs) error {
	b.bound = s.g
	b.plans++
	if b.plans > 1 {
		s.stats.Improved++
	}
	return b.found(solutionFromPath(len(s.v.t.Initial), s.nodes, s.path), s.g)
}

// forget drops the nodes recorded, as a restart or a deeper run searches
// them again.
func (b *branchBound) forget() { clear(b.seen) }
