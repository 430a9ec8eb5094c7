package pipeline

import (
	"context"
	"errors"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/plan"
)

// demand is a problem grounded on demand, and the search over it: the
// depth-first search of progression over a task that grows as it goes
// (ground.Grow, htn.SolveGrow), or the lazy engine's own search
// (ground.Lazy, htn.SolveLazy; see LazySearch for which runs where), the
// latter for totally ordered problems only.
type demand struct {
	cfg Config
	lz  *ground.Lazy
	g   *ground.Grow
}

// newDemand prepares p for grounding on demand (ground.NewGrow's and
// ground.NewLazy's errors); member tells that the search is Auto's quick
// member (LazyDefault).
func newDemand(ctx context.Context, p *hddl.Problem, cfg Config, member bool) (*demand, error) {
	d := &demand{cfg: cfg}
	common := cfg.LazySearch == LazyCommon || cfg.LazySearch == LazyDefault && !member
	var refused error // why the common search refused p
	if common {
		g, err := ground.NewGrow(ctx, p, cfg.Ground)
		if err == nil {
			d.g = g
			return d, nil
		}
		if !errors.Is(err, ground.ErrNotSupported) {
			return nil, err
		}
		refused = err
	}
	lz, err := ground.NewLazy(ctx, p, cfg.Ground)
	if err != nil {
		if refused != nil && errors.Is(err, ground.ErrNotSupported) {
			// the common search's reason: the own one reads less
			return nil, refused
		}
		return nil, err
	}
	d.lz = lz
	return d, nil
}

// solve searches for a plan.
func (d *demand) solve(ctx context.Context) (*plan.Plan, *htn.Stats, error) {
	if d.g == nil {
		return htn.SolveLazy(ctx, d.lz, d.cfg.HTN)
	}
	sol, st, err := htn.SolveGrow(ctx, d.g, d.cfg.HTN)
	if err != nil {
		return nil, st, err
	}
	return sol.ToPlan(d.g.Task), st, nil
}

// optimize searches for ever cheaper plans, each told to found, and
// reports whether the last is proven optimal.
func (d *demand) optimize(ctx context.Context, found func(*plan.Plan) error) (bool, *htn.Stats, error) {
	if d.g == nil {
		return htn.OptimizeLazy(ctx, d.lz, d.cfg.HTN, found)
	}
	return htn.OptimizeGrow(ctx, d.g, d.cfg.HTN, func(sol *ground.Solution, _ int64) error {
		return found(sol.ToPlan(d.g.Task))
	})
}

// stats is what the grounding on demand made.
func (d *demand) stats() *LazyStats {
	if d.g != nil {
		t := d.g.Task
		return &LazyStats{Facts: len(t.Facts), Tasks: d.g.NumActions() + len(t.Compounds), Actions: d.g.NumActions(), Methods: len(t.Methods)}
	}
	lz := d.lz
	return &LazyStats{Facts: lz.NumFacts(), Tasks: lz.NumTasks(), Actions: lz.MadeActions, Methods: lz.MadeMethods}
}
