// Package pipeline is the one place where a planning run is put together:
// parse, ground, fold the pure tests, run an engine, write the plan and
// verify it, timing every stage. The command line, the Sudoku harness and
// the tests all plan through Run, so the engines are dispatched and
// configured in one place.
package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// Engine names a planning engine.
type Engine string

// The engines.
const (
	Progression Engine = "progression" // htn.Solve
	SAT         Engine = "sat"         // satenc.Solve
)

// ParseEngine reads an engine name.
func ParseEngine(s string) (Engine, error) {
	switch e := Engine(s); e {
	case Progression, SAT:
		return e, nil
	}
	return "", fmt.Errorf("unknown engine %q (want progression or sat)", s)
}

// Stages are the names of the timed stages, in pipeline order. A run
// records those it went through: search for the progression engine,
// encode, solve and decode for the SAT engine (decode includes writing the
// plan with the input's names, for both).
var Stages = []string{"parse", "ground", "search", "encode", "solve", "decode", "verify"}

// Times holds the duration of each stage a run went through.
type Times map[string]time.Duration

// Add adds d to a stage.
func (t Times) Add(stage string, d time.Duration) { t[stage] += d }

// Config is everything a run needs besides the problem. The zero value
// plans by progression with every default.
type Config struct {
	Engine Engine // "" is Progression
	Ground ground.Options
	// NoFold keeps pure tests as tasks of their own instead of folding
	// them into the methods that use them (ground.Compact).
	NoFold   bool
	HTN      htn.Options
	SAT      satenc.Config
	NoVerify bool
}

// Result is what a run produced, as far as it got.
type Result struct {
	Task        *ground.Task // as the grounder built it (before folding)
	Compacted   *ground.Task // the task the engine got (Task unless compacted)
	GroundStats *ground.Stats
	Solution    *ground.Solution // over Task
	Plan        *plan.Plan
	Verified    bool
	Times       Times
	HTN         *htn.Stats    // progression only
	SAT         *satenc.Stats // SAT only
}

// Load reads and checks a domain and a problem file: the parse stage,
// whose time it returns. When ctx ends first it returns ctx's error at
// once; the parser, which cannot be stopped, finishes in the background.
func Load(ctx context.Context, domainFile, problemFile string) (*hddl.Problem, time.Duration, error) {
	start := time.Now()
	type parsed struct {
		p   *hddl.Problem
		err error
	}
	done := make(chan parsed, 1)
	go func() {
		_, p, err := hddl.Load(domainFile, problemFile)
		done <- parsed{p, err}
	}()
	select {
	case r := <-done:
		return r.p, time.Since(start), r.err
	case <-ctx.Done():
		return nil, time.Since(start), plan.WithCause(ctx, ctx.Err())
	}
}

// Run grounds p, plans with the configured engine, writes the plan and
// verifies it. The error wraps the sentinels of package plan or a context
// error (plan.StatusOf classifies it); a plan that the verifier rejects is
// an error too. The result holds whatever the stages before the error
// produced, and their times.
func Run(ctx context.Context, p *hddl.Problem, cfg Config) (*Result, error) {
	r := &Result{Times: Times{}}
	return r, plan.WithCause(ctx, r.run(ctx, p, cfg))
}

func (r *Result) run(ctx context.Context, p *hddl.Problem, cfg Config) error {
	engine := cfg.Engine
	if engine == "" {
		engine = Progression
	}
	if _, err := ParseEngine(string(engine)); err != nil {
		return err
	}
	mark := time.Now()
	lap := func(stage string) {
		now := time.Now()
		r.Times.Add(stage, now.Sub(mark))
		mark = now
	}
	t, gst, err := ground.Ground(ctx, p, cfg.Ground)
	r.Task, r.GroundStats = t, gst
	if err != nil {
		lap("ground")
		return err
	}
	// compacting is part of the ground stage: it makes the task the
	// engines see
	folding := ground.NoFolding(t)
	if !cfg.NoFold {
		folding, err = ground.Compact(ctx, t)
	}
	lap("ground")
	if err != nil {
		return err
	}
	r.Compacted = folding.Task
	if err := ended(ctx); err != nil {
		return err
	}
	var sol *ground.Solution
	switch engine {
	case Progression:
		sol, r.HTN, err = htn.Solve(ctx, folding.Task, cfg.HTN)
		lap("search")
	case SAT:
		sol, r.SAT, err = satenc.Solve(ctx, folding.Task, cfg.SAT)
		r.Times.Add("encode", r.SAT.Encode)
		r.Times.Add("solve", r.SAT.Solve)
		r.Times.Add("decode", r.SAT.Decode)
		mark = time.Now()
	}
	if err != nil {
		return err
	}
	r.Solution = folding.Unfold(sol)
	r.Plan = r.Solution.ToPlan(t)
	lap("decode")
	if err := ended(ctx); err != nil {
		return err
	}
	if cfg.NoVerify {
		return nil
	}
	if err := verify.Verify(ctx, p, r.Plan); err != nil {
		return fmt.Errorf("the plan found does not verify: %w", err)
	}
	r.Verified = true
	lap("verify")
	return nil
}

// ended is ctx.Err(), or context.DeadlineExceeded once ctx's deadline has
// passed although its timer has not fired yet (on a loaded machine it can
// fire late): the checks between stages must not let a stage start after
// the time is up.
func ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// Total is the sum of the stage times.
func (t Times) Total() time.Duration {
	var s time.Duration
	for _, d := range t {
		s += d
	}
	return s
}
