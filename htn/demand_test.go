package htn_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/verify"
)

// verifyWritten fails t unless plan pl of p, written and read back,
// verifies.
func verifyWritten(t testing.TB, p *hddl.Problem, pl *plan.Plan) {
	t.Helper()
	back, err := plan.Read(strings.NewReader(pl.String()))
	if err != nil {
		t.Fatalf("reading the written plan: %v", err)
	}
	if err := verify.Verify(context.Background(), p, back); err != nil {
		t.Fatalf("verify: %v\n%s", err, pl)
	}
}

// orderedProblems returns the totally ordered problems of testdata and the
// paper's Sudoku (ordered network), with their names.
func orderedProblems(t *testing.T) ([]*hddl.Problem, []string) {
	probs, names := testdataProblems(t, "../testdata/*/problem.hddl", func(p *hddl.Problem) bool { return p.IsTotalOrder() && p.NumParams == 0 })
	probs, names = append(probs, testutil.SudokuProblem(t, paperPuzzle, sudoku.Ordered)), append(names, "sudoku")
	if len(probs) < 4 {
		t.Fatalf("only %d totally ordered problems in testdata", len(probs))
	}
	return probs, names
}

// testdataProblems loads the problems the glob matches that have a
// domain.hddl beside them, and keeps those keep accepts, named by their
// folder (and file, when not problem.hddl).
func testdataProblems(t *testing.T, glob string, keep func(*hddl.Problem) bool) ([]*hddl.Problem, []string) {
	files, _ := filepath.Glob(glob)
	var probs []*hddl.Problem
	var names []string
	for _, f := range files {
		dom := filepath.Join(filepath.Dir(f), "domain.hddl")
		if _, err := os.Stat(dom); err != nil {
			continue
		}
		_, p, err := hddl.Load(dom, f)
		if err != nil {
			t.Fatal(err)
		}
		if keep(p) {
			name := filepath.Base(filepath.Dir(f))
			if b := filepath.Base(f); b != "problem.hddl" {
				name += "/" + b
			}
			probs, names = append(probs, p), append(names, name)
		}
	}
	return probs, names
}

const lazyDomain = `(define (domain chain)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types node)
  (:predicates (at ?n - node) (edge ?a ?b - node) (visited ?n - node))
  (:task go :parameters (?to - node))
  (:method arrived :parameters (?to - node) :task (go ?to)
    :precondition (at ?to) :ordered-subtasks (and))
  (:method step :parameters (?to ?from ?mid - node) :task (go ?to)
    :precondition (and (at ?from) (edge ?from ?mid) (not (visited ?mid)))
    :ordered-subtasks (and (move ?from ?mid) (go ?to)))
  (:action move :parameters (?a ?b - node)
    :precondition (and (at ?a) (edge ?a ?b))
    :effect (and (not (at ?a)) (at ?b) (visited ?b))))`

func lazyProblem(t *testing.T, edges string, to string) *hddl.Problem {
	return testutil.ParseHDDL(t, lazyDomain, `(define (problem p) (:domain chain)
  (:objects a b c d e - node)
  (:htn :ordered-subtasks (and (go `+to+`)))
  (:init (at a) (visited a) `+edges+`))`)
}

// A recursive domain grounded on demand: a path is found through a
// graph with a dead end and a cycle, by each search and by Auto's quick
// member's configuration (depth-first, no value order, no reachability
// pass); with the target out of reach the search proves that there is
// no plan; the node limit and the context stop it.
func TestSolveGrowRecursive(t *testing.T) {
	edges := "(edge a b) (edge b a) (edge a c) (edge c d) (edge d c) (edge d e)"
	quick := func(opt htn.Options) htn.Options { opt.Search, opt.NoValueOrder = htn.DFS, true; return opt }
	for _, c := range []struct {
		name string
		gopt ground.Options
		opt  htn.Options
	}{{"auto", ground.Options{}, htn.Options{}}, {"dfs", ground.Options{}, htn.Options{Search: htn.DFS}},
		{"gbfs", ground.Options{}, htn.Options{Search: htn.GBFS}}, {"quick", ground.Options{NoReach: true}, quick(htn.Options{})}} {
		t.Run(c.name, func(t *testing.T) {
			pl, _, err := solveGrow(t, context.Background(), lazyProblem(t, edges, "e"), c.gopt, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(pl.Actions); got != 3 && c.opt.Search != htn.GBFS {
				t.Errorf("plan of %d actions, want 3 (a-c-d-e):\n%s", got, pl)
			}
			_, _, err = solveGrow(t, context.Background(), lazyProblem(t, "(edge a b) (edge b c) (edge c a) (edge e d)", "d"), c.gopt, c.opt)
			if !errors.Is(err, htn.ErrNoPlan) {
				t.Errorf("unreachable target: %v, want ErrNoPlan", err)
			}
			// a plan of more steps than the limit (looked at every few
			// nodes)
			opt := c.opt
			opt.MaxNodes = 2
			_, bw, err := hddl.Load("../testdata/blocksworld-gtohp/domain.hddl", "../testdata/blocksworld-gtohp/problem.hddl")
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = solveGrow(t, context.Background(), bw, c.gopt, opt)
			if !errors.Is(err, htn.ErrNodeLimit) {
				t.Errorf("node limit: %v", err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			g, err := ground.NewGrow(context.Background(), lazyProblem(t, edges, "e"), c.gopt)
			if err != nil {
				t.Fatal(err)
			}
			// a cancelled search stops within its first check or finds
			// its small plan first; it never runs on
			done := make(chan error, 1)
			go func() { _, _, err := htn.SolveGrow(ctx, g, c.opt); done <- err }()
			select {
			case err := <-done:
				if err != nil && !errors.Is(err, context.Canceled) {
					t.Errorf("cancelled: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the cancelled search did not stop")
			}
		})
	}
}

// On the problems of IPC 2020 whose full grounding is refused as too
// large, grounding on demand plans: each of the five Childsnack and
// Minecraft-Player problems below within 20 s, every plan verified.
func TestSolveGrowTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("IPC problems: not in -short")
	}
	for _, c := range []struct{ domain, problem string }{
		{"Childsnack", "p27"}, {"Childsnack", "p28"}, {"Childsnack", "p29"}, {"Childsnack", "p30"},
		{"Minecraft-Player", "p-004-004-004-004"},
	} {
		t.Run(c.domain+"/"+c.problem, func(t *testing.T) {
			dir := testutil.IPCDir(t, "total-order", c.domain)
			_, p, err := hddl.Load(filepath.Join(dir, "domain.hddl"), filepath.Join(dir, c.problem+".hddl"))
			if err != nil {
				t.Fatal(err)
			}
			// the grounder's refusal takes seconds (longer under -race)
			gctx, gcancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer gcancel()
			if _, _, err := ground.Ground(gctx, p, ground.Options{}); !errors.Is(err, ground.ErrTooLarge) {
				t.Fatalf("full grounding: %v, want too large (the test is about such problems)", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, _, err := solveGrow(t, ctx, p, ground.Options{}, htn.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// The first problem of each IPC 2020 total-order domain, grounded on
// demand with 3 s each: every plan verified, and at least 21 of the 24
// solved.
func TestSolveGrowIPC(t *testing.T) {
	if testing.Short() {
		t.Skip("IPC problems: not in -short")
	}
	shared, err := corpus.SharedDir()
	if err != nil {
		t.Skip("no ../shared: ", err)
	}
	all, _, err := corpus.IPC(filepath.Join(shared, "data", "ipc2020"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	solved, tried := 0, 0
	for _, in := range all {
		if in.Track != "total-order" || seen[in.Domain] {
			continue
		}
		seen[in.Domain] = true
		_, p, err := hddl.Load(in.DomainFile, in.ProblemFile)
		if err != nil {
			t.Fatal(err)
		}
		tried++
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, _, err = solveGrow(t, ctx, p, ground.Options{}, htn.Options{})
		cancel()
		if err == nil {
			solved++
		} else if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v", in.Name(), err)
		}
	}
	if tried != 24 || solved < 21 {
		t.Errorf("solved %d of %d first problems, want at least 21 of 24", solved, tried)
	}
}
