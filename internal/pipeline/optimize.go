package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// incumbent is the best plan of an optimising run, which the engines
// improving it share: each offers its plans, and reads the best cost to
// bound its search.
type incumbent struct {
	ctx     context.Context
	p       *hddl.Problem
	folding *ground.Folding
	orig    *ground.Task
	cfg     Config

	cost     atomic.Int64 // math.MaxInt64 until a plan is in
	mu       sync.Mutex
	a        *answer // the best plan, verified
	plans    int
	first    int64 // the first plan's cost
	checking time.Duration
}

// best is the cost of the best plan so far.
func (in *incumbent) best() int64 { return in.cost.Load() }

// offer is an engine's plan (over the folded task): kept if it is
// cheaper than the best, once verified, and told to Config.Improved.
func (in *incumbent) offer(by Engine) func(*ground.Solution, int64) error {
	return func(s *ground.Solution, c int64) error {
		in.mu.Lock()
		defer in.mu.Unlock()
		if c >= in.best() {
			return nil // the other engine was quicker
		}
		mark := time.Now()
		defer func() { in.checking += time.Since(mark) }()
		sol := in.folding.Unfold(s)
		pl := sol.ToPlan(in.orig)
		if !in.cfg.NoVerify {
			if err := verify.Verify(in.ctx, in.p, pl); err != nil {
				if isContext(err) {
					return err
				}
				return &fatal{fmt.Errorf("the plan found by %s does not verify: %w", by, err)}
			}
		}
		in.keep(&answer{engine: by, sol: sol, pl: pl, verified: !in.cfg.NoVerify})
		if in.cfg.Improved != nil {
			if err := in.cfg.Improved(pl); err != nil {
				return &fatal{err}
			}
		}
		return nil
	}
}

// keep makes a the best plan (the lock held, or before the engines run).
func (in *incumbent) keep(a *answer) {
	in.a = a
	in.plans++
	in.cost.Store(a.pl.TotalCost())
	if in.plans == 1 {
		in.first = a.pl.TotalCost()
	}
}

// optimize is Run with Config.Optimize or Optimal: a first plan, then
// cheaper ones until ctx ends or one is proven optimal. Progression
// searches alone (htn.Optimize, which finds its own first plan). The SAT
// engine improves its first plan with a bound on the cost of its actions
// (satenc.Improve). Auto takes the first plan of the race, then runs
// both improving searches side by side, each bounded by the best plan of
// either, until one proves the best plan optimal.
func (r *Result) optimize(ctx context.Context, p *hddl.Problem, folding *ground.Folding, cfg Config, engine Engine) error {
	progress.From(ctx).Stage("search for cheaper plans")
	in := &incumbent{ctx: ctx, p: p, folding: folding, orig: r.Task, cfg: cfg}
	in.cost.Store(math.MaxInt64)
	if engine != Progression {
		// the first plan, as without optimising
		var err error
		if engine == Auto {
			err = r.race(ctx, p, folding, cfg)
		} else {
			a := r.solve(ctx, p, folding, cfg, engine)
			r.take(a)
			err = a.err
		}
		if err != nil {
			return err
		}
		in.keep(&answer{engine: r.Engine, sol: r.Solution, pl: r.Plan, verified: r.Verified})
		if cfg.Improved != nil {
			if err := cfg.Improved(r.Plan); err != nil {
				return err
			}
		}
	}
	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type outcome struct {
		optimal bool
		err     error
	}
	var wg sync.WaitGroup
	var htnOut, satOut outcome
	var satStats *satenc.Stats
	var htnStats *htn.Stats
	if engine != SAT {
		wg.Go(func() {
			_, opt, st, err := htn.Optimize(ctx, folding.Task, cfg.HTN, htn.Anytime{Found: in.offer(Progression), Optimal: cfg.Optimal, Bound: in.bound(), Known: in.best})
			if errors.Is(err, htn.ErrNoPlan) && in.bound() > 0 {
				// nothing cheaper than the plan known: it is optimal
				opt, err = true, nil
			}
			htnOut, htnStats = outcome{opt, err}, st
			if opt || err != nil && !isContext(err) {
				cancel()
			}
		})
	}
	if engine != Progression {
		depth := 1
		if r.SAT != nil {
			depth = max(r.SAT.Depth, 1)
		}
		wg.Go(func() {
			opt, st, err := satenc.Improve(ctx, folding.Task, cfg.SAT, depth, in.best(), in.best, in.offer(SAT))
			satOut, satStats = outcome{opt, err}, st
			if opt || err != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	if htnStats != nil {
		r.HTN = htnStats
	}
	if in.a != nil {
		r.take(in.a)
		r.Plans, r.FirstCost = in.plans, in.first
		r.Optimal = htnOut.optimal || satOut.optimal
	}
	if satStats != nil && r.SAT != nil {
		// the first plan's formula; the improving one's size is traced
		r.SAT.Tries += satStats.Tries
	}
	if c := context.Cause(parent); in.a != nil && errors.Is(c, plan.ErrMemory) {
		// the memory guard ended the improvement: the best plan stands
		r.Stopped = c.Error()
	}
	if satStats != nil && !r.Optimal {
		r.ExhaustedDepth, r.LinearBound = satStats.Exhausted, satStats.Linear
	}
	improve := time.Since(start) - in.checking
	if engine == Progression {
		// htn.Optimize found the first plan too: its time is search
		r.Times = Times{"ground": r.Times["ground"], "search": improve}
	} else {
		r.Times.Add("improve", improve)
	}
	r.Times.Add("verify", in.checking)
	for _, o := range []outcome{htnOut, satOut} {
		var f *fatal
		switch {
		case o.err == nil || isContext(o.err) || errors.Is(o.err, plan.ErrUnsolvable):
		case errors.As(o.err, &f) || in.a == nil:
			return o.err
		default:
			// a limit of the improving search (nodes, the formula's
			// size): the best plan stands
			r.Stopped = o.err.Error()
		}
	}
	if in.a == nil {
		// no plan: progression's verdict
		if htnOut.err != nil {
			return htnOut.err
		}
		return plan.WithCause(ctx, context.Canceled)
	}
	return nil
}

// fatal is an error that ends an optimising run whatever plan it has: a
// plan the verifier rejected, or one Config.Improved could not take (its
// file could not be written).
type fatal struct{ err error }

func (f *fatal) Error() string { return f.err.Error() }
func (f *fatal) Unwrap() error { return f.err }

// bound is the cost the progression search must beat: the first plan's,
// when another engine found it (0 if none yet).
func (in *incumbent) bound() int64 {
	if c := in.best(); c != math.MaxInt64 {
		return c
	}
	return 0
}
