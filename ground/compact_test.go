package ground_test

import (
	"context"
	"slices"
	"testing"

	"github.com/htnsat/htnsat/ground"
)

// compactDomain has tasks without choice in every position: a test first
// (its precondition joins the method's), a task whose method has subtasks
// and no precondition (inlined anywhere), a task with a precondition that
// does not come first (kept: nothing may happen between the two points in
// the original but does in the compacted task), and a nested chain.
const compactDomain = `(define (domain c)
  (:constants x y z)
  (:predicates (p) (q) (done ?x))
  (:task top :parameters ())
  (:task test :parameters ())
  (:task one :parameters ())
  (:task late :parameters ())
  (:task outer :parameters ())
  (:task pick :parameters ())
  (:method m-top :parameters () :task (top)
    :ordered-subtasks (and (test) (one) (late) (outer) (pick)))
  (:method m-test :parameters () :task (test) :precondition (p))
  (:method m-one :parameters () :task (one) :ordered-subtasks (and (a) (b)))
  (:method m-late :parameters () :task (late) :precondition (q) :ordered-subtasks (c))
  (:method m-outer :parameters () :task (outer) :ordered-subtasks (and (one) (c)))
  (:method m-pick-a :parameters () :task (pick) :ordered-subtasks (a))
  (:method m-pick-b :parameters () :task (pick) :ordered-subtasks (b))
  (:action a :parameters () :effect (done x))
  (:action b :parameters () :effect (and (done y) (not (p))))
  (:action c :parameters () :effect (and (done z) (not (q)))))`

// compactText grounds and compacts a problem given as text, and checks
// the compacted task's IDs.
func compactText(t *testing.T, domain, problem string) (*ground.Task, *ground.Folding) {
	t.Helper()
	task, _, err := groundText(t, domain, problem)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ground.Compact(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Task.Validate(); err != nil {
		t.Fatal(err)
	}
	return task, f
}

// topSubtasks is the only method of the compacted task's first initial
// task, and its subtasks' names.
func topSubtasks(ct *ground.Task) (ground.Method, []string) {
	top := ct.Methods[ct.Compound(ct.Initial[0]).Methods[0]]
	var subs []string
	for _, s := range top.Subtasks {
		subs = append(subs, ct.TaskName(s))
	}
	return top, subs
}

func TestCompact(t *testing.T) {
	problem := `(define (problem c1) (:domain c)
	  (:htn :subtasks (top)) (:init (p) (q)))`
	task, f := compactText(t, compactDomain, problem)
	ct := f.Task
	// left: top (in the initial network), late (its precondition is not
	// at the start) and pick (two methods)
	var left []string
	for i := range ct.Compounds {
		left = append(left, ct.TaskName(ct.CompoundID(i)))
	}
	slices.Sort(left)
	if want := []string{"late", "pick", "top"}; !slices.Equal(left, want) {
		t.Fatalf("compound tasks %v, want %v", left, want)
	}
	top, subs := topSubtasks(ct)
	// test folded, one inlined, late kept, outer inlined with one inside
	if want := []string{"a", "b", "late", "a", "b", "c", "pick"}; !slices.Equal(subs, want) {
		t.Errorf("m-top's subtasks %v, want %v", subs, want)
	}
	if !top.Total {
		t.Error("m-top is no longer totally ordered")
	}
	if len(top.Pre) != 1 || ct.FactName(top.Pre[0]) != "(p)" {
		t.Errorf("m-top's precondition %v, want (p) from the test", top.Pre)
	}
	// a solution of the compacted task, unfolded, names the original
	// tasks and methods and has the original shape
	sol := solveByHand(t, ct)
	orig := f.Unfold(sol)
	p := orig.ToPlan(task).String()
	for _, want := range []string{"test -> m-test", "one -> m-one", "late -> m-late", "outer -> m-outer", "pick -> m-pick-a", "top -> m-top"} {
		if !containsLine(p, want) {
			t.Errorf("plan lacks %q:\n%s", want, p)
		}
	}
	if n := len(orig.Order); n != 7 {
		t.Errorf("%d actions, want 7", n)
	}
}

// solveByHand decomposes every task of t by its first method, in order,
// which suits the task of TestCompact.
func solveByHand(t *testing.T, ct *ground.Task) *ground.Solution {
	t.Helper()
	sol := &ground.Solution{}
	var add func(id ground.TaskID) int32
	add = func(id ground.TaskID) int32 {
		n := int32(len(sol.Nodes))
		sol.Nodes = append(sol.Nodes, ground.SolNode{Task: id, Method: -1})
		if ct.IsPrimitive(id) {
			sol.Order = append(sol.Order, n)
			return n
		}
		m := ct.Compound(id).Methods[0]
		var kids []int32
		for _, s := range ct.Methods[m].Subtasks {
			kids = append(kids, add(s))
		}
		sol.Nodes[n].Method, sol.Nodes[n].Children = m, kids
		return n
	}
	for _, id := range ct.Initial {
		sol.Roots = append(sol.Roots, add(id))
	}
	return sol
}

func containsLine(text, sub string) bool {
	for i := 0; i+len(sub) <= len(text); i++ {
		if text[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestCompactPartialOrder: in a partially ordered method, an inlined
// method's precondition joins only when it is permanent (here (p), which
// no action adds) and the task comes first; the orderings
// through an emptied test still hold between the blocks around it.
func TestCompactPartialOrder(t *testing.T) {
	domain := `(define (domain po)
	  (:constants x y z)
  (:predicates (p) (q) (done ?x))
	  (:task top :parameters ()) (:task test :parameters ()) (:task flip :parameters ())
	  (:task two :parameters ())
	  (:method m-top :parameters () :task (top)
	    :subtasks (and (t1 (a)) (t2 (test)) (t3 (two)) (t4 (flip)))
	    :ordering (and (< t1 t2) (< t2 t3)))
	  (:method m-test :parameters () :task (test) :precondition (p))
	  (:method m-flip :parameters () :task (flip) :precondition (q) :ordered-subtasks (b))
	  (:method m-two :parameters () :task (two) :subtasks (and (x (b)) (y (c))))
	  (:action a :parameters () :effect (done x))
	  (:action b :parameters () :effect (and (done y) (not (q)) (not (p))))
	  (:action c :parameters () :effect (and (done z) (q))))`
	problem := `(define (problem po1) (:domain po)
	  (:htn :subtasks (top)) (:init (p) (q)))`
	_, f := compactText(t, domain, problem)
	top, subs := topSubtasks(f.Task)
	// test is not first (a precedes it): kept. flip has a precondition on
	// (q), which actions change: kept. two has none: inlined.
	if want := []string{"a", "test", "b", "c", "flip"}; !slices.Equal(subs, want) {
		t.Fatalf("m-top's subtasks %v, want %v", subs, want)
	}
	// t2 < both subtasks of two
	before := map[[2]int32]bool{}
	for _, o := range top.Ordering {
		before[[2]int32{o.Before, o.After}] = true
	}
	if !before[[2]int32{0, 1}] || !before[[2]int32{1, 2}] || !before[[2]int32{1, 3}] || before[[2]int32{2, 3}] {
		t.Errorf("orderings %v, want a<test, test<b, test<c and b, c unordered", top.Ordering)
	}

	// with a first and permanent test, it folds: no action adds (p), so
	// if it holds where the test stands it held at the method's start
	domain2 := `(define (domain po2)
	  (:constants x y)
	  (:predicates (p) (done ?x))
	  (:task top :parameters ()) (:task test :parameters ())
	  (:method m-top :parameters () :task (top)
	    :subtasks (and (t1 (a)) (t2 (test)) (t3 (b)))
	    :ordering (and (< t2 t3)))
	  (:method m-test :parameters () :task (test) :precondition (p))
	  (:action a :parameters () :effect (done x))
	  (:action b :parameters () :effect (and (done y) (not (p)))))`
	problem2 := `(define (problem po2) (:domain po2)
	  (:htn :subtasks (top)) (:init (p)))`
	_, f2 := compactText(t, domain2, problem2)
	top2, _ := topSubtasks(f2.Task)
	if len(top2.Subtasks) != 2 || len(top2.Pre) != 1 {
		t.Errorf("m-top: %d subtasks, %d preconditions; want the test folded", len(top2.Subtasks), len(top2.Pre))
	}
}

// TestCompactCancel: compaction stops with the context.
func TestCompactCancel(t *testing.T) {
	task, _ := groundSudoku(t, paperPuzzle, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ground.Compact(ctx, task); err != context.Canceled {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
