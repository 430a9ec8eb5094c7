package verify_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/verify"
)

// longMethod is a problem whose one task is decomposed by one method into
// n subtasks, each an action on its own item (its own variable of the
// method when vars), ordered or not, and the plan that executes them in
// order.
func longMethod(t testing.TB, n int, ordered, vars bool) (*hddl.Problem, *plan.Plan) {
	t.Helper()
	var d, p, pl strings.Builder
	kw := ":subtasks"
	if ordered {
		kw = ":ordered-subtasks"
	}
	params := ""
	sub := func(i int) string { return fmt.Sprintf("(step i%d)", i) }
	if vars {
		var ps []string
		for i := range n {
			ps = append(ps, fmt.Sprintf("?x%d", i))
		}
		params = strings.Join(ps, " ") + " - item"
		sub = func(i int) string { return fmt.Sprintf("(step ?x%d)", i) }
	}
	fmt.Fprintf(&d, "(define (domain long) (:requirements :hierarchy :typing :negative-preconditions)\n(:types item)\n(:constants")
	for i := range n {
		fmt.Fprintf(&d, " i%d", i)
	}
	d.WriteString(" - item)\n(:predicates (done ?i - item))\n(:task all :parameters ())\n")
	fmt.Fprintf(&d, "(:method m-all :parameters (%s) :task (all) %s (and", params, kw)
	for i := range n {
		d.WriteString(" " + sub(i))
	}
	d.WriteString("))\n(:action step :parameters (?i - item) :precondition (not (done ?i)) :effect (done ?i)))\n")
	fmt.Fprintf(&p, "(define (problem long-%d) (:domain long) (:htn :subtasks (all)) (:init))\n", n)
	pl.WriteString("==>\n")
	for i := range n {
		fmt.Fprintf(&pl, "%d step i%d\n", i, i)
	}
	fmt.Fprintf(&pl, "root %d\n%d all -> m-all", n, n)
	for i := range n {
		fmt.Fprintf(&pl, " %d", i)
	}
	pl.WriteString("\n<==\n")
	dom, err := hddl.ParseDomain("long-domain.hddl", []byte(d.String()))
	if err != nil {
		t.Fatal(err)
	}
	prob, err := hddl.ParseProblem("long-problem.hddl", []byte(p.String()), dom)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := plan.Read(strings.NewReader(pl.String()))
	if err != nil {
		t.Fatal(err)
	}
	return prob, plan
}

// TestLongMethod: the plans of long methods verify, and an ordered one
// over constants whose actions run in another order does not (with
// variables, the method's variables just take other values).
func TestLongMethod(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		for _, vars := range []bool{true, false} {
			p, pl := longMethod(t, 300, ordered, vars)
			if err := verify.Verify(context.Background(), p, pl); err != nil {
				t.Fatalf("ordered %v, vars %v: %v", ordered, vars, err)
			}
			pl.Actions[10].Args, pl.Actions[20].Args = pl.Actions[20].Args, pl.Actions[10].Args
			err := verify.Verify(context.Background(), p, pl)
			if (ordered && !vars) != (err != nil) {
				t.Errorf("ordered %v, vars %v, two actions swapped: %v", ordered, vars, err)
			}
		}
	}
}

// TestVerifyCancel: the verifier stops when its context ends.
func TestVerifyCancel(t *testing.T) {
	p, pl := longMethod(t, 5000, true, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := verify.Verify(ctx, p, pl); err != context.Canceled {
		t.Fatalf("Verify with an ended context: %v", err)
	}
}

// BenchmarkVerifyLongMethod verifies the plan of one method with n
// subtasks, ordered or not, bound by constants or by the method's own
// variables.
func BenchmarkVerifyLongMethod(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, c := range []struct {
			name          string
			ordered, vars bool
		}{{"ordered", true, false}, {"ordered-vars", true, true}, {"unordered-vars", false, true}} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				p, pl := longMethod(b, n, c.ordered, c.vars)
				b.ReportAllocs()
				for b.Loop() {
					if err := verify.Verify(context.Background(), p, pl); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
