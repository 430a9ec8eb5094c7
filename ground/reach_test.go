package ground_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/ground"
)

// transport is a small logistics domain whose delete relaxation reaches
// every package everywhere, although the hierarchy moves only the
// packages the initial network names.
const transport = `(define (domain transport)
  (:types vehicle package location)
  (:predicates (pat ?p - package ?l - location) (vat ?v - vehicle ?l - location)
    (in ?p - package ?v - vehicle) (road ?a ?b - location))
  (:task deliver :parameters (?p - package ?l - location))
  (:task get-to :parameters (?v - vehicle ?l - location))
  (:method m-deliver :parameters (?p - package ?l ?l1 - location ?v - vehicle)
    :task (deliver ?p ?l) :precondition (pat ?p ?l1)
    :ordered-subtasks (and (get-to ?v ?l1) (pick ?v ?l1 ?p) (get-to ?v ?l) (drop ?v ?l ?p)))
  (:method m-here :parameters (?v - vehicle ?l - location)
    :task (get-to ?v ?l) :precondition (vat ?v ?l) :ordered-subtasks ())
  (:method m-drive :parameters (?v - vehicle ?l ?l0 - location)
    :task (get-to ?v ?l) :ordered-subtasks (and (get-to ?v ?l0) (drive ?v ?l0 ?l)))
  (:action drive :parameters (?v - vehicle ?a ?b - location)
    :precondition (and (vat ?v ?a) (road ?a ?b)) :effect (and (not (vat ?v ?a)) (vat ?v ?b)))
  (:action pick :parameters (?v - vehicle ?l - location ?p - package)
    :precondition (and (vat ?v ?l) (pat ?p ?l)) :effect (and (not (pat ?p ?l)) (in ?p ?v)))
  (:action drop :parameters (?v - vehicle ?l - location ?p - package)
    :precondition (and (vat ?v ?l) (in ?p ?v)) :effect (and (not (in ?p ?v)) (pat ?p ?l))))`

// TestRelevance: the patterns of the initial network's arguments, carried
// down the methods, keep the analysis from reaching what no decomposition
// can ask for.
func TestRelevance(t *testing.T) {
	problem := `(define (problem t1) (:domain transport)
	  (:objects v1 - vehicle p1 p2 p3 - package l1 l2 l3 l4 - location)
	  (:htn :subtasks (deliver p1 l3))
	  (:init (vat v1 l1) (pat p1 l1) (pat p2 l1) (pat p3 l1)
	    (road l1 l2) (road l2 l1) (road l2 l3) (road l3 l2) (road l3 l4) (road l4 l3) (road l1 l4) (road l4 l1)))`
	task, st, err := groundText(t, transport, problem)
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	// the relaxation alone: v1 anywhere (4), every package in v1 (3) and
	// anywhere (12), 19 facts. The hierarchy picks up only p1 and drops
	// it only at l3: v1 anywhere, p1 in v1, p1 at l1 and l3, p2 and p3 at
	// l1: 9 facts
	if st.ReachableFacts != 9 {
		t.Errorf("%d reachable facts, want 9", st.ReachableFacts)
	}
	for i := range task.Actions {
		name := task.TaskName(ground.TaskID(i))
		if strings.Contains(name, "p2") || strings.Contains(name, "p3") || strings.HasPrefix(name, "drop") && !strings.Contains(name, "l3") {
			t.Errorf("action %s survived", name)
		}
	}
	if st.BuiltActions > len(task.Actions)+4 {
		t.Errorf("%d actions built for %d kept", st.BuiltActions, len(task.Actions))
	}
}

// TestNegativePreconditionsReach: a negative precondition holds in the
// delete relaxation only where the fact is false initially or some
// reachable action deletes it. A wall that only a body standing on it
// could free is never entered.
func TestNegativePreconditionsReach(t *testing.T) {
	domain := `(define (domain walls)
	  (:types cell)
	  (:predicates (at ?c - cell) (occupied ?c - cell) (adj ?a ?b - cell))
	  (:task wander :parameters ())
	  (:method m-step :parameters (?a ?b - cell) :task (wander)
	    :ordered-subtasks (and (step ?a ?b) (wander)))
	  (:method m-stop :parameters () :task (wander) :ordered-subtasks ())
	  (:action step :parameters (?a ?b - cell)
	    :precondition (and (at ?a) (adj ?a ?b) (not (occupied ?b)))
	    :effect (and (not (at ?a)) (at ?b) (not (occupied ?a)) (occupied ?b))))`
	problem := `(define (problem w1) (:domain walls)
	  (:objects c1 c2 c3 c4 - cell)
	  (:htn :subtasks (wander))
	  (:init (at c1) (occupied c1) (occupied c3)
	    (adj c1 c2) (adj c2 c1) (adj c2 c3) (adj c3 c2) (adj c3 c4) (adj c4 c3)))`
	task, st, err := groundText(t, domain, problem)
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	// at c1, at c2, occupied c1, c2 and c3: c3 is freed only by leaving
	// it, which needs entering it, which needs it free
	if st.ReachableFacts != 5 {
		t.Errorf("%d reachable facts, want 5", st.ReachableFacts)
	}
	names := map[string]bool{}
	for i := range task.Actions {
		names[task.TaskName(ground.TaskID(i))] = true
	}
	if len(names) != 2 || !names["step c1 c2"] || !names["step c2 c1"] {
		t.Errorf("actions %v, want step c1 c2 and step c2 c1", names)
	}
}

// TestSplitSpan: a variable that passes a value between consecutive
// subtasks of a totally ordered method (the place ?from where the truck
// picks the parcel up) splits off with both: one method per (parcel,
// destination), one synthetic method per (parcel, source), instead of one
// per triple.
func TestSplitSpan(t *testing.T) {
	domain := `(define (domain span)
	  (:types parcel place)
	  (:predicates (at ?p - parcel ?l - place) (truck ?l - place) (in ?p - parcel))
	  (:task deliver :parameters (?p - parcel ?to - place))
	  (:method m-deliver :parameters (?p - parcel ?from ?to - place)
	    :task (deliver ?p ?to) :precondition (at ?p ?from)
	    :ordered-subtasks (and (go ?from) (pick ?p ?from) (go ?to) (drop ?p ?to)))
	  (:action go :parameters (?l - place) :effect (and (truck ?l)))
	  (:action pick :parameters (?p - parcel ?l - place)
	    :precondition (and (truck ?l) (at ?p ?l)) :effect (and (in ?p) (not (at ?p ?l))))
	  (:action drop :parameters (?p - parcel ?l - place)
	    :precondition (and (truck ?l) (in ?p)) :effect (and (at ?p ?l) (not (in ?p)))))`
	var objs, init, tasks strings.Builder
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&objs, " l%d", i)
	}
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&init, " (at p%d l%d)", i, i)
		for j := 0; j < 6; j++ {
			fmt.Fprintf(&tasks, " (deliver p%d l%d)", i, j)
		}
	}
	problem := `(define (problem s1) (:domain span) (:objects p0 p1 p2 p3 - parcel` + objs.String() + ` - place)
	  (:htn :ordered-subtasks (and` + tasks.String() + `)) (:init` + init.String() + `))`
	task, st, err := groundText(t, domain, problem)
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	// parcels go anywhere, so (p, from) takes 4·6 values: 24 deliveries
	// and 24 synthetic methods, not 4·6·6
	if n := st.MethodInstances["m-deliver"]; n != 24 {
		t.Errorf("%d m-deliver instances, want 24", n)
	}
	synth := 0
	for i := range task.Compounds {
		if c := &task.Compounds[i]; c.Synthetic() {
			for _, m := range c.Methods {
				synth++
				if k := len(task.Methods[m].Subtasks); k != 2 || !task.Methods[m].Total {
					t.Errorf("synthetic method with %d subtasks (total %v), want go and pick in order", k, task.Methods[m].Total)
				}
			}
		}
	}
	if synth != 24 {
		t.Errorf("%d synthetic methods, want 24", synth)
	}
}

// TestUniversalPrecondition: a universal precondition is expanded over
// the objects into ground atoms, which the fixpoint counts down rather
// than joining at each (a join per atom costs time quadratic in them);
// an action is found whether its other precondition comes before the
// last of those atoms (act) or after all of them (fin).
func TestUniversalPrecondition(t *testing.T) {
	domain := `(define (domain u) (:requirements :universal-preconditions :universal-effects)
  (:types thing)
  (:constants o4 - thing)
  (:predicates (p ?a ?b - thing) (ready ?x - thing) (late ?x - thing) (done ?x - thing))
  (:task t :parameters (?x - thing))
  (:method m :parameters (?x - thing) :task (t ?x)
    :ordered-subtasks (and (prep ?x) (set ?x) (prep-late ?x) (act ?x) (fin ?x)))
  (:action prep :parameters (?x - thing) :effect (ready ?x))
  (:action set :parameters (?x - thing) :effect (forall (?a ?b - thing) (p ?a ?b)))
  (:action prep-late :parameters (?x - thing) :precondition (p o4 o4) :effect (late ?x))
  (:action act :parameters (?x - thing)
    :precondition (and (forall (?a ?b - thing) (p ?a ?b)) (ready ?x)) :effect (done ?x))
  (:action fin :parameters (?x - thing)
    :precondition (and (late ?x) (forall (?a ?b - thing) (p ?a ?b))) :effect (done ?x)))`
	problem := `(define (problem u1) (:domain u)
  (:objects o1 o2 o3 - thing)
  (:htn :ordered-subtasks (and (t o1) (t o2)))
  (:init))`
	task, _, err := groundText(t, domain, problem)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	for i, a := range task.Actions {
		found[task.TaskName(ground.TaskID(i))] = len(a.Pre)
	}
	for _, name := range []string{"act o1", "act o2", "fin o1", "fin o2"} {
		pre, ok := found[name]
		if !ok {
			t.Errorf("%s not grounded (have %v)", name, found)
		} else if pre != 17 {
			t.Errorf("%s has %d preconditions, want 16 p facts and one more", name, pre)
		}
	}
}

// TestUniversalNegatedPrecondition: a universal negated precondition is
// expanded into ground negated atoms; those over facts true initially are
// counted down as the facts are deleted, and an action one of whose facts
// is never deleted is not reached.
func TestUniversalNegatedPrecondition(t *testing.T) {
	domain := `(define (domain n) (:requirements :universal-preconditions :universal-effects :negative-preconditions)
  (:types thing)
  (:predicates (p ?a ?b - thing) (r ?a - thing) (done ?x - thing))
  (:task t :parameters (?x - thing))
  (:method m :parameters (?x - thing) :task (t ?x) :ordered-subtasks (and (clear ?x) (act ?x)))
  (:method m-never :parameters (?x - thing) :task (t ?x) :ordered-subtasks (and (clear ?x) (never ?x)))
  (:action clear :parameters (?x - thing) :effect (forall (?a ?b - thing) (not (p ?a ?b))))
  (:action act :parameters (?x - thing)
    :precondition (forall (?a ?b - thing) (not (p ?a ?b))) :effect (done ?x))
  (:action never :parameters (?x - thing)
    :precondition (and (forall (?a ?b - thing) (not (p ?a ?b))) (forall (?a - thing) (not (r ?a))))
    :effect (done ?x)))`
	problem := `(define (problem n1) (:domain n)
  (:objects o1 o2 o3 - thing)
  (:htn :ordered-subtasks (and (t o1) (t o2)))
  (:init (p o1 o1) (p o1 o2) (p o3 o2) (r o2)))`
	task, _, err := groundText(t, domain, problem)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for i := range task.Actions {
		found[task.TaskName(ground.TaskID(i))] = true
	}
	for _, name := range []string{"act o1", "act o2"} {
		if !found[name] {
			t.Errorf("%s not grounded (have %v)", name, found)
		}
	}
	for _, name := range []string{"never o1", "never o2"} {
		if found[name] {
			t.Errorf("%s grounded, but (r o2) is never deleted", name)
		}
	}
}
