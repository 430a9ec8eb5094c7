package ground

import (
	"context"
	"slices"
	"testing"

	"github.com/htnsat/htnsat/hddl"
)

// cities is a parcel and two trucks, one in each of two cities: a truck
// drives only within its city, so the truck of city b can never be at a
// place of city a, which the static facts alone do not tell.
const citiesDomain = `(define (domain cities)
  (:requirements :typing :hierarchy :method-preconditions)
  (:types place city truck parcel)
  (:predicates (at ?x - parcel ?p - place) (truck-at ?t - truck ?p - place)
    (in ?x - parcel ?t - truck) (in-city ?p - place ?c - city))
  (:task deliver :parameters (?x - parcel ?p - place))
  (:task visit :parameters (?t - truck ?p - place))
  (:method there :parameters (?x - parcel ?p - place) :task (deliver ?x ?p)
    :precondition (at ?x ?p) :ordered-subtasks (and))
  (:method carry :parameters (?x - parcel ?p ?q - place ?t - truck) :task (deliver ?x ?p)
    :precondition (at ?x ?q)
    :ordered-subtasks (and (visit ?t ?q) (load ?x ?t ?q) (visit ?t ?p) (unload ?x ?t ?p) (deliver ?x ?p)))
  (:method arrived :parameters (?t - truck ?p - place) :task (visit ?t ?p)
    :precondition (truck-at ?t ?p) :ordered-subtasks (and))
  (:method go :parameters (?t - truck ?p ?q - place ?c - city) :task (visit ?t ?p)
    :ordered-subtasks (and (drive ?t ?q ?p ?c)))
  (:action drive :parameters (?t - truck ?from ?to - place ?c - city)
    :precondition (and (truck-at ?t ?from) (in-city ?from ?c) (in-city ?to ?c))
    :effect (and (not (truck-at ?t ?from)) (truck-at ?t ?to)))
  (:action load :parameters (?x - parcel ?t - truck ?p - place)
    :precondition (and (at ?x ?p) (truck-at ?t ?p))
    :effect (and (not (at ?x ?p)) (in ?x ?t)))
  (:action unload :parameters (?x - parcel ?t - truck ?p - place)
    :precondition (and (in ?x ?t) (truck-at ?t ?p))
    :effect (and (not (in ?x ?t)) (at ?x ?p))))`

func citiesProblem(t *testing.T) *hddl.Problem {
	t.Helper()
	d, err := hddl.ParseDomain("d.hddl", []byte(citiesDomain))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hddl.ParseProblem("p.hddl", []byte(`(define (problem p) (:domain cities)
  (:objects a1 a2 b1 b2 - place ca cb - city ta tb - truck x - parcel)
  (:htn :ordered-subtasks (and (deliver x a2)))
  (:init (at x a1) (truck-at ta a1) (truck-at tb b1)
    (in-city a1 ca) (in-city a2 ca) (in-city b1 cb) (in-city b2 cb)))`), d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReachFacts: a grounding on demand knows the fluent facts the
// delete-relaxed reachability reaches, and a task that needs one it
// never reaches is infeasible; without that pass (reach nil), only the
// static facts and the types rule out, and the truck of city b may visit
// a place of city a.
func TestReachFacts(t *testing.T) {
	p := citiesProblem(t)
	d := p.Domain
	g, err := NewGrow(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lz := g.lz
	if lz.reach == nil {
		t.Fatal("no reachability pass on a small problem")
	}
	obj := func(name string) int32 { return int32(p.ObjectIndex(name)) }
	visit := hddl.TaskRef{Index: d.TaskIndex("visit")}
	far := lz.internTask(visit, []int32{obj("tb"), obj("a2")})
	near := lz.internTask(visit, []int32{obj("ta"), obj("a2")})
	if !lz.mayApply(near, lz.Init()) {
		t.Error("the truck of city a visiting a place of its city: infeasible")
	}
	if lz.mayApply(far, lz.Init()) {
		t.Error("the truck of city b visiting a place of city a: feasible")
	}
	lz.reach = nil
	clear(lz.possible)
	clear(lz.feas)
	if !lz.mayApply(far, lz.Init()) {
		t.Error("without reachability, the truck of city b visiting a place of city a: infeasible (the test no longer tells the pass's work)")
	}
}

// TestReachJoin: without a state, the binder joins fluent atoms over the
// facts reachability reaches: the truck of city a drives only between the
// places of city a it can be at (2 × 2 bindings of from and to), where
// the static facts alone allow both cities' (8).
func TestReachJoin(t *testing.T) {
	p := citiesProblem(t)
	g, err := NewGrow(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lz := g.lz
	drive := lz.actions[p.Domain.ActionIndex("drive")]
	count := func() int {
		n := 0
		b := []int32{int32(p.ObjectIndex("ta")), -1, -1, -1}
		lz.staticBinding(drive, b, func([]int32) bool { n++; return false })
		return n
	}
	if n := count(); n != 4 {
		t.Errorf("%d bindings of the drive of ta over the reachable facts, want 4", n)
	}
	lz.reach = nil
	if n := count(); n != 8 {
		t.Errorf("%d bindings of the drive of ta over the static facts, want 8", n)
	}
}

// TestGrowTargets: (deliver x a2) ends once (at x a2) holds; the parcel
// comes there from the truck of its city, one transition away, and into
// it from a1, two; the truck of city b never comes near.
func TestGrowTargets(t *testing.T) {
	p := citiesProblem(t)
	g, err := NewGrow(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := g.Targets(g.Task.Initial[0])
	if ts == nil {
		t.Fatal("no targets for (deliver x a2)")
	}
	var got []string
	for _, x := range ts.near {
		got = append(got, g.lz.call(g.lz.d.Predicates[x.f.Pred].Name, x.f.Args)+" "+string(rune('0'+x.d)))
	}
	want := []string{"(at x a2) 0", "(in x ta) 1", "(at x a1) 2"}
	if !slices.Equal(got, want) {
		t.Errorf("near the targets: %q, want %q", got, want)
	}
}
