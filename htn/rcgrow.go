package htn

import (
	"errors"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
)

// rcGrow is the relaxed composition estimate over a growing task. Before
// the relaxed problem is made, every compound task met so far is served
// in any state (complete), and those that serving makes in turn, so that
// it holds every method instance that may apply somewhere below the
// network (a whole grounding of what the search has reached, which on a
// task too large to ground stops at rcAutoLimit); it is made again as
// the task grows. What it still leaves out is stood in for
// (rcHeuristic.stopGaps: a compound task with no method by its least
// cost in the lifted domain, a fact no action adds by one action), and it
// never prunes: a node it finds out of reach goes behind every node it
// can reach, ordered among its like by the lifted estimate. A task made
// since it was made counts at its lifted cost.
type rcGrow struct {
	// goOn is the search's check between nodes (bfs.mayGoOn), made
	// between the tasks complete serves: their grounding can take
	// seconds
	goOn func() error
	rc   *rcHeuristic
	// size is the size of the task the heuristic was made from
	// (taskSize), evals the estimates made since
	size, evals int
	// auto (HeurAuto): give up the heuristic for the lifted estimate
	// once the task outgrows rcAutoLimit; off: given up
	auto, off bool
	// err is what serving a task in complete failed with, for the
	// search to stop with (bfs.mayGoOn)
	err error
	// skip counts the instances of task served complete has had
	skip int
	// served counts the compound tasks served in any state (complete);
	// sized is the size of the relaxed problem of the first sizedActs
	// actions and sizedMeths methods (relaxedSize)
	served, sized, sizedActs, sizedMeths int
}

// complete serves, in any state, every compound task not served so far,
// a batch at a time, until the relaxed problem outgrows rcAutoLimit
// (full). relaid tells that the IDs moved (the search starts over).
func (g *rcGrow) complete(v *view) (full, relaid bool, err error) {
	t := v.t
	for g.served < len(t.Compounds) {
		if g.relaxedSize(v) > rcAutoLimit {
			v.grown()
			return true, false, nil
		}
		if err := g.goOn(); err != nil {
			// IDs moved by another member leave v stale: not brought
			// up to date
			return false, errors.Is(err, errRelaid), err
		}
		id := ground.TaskID(v.nA + g.served)
		// batches double: each asks again for the instances skipped
		limit := max(completeBatch, g.skip)
		ms, more, relaid, err := v.grow.Serve(id, nil, true, false, g.skip, limit)
		if err != nil || relaid {
			return false, relaid, err
		}
		if more {
			g.skip += len(ms)
			continue
		}
		g.served, g.skip = g.served+1, 0
	}
	v.grown()
	return false, false, nil
}

// completeBatch is the number of a task's instances complete asks for
// first, then as many as it has had, at a time, so that the size is
// checked while a task with many instances is served (why batches and
// not a time budget: docs/how-it-works.md, grounding on demand).
const completeBatch = 32

// relaxedSize is rcSize of the task as it is, counting only what was
// made since it last counted.
func (g *rcGrow) relaxedSize(v *view) int {
	t := v.t
	for ; g.sizedActs < v.grow.NumActions(); g.sizedActs++ {
		g.sized += 1 + len(t.Actions[g.sizedActs].Pre)
	}
	for ; g.sizedMeths < len(t.Methods); g.sizedMeths++ {
		m := &t.Methods[g.sizedMeths]
		g.sized += 1 + len(m.Pre) + len(m.Subtasks)
	}
	return g.sized
}

// rcGrowFar is added to the lifted estimate of a node the relaxed
// problem cannot complete.
const rcGrowFar = 1 << 24

// taskSize measures the growing task's parts the heuristic is made of.
func (g *rcGrow) taskSize(v *view) int {
	return v.acts + len(v.taskMeths) + len(v.meths) + v.nFacts
}

// stale tells that the task grew since the heuristic was made, by a
// sixteenth or over the last 256 estimates.
func (g *rcGrow) stale(v *view) bool {
	n := g.taskSize(v)
	return g.rc == nil || n > g.size && (16*(n-g.size) >= g.size || g.evals >= 256)
}

// eval returns node (state, net)'s estimate, costInf only where the
// lifted domain tells a task of net has no decomposition.
func (g *rcGrow) eval(v *view, state sets.Bits, net *bnet) int64 {
	var lifted, unknown int64
	for _, e := range net.ents {
		if e.kind != nodeTask {
			continue
		}
		c := v.cost[e.id]
		if c == costInf {
			return costInf
		}
		lifted = addCost(lifted, c)
		if g.rc != nil && e.id >= g.rc.nT {
			unknown = addCost(unknown, c)
		}
	}
	if g.off {
		return lifted
	}
	if g.stale(v) {
		full, relaid, err := g.complete(v)
		if err != nil || relaid || full && g.auto {
			g.off, g.rc = true, nil
			if !relaid {
				g.err = err
			}
			return lifted
		}
		g.rc, g.size, g.evals = newRCServed(v, g.served), g.taskSize(v), 0
		unknown = 0 // every task of net is known to the new one
	}
	g.evals++
	h := g.rc.eval(state, net)
	if h == rcInf {
		return addCost(lifted, rcGrowFar)
	}
	return addCost(int64(h), unknown)
}
