package satenc

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
)

// Config configures the SAT engine.
type Config struct {
	Solver Solver // nil: Gophersat
	// Depth fixes the depth of the decomposition tree (0: the depth the
	// task needs if it has no recursion, else increasing depths up to
	// MaxDepth).
	Depth    int
	MaxDepth int // 0: 256
	// NoIncremental encodes and solves each depth on its own, with any
	// solver (by default the formula of a recursive task grows layer by
	// layer, see Solve).
	NoIncremental bool
	// Skip, with a solver that cannot be stopped and resumed, gives every
	// layer but the last a time budget and moves on to a deeper layer when
	// it runs out (see Solve). A solver that can (the linked CaDiCaL)
	// shares its time among several depths anyway, unless OneDepth.
	Skip bool
	// OneDepth asks a solver that can be stopped and resumed one depth at
	// a time, each to the end, instead of sharing its time among several.
	OneDepth bool
	// Turn marks a run that has the core for a turn and hands it back
	// when it ends (auto on one core). With a solver that can be stopped
	// and resumed (the horizon schedule, solveHorizons), it ends, out of
	// time, as soon as the next depth would be opened but its encoding,
	// as the last ones grew, would not be done before the deadline,
	// instead of spending the rest of the turn on a formula it cannot
	// search (see schedule.overruns).
	Turn bool
	// Trace, when not nil, gets a line for each depth encoded and each
	// search asked (depth, outcome, time): what the schedule did.
	Trace io.Writer
	Options
}

// Stats describe a run of the SAT engine (of its last formula for the
// sizes; times add up over all depths tried).
type Stats struct {
	Solver      string
	Depth       int
	Tries       int
	Vars        int
	Clauses     int
	Vertices    int
	Steps       int
	Encode      time.Duration
	Solve       time.Duration
	Decode      time.Duration
	Linear      bool // the task had partial orders that were linearised
	Recursive   bool
	Incremental bool // one incremental solver grew with the layers
	Skipped     int  // searches left undecided when their time ran out (layers, or slices of horizons)
	// Learnt counts the clauses the solver learnt over all layers, when
	// it says (the linked CaDiCaL does); else -1.
	Learnt int64
	// Exhausted is, for Improve, the deepest depth shown to hold no plan
	// cheaper than the best one (0: none): a bound under which that plan
	// is optimal (among the linearised orders when Linear).
	Exhausted int
}

// DepthCap is the deepest decomposition tree any formula is built for:
// far beyond what a plan needs in practice (the IPC problems need at most
// a few hundred layers), and low enough that a depth read from a file or
// a command line cannot ask for years of layers.
const DepthCap = 1 << 16

// ErrDepthLimit: no plan up to MaxDepth (it is plan.ErrDepthLimit).
var ErrDepthLimit = plan.ErrDepthLimit

// Solve encodes t, solves the formula and decodes the plan. A task
// without recursion is asked once, at its depth; a recursive one layer by
// layer, from the fewest layers any of its plans needs (ground.MinDepth)
// up to MaxDepth. With an incremental solver (the linked CaDiCaL) one
// solver keeps the formula across layers: each layer adds only its own
// clauses, and the solver is asked under the assumption that the last
// layer is final. Other solvers (gophersat, external DIMACS solvers) start
// afresh at every depth: for a recursive task the formula still grows
// layer by layer, and the solver gets the whole of it at each depth with
// that assumption as a unit clause (NewIncremental's resolver), as
// encoding each depth from scratch costs the sum of all depths'
// encodings (on IPC 2023 Colouring pfile03, 9.5 of 10 seconds to reach
// depth 131; now 256 depths in 1.6 s). A task without recursion is
// encoded once, at its depth, the last layer final by a unit clause.
// Config.NoIncremental encodes each depth on its own, with any solver.
//
// A solver that can be stopped and resumed (the linked CaDiCaL) shares its
// time among up to four depths at once, shallower ones getting more
// (algorithm B of Rintanen, Heljanko and Niemelä, "Planning as
// satisfiability: parallel plans and algorithms for plan search", AIJ
// 2006; see solveHorizons). A deeper formula, with room to spare, can be
// easier to satisfy than a shallower one is to refute: Multiarm-Blocksworld
// pfile_02_020 is not solved in 60 s one depth at a time, and is solved at
// 64 layers in 25 s of CPU time this way. It can cost too (Transport
// pfile30: 29 s one depth at a time, 42 s shared). Where each depth is
// decided at once, the depths are asked one after the other as before.
// Sharing costs most where one depth at a time needs most of the time:
// the shallow depth gets part of it, in a formula grown deeper, so in a
// run with a deadline the first half of the time goes to one depth at a
// time, and depths are shared only after it (Logistics-Learned 22-0: 60 s
// of CPU shared from the start, 23 s so; Multiarm-Blocksworld
// pfile_02_020: over 60 s one depth at a time, 27 s so). Config.OneDepth
// asks them one at a time, each to the end.
//
// With Config.Skip, a solver that cannot be resumed gives each layer but
// the last that will be tried a time budget (half a second, or a third of
// the time spent so far if that is more). When it runs out, the layer is
// left undecided and one a quarter deeper is asked next. A plan of k
// layers is also one of k+1 (its actions pass down), so nothing is lost;
// but a skipped layer is never asked again, so a plan at that depth can be
// missed for ever deeper formulas (AssemblyHierarchical
// genericLinearProblem_depth06 needs 25 layers and times out), and it is
// not the default. The last layer has no budget, so a plan within MaxDepth
// is found whenever one exists, given the time.
func Solve(ctx context.Context, t *ground.Task, cfg Config) (*ground.Solution, *Stats, error) {
	if cfg.Solver == nil {
		cfg.Solver = Default()
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 256
	}
	st := &Stats{Solver: cfg.Solver.Name(), Linear: !t.TotallyOrdered(), Learnt: -1}
	need := t.Depth()
	st.Recursive = need < 0
	from, to := need, need
	switch {
	case cfg.Depth > 0:
		from, to = cfg.Depth, cfg.Depth
	case need < 0:
		from, to = max(t.MinDepth(), 1), cfg.MaxDepth
	}
	var sol *ground.Solution
	var err error
	_, incremental := cfg.Solver.(incrementalSolver)
	switch {
	case cfg.NoIncremental:
		sol, err = solveDepths(ctx, t, cfg, from, to, st)
	case incremental:
		st.Incremental = true
		sol, err = solveLayers(ctx, t, cfg, from, to, st)
	case from < to && !cfg.Skip:
		// a recursive task and a solver that starts afresh: the formula
		// still grows layer by layer, and the solver gets the whole of it
		// at each depth (NewIncremental's resolver); encoding each depth
		// from scratch would cost the sum of all depths' encodings
		sol, err = solveLayers(ctx, t, cfg, from, to, st)
	default:
		sol, err = solveDepths(ctx, t, cfg, from, to, st)
	}
	if err != nil || sol != nil {
		return sol, st, err
	}
	linear := ""
	if st.Linear {
		linear = "; partial orders were linearised, so a plan in another order may exist"
	}
	switch {
	case st.Recursive && cfg.Depth == 0:
		return nil, st, fmt.Errorf("%w (%d)%s", ErrDepthLimit, cfg.MaxDepth, linear)
	case cfg.Depth > 0 && (need < 0 || need > cfg.Depth):
		return nil, st, fmt.Errorf("%w: the formula is unsatisfiable at depth %d, which is not the whole decomposition tree", plan.ErrInconclusive, cfg.Depth)
	case st.Linear:
		return nil, st, fmt.Errorf("%w: the formula is unsatisfiable%s", plan.ErrInconclusive, linear)
	}
	return nil, st, fmt.Errorf("%w: the formula of the whole decomposition tree is unsatisfiable", plan.ErrUnsolvable)
}

// limited is an incremental solver that can give up on a search after a
// while (decided false), keeping what it learnt.
type limited interface {
	SolveWithin(ctx context.Context, d time.Duration, assumptions ...Lit) (sat, decided bool, err error)
}

// skipping paces the depths a recursive task is asked at (see Solve).
type skipping struct {
	on    bool
	start time.Time
}

// The pace: a layer's search may take skipBudget, or a third of the time
// spent so far if that is more, and a layer left undecided is followed by
// one a quarter deeper. (Variables for the tests.)
var (
	skipBudget               = 500 * time.Millisecond
	skipShare  time.Duration = 3
)

const skipJump = 4

// budget is the time the search of a layer may take before it is left
// undecided; 0 for no limit.
func (s *skipping) budget(depth, to int) time.Duration {
	if !s.on || depth >= to {
		return 0
	}
	return max(skipBudget, time.Since(s.start)/skipShare)
}

// next is the depth asked after depth: the next one, or, after a layer
// left undecided, a quarter deeper, but not past to (which is asked
// without a budget).
func (s *skipping) next(depth, to int, decided bool) int {
	if decided {
		return depth + 1
	}
	return min(depth+max(1, depth/skipJump), max(to, depth+1))
}

// solveLayers grows one formula layer by layer in one incremental solver.
func solveLayers(ctx context.Context, t *ground.Task, cfg Config, from, to int, st *Stats) (*ground.Solution, error) {
	s := NewIncremental(cfg.Solver)
	defer s.Close()
	if l, ok := s.(interface{ Learnt() int64 }); ok {
		defer func() { st.Learnt = l.Learnt() }()
	}
	t0 := time.Now()
	enc, err := NewEncoding(ctx, t, s, cfg.Options)
	st.Encode += time.Since(t0)
	if err != nil {
		return nil, err
	}
	if ls, ok := s.(limited); ok && !cfg.OneDepth && from < to {
		return solveHorizons(ctx, enc, s, ls, cfg, from, to, st)
	}
	for depth, ask := 1, from; depth <= to; depth++ {
		t0 := time.Now()
		if depth > 1 {
			if err := enc.AddLayer(); err != nil {
				return nil, err
			}
		}
		if depth < ask {
			st.Encode += time.Since(t0)
			continue
		}
		final, err := enc.Final()
		st.Encode += time.Since(t0)
		if err != nil {
			return nil, err
		}
		cfg.trace(st, "depth %d: encoded in %s, %d vars, %d clauses", depth, since(t0), enc.NumVars, enc.Clauses)
		st.Tries++
		st.Depth, st.Vars, st.Clauses, st.Vertices, st.Steps = depth, enc.NumVars, enc.Clauses, enc.Vertices(), enc.Steps()
		progress.From(ctx).SAT(st.Depth, int64(st.Clauses))
		t1 := time.Now()
		// the last layer that will be tried is final for good: a unit
		// clause simplifies more than an assumption
		var assume []Lit
		switch {
		case final == 0:
		case depth == to:
			s.AddClause(final)
		default:
			assume = append(assume, final)
		}
		sat, err := s.Solve(ctx, assume...)
		st.Solve += time.Since(t1)
		if err != nil {
			return nil, err
		}
		cfg.trace(st, "depth %d: %s in %s", depth, outcome(sat, true), since(t1))
		if sat {
			return decode(enc, s.Model(), cfg, st)
		}
		ask = depth + 1
	}
	return nil, nil
}

// solveHorizons is Config.Skip with an incremental solver that can stop a
// search and resume it later: algorithm B of Rintanen, Heljanko and
// Niemelä, as a schedule of time slices over a few open horizons (depths)
// at once, shallower ones getting more time (see schedule). The formula
// grows to the deepest open horizon; each horizon is asked under the
// assumption that its layer is final, which stays a question about plans
// of that many layers however deep the formula has grown, since a plan's
// actions pass down unchanged to deeper layers. A horizon found
// unsatisfiable closes every shallower one too.
func solveHorizons(ctx context.Context, enc *Encoding, s Incremental, ls limited, cfg Config, from, to int, st *Stats) (*ground.Solution, error) {
	sc := newSchedule(from, to)
	if end, ok := ctx.Deadline(); ok && horizonSolo > 0 {
		sc.solo = sc.start.Add(time.Duration(horizonSolo * float64(end.Sub(sc.start))))
	}
	sc.gauge = plan.MemoryGaugeOf(ctx)
	if end, ok := ctx.Deadline(); ok && cfg.Turn {
		sc.deadline = end
	}
	finals := map[int]Lit{}
	for {
		// open horizons, growing the formula to each
		for d, ok := sc.opening(); ok; d, ok = sc.opening() {
			t0 := time.Now()
			before := sc.used()
			for len(enc.layers) < d {
				if err := enc.AddLayer(); err != nil {
					return nil, err
				}
			}
			final, err := enc.Final()
			took := time.Since(t0)
			st.Encode += took
			if err != nil {
				return nil, err
			}
			finals[d] = final
			sc.add(d, took, sc.used()-before)
			cfg.trace(st, "depth %d: opened, encoded in %s, %d vars, %d clauses", d, secs(took), enc.NumVars, enc.Clauses)
		}
		d, slice, ok := sc.pick()
		if !ok && sc.next <= sc.to && sc.overruns() {
			cfg.trace(st, "depth %d: not opened, its encoding would take about %s, past the turn's end", sc.next, secs(sc.predicted()))
			return nil, errOverrun
		}
		if !ok {
			return nil, nil
		}
		var assume []Lit
		if f := finals[d]; f != 0 {
			assume = append(assume, f)
		}
		st.Tries++
		t1 := time.Now()
		sat, decided := false, true
		var err error
		if slice > 0 {
			sat, decided, err = ls.SolveWithin(ctx, slice, assume...)
		} else {
			sat, err = s.Solve(ctx, assume...)
		}
		spent := time.Since(t1)
		st.Solve += spent
		if err != nil {
			return nil, err
		}
		cfg.trace(st, "depth %d: %s in %s (slice %s)", d, outcome(sat, decided), secs(spent), secs(slice))
		if sat {
			st.Depth, st.Vars, st.Clauses, st.Vertices, st.Steps = d, enc.NumVars, enc.Clauses, enc.Vertices(), enc.Steps()
			progress.From(ctx).SAT(st.Depth, int64(st.Clauses))
			return decode(enc, s.Model(), cfg, st)
		}
		if !decided {
			st.Skipped++
		}
		sc.done(d, spent, decided)
		st.Depth, st.Vars, st.Clauses, st.Vertices, st.Steps = sc.deepest(), enc.NumVars, enc.Clauses, enc.Vertices(), enc.Steps()
		progress.From(ctx).SAT(st.Depth, int64(st.Clauses))
	}
}

// schedule shares the solver's time among open horizons, the depths asked
// at once: up to horizonWidth of them, each new one deeper than the last
// by an eighth, opened only when the open ones all had a slice without an
// answer and have searched, since the last one opened, as long as its
// layers took to encode. In a run with a deadline, only one horizon is
// open until the first horizonSolo of its time has passed, and its search
// stops then to let others open. A slice goes to the open horizon i (0 the shallowest)
// whose time so far is least against horizonGamma^i, so that each horizon
// gets about horizonGamma times the time of the one before it. Slices last
// horizonSlice, or a tenth of the time so far if that is more; when one
// horizon is left and none can be opened, it runs without a limit.
type schedule struct {
	from, to int
	next     int // the depth of the next horizon to open
	open     []horizon
	start    time.Time
	// the encoding time of the last horizon opened, and the search time
	// since then
	encoded, searched time.Duration
	// gauge, when the run has a memory limit (plan.MemoryGauge), and how
	// much the memory in use grew while the last horizon was encoded
	gauge plan.MemoryGauge
	grew  int64
	// solo: until then one horizon is open at a time (the first share of
	// a run with a deadline, see horizonSolo)
	solo time.Time
	// deadline, in a turn (Config.Turn), is its end; prevEncoded the
	// encoding time of the horizon opened before the last
	deadline    time.Time
	prevEncoded time.Duration
}

// errOverrun ends a turn whose next depth would be encoded past its end.
var errOverrun = fmt.Errorf("%w: the next depth's encoding would not be done before the turn's end", context.DeadlineExceeded)

// overrunFloor is the least encoding time schedule.overruns predicts
// from: shorter ones say little about the next.
const overrunFloor = 100 * time.Millisecond

// predicted is how long the next horizon's layers would take to encode:
// the last opening's time, times its growth over the one before (at
// least 1). Deeper formulas grow by large factors (Freecell-Learned
// 06-3, depths 4 to 6: 0.3, 1.9 and 6.7 s, 0.6, 3.0 and 12.2 million
// clauses); the factor can overestimate, never below the last time.
func (s *schedule) predicted() time.Duration {
	growth := 1.0
	if s.prevEncoded > 0 {
		growth = max(1, float64(s.encoded)/float64(s.prevEncoded))
	}
	return time.Duration(growth * float64(s.encoded))
}

// overruns reports, in a turn, that the next horizon's encoding would
// not be done before the turn's end.
func (s *schedule) overruns() bool {
	if s.deadline.IsZero() || s.encoded < overrunFloor {
		return false
	}
	return time.Until(s.deadline) < s.predicted()
}

type horizon struct {
	depth int
	spent time.Duration
}

// The pace of schedule (variables for the tests).
var (
	horizonWidth       = 4
	horizonGamma       = 0.7
	horizonSlice       = 250 * time.Millisecond
	horizonShare int64 = 10
	// horizonMemory is the share of a memory limit past which no horizon
	// is opened while another is open
	horizonMemory = 0.75
	// horizonSolo is the share of a run's time, when it has a deadline,
	// during which the depths are asked one at a time
	horizonSolo = 0.5
)

func newSchedule(from, to int) *schedule {
	return &schedule{from: from, to: to, next: from, start: time.Now()}
}

// opening returns the depth of a horizon to open: when there is room,
// every open horizon has had a slice without an answer, and the search
// since the last horizon opened has lasted as long as its encoding. So a
// task whose depths are each decided at once goes through them one by
// one, and no deeper layer is encoded before it can help (encoding
// Towers' 72 layers takes most of its 30 s), and encoding, which also
// costs memory, takes at most about half the time once the search
// stalls: Freecell-Learned 02-4 encoded up to 37 million clauses in 53
// of 60 s and 13 GiB, while its plan is found at depth 7 after 5 s of
// search. Under a memory limit, no horizon is opened while one is open
// and the memory in use, with twice what the last opening took, would
// pass horizonMemory of the limit: the open horizons go on being
// searched instead of the run being stopped at the limit. In a turn
// (Config.Turn), no horizon is opened whose encoding would not be done
// before the turn's end (overruns).
func (s *schedule) opening() (int, bool) {
	if len(s.open) >= horizonWidth || s.next > s.to {
		return 0, false
	}
	if len(s.open) > 0 && time.Now().Before(s.solo) {
		return 0, false
	}
	if len(s.open) > 0 && s.searched < s.encoded {
		return 0, false
	}
	for _, h := range s.open {
		if h.spent == 0 {
			return 0, false
		}
	}
	// the gauge reads the system's figures: last
	if len(s.open) > 0 && s.gauge != nil {
		if used, limit := s.gauge(); limit > 0 && float64(used+2*max(s.grew, 0)) > horizonMemory*float64(limit) {
			return 0, false
		}
	}
	if s.overruns() {
		return 0, false
	}
	return s.next, true
}

// add opens the horizon at depth d (what opening returned), whose layers
// took encoded to encode and grew the memory in use by grew bytes.
func (s *schedule) add(d int, encoded time.Duration, grew int64) {
	s.open = append(s.open, horizon{depth: d})
	s.next = d + max(1, d/8)
	s.prevEncoded = s.encoded
	s.encoded, s.searched, s.grew = encoded, 0, grew
}

// used is the memory in use by the gauge, 0 without one.
func (s *schedule) used() int64 {
	if s.gauge == nil {
		return 0
	}
	used, _ := s.gauge()
	return used
}

// pick returns the horizon to run next and its slice (0: no limit).
func (s *schedule) pick() (depth int, slice time.Duration, ok bool) {
	if len(s.open) == 0 {
		return 0, 0, false
	}
	if len(s.open) == 1 && s.next > s.to {
		return s.open[0].depth, 0, true
	}
	if left := time.Until(s.solo); left > 0 && len(s.open) == 1 {
		return s.open[0].depth, left, true
	}
	best, bestScore := 0, math.Inf(1)
	w := 1.0
	for i, h := range s.open {
		if score := float64(h.spent) / w; score < bestScore {
			best, bestScore = i, score
		}
		w *= horizonGamma
	}
	slice = max(horizonSlice, time.Since(s.start)/time.Duration(horizonShare))
	return s.open[best].depth, slice, true
}

// done records a slice of horizon d: decided means unsatisfiable, which
// closes d and every shallower horizon (a plan of fewer layers is one of
// d layers too).
func (s *schedule) done(d int, spent time.Duration, decided bool) {
	s.searched += spent
	if decided {
		k := 0
		for k < len(s.open) && s.open[k].depth <= d {
			k++
		}
		s.open = s.open[k:]
		return
	}
	for i := range s.open {
		if s.open[i].depth == d {
			s.open[i].spent += spent
		}
	}
}

// deepest is the depth of the deepest horizon opened so far.
func (s *schedule) deepest() int {
	if len(s.open) > 0 {
		return s.open[len(s.open)-1].depth
	}
	return s.next - 1
}

// solveDepths encodes and solves the formula of each depth on its own.
func solveDepths(ctx context.Context, t *ground.Task, cfg Config, from, to int, st *Stats) (*ground.Solution, error) {
	skip := &skipping{on: cfg.Skip, start: time.Now()}
	for depth := from; depth <= to; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st.Tries++
		t0 := time.Now()
		cnf := &CNF{}
		enc, err := Encode(ctx, t, depth, cnf, cfg.Options)
		st.Encode += time.Since(t0)
		if err != nil {
			return nil, err
		}
		st.Depth, st.Vars, st.Clauses, st.Vertices, st.Steps = depth, enc.NumVars, enc.Clauses, enc.Vertices(), enc.Steps()
		progress.From(ctx).SAT(st.Depth, int64(st.Clauses))
		cfg.trace(st, "depth %d: encoded in %s, %d vars, %d clauses", depth, since(t0), enc.NumVars, enc.Clauses)
		t1 := time.Now()
		res, decided, err := solveWithin(ctx, cfg.Solver, cnf, skip.budget(depth, to))
		st.Solve += time.Since(t1)
		if err != nil {
			return nil, err
		}
		cfg.trace(st, "depth %d: %s in %s", depth, outcome(res.Sat, decided), since(t1))
		if res.Sat {
			return decode(enc, res.Model, cfg, st)
		}
		if !decided {
			st.Skipped++
		}
		depth = skip.next(depth, to, decided)
	}
	return nil, nil
}

// solveWithin solves cnf with s within d (0: no limit); decided is false
// when d ran out first.
func solveWithin(ctx context.Context, s Solver, cnf *CNF, d time.Duration) (res *Result, decided bool, err error) {
	if d <= 0 {
		res, err = s.Solve(ctx, cnf)
		return res, err == nil, err
	}
	sub, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	res, err = s.Solve(sub, cnf)
	if err != nil && ctx.Err() == nil && sub.Err() != nil {
		return &Result{}, false, nil
	}
	return res, err == nil, err
}

// trace writes a line of Config.Trace: the engine's encoding and solving
// time so far, then the event.
func (cfg *Config) trace(st *Stats, format string, args ...any) {
	if cfg.Trace == nil {
		return
	}
	fmt.Fprintf(cfg.Trace, "sat %7.3fs  "+format+"\n", append([]any{(st.Encode + st.Solve).Seconds()}, args...)...)
}

// outcome names what a search decided.
func outcome(sat, decided bool) string {
	switch {
	case sat:
		return "satisfiable"
	case decided:
		return "unsatisfiable"
	}
	return "undecided"
}

// secs prints a duration in seconds, to the millisecond (formatted only
// when a trace is written).
type secs time.Duration

func (d secs) String() string { return fmt.Sprintf("%.3fs", time.Duration(d).Seconds()) }

func since(t time.Time) secs { return secs(time.Since(t)) }

func decode(enc *Encoding, model []bool, cfg Config, st *Stats) (*ground.Solution, error) {
	t0 := time.Now()
	sol, err := enc.Decode(model)
	st.Decode += time.Since(t0)
	if err != nil {
		return nil, fmt.Errorf("decoding the model of %s: %w", cfg.Solver.Name(), err)
	}
	return sol, nil
}
