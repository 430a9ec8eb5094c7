package ground

import (
	"context"

	"github.com/htnsat/htnsat/hddl"
)

// A growing task (and any grounding on demand) knows the static facts
// and, per predicate, whether an action may add a fact of it (addable),
// but not which fluent facts the actions can ever make true: the full
// grounder's delete-relaxed reachability. Where that pass fits in a
// budget far below a full grounding's, a growing task (Grow) runs it
// once beforehand (reachFacts; not for the default engine's quick
// member beside the grounder, Options.NoReach, which wins there by
// starting at once: IPC Rover-GTOHP p30 took 2.9 s with the pass, 0.6 s
// without): a fluent fact it never reaches can never hold, and
// a method or action that needs one is infeasible (IPC
// Logistics-Learned: a truck of another city can never be at a package's
// place, which the lifted domain alone cannot tell: without, the search
// loaded packages into such trucks and drove them round their own city
// until the depth cap).

// maxReachActions bounds the action instances the reachability pass of a
// grounding on demand may find; past it the pass gives up, and the
// grounding goes without (a full grounding's budget, DefaultMaxGround,
// is about six times as large). On every fourth IPC 2020 total-order
// problem a pass that gives up takes 0.1 to 2 s (Hiking p29 the
// longest); at 1 << 18, Entertainment pfile09 went without and ran out
// of time (10 s; 2.3 s with it).
const maxReachActions = 1 << 19

// reachFacts runs the first stages of Ground on p (normalisation, the
// relevance of actions to the initial network, delete-relaxed
// reachability) and returns, per predicate, the relation of the static
// facts and of the reachable fluent ones; nil when it would take more
// than maxReachActions action instances. Only ctx's end is an error.
func reachFacts(ctx context.Context, p *hddl.Problem, opt Options) ([]*relation, error) {
	opt.MaxGround = min(maxReachActions, max(opt.MaxGround, 0))
	if opt.MaxGround == 0 {
		opt.MaxGround = maxReachActions
	}
	opt.MaxSteps = 100 * int64(opt.MaxGround)
	g := newGrounder(ctx, p, opt)
	err := g.prepare()
	if err == nil {
		g.rel = g.relevance()
		err = g.err
	}
	if err == nil {
		err = g.reach()
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		// past the budget (ErrTooLarge), or what the full grounder
		// refuses, which the grounding on demand reports itself where
		// it meets it
		return nil, nil
	}
	return g.rels, nil
}
