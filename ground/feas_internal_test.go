package ground

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/hddl"
)

// A growing task's grounding stops asking feasibility questions once they
// have taken most of its join steps and rarely answered no; until then,
// and without feasAdaptive, it asks them.
func TestFeasibilityAdaptive(t *testing.T) {
	_, p, err := hddl.Load("../testdata/recursive/domain.hddl", "../testdata/recursive/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	for _, adaptive := range []bool{false, true} {
		lz, err := newLazy(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		lz.feasAdaptive = adaptive
		var compound int32 = -1
		for _, ot := range lz.Initial() {
			if id := lz.Bind(ot, make([]int32, len(p.Vars))); id >= 0 && !ot.Ref.Primitive {
				compound = id
				break
			}
		}
		if compound < 0 {
			t.Fatal("no compound task in the initial network")
		}
		// questions that took all the work and never said no
		lz.feasAsked, lz.feasNo = feasTrial, 0
		lz.ticks, lz.feasTicks = 1000, 1000
		lz.mayApply(compound, lz.Init())
		if asked := lz.feasAsked > feasTrial; asked == adaptive {
			t.Errorf("adaptive %v: asked %v", adaptive, asked)
		}
		// questions that told something: asked again
		lz.feasAsked, lz.feasNo = feasTrial, feasTrial
		delete(lz.possible, compound)
		lz.mayApply(compound, lz.Init())
		if lz.feasAsked == feasTrial {
			t.Errorf("adaptive %v: a useful question was not asked", adaptive)
		}
		// a few questions given up at their work bound, none answered
		// no: not asked again, however few were asked
		lz.feasAsked, lz.feasNo, lz.feasGaveUps = feasGiveUps, 0, feasGiveUps
		lz.ticks, lz.feasTicks = 1000, 0
		delete(lz.possible, compound)
		lz.mayApply(compound, lz.Init())
		if asked := lz.feasAsked > feasGiveUps; asked == adaptive {
			t.Errorf("adaptive %v, %d questions given up: asked %v", adaptive, feasGiveUps, asked)
		}
		// as many answered no: asked
		lz.feasAsked, lz.feasNo = feasGiveUps, feasGiveUps
		delete(lz.possible, compound)
		lz.mayApply(compound, lz.Init())
		if lz.feasAsked == feasGiveUps {
			t.Errorf("adaptive %v: a question was not asked though as many said no as gave up", adaptive)
		}
	}
}

// Feasibility looks at the types of what actions add: a truck's drive
// adds at, which a pallet can never be, so clearing a pallet where it is
// not is infeasible (a method instance needing it is left out), while
// clearing it where it stands is feasible. (A look per predicate took at
// to be addable, and IPC Depots' search went through every such way.)
func TestFeasibleTypedAdds(t *testing.T) {
	d, err := hddl.ParseDomain("d.hddl", []byte(`(define (domain d)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types place locatable - object truck pallet - locatable)
  (:predicates (at ?x - locatable ?p - place) (clear ?x - pallet))
  (:task clear :parameters (?x - pallet ?p - place))
  (:method done :parameters (?x - pallet ?p - place) :task (clear ?x ?p)
    :precondition (and (at ?x ?p) (clear ?x)) :ordered-subtasks (and))
  (:method empty :parameters (?x - pallet ?p - place) :task (clear ?x ?p)
    :precondition (and (at ?x ?p) (not (clear ?x))) :ordered-subtasks (and (tidy ?x)))
  (:action tidy :parameters (?x - pallet) :effect (clear ?x))
  (:action drive :parameters (?t - truck ?from ?to - place)
    :precondition (at ?t ?from) :effect (and (not (at ?t ?from)) (at ?t ?to))))`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hddl.ParseProblem("p.hddl", []byte(`(define (problem p) (:domain d)
  (:objects here there - place t - truck x - pallet)
  (:htn :ordered-subtasks (and (clear x there)))
  (:init (at t here) (at x here)))`), d)
	if err != nil {
		t.Fatal(err)
	}
	lz, err := newLazy(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	obj := func(name string) int { return p.ObjectIndex(name) }
	clear := hddl.TaskRef{Index: d.TaskIndex("clear")}
	far := lz.internTask(clear, []int32{int32(obj("x")), int32(obj("there"))})
	near := lz.internTask(clear, []int32{int32(obj("x")), int32(obj("here"))})
	if lz.mayApply(far, lz.Init()) {
		t.Error("a pallet cleared where it is not, which no action can bring it to: feasible")
	}
	if !lz.mayApply(near, lz.Init()) {
		t.Error("a pallet cleared where it stands: infeasible")
	}
}

// A method whose variables only free bindings bind (no atom joins them)
// stops at a context ended: before, the loop over the bindings looked at
// the context only through joins, and IPC Freecell's --timeout 3s ended
// at 3.7 s.
func TestFreeBindingsStop(t *testing.T) {
	var objs strings.Builder
	for i := range 100 {
		fmt.Fprintf(&objs, " o%d", i)
	}
	d, err := hddl.ParseDomain("d.hddl", []byte(`(define (domain d)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types thing)
  (:predicates (bad ?x ?y ?z - thing))
  (:task t :parameters ())
  (:method m :parameters (?x ?y ?z - thing) :task (t)
    :precondition (not (bad ?x ?y ?z)) :ordered-subtasks (and (a ?x ?y ?z)))
  (:action a :parameters (?x ?y ?z - thing) :effect (bad ?x ?y ?z)))`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hddl.ParseProblem("p.hddl", []byte(`(define (problem p) (:domain d)
  (:objects`+objs.String()+` - thing)
  (:htn :ordered-subtasks (and (t))))`), d)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	lz, err := newLazy(ctx, p, Options{MaxGround: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	root := lz.Bind(lz.Initial()[0], nil)
	_, _, err = lz.Methods(root, lz.Init(), false, 0, 0)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if lz.looks > 10_000 {
		t.Errorf("%d bindings looked at after the context ended", lz.looks)
	}
}
