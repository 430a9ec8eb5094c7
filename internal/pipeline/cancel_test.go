package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/verify"
)

// promptly is how soon after its context ends a stage must return.
const promptly = 500 * time.Millisecond

// cancelMidway runs stage with a context cancelled after the given delays
// (each a separate run, so that the cancellation hits different phases)
// and checks that each run returns the context's error within promptly of
// the cancellation. A run that finishes before its cancellation proves
// nothing and fails the test: the input must be large enough.
func cancelMidway(t *testing.T, name string, stage func(ctx context.Context) error, delays ...time.Duration) {
	t.Helper()
	for _, d := range delays {
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled time.Time
		timer := time.AfterFunc(d, func() {
			cancelled = time.Now()
			cancel()
		})
		err := stage(ctx)
		returned := time.Now()
		timer.Stop()
		cancel()
		if cancelled.IsZero() {
			t.Errorf("%s: finished (%v) before the cancellation at %v: make the input larger", name, err, d)
			continue
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s, cancelled at %v: %v, want context.Canceled", name, d, err)
		}
		if late := returned.Sub(cancelled); late > promptly {
			t.Errorf("%s, cancelled at %v: returned %v after the cancellation", name, d, late)
		} else {
			t.Logf("%s, cancelled at %v: returned %v after", name, d, late)
		}
	}
}

// midway runs stage with a context that ends after limit (how it ends
// does not matter) and returns the given fractions of the time it took:
// cancellation delays that fall mid-way on a slow machine and a fast one
// alike (fixed delays went stale as the stages got faster). A stage that
// outlasts limit is taken to last limit; one that does not is run twice
// and the shorter time taken (the first run can be slower: a heap that
// grows, a busy machine).
func midway(t *testing.T, name string, stage func(ctx context.Context) error, limit time.Duration, fractions ...float64) []time.Duration {
	t.Helper()
	full := limit
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		start := time.Now()
		err := stage(ctx)
		took := time.Since(start)
		cancel()
		t.Logf("%s: %v to the end or to %v (%v)", name, took, limit, err)
		if took >= limit {
			break
		}
		full = min(full, took)
	}
	delays := make([]time.Duration, len(fractions))
	for i, f := range fractions {
		delays[i] = time.Duration(f * float64(full))
	}
	return delays
}

// TestCancelEachStage cancels every stage of a run mid-way on inputs big
// enough to keep it busy: parsing, grounding, the choice-group analysis,
// the progression search and the SAT encoding and solving, and the
// verifier.
func TestCancelEachStage(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds; skipped with -short")
	}
	// a 36x36 grid with no givens, the unordered network
	pz, err := sudoku.ParsePuzzle(strings.Repeat(".", 1296))
	if err != nil {
		t.Fatal(err)
	}
	_, p36, err := sudoku.Model(pz.Grid, sudoku.Unordered)
	if err != nil {
		t.Fatal(err)
	}
	// grounding (about 0.3 s on this machine)
	groundStage := func(ctx context.Context) error {
		_, _, err := ground.Ground(ctx, p36, ground.Options{})
		return err
	}
	cancelMidway(t, "ground", groundStage, midway(t, "ground", groundStage, 10*time.Second, 0.05, 0.15, 0.3)...)

	task, _, err := ground.Ground(context.Background(), p36, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	compaction := func(ctx context.Context) error {
		_, err := ground.Compact(ctx, task)
		return err
	}
	cancelMidway(t, "compaction", compaction, midway(t, "compaction", compaction, 10*time.Second, 0.3)...)
	f, err := ground.Compact(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	folded := f.Task
	// the choice groups are kept by the task once found, so each run gets
	// a task of its own, and the delays are shares of the time one run
	// takes on this machine (it was 0.3 s, and under 0.2 s since)
	fresh := func() *ground.Task {
		f, err := ground.Compact(context.Background(), task)
		if err != nil {
			t.Fatal(err)
		}
		return f.Task
	}
	g0 := fresh()
	t0 := time.Now()
	if _, err := g0.ChoiceGroups(context.Background()); err != nil {
		t.Fatal(err)
	}
	full := time.Since(t0)
	t.Logf("choice groups: %v", full)
	for _, share := range []time.Duration{8, 3} {
		g := fresh()
		cancelMidway(t, "choice groups", func(ctx context.Context) error {
			_, err := g.ChoiceGroups(ctx)
			return err
		}, full/share)
	}

	// the searches and the SAT engine run for seconds on this grid: each
	// is timed up to a limit, then cancelled at a share of that
	progression := func(ctx context.Context) error {
		_, _, err := htn.Solve(ctx, folded, htn.Options{})
		return err
	}
	cancelMidway(t, "progression search", progression, midway(t, "progression search", progression, 3*time.Second, 0.2)...)
	gbfs := func(ctx context.Context) error {
		_, _, err := htn.Solve(ctx, folded, htn.Options{Search: htn.GBFS})
		return err
	}
	cancelMidway(t, "greedy best-first search", gbfs, midway(t, "greedy best-first search", gbfs, 3*time.Second, 0.2)...)
	// mid-encoding and mid-search: a gophersat search cancelled midway
	// would go on in the background holding the solver's lock, and the
	// later tests of this package would wait for it
	sat := func(ctx context.Context) error {
		_, _, err := satenc.Solve(ctx, folded, satenc.Config{})
		return err
	}
	cancelMidway(t, "SAT engine", sat, midway(t, "SAT engine", sat, 3*time.Second, 0.05, 0.3)...)
	whole := func(ctx context.Context) error {
		_, err := pipeline.Run(ctx, p36, pipeline.Config{Engine: pipeline.SAT})
		return err
	}
	cancelMidway(t, "the whole pipeline", whole, midway(t, "the whole pipeline", whole, 3*time.Second, 0.1, 0.5)...)

	// parsing: a problem of 300,000 initial atoms
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("(define (problem big) (:domain sudoku) (:htn :subtasks (all-check)) (:init\n")
	for i := range 300_000 {
		fmt.Fprintf(&b, "(filled c%d r%d)\n", i%9, i%9)
	}
	b.WriteString("))\n")
	big := filepath.Join(dir, "big.hddl")
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(ctx context.Context) error {
		_, _, err := pipeline.Load(ctx, "../../domains/sudoku.hddl", big)
		return err
	}
	cancelMidway(t, "parse", parse, midway(t, "parse", parse, 10*time.Second, 0.2)...)

	// verifying: a plan of one method with 100,000 subtasks
	vp, vpl := bigPlan(t, 100_000)
	verifier := func(ctx context.Context) error {
		return verify.Verify(ctx, vp, vpl)
	}
	cancelMidway(t, "verify", verifier, midway(t, "verify", verifier, 10*time.Second, 0.2)...)
}

// bigPlan is a problem whose task has a method of n ordered subtasks,
// each an action on its own variable, and a plan for it.
func bigPlan(t *testing.T, n int) (*hddl.Problem, *plan.Plan) {
	t.Helper()
	var d, pl strings.Builder
	d.WriteString("(define (domain long) (:requirements :hierarchy :typing)\n(:types item)\n(:constants i - item)\n(:predicates (done ?i - item))\n(:task all :parameters ())\n(:method m-all :parameters (")
	for i := range n {
		fmt.Fprintf(&d, " ?x%d", i)
	}
	d.WriteString(" - item) :task (all) :ordered-subtasks (and")
	for i := range n {
		fmt.Fprintf(&d, " (step ?x%d)", i)
	}
	d.WriteString("))\n(:action step :parameters (?i - item) :effect (done ?i)))\n")
	pl.WriteString("==>\n")
	for i := range n {
		fmt.Fprintf(&pl, "%d step i\n", i)
	}
	fmt.Fprintf(&pl, "root %d\n%d all -> m-all", n, n)
	for i := range n {
		fmt.Fprintf(&pl, " %d", i)
	}
	pl.WriteString("\n<==\n")
	dom, err := hddl.ParseDomain("long.hddl", []byte(d.String()))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hddl.ParseProblem("long-problem.hddl", []byte("(define (problem p) (:domain long) (:htn :subtasks (all)) (:init))"), dom)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := plan.Read(strings.NewReader(pl.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p, parsed
}
