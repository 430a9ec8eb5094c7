// Package pipeline is the one place where a planning run is put together:
// parse, ground, fold the pure tests, run an engine, write the plan and
// verify it, timing every stage. The command line, the Sudoku harness and
// the tests all plan through Run, so the engines are dispatched and
// configured in one place.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// Engine names a planning engine.
type Engine string

// The engines, by their names in every command, report and the web API.
const (
	Progression Engine = "progression" // htn.Solve
	SAT         Engine = "htn-sat"     // satenc.Solve; "sat" is accepted too
	// Auto runs both side by side on the same ground task and keeps the
	// first verified plan (or the first proof that there is none); the
	// other engine is stopped.
	Auto Engine = "auto"
	// Lazy is the progression search over a problem grounded on demand
	// (see demand), for problems whose full grounding is too large.
	// Progression and Auto turn to it themselves when the grounder
	// refuses (Result.Fallback).
	Lazy Engine = "lazy"
)

// ParseEngine reads an engine name: progression, htn-sat (or sat), auto
// or lazy, in any case.
func ParseEngine(s string) (Engine, error) {
	switch e := Engine(strings.ToLower(strings.TrimSpace(s))); e {
	case Progression, SAT, Auto, Lazy:
		return e, nil
	case "sat":
		return SAT, nil
	}
	return "", fmt.Errorf("unknown engine %q (want progression, htn-sat (or sat), auto or lazy)", s)
}

// Stages are the names of the timed stages, in pipeline order. A run
// records those it went through: search for the progression engine,
// encode, solve and decode for the SAT engine (decode includes writing the
// plan with the input's names, for both); improve is the time an
// optimising run spent searching for cheaper plans after the first.
var Stages = []string{"parse", "ground", "search", "encode", "solve", "decode", "improve", "verify"}

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
	// Optimize keeps improving the plan after the first one until ctx
	// ends or the last plan is proven optimal (htn.Optimize; with SAT or
	// Auto, the first plan is theirs and the progression search improves
	// it). Optimal searches for a proof from the start (htn.Anytime).
	Optimize, Optimal bool
	// Improved, if set, is told of each plan of an optimising run, each
	// cheaper than the one before it, once it is verified (unless
	// NoVerify); the last one is Result.Plan.
	Improved func(*plan.Plan) error
	// NoLazy keeps Progression and Auto from turning to the lazy engine
	// when the full grounding is too large.
	NoLazy bool
	// Cores is how many CPUs Auto may use (0: the CPUs this process may
	// run on). On two or more it runs its engines side by side (and the
	// lazy engine beside the grounder); on one, in turn (oneCore).
	Cores int
}

// UsedCores is the CPUs Auto may use.
func (cfg Config) UsedCores() int {
	if cfg.Cores > 0 {
		return cfg.Cores
	}
	return runtime.NumCPU() // the process's affinity, as taskset sets it
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
	HTN         *htn.Stats    // progression (and auto)
	SAT         *satenc.Stats // SAT (and auto)
	// Engine is the engine whose answer this is (with Auto, the one that
	// answered first)
	Engine Engine
	// Optimal tells that the plan is proven to be of least cost (only an
	// optimising run proves it); Plans counts the plans of an optimising
	// run, each cheaper than the one before.
	Optimal bool
	Plans   int
	// FirstCost is the cost of the first plan of an optimising run.
	FirstCost int64
	// ExhaustedDepth is, when the SAT engine improved the plan without a
	// proof, the deepest decomposition depth shown to hold nothing
	// cheaper (satenc.Stats.Exhausted), and LinearBound tells that this
	// holds for the linearised orders only.
	ExhaustedDepth int
	LinearBound    bool
	// Stopped tells what ended an optimising run's improvement early,
	// other than the context (a node limit, a formula too large).
	Stopped string
	// Fallback is, when the grounder refused the problem and the lazy
	// engine planned it instead, the grounder's reason.
	Fallback string
	// Lazy describes what the lazy engine grounded on demand.
	Lazy *LazyStats
}

// LazyStats counts what grounding on demand made.
type LazyStats struct {
	Facts, Tasks, Actions, Methods int
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
	progress.From(ctx).Stage("parse")
	go func() {
		_, p, err := hddl.LoadContext(ctx, domainFile, problemFile)
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

// OneCoreShare is the share of the time Auto gives progression on one core
// (the SAT engine has the rest; see inTurn). It was chosen by
// measurement on the IPC 2023 set at 60 s, one core a problem:
// scripts/one-core.py share replays progression's run and the SAT
// engine's for each share, and 0.75 solves the most (docs/results.md).
const OneCoreShare = 0.75

// OneCoreSATAt is the share of the time after which Auto on one core
// holds progression for the SAT engine's turn (see inTurn).
const OneCoreSATAt = 0.25

// oneCoreShare and oneCoreSATAt are OneCoreShare and OneCoreSATAt,
// variables for the tests.
var oneCoreShare, oneCoreSATAt = OneCoreShare, OneCoreSATAt

// inTurn is Auto on one core: the engines in turn, each with the core to
// itself, not side by side, where each would get half of it. Progression
// searches first, for OneCoreSATAt of the time left (all of it when ctx
// has no deadline); it is then held (htn.Gate), not stopped, and the SAT
// engine searches for its share, 1 - OneCoreShare of the time left;
// progression then goes on where it was for the rest of the time, as it
// does as soon as the SAT engine ends without an answer of its own (no
// plan up to its depth limit in a linearised problem, a formula too large
// for the memory). The first conclusive answer ends the run, as side by
// side (see race): a plan, or a proof that there is none. Progression
// ending without one hands the core to the SAT engine for all the time
// left.
//
// The SAT engine's turn comes early, not at the end: progression's
// share is the same either way (a problem it solves within OneCoreShare
// of the time is solved, its turn before the SAT engine's or after), but
// at a quarter of the time its memory is a fraction of what it is at
// three quarters, which the SAT engine's formula then shares, and the
// SAT engine's plans come sooner (measured in docs/commands.md).
func (r *Result) inTurn(ctx context.Context, p *hddl.Problem, folding *ground.Folding, cfg Config) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gate := &htn.Gate{}
	held := cfg
	held.HTN.Gate = gate
	answers := make(chan *answer, 2)
	var turn <-chan time.Time // the start of the SAT engine's turn
	var satFor time.Duration  // its length (0: the time left)
	// satCut: the SAT engine's run has a deadline of its own (after its
	// end: and that deadline stopped it); progDone: progression ended
	satRuns, satCut, progDone := false, false, false
	running := 0
	startSAT := func(d time.Duration) {
		turn, satRuns, satCut = nil, true, d > 0
		running++
		sctx, scancel := ctx, context.CancelFunc(func() {})
		scfg := cfg
		if d > 0 {
			// a turn: it hands the core back as soon as its next depth
			// could not be encoded before the turn ends
			sctx, scancel = context.WithTimeout(ctx, d)
			scfg.SAT.Turn = true
		}
		go func() {
			defer scancel()
			answers <- r.solve(sctx, p, folding, scfg, SAT)
		}()
	}
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		satFor = time.Duration((1 - oneCoreShare) * float64(left))
		at := min(time.Duration(oneCoreSATAt*float64(left)), left-satFor)
		if oneCoreShare <= 0 || at <= 0 {
			// no share before it: the SAT engine first
			gate.Shut()
			startSAT(satFor)
		} else {
			t := time.NewTimer(at)
			defer t.Stop()
			turn = t.C
		}
	}
	running++
	go func() { answers <- r.solve(ctx, p, folding, held, Progression) }()
	var got []*answer
	for running > 0 {
		select {
		case <-turn:
			gate.Shut()
			startSAT(satFor)
		case a := <-answers:
			running--
			got = append(got, a)
			switch {
			case conclusive(ctx, a):
				cancel()
				gate.Open()
				for ; running > 0; running-- {
					got = append(got, <-answers)
				}
				r.takeFirst(a, got)
				return a.err
			case a.engine == SAT:
				// no answer of its own: progression goes on, or, if it
				// ended without one and only the turn's end stopped the
				// SAT engine, the time left is the SAT engine's (a run
				// afresh)
				satCut = satCut && errors.Is(a.err, context.DeadlineExceeded) && ended(ctx) == nil
				if progDone && satCut {
					startSAT(0)
				} else {
					gate.Open()
				}
			default:
				// progression ended without an answer: the SAT engine
				// has the time left, unless it runs or ended on its own
				progDone = true
				if !satRuns || satCut && running == 0 {
					startSAT(0)
				}
			}
		}
	}
	return r.neither(got)
}

// ErrClassical is the error of a problem without tasks: no initial task
// network and no compound task in its domain.
var ErrClassical = errors.New("a classical planning problem: the domain has no tasks and the problem no initial task network (:htn); htnsat plans HTN problems (HDDL), a PDDL problem needs a classical planner")

func (r *Result) run(ctx context.Context, p *hddl.Problem, cfg Config) error {
	if len(p.Domain.Tasks) == 0 && len(p.Initial.Subtasks) == 0 {
		return ErrClassical
	}
	engine := cfg.Engine
	if engine == "" {
		engine = Progression
	}
	if _, err := ParseEngine(string(engine)); err != nil {
		return err
	}
	if engine == Lazy {
		d, err := newDemand(ctx, p, cfg, false)
		if err != nil {
			return err
		}
		return r.lazy(ctx, p, d, cfg)
	}
	mark := time.Now()
	lap := func(stage string) {
		now := time.Now()
		r.Times.Add(stage, now.Sub(mark))
		mark = now
	}
	// auto on a totally ordered problem: the lazy engine searches on the
	// core the grounder leaves idle, and answers if it finds a plan before
	// the grounding is done, or in its place if the grounding is refused
	var side *lazySide
	gctx := ctx
	if engine == Auto && !cfg.NoLazy && !cfg.Optimize && !cfg.Optimal && p.IsTotalOrder() {
		if cfg.UsedCores() > 1 {
			if side = startLazy(ctx, p, cfg); side != nil {
				gctx = side.groundCtx
				defer side.stop()
			}
		} else if done, err := r.lazyFirst(ctx, p, cfg); done {
			return err
		}
	}
	progress.From(ctx).Stage("ground")
	t, gst, err := ground.Ground(gctx, p, cfg.Ground)
	r.Task, r.GroundStats = t, gst
	if side != nil {
		switch {
		case err == nil:
			side.stop()
			if side.err == nil {
				// found at the same time: the plan is there already
				lap("ground")
				return r.lazyAnswer(ctx, p, side.d, cfg, side.pl, side.st, nil, side.dur)
			}
		case refusedByGrounder(err):
			lap("ground")
			r.Fallback = err.Error()
			<-side.done
			return r.fallbackErr(r.lazyAnswer(ctx, p, side.d, cfg, side.pl, side.st, side.err, side.dur))
		default:
			if !(errors.Is(err, context.Canceled) && ctx.Err() == nil) {
				// the grounder ended on its own (no plan, the time):
				// the search beside it ends too
				side.stop()
			}
			<-side.done
			if side.err == nil {
				// the grounding was stopped by the plan
				r.Task, r.GroundStats = nil, nil
				lap("ground")
				return r.lazyAnswer(ctx, p, side.d, cfg, side.pl, side.st, nil, side.dur)
			}
		}
	}
	if err != nil {
		lap("ground")
		if refusedByGrounder(err) && engine != SAT && !cfg.NoLazy {
			// unless what is too large is the model itself (a quantifier
			// beyond the budget), which grounding on demand expands alike;
			// not closed (htn.Options.NoClose), a full grounding the
			// grounder refused: IPC 2023 Minecraft-Player p-003-005-005-005
			// proven unsolvable in 38.9 s with, 21.2 s without
			lcfg := cfg
			lcfg.HTN.NoClose = true
			if d, lerr := newDemand(ctx, p, lcfg, false); lerr == nil {
				r.Fallback = err.Error()
				return r.lazy(ctx, p, d, cfg)
			}
		}
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
	if cfg.Optimize || cfg.Optimal {
		return r.optimize(ctx, p, folding, cfg, engine)
	}
	if engine == Auto {
		return r.race(ctx, p, folding, cfg)
	}
	r.Engine = engine
	a := r.solve(ctx, p, folding, cfg, engine)
	r.take(a)
	return a.err
}

// answer is what one engine made of the folded task, planned, written
// and verified, with its times.
type answer struct {
	engine   Engine
	sol      *ground.Solution
	pl       *plan.Plan
	verified bool
	times    Times
	htn      *htn.Stats
	sat      *satenc.Stats
	err      error
}

// take copies an engine's answer into the result.
func (r *Result) take(a *answer) {
	r.Engine, r.Solution, r.Plan, r.Verified = a.engine, a.sol, a.pl, a.verified
	for s, d := range a.times {
		r.Times.Add(s, d)
	}
	if a.htn != nil {
		r.HTN = a.htn
	}
	if a.sat != nil {
		r.SAT = a.sat
	}
}

// solve runs one engine on the folded task, writes the plan and verifies
// it.
func (r *Result) solve(ctx context.Context, p *hddl.Problem, folding *ground.Folding, cfg Config, engine Engine) *answer {
	a := &answer{engine: engine, times: Times{}}
	mark := time.Now()
	lap := func(stage string) {
		now := time.Now()
		a.times.Add(stage, now.Sub(mark))
		mark = now
	}
	var sol *ground.Solution
	var err error
	switch engine {
	case Progression:
		progress.From(ctx).Stage("search")
		sol, a.htn, err = htn.Solve(ctx, folding.Task, cfg.HTN)
		lap("search")
	case SAT:
		progress.From(ctx).Stage("SAT")
		sol, a.sat, err = satenc.Solve(ctx, folding.Task, cfg.SAT)
		a.times.Add("encode", a.sat.Encode)
		a.times.Add("solve", a.sat.Solve)
		a.times.Add("decode", a.sat.Decode)
		mark = time.Now()
	}
	if err != nil {
		a.err = err
		return a
	}
	a.sol = folding.Unfold(sol)
	a.pl = a.sol.ToPlan(r.Task)
	lap("decode")
	if err := ended(ctx); err != nil {
		a.err = err
		return a
	}
	if cfg.NoVerify {
		return a
	}
	progress.From(ctx).Stage("verify")
	if err := verify.Verify(ctx, p, a.pl); err != nil {
		a.err = fmt.Errorf("the plan found by %s does not verify: %w", engine, err)
		return a
	}
	a.verified = true
	lap("verify")
	return a
}

// race runs progression and SAT side by side (each on its own goroutine,
// so on its own core where there are two) and keeps the first conclusive
// answer: a plan (verified unless NoVerify), a proof that there is none,
// or a plan the verifier rejects (never hidden behind the other
// engine's). The other engine is then stopped and waited for. When
// neither concludes, the error is progression's unless that is only the
// context's end.
func (r *Result) race(ctx context.Context, p *hddl.Problem, folding *ground.Folding, cfg Config) error {
	if cfg.UsedCores() == 1 {
		return r.inTurn(ctx, p, folding, cfg)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make(chan *answer, 2)
	for _, e := range []Engine{Progression, SAT} {
		go func() { answers <- r.solve(ctx, p, folding, cfg, e) }()
	}
	var got []*answer
	for range 2 {
		a := <-answers
		got = append(got, a)
		if conclusive(ctx, a) {
			cancel()
			for range 2 - len(got) {
				got = append(got, <-answers)
			}
			r.takeFirst(a, got)
			return a.err
		}
	}
	return r.neither(got)
}

// conclusive tells whether an engine's answer ends an Auto run: a plan
// (verified unless NoVerify), a proof that there is none, or a plan the
// verifier rejects (never hidden behind the other engine's), while the
// run lasts.
func conclusive(ctx context.Context, a *answer) bool {
	return a.err == nil || errors.Is(a.err, plan.ErrUnsolvable) || a.pl != nil && a.err != nil && ctx.Err() == nil
}

// takeFirst takes the conclusive answer a, and the statistics of the
// other engine, as far as it got, from got (its times are not the run's).
func (r *Result) takeFirst(a *answer, got []*answer) {
	r.take(a)
	for _, o := range got {
		if o.htn != nil && r.HTN == nil {
			r.HTN = o.htn
		}
		if o.sat != nil && r.SAT == nil {
			r.SAT = o.sat
		}
	}
}

// neither takes the answers of an Auto run in which no engine concluded:
// the error is progression's unless that is only the context's end.
func (r *Result) neither(got []*answer) error {
	// the last answer of each engine (on one core the SAT engine can run
	// twice, see inTurn)
	var first, second *answer
	for _, a := range got {
		if a.engine == Progression {
			first = a
		} else {
			second = a
		}
	}
	a := first
	if isContext(first.err) && !isContext(second.err) {
		a = second
	}
	r.take(a)
	if a == first {
		r.SAT = second.sat
	} else {
		r.HTN = first.htn
	}
	return a.err
}

func isContext(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
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

// lazy plans with the lazy engine: the problem grounded on demand by the
// search (an optimising run improving its plans by branch and bound,
// htn.OptimizeLazy).
func (r *Result) lazy(ctx context.Context, p *hddl.Problem, d *demand, cfg Config) error {
	progress.From(ctx).Stage("search (grounding on demand)")
	return r.fallbackErr(r.lazyRun(ctx, p, d, cfg))
}

// refusedByGrounder reports whether the full grounding refused the
// problem in a way the grounding on demand may not: too large, or a
// feature only the latter reads (an existential action precondition).
func refusedByGrounder(err error) bool {
	return errors.Is(err, ground.ErrTooLarge) || errors.Is(err, ground.ErrNotSupported)
}

// fallbackErr says, in the error of the lazy engine that took over from
// a grounding refused, why it did.
func (r *Result) fallbackErr(err error) error {
	if err != nil && r.Fallback != "" {
		return fmt.Errorf("%s; grounding on demand: %w", r.Fallback, err)
	}
	return err
}

func (r *Result) lazyRun(ctx context.Context, p *hddl.Problem, d *demand, cfg Config) error {
	mark := time.Now()
	if cfg.Optimize || cfg.Optimal {
		return r.lazyOptimize(ctx, p, d, cfg)
	}
	pl, st, err := d.solve(ctx)
	return r.lazyAnswer(ctx, p, d, cfg, pl, st, err, time.Since(mark))
}

// lazyOptimize is an optimising run of the lazy engine: each cheaper plan
// verified and told to Config.Improved, until the time is up or a proof.
func (r *Result) lazyOptimize(ctx context.Context, p *hddl.Problem, d *demand, cfg Config) error {
	start := time.Now()
	var checking time.Duration
	found := func(pl *plan.Plan) error {
		mark := time.Now()
		defer func() { checking += time.Since(mark) }()
		if !cfg.NoVerify {
			if err := verify.Verify(ctx, p, pl); err != nil {
				if isContext(err) {
					return err
				}
				return &fatal{fmt.Errorf("the plan found by %s does not verify: %w", Lazy, err)}
			}
		}
		r.Plan, r.Verified = pl, !cfg.NoVerify
		if r.Plans++; r.Plans == 1 {
			r.FirstCost = pl.TotalCost()
		}
		if cfg.Improved != nil {
			if err := cfg.Improved(pl); err != nil {
				return &fatal{err}
			}
		}
		return nil
	}
	optimal, st, err := d.optimize(ctx, found)
	r.Engine, r.HTN, r.Optimal = Lazy, st, optimal
	r.Lazy = d.stats()
	r.Times.Add("search", time.Since(start)-checking)
	r.Times.Add("verify", checking)
	var f *fatal
	switch {
	case err == nil:
	case errors.As(err, &f) || r.Plan == nil:
		return err
	case isContext(err):
		if c := context.Cause(ctx); errors.Is(c, plan.ErrMemory) {
			r.Stopped = c.Error()
		}
	default:
		// a limit of the search (nodes): the best plan stands
		r.Stopped = err.Error()
	}
	return nil
}

// OneCoreLazyShare is the share of the time Auto on one core gives the
// lazy engine, on a totally ordered problem, before it grounds the
// problem: what the lazy search beside the grounder does on two cores. A
// plan on demand comes at once or not at all: run alone for 6 s on the 179
// IPC 2023 total-order problems that auto took over 2 s on, it solved 33,
// all within 3.7 s (Blocksworld-HPDDL pfile_1000, which the ground search
// does not solve in 60 s, among them; results/ipc2023-lazy-subset.md), and
// nothing after. A replay of that run and auto's (scripts/one-core.py
// lazy) gives the same count for every share from 0.02 to 0.05; 0.03
// leaves room on a slower machine.
const OneCoreLazyShare = 0.03

// lazyFirst is Auto on one core before grounding: the lazy engine
// searches for OneCoreLazyShare of the time left (not at all when ctx has
// no deadline, as progression then has all of it). done tells that it
// concluded, a plan (verified within ctx) or a proof that there is none,
// or that the run's own time is over; otherwise the grounder takes over,
// and err is nil.
func (r *Result) lazyFirst(ctx context.Context, p *hddl.Problem, cfg Config) (done bool, err error) {
	d, ok := ctx.Deadline()
	if !ok {
		return false, nil
	}
	lctx, cancel := context.WithDeadline(ctx, time.Now().Add(time.Duration(OneCoreLazyShare*float64(time.Until(d)))))
	defer cancel()
	progress.From(ctx).Stage("search (grounding on demand)")
	mark := time.Now()
	dm, err := newDemand(lctx, p, cfg, true)
	if err != nil {
		// not to be grounded on demand, or its share is over already
		r.Times.Add("search", time.Since(mark))
		if ctx.Err() != nil {
			return true, plan.WithCause(ctx, ctx.Err())
		}
		return false, nil
	}
	pl, st, err := dm.solve(lctx)
	dur := time.Since(mark)
	switch {
	case err == nil || errors.Is(err, plan.ErrUnsolvable):
		return true, r.lazyAnswer(ctx, p, dm, cfg, pl, st, err, dur)
	case ctx.Err() != nil:
		r.Times.Add("search", dur)
		return true, err
	}
	// its share is over, or a limit of its own (the network bound): the
	// grounder's turn
	r.Times.Add("search", dur)
	return false, nil
}

// lazySide is a lazy search run beside the grounder (Auto): it stops the
// grounding (groundCtx) when it finds a plan.
type lazySide struct {
	d            *demand
	cancel       context.CancelFunc
	groundCtx    context.Context
	groundCancel context.CancelFunc
	done         chan struct{}
	pl           *plan.Plan
	st           *htn.Stats
	err          error
	dur          time.Duration
}

// startLazy starts a lazy search beside the grounder; nil when the
// problem cannot be grounded on demand.
func startLazy(ctx context.Context, p *hddl.Problem, cfg Config) *lazySide {
	// the grounding on demand looks at the context of the lazy search,
	// which stop ends, not at the run's: a join under way stops with it
	lctx, cancel := context.WithCancel(ctx)
	d, err := newDemand(lctx, p, cfg, true)
	if err != nil {
		cancel()
		return nil
	}
	s := &lazySide{d: d, done: make(chan struct{}), cancel: cancel}
	s.groundCtx, s.groundCancel = context.WithCancel(ctx)
	go func() {
		defer close(s.done)
		start := time.Now()
		s.pl, s.st, s.err = d.solve(lctx)
		s.dur = time.Since(start)
		if s.err == nil {
			s.groundCancel()
		}
	}()
	return s
}

// stop ends the lazy search and waits for it.
func (s *lazySide) stop() {
	s.cancel()
	<-s.done
	s.groundCancel()
}

// lazyAnswer records what the lazy engine did, and verifies its plan.
func (r *Result) lazyAnswer(ctx context.Context, p *hddl.Problem, dm *demand, cfg Config, pl *plan.Plan, st *htn.Stats, err error, d time.Duration) error {
	r.Engine = Lazy
	r.HTN = st
	r.Lazy = dm.stats()
	r.Times.Add("search", d)
	if err != nil {
		return err
	}
	r.Plan = pl
	if err := ended(ctx); err != nil {
		return err
	}
	if !cfg.NoVerify {
		mark := time.Now()
		if err := verify.Verify(ctx, p, pl); err != nil {
			return fmt.Errorf("the plan found by %s does not verify: %w", Lazy, err)
		}
		r.Verified = true
		r.Times.Add("verify", time.Since(mark))
	}
	return nil
}
