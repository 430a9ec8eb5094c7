package verify_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/verify"
)

// parse reads a domain, a problem and a plan from text.
func parse(t testing.TB, dom, prob, pl string) (*hddl.Problem, *plan.Plan) {
	t.Helper()
	d, err := hddl.ParseDomain("d.hddl", []byte(dom))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hddl.ParseProblem("p.hddl", []byte(prob), d)
	if err != nil {
		t.Fatal(err)
	}
	x, err := plan.Read(strings.NewReader(pl))
	if err != nil {
		t.Fatal(err)
	}
	return p, x
}

// TestDeepPlan: a valid plan whose decomposition is a chain a million
// tasks deep verifies, without recursion deep enough to overflow.
func TestDeepPlan(t *testing.T) {
	n := 1000000
	if testing.Short() {
		n = 100000
	}
	dom := `(define (domain deep) (:requirements :hierarchy)
  (:task t :parameters ())
  (:method m-down :parameters () :task (t) :ordered-subtasks (t))
  (:method m-end :parameters () :task (t) :ordered-subtasks (a))
  (:action a :parameters ()))`
	prob := `(define (problem deep) (:domain deep) (:htn :ordered-subtasks (t)))`
	var b strings.Builder
	b.WriteString("==>\n0 a\nroot 1\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "%d t -> m-down %d\n", i, i+1)
	}
	fmt.Fprintf(&b, "%d t -> m-end 0\n<==\n", n)
	p, pl := parse(t, dom, prob, b.String())
	if err := verify.Verify(context.Background(), p, pl); err != nil {
		t.Fatal(err)
	}
}

// TestWrongTaskForSubtask: a plan line that decomposes, where a method
// expects one task, another task (with another number of arguments) by
// that task's own method is an error at that line, not a crash.
func TestWrongTaskForSubtask(t *testing.T) {
	dom := `(define (domain w) (:requirements :hierarchy :typing)
  (:types thing)
  (:constants x - thing)
  (:task top :parameters ())
  (:task one :parameters (?a - thing))
  (:task none :parameters ())
  (:method m-top :parameters () :task (top) :ordered-subtasks (one x))
  (:method m-one :parameters (?a - thing) :task (one ?a) :ordered-subtasks (act ?a))
  (:method m-none :parameters () :task (none) :ordered-subtasks (act x))
  (:action act :parameters (?a - thing)))`
	prob := `(define (problem w) (:domain w) (:htn :ordered-subtasks (top)))`
	valid := "==>\n0 act x\nroot 1\n1 top -> m-top 2\n2 one x -> m-one 0\n<==\n"
	p, pl := parse(t, dom, prob, valid)
	if err := verify.Verify(context.Background(), p, pl); err != nil {
		t.Fatalf("the valid plan: %v", err)
	}
	bad := strings.Replace(valid, "2 one x -> m-one 0", "2 none -> m-none 0", 1)
	p, pl = parse(t, dom, prob, bad)
	err := verify.Verify(context.Background(), p, pl)
	if err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "must be (one x)") {
		t.Errorf("a subtask of the wrong task: %v", err)
	}
}

// TestWrappedRoot: the root as pandaPI writes it, one __top task whose
// method lists the initial network, is read as that network.
func TestWrappedRoot(t *testing.T) {
	dom := `(define (domain w) (:requirements :hierarchy)
  (:task t :parameters ())
  (:method m :parameters () :task (t) :ordered-subtasks (a))
  (:action a :parameters ()))`
	prob := `(define (problem w) (:domain w) (:htn :ordered-subtasks (and (t) (t))))`
	pl := "==>\n0 a\n1 a\nroot 8\n8 __top -> __top_method 2 3\n2 t -> m 0\n3 t -> m 1\n<==\n"
	p, x := parse(t, dom, prob, pl)
	if err := verify.Verify(context.Background(), p, x); err != nil {
		t.Fatal(err)
	}
	if x.Root[0] != 8 || len(x.Decomps) != 3 {
		t.Error("Verify changed the plan it was given")
	}
	// a wrapper that does not list the network is still wrong
	p, x = parse(t, dom, prob, "==>\n0 a\n1 a\nroot 8\n8 __top -> __top_method 2\n2 t -> m 0\n3 t -> m 1\n<==\n")
	if err := verify.Verify(context.Background(), p, x); err == nil {
		t.Error("a wrapped root missing a task verified")
	}
}

// TestVariableWithoutObjects: a method variable the plan leaves open
// whose type has no objects has no ground instance: the plan is invalid.
func TestVariableWithoutObjects(t *testing.T) {
	dom := `(define (domain e) (:requirements :hierarchy :typing)
  (:types thing ghost)
  (:constants x - thing)
  (:task t :parameters ())
  (:method m :parameters (?g - ghost) :task (t) :ordered-subtasks (a))
  (:action a :parameters ()))`
	prob := `(define (problem e) (:domain e) (:htn :ordered-subtasks (t)))`
	p, pl := parse(t, dom, prob, "==>\n0 a\nroot 1\n1 t -> m 0\n<==\n")
	err := verify.Verify(context.Background(), p, pl)
	if err == nil || !strings.Contains(err.Error(), "no objects") {
		t.Errorf("a method over an empty type: %v", err)
	}
}

// TestPartialOrderListing: the verdict on a plan does not depend on the
// order in which a partially ordered method's line lists its subtasks:
// two alike subtasks, one ordered before a third, are told apart by
// where their actions fall.
func TestPartialOrderListing(t *testing.T) {
	dom := `(define (domain po) (:requirements :hierarchy :typing)
  (:types item)
  (:constants i1 i2 i3 - item)
  (:task top :parameters ())
  (:task s :parameters (?i - item))
  (:method m-top :parameters (?a ?b - item) :task (top)
    :subtasks (and (t1 (s ?a)) (t2 (s ?b)) (t3 (s i3)))
    :ordering (and (< t1 t3)))
  (:method m-s :parameters (?i - item) :task (s ?i) :ordered-subtasks (act ?i))
  (:action act :parameters (?i - item)))`
	prob := `(define (problem po) (:domain po) (:htn :ordered-subtasks (top)))`
	// actions: i2 first, then i3, then i1: so t1 (before t3) must be
	// the s whose action is i2
	acts := "==>\n0 act i2\n1 act i3\n2 act i1\nroot 10\n"
	subs := "11 s i2 -> m-s 0\n12 s i1 -> m-s 2\n13 s i3 -> m-s 1\n<==\n"
	ids := []string{"11", "12", "13"}
	rng := rand.New(rand.NewSource(1))
	for range 12 {
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		p, pl := parse(t, dom, prob, acts+"10 top -> m-top "+strings.Join(ids, " ")+"\n"+subs)
		if err := verify.Verify(context.Background(), p, pl); err != nil {
			t.Errorf("subtasks listed as %v: %v", ids, err)
		}
	}
	// and a plan that breaks the order is rejected in every listing
	bad := strings.Replace(acts, "0 act i2\n1 act i3\n2 act i1", "0 act i3\n1 act i2\n2 act i1", 1)
	badSubs := "11 s i2 -> m-s 1\n12 s i1 -> m-s 2\n13 s i3 -> m-s 0\n<==\n"
	for range 6 {
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		p, pl := parse(t, dom, prob, bad+"10 top -> m-top "+strings.Join(ids, " ")+"\n"+badSubs)
		if err := verify.Verify(context.Background(), p, pl); err == nil {
			t.Errorf("subtasks listed as %v: an out-of-order plan verified", ids)
		}
	}
}
