package hddl

import (
	"strings"
	"testing"
)

// TestActionCosts: (increase (total-cost) N) at the top of an action's
// effect is its cost, (:functions (total-cost) - number), :metric minimize
// (total-cost) and (= (total-cost) 0) in :init are read, a domain with
// costs prints them back, and any other numeric expression is an error at
// its position.
func TestActionCosts(t *testing.T) {
	dom := `(define (domain c) (:requirements :hierarchy :action-costs)
  (:predicates (done))
  (:functions (total-cost) - number)
  (:task t :parameters ())
  (:method m :parameters () :task (t) :ordered-subtasks (and (a) (b)))
  (:action a :parameters () :effect (and (done) (increase (total-cost) 3)))
  (:action b :parameters () :effect (increase (total-cost) 2))
  (:action z :parameters () :effect (done)))`
	d, err := ParseDomain("c.hddl", []byte(dom))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Costs || d.ActionCost(d.ActionIndex("a")) != 3 || d.ActionCost(d.ActionIndex("b")) != 2 || d.ActionCost(d.ActionIndex("z")) != 0 {
		t.Errorf("costs %v: a %d, b %d, z %d", d.Costs, d.Actions[0].Cost, d.Actions[1].Cost, d.Actions[2].Cost)
	}
	if d.Actions[d.ActionIndex("a")].Effect == nil || d.Actions[d.ActionIndex("b")].Effect != nil {
		t.Error("the cost was not taken out of the effect")
	}
	text := DomainString(d)
	d2, err := ParseDomain("printed.hddl", []byte(text))
	if err != nil || !d2.Costs || d2.Actions[d2.ActionIndex("a")].Cost != 3 {
		t.Errorf("printed and read again: %v\n%s", err, text)
	}
	// an effect of several conjuncts besides its cost prints back the same
	two := strings.Replace(dom, "(and (done) (increase (total-cost) 3))", "(and (done) (not (done)) (increase (total-cost) 3))", 1)
	d3, err := ParseDomain("two.hddl", []byte(two))
	if err != nil {
		t.Fatal(err)
	}
	once := DomainString(d3)
	if d4, err := ParseDomain("printed.hddl", []byte(once)); err != nil || DomainString(d4) != once || len(d4.Actions[0].Effect.Subs) != 2 {
		t.Errorf("a cost beside two conjuncts, printed and read again: %v\n%s", err, once)
	}
	prob := `(define (problem p) (:domain c) (:htn :subtasks (t)) (:init (done) (= (total-cost) 0)) (:metric minimize (total-cost)))`
	if p, err := ParseProblem("p.hddl", []byte(prob), d); err != nil || len(p.Init) != 1 {
		t.Errorf("the problem: %v", err)
	}
	// the largest cost is taken, one more is not (see the loop below)
	if big, err := ParseDomain("big.hddl", []byte(strings.Replace(dom, "(increase (total-cost) 3)", "(increase (total-cost) 2147483647)", 1))); err != nil || big.ActionCost(big.ActionIndex("a")) != MaxCost {
		t.Errorf("the largest cost: %v", err)
	}
	plain, _ := ParseDomain("plain.hddl", []byte(`(define (domain c) (:predicates (done)) (:action z :parameters () :effect (done)))`))
	if plain.Costs || plain.ActionCost(0) != 1 {
		t.Error("a domain without costs: each action should cost 1")
	}
	for src, want := range map[string]string{
		strings.Replace(dom, "(increase (total-cost) 3)", "(increase (total-cost) -3)", 1):                                                                   "whole number",
		strings.Replace(dom, "(increase (total-cost) 3)", "(increase (total-cost) 2147483648)", 1):                                                           "above 2147483647",
		strings.Replace(dom, "(increase (total-cost) 3)", "(increase (total-cost) 99999999999999999999999)", 1):                                              "above 2147483647",
		strings.Replace(dom, "(increase (total-cost) 3)", "(increase (total-cost) -99999999999999999999999)", 1):                                             "whole number",
		strings.Replace(dom, "(increase (total-cost) 3)", "(increase (fuel) 3)", 1):                                                                          "numeric fluents are not supported",
		strings.Replace(dom, "(increase (total-cost) 3)", "(increase (total-cost) (c ?x))", 1):                                                               "costs given by functions",
		strings.Replace(dom, "(increase (total-cost) 3)", "(when (done) (increase (total-cost) 3))", 1):                                                      "only allowed as an action's cost",
		strings.Replace(dom, "(:task t", "(:method n :parameters () :task (t) :precondition (increase (total-cost) 1) :ordered-subtasks (a))\n (:task t", 1): "only allowed as an action's cost",
	} {
		if _, err := ParseDomain("c.hddl", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
}
