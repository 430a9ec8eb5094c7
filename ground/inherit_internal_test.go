package ground

import (
	"context"
	"slices"
	"testing"

	"github.com/htnsat/htnsat/hddl"
)

// TestInheritThrough: a delivery drives its vehicle to ?l1, then loads
// the package there. Driving moves only vehicles, never the package, so
// (at ?p ?l1), which the load needs, must hold where the delivery is
// chosen and joins its query; (at ?v ?l1), which the drive may bring
// about, does not. In a domain where the vehicle and the package share
// a type, the drive might move the package too, and nothing joins.
func TestInheritThrough(t *testing.T) {
	domain := func(packageType string) string {
		return `(define (domain d)
  (:requirements :typing :hierarchy)
  (:types place locatable - object vehicle - locatable ` + packageType + `)
  (:predicates (at ?x - locatable ?l - place) (in ?p - package ?v - vehicle))
  (:task deliver :parameters (?p - package ?l - place))
  (:task get-to :parameters (?v - vehicle ?l - place))
  (:task load :parameters (?v - vehicle ?l - place ?p - package))
  (:method m-deliver :parameters (?p - package ?l ?l1 - place ?v - vehicle)
    :task (deliver ?p ?l)
    :ordered-subtasks (and (get-to ?v ?l1) (load ?v ?l1 ?p) (get-to ?v ?l)))
  (:method m-there :parameters (?v - vehicle ?l - place) :task (get-to ?v ?l)
    :ordered-subtasks (and))
  (:method m-drive :parameters (?v - vehicle ?l ?from - place) :task (get-to ?v ?l)
    :ordered-subtasks (and (drive ?v ?from ?l)))
  (:method m-load :parameters (?v - vehicle ?l - place ?p - package) :task (load ?v ?l ?p)
    :ordered-subtasks (and (pick-up ?v ?l ?p)))
  (:action drive :parameters (?v - vehicle ?from ?to - place)
    :precondition (at ?v ?from) :effect (and (not (at ?v ?from)) (at ?v ?to)))
  (:action pick-up :parameters (?v - vehicle ?l - place ?p - package)
    :precondition (and (at ?v ?l) (at ?p ?l)) :effect (and (not (at ?p ?l)) (in ?p ?v))))`
	}
	for _, c := range []struct {
		pkg  string
		want bool
	}{{"package - locatable", true}, {"package - vehicle", false}} {
		d, err := hddl.ParseDomain("d.hddl", []byte(domain(c.pkg)))
		if err != nil {
			t.Fatal(err)
		}
		p, err := hddl.ParseProblem("p.hddl", []byte(`(define (problem p) (:domain d)
  (:objects a b - place v - vehicle x - package)
  (:htn :ordered-subtasks (and (deliver x b)))
  (:init (at v a) (at x a)))`), d)
		if err != nil {
			t.Fatal(err)
		}
		lz, err := newLazy(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		mi := slices.IndexFunc(d.Methods, func(m hddl.Method) bool { return m.Name == "m-deliver" })
		m := &d.Methods[mi]
		vi := func(name string) hddl.Term {
			return hddl.Term(slices.IndexFunc(m.Vars, func(v hddl.Param) bool { return v.Name == name }))
		}
		has := func(args ...hddl.Term) bool {
			return slices.ContainsFunc(lz.methods[mi][0].pos, func(l lit) bool { return slices.Equal(l.args, args) })
		}
		if got := has(vi("?p"), vi("?l1")); got != c.want {
			t.Errorf("%s: (at ?p ?l1) in the delivery's query: %v, want %v", c.pkg, got, c.want)
		}
		if has(vi("?v"), vi("?l1")) {
			t.Errorf("%s: (at ?v ?l1), which the drive before the load may bring about, in the delivery's query", c.pkg)
		}
	}
}
