package pipeline

import (
	"context"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/plan"
)

// demand is a problem grounded on demand, and the search over it:
// progression's search over a task that grows as it goes (ground.Grow,
// htn.SolveGrow).
type demand struct {
	cfg Config
	g   *ground.Grow
}

// newDemand prepares p for grounding on demand (ground.NewGrow's
// errors); member tells that the search is Auto's quick member, beside
// the grounder or before it on one core (quickMember).
func newDemand(ctx context.Context, p *hddl.Problem, cfg Config, member bool) (*demand, error) {
	if member {
		cfg = quickMember(cfg)
	}
	g, err := ground.NewGrow(ctx, p, cfg.Ground)
	if err != nil {
		return nil, err
	}
	return &demand{cfg: cfg, g: g}, nil
}

// quickMember is the configuration of Auto's quick member, which must
// plan at once or leave the time to the grounder: depth-first search
// alone, in the domain's order of methods and its reverse in turn,
// without the growing task's reachability pass, without closing the task
// first (htn.Options.NoClose: the grounder's work) and without the value
// order (each costs, at the start or at every node, what a plan that
// comes at once does not need: with the pass, Hiking p29 went past the
// share Auto gives the member on one core, OneCoreLazyShare). Measured
// against the lazy engine's own search it replaced in
// docs/how-it-works.md.
func quickMember(cfg Config) Config {
	cfg.Ground.NoReach = true
	cfg.HTN.NoClose = true
	cfg.HTN.Search = htn.DFS
	cfg.HTN.NoValueOrder = true
	return cfg
}

// solve searches for a plan.
func (d *demand) solve(ctx context.Context) (*plan.Plan, *htn.Stats, error) {
	sol, st, err := htn.SolveGrow(ctx, d.g, d.cfg.HTN)
	if err != nil {
		return nil, st, err
	}
	return sol.ToPlan(d.g.Task), st, nil
}

// optimize searches for ever cheaper plans, each told to found, and
// reports whether the last is proven optimal.
func (d *demand) optimize(ctx context.Context, found func(*plan.Plan) error) (bool, *htn.Stats, error) {
	return htn.OptimizeGrow(ctx, d.g, d.cfg.HTN, func(sol *ground.Solution, _ int64) error {
		return found(sol.ToPlan(d.g.Task))
	})
}

// stats is what the grounding on demand made.
func (d *demand) stats() *LazyStats {
	t := d.g.Task
	return &LazyStats{Facts: len(t.Facts), Tasks: d.g.NumActions() + len(t.Compounds), Actions: d.g.NumActions(), Methods: len(t.Methods)}
}
