package ground_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/sudoku"
)

const paperPuzzle = testutil.PaperPuzzle

func groundText(t testing.TB, domain, problem string) (*ground.Task, *ground.Stats, error) {
	t.Helper()
	d, err := hddl.ParseDomain("d.hddl", []byte(domain))
	if err != nil {
		t.Fatalf("domain: %v", err)
	}
	p, err := hddl.ParseProblem("p.hddl", []byte(problem), d)
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	return ground.Ground(context.Background(), p, ground.Options{})
}

func groundSudoku(t testing.TB, line string, style sudoku.Style) (*ground.Task, *ground.Stats) {
	t.Helper()
	return groundValid(t, testutil.SudokuProblem(t, line, style))
}

// groundValid grounds p with the default options and validates the result.
func groundValid(t testing.TB, p *hddl.Problem) (*ground.Task, *ground.Stats) {
	t.Helper()
	task, st, err := ground.Ground(context.Background(), p, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	return task, st
}

// candidates counts, for each blank cell, the digits that no given in its
// row, column or box excludes: what grounding should leave as FILL-CELL
// actions.
func candidates(g sudoku.Grid) int {
	n, total := g.Size(), 0
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if g.At(r, c) != 0 {
				continue
			}
			for d := 1; d <= n; d++ {
				ok := true
				for i := 0; i < n && ok; i++ {
					br, bc := (r/g.Box)*g.Box+i/g.Box, (c/g.Box)*g.Box+i%g.Box
					ok = g.At(r, i) != d && g.At(i, c) != d && g.At(br, bc) != d
				}
				if ok {
					total++
				}
			}
		}
	}
	return total
}

func TestSudokuPaperPuzzle(t *testing.T) {
	for _, style := range []sudoku.Style{sudoku.Ordered, sudoku.Unordered} {
		task, st := groundSudoku(t, paperPuzzle, style)
		pz, _ := sudoku.ParsePuzzle(paperPuzzle)
		d := task.Problem.Domain
		// one m-check-row instance per (row, digit) at most, found by the
		// join over the inc chain
		seen := map[string]bool{}
		for _, m := range task.Methods {
			if m.Schema < 0 || d.Methods[m.Schema].Name != "m-check-row" {
				continue
			}
			c := task.Compound(m.Task)
			key := task.TaskName(m.Task)
			if seen[key] {
				t.Fatalf("two m-check-row instances for %s", key)
			}
			seen[key] = true
			if len(c.Args) != 2 {
				t.Fatalf("check-row has %d args", len(c.Args))
			}
		}
		if len(seen) == 0 || len(seen) > 81 {
			t.Fatalf("%d check-row tasks", len(seen))
		}
		if got, want := st.ActionInstances["FILL-CELL"], candidates(pz.Grid); got != want {
			t.Errorf("%s: %d FILL-CELL actions, want %d (the candidates left by the givens)", style, got, want)
		}
		if len(task.Initial) != pz.Blanks()+1 {
			t.Errorf("%s: %d initial tasks, want %d", style, len(task.Initial), pz.Blanks()+1)
		}
		if task.InitialTotal != (style == sudoku.Ordered) {
			t.Errorf("%s: initial network total=%v", style, task.InitialTotal)
		}
	}
}

func TestSudokuEmptyAndLarge(t *testing.T) {
	for k := 2; k <= 5; k++ {
		g := sudoku.New(k)
		task, _ := groundSudoku(t, g.Line(), sudoku.Unordered)
		n := k * k
		if len(task.Actions) != n*n*n {
			t.Errorf("empty %d×%d: %d actions, want %d", n, n, len(task.Actions), n*n*n)
		}
		// one choice task per cell with one method per digit
		choices := 0
		for i := range task.Compounds {
			if c := &task.Compounds[i]; c.Synthetic() {
				choices++
				if len(c.Methods) != n {
					t.Fatalf("choice task with %d methods, want %d", len(c.Methods), n)
				}
			}
		}
		if choices != n*n {
			t.Errorf("empty %d×%d: %d choice tasks, want %d", n, n, choices, n*n)
		}
	}
}

func TestUnsolvablePuzzle(t *testing.T) {
	// r1c1 is blank; its row holds 2..9 and its column a 1: no digit fits
	line := "." + "23456789" + "1" + strings.Repeat(".", 71)
	pz, err := sudoku.ParsePuzzle(line)
	if err != nil {
		t.Fatal(err)
	}
	_, p, err := sudoku.Model(pz.Grid, sudoku.Ordered)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ground.Ground(context.Background(), p, ground.Options{})
	if !errors.Is(err, ground.ErrUnsolvable) {
		t.Fatalf("got %v, want ErrUnsolvable", err)
	}
}

// TestBudget checks that a method with many parameters bound by nothing
// fails fast with ground.ErrTooLarge, naming the method and its parameters.
func TestBudget(t *testing.T) {
	var objs strings.Builder
	for i := 0; i < 100; i++ {
		objs.WriteString(" o" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
	}
	domain := `(define (domain blow) (:types thing)
	  (:predicates (p ?a - thing))
	  (:task top :parameters ())
	  (:task sub :parameters (?a ?b ?c ?d ?e ?f - thing))
	  (:method m-top :parameters (?a ?b ?c ?d ?e ?f - thing) :task (top)
	     :ordered-subtasks (sub ?a ?b ?c ?d ?e ?f))
	  (:method m-sub :parameters (?a ?b ?c ?d ?e ?f - thing) :task (sub ?a ?b ?c ?d ?e ?f)
	     :ordered-subtasks (act ?a))
	  (:action act :parameters (?a - thing) :effect (p ?a)))`
	problem := `(define (problem b) (:domain blow) (:objects` + objs.String() + ` - thing) (:htn :subtasks (top)) (:init))`
	start := time.Now()
	_, _, err := groundText(t, domain, problem)
	if !errors.Is(err, ground.ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if !strings.Contains(err.Error(), "m-") {
		t.Errorf("error does not name the method: %v", err)
	}
	t.Logf("failed after %v: %v", time.Since(start), err)
}

// TestBudgetFreeParameters checks that the reachable instances of an
// action with a free parameter count against the budget although no
// ground action is made for them yet.
func TestBudgetFreeParameters(t *testing.T) {
	var objs, init strings.Builder
	for i := 0; i < 50; i++ {
		o := "o" + strconv.Itoa(i)
		objs.WriteString(" " + o)
		init.WriteString(" (p " + o + ")")
	}
	domain := `(define (domain free) (:types thing)
	  (:predicates (p ?a - thing) (q ?x - thing))
	  (:task top :parameters ())
	  (:method m-top :parameters (?a - thing) :task (top) :ordered-subtasks (big ?a ?a ?a ?a))
	  (:action big :parameters (?a ?b ?c ?x - thing) :precondition (and (p ?a) (p ?b) (p ?c)) :effect (q ?x)))`
	problem := `(define (problem f) (:domain free) (:objects` + objs.String() + ` - thing) (:htn :subtasks (top)) (:init` + init.String() + `))`
	p := testutil.ParseHDDL(t, domain, problem)
	// 50^3 reachable (?a ?b ?c): too many for a budget of 10^5
	_, _, err := ground.Ground(context.Background(), p, ground.Options{MaxGround: 100_000})
	if !errors.Is(err, ground.ErrTooLarge) || !strings.Contains(err.Error(), "action big") {
		t.Fatalf("got %v, want ErrTooLarge naming action big", err)
	}
	// within budget, only the 50 actions the method asks for are made
	task, _, err := ground.Ground(context.Background(), p, ground.Options{MaxGround: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(task.Actions) != 50 {
		t.Errorf("%d actions, want 50 (big ?a ?a ?a ?a)", len(task.Actions))
	}
}

// TestFeatures grounds small domains that use each feature of the
// normaliser and the joins, and checks the ground instances by name.
func TestFeatures(t *testing.T) {
	domain := `(define (domain f)
	  (:types place obj)
	  (:constants home - place)
	  (:predicates (road ?a ?b - place) (at ?o - obj ?p - place) (big ?o - obj) (mark ?p - place) (done))
	  (:task go :parameters (?o - obj ?p - place))
	  (:task finish :parameters ())
	  (:method m-go :parameters (?o - obj ?a ?p - place)
	     :task (go ?o ?p)
	     :precondition (and (at ?o ?a) (road ?a ?p) (not (= ?a ?p)))
	     :ordered-subtasks (move ?o ?a ?p))
	  (:method m-go-twice :parameters (?o - obj ?a ?b ?p - place)
	     :task (go ?o ?p)
	     :precondition (and (at ?o ?a) (road ?a ?b) (road ?b ?p) (not (road ?a ?p)))
	     :ordered-subtasks (and (move ?o ?a ?b) (move ?o ?b ?p)))
	  (:method m-finish :parameters ()
	     :task (finish)
	     :precondition (or (forall (?o - obj) (at ?o home)) (exists (?p - place) (mark ?p)))
	     :ordered-subtasks (stamp))
	  (:action move :parameters (?o - obj ?a ?b - place)
	     :precondition (and (at ?o ?a) (road ?a ?b) (not (big ?o)))
	     :effect (and (not (at ?o ?a)) (at ?o ?b) (mark ?b)))
	  (:action stamp :parameters () :effect (done)))`
	problem := `(define (problem f1) (:domain f)
	  (:objects x y z - place b1 b2 - obj)
	  (:htn :parameters (?dest - place)
	        :subtasks (and (t1 (go b1 ?dest)) (t2 (finish)))
	        :ordering (< t1 t2)
	        :constraints (not (= ?dest home)))
	  (:init (road home x) (road x y) (road y home) (at b1 home) (at b2 z) (big b2))
	  (:goal (done)))`
	task, _, err := groundText(t, domain, problem)
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for i := range task.Actions {
		names[task.TaskName(ground.TaskID(i))] = true
	}
	for _, want := range []string{"move b1 home x", "move b1 x y", "stamp"} {
		if !names[want] {
			t.Errorf("missing action %s (have %v)", want, names)
		}
	}
	for n := range names {
		if strings.Contains(n, "b2") {
			t.Errorf("action %s of the big object survived", n)
		}
	}
	// the free variable ?dest: a choice task, home excluded by the
	// constraint, z unreachable
	var choice *ground.Compound
	for _, id := range task.Initial {
		if !task.IsPrimitive(id) && task.Compound(id).Synthetic() {
			choice = task.Compound(id)
		}
	}
	if choice == nil {
		t.Fatal("no choice task for ?dest")
	}
	dests := map[string]bool{}
	for _, m := range choice.Methods {
		dests[task.Problem.Objects[task.Methods[m].Args[0]].Name] = true
	}
	if !dests["x"] || !dests["y"] || dests["home"] || dests["z"] || len(dests) != 2 {
		t.Errorf("choices for ?dest: %v, want x and y", dests)
	}
	// the disjunctive precondition of m-finish gives one method per
	// disjunct and, for the existential one, per witness ?p: x, y and home
	// can be marked; "all objects at home" cannot hold (b2 cannot move)
	finish := 0
	for _, m := range task.Methods {
		if m.Schema >= 0 && task.Problem.Domain.Methods[m.Schema].Name == "m-finish" {
			finish++
		}
	}
	if finish != 3 {
		t.Errorf("%d m-finish methods, want 3", finish)
	}
	if len(task.Goal) != 1 {
		t.Errorf("goal has %d facts, want 1", len(task.Goal))
	}
}

func TestNotSupported(t *testing.T) {
	domain := `(define (domain w) (:predicates (p) (q))
	  (:task t) (:method m :task (t) :ordered-subtasks (a))
	  (:action a :effect (when (p) (q))))`
	_, _, err := groundText(t, domain, `(define (problem w1) (:domain w) (:htn :subtasks (t)) (:init))`)
	if err == nil || !strings.Contains(err.Error(), "not supported") || !strings.Contains(err.Error(), "d.hddl:") {
		t.Fatalf("got %v, want a positioned 'not supported' error", err)
	}
}

// TestSplitAndFreeParameters grounds testdata/split/*.hddl: the
// method m-deliver has two independent groups of unbound variables, each
// used by one subtask and static literals only, and the actions drive and
// log have parameters no positive precondition binds.
func TestSplitAndFreeParameters(t *testing.T) {
	_, p, err := hddl.Load("../testdata/split/domain.hddl", "../testdata/split/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	task, st := groundValid(t, p)
	// unsplit, m-deliver would have one instance per (truck, depot) pair
	// times (crew, home) pair: 3·3 for l1 and 2·3 for l2
	if n := st.MethodInstances["m-deliver"]; n != 2 {
		t.Errorf("%d m-deliver instances, want 2 (one per delivery)", n)
	}
	synth, synthMethods := 0, 0
	for i := range task.Compounds {
		c := &task.Compounds[i]
		if !c.Synthetic() {
			continue
		}
		synth++
		synthMethods += len(c.Methods)
		for _, m := range c.Methods {
			if k := len(task.Methods[m].Subtasks); k != 1 {
				t.Errorf("synthetic method %d has %d subtasks, want 1", m, k)
			}
		}
	}
	// per delivery, one task for {?t ?d} and one for {?c ?h}; their
	// methods are the bindings: 3+3 for l1, 2+3 for l2
	if synth != 4 || synthMethods != 11 {
		t.Errorf("%d synthetic tasks with %d methods, want 4 with 11", synth, synthMethods)
	}
	// drive's ?to and log's ?h are free: only the instances the methods
	// ask for are made
	names := map[string]bool{}
	for i := range task.Actions {
		names[task.TaskName(ground.TaskID(i))] = true
	}
	for _, want := range []string{"drive t1 d1 l1", "drive t2 d2 l1", "drive t3 d1 l2", "log l1 c2 d2", "log l2 c3 d2"} {
		if !names[want] {
			t.Errorf("missing action %s", want)
		}
	}
	if names["drive t2 d2 l2"] || names["drive t2 d2 l3"] || names["log l1 c1 d2"] {
		t.Errorf("actions no method asks for were made: %v", names)
	}
	if len(task.Actions) != 13 {
		t.Errorf("%d actions, want 13 (5 drive, 6 log, 2 unload)", len(task.Actions))
	}
}

// TestSplitLocalLiterals: a variable in no subtask whose only literals tie
// it to variables that split off goes with them. In testdata/split-local,
// m-decide's literal pair would split off with its subtasks, leaving each
// literal's occurrence count, which only a static precondition on it
// mentions, to the method, which then bound every pair of counts (10 x
// 10, 104 methods built). With the counts local too, nothing is left for
// the method and it is grounded whole, its static preconditions binding
// the counts: one instance per literal.
func TestSplitLocalLiterals(t *testing.T) {
	_, p, err := hddl.Load("../testdata/split-local/domain.hddl", "../testdata/split-local/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	_, st := groundValid(t, p)
	if n := st.MethodInstances["m-decide"]; n != 4 {
		t.Errorf("%d m-decide instances, want 4 (one per literal)", n)
	}
	if st.BuiltMethods > 8 {
		t.Errorf("%d methods built, want at most 8", st.BuiltMethods)
	}
}
