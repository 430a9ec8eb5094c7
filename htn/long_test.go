package htn

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/internal/testutil"
)

// viewOf grounds a generated domain and problem and returns their view.
func viewOf(t *testing.T, domain, problem string) *view {
	t.Helper()
	v, err := newView(context.Background(), testutil.Ground(t, testutil.ParseHDDL(t, domain, problem)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestManyGoals: n pairs of blocks, each already on its partner as the
// goal wants, and a task per block whose first method takes the block
// off (the domain's order, which the search tries first) and whose
// second does nothing; one more goal is met by the last task. Watching
// every goal, taking a block off fails at once (no task left can put it
// back); watching only some (256 until commit f756614), the goals left
// out are found lost at the end, and the search backtracks through
// 2^(n-256) choices.
func TestManyGoals(t *testing.T) {
	const n = 300
	domain := `(define (domain pairs)
  (:requirements :hierarchy :typing :negative-preconditions)
  (:types block)
  (:predicates (on ?x ?y - block) (table ?x - block) (done))
  (:task touch :parameters (?x ?y - block))
  (:task finish :parameters ())
  (:method m-off :parameters (?x ?y - block) :task (touch ?x ?y)
    :precondition (on ?x ?y) :ordered-subtasks (and (off ?x ?y)))
  (:method m-keep :parameters (?x ?y - block) :task (touch ?x ?y)
    :ordered-subtasks (and))
  (:method m-finish :parameters () :task (finish) :ordered-subtasks (and (finish-up)))
  (:action off :parameters (?x ?y - block) :precondition (on ?x ?y)
    :effect (and (not (on ?x ?y)) (table ?x)))
  (:action finish-up :parameters () :effect (done)))`
	var objs, tasks, init, goals strings.Builder
	for i := range n {
		fmt.Fprintf(&objs, " a%d b%d", i, i)
		fmt.Fprintf(&tasks, " (touch a%d b%d)", i, i)
		fmt.Fprintf(&init, " (on a%d b%d)", i, i)
		fmt.Fprintf(&goals, " (on a%d b%d)", i, i)
	}
	problem := fmt.Sprintf(`(define (problem p) (:domain pairs)
  (:objects%s - block)
  (:htn :ordered-subtasks (and%s (finish)))
  (:init%s)
  (:goal (and (done)%s)))`, objs.String(), tasks.String(), init.String(), goals.String())
	v := viewOf(t, domain, problem)
	if len(v.goals) < n+1 {
		t.Fatalf("%d goals watched, want %d", len(v.goals), n+1)
	}
	st := &Stats{}
	ok, err := newDFS(context.Background(), v, Options{MaxNodes: 100 * n}, st, nil).run()
	if !ok || err != nil {
		t.Fatalf("%v, %v after %d nodes: want a plan", ok, err, st.Nodes)
	}
}

// TestDeepen: a recursive count whose plan runs past the first depth
// cap (n positions, four search steps each) and which may mark any of k
// flags at each position, a choice that never matters. Searching every
// path under the cap to the end before doubling it would visit each
// position with each set of flags (n*2^k states); the run instead gives
// up on the cap after a few times the nodes its first cut took.
func TestDeepen(t *testing.T) {
	const n, k = 2500, 6
	domain := `(define (domain count)
  (:requirements :hierarchy :typing)
  (:types pos flag)
  (:predicates (at ?p - pos) (next ?p ?q - pos) (last ?p - pos) (marked ?f - flag))
  (:task count :parameters ())
  (:method m-step :parameters (?p ?q - pos ?f - flag) :task (count)
    :precondition (and (at ?p) (next ?p ?q))
    :ordered-subtasks (and (mark ?f) (advance ?p ?q) (count)))
  (:method m-done :parameters (?p - pos) :task (count)
    :precondition (and (at ?p) (last ?p)) :ordered-subtasks (and))
  (:action mark :parameters (?f - flag) :effect (marked ?f))
  (:action advance :parameters (?p ?q - pos) :precondition (at ?p)
    :effect (and (not (at ?p)) (at ?q))))`
	var objs, flags, init strings.Builder
	for i := range n + 1 {
		fmt.Fprintf(&objs, " p%d", i)
		if i < n {
			fmt.Fprintf(&init, " (next p%d p%d)", i, i+1)
		}
	}
	for j := range k {
		fmt.Fprintf(&flags, " f%d", j)
	}
	problem := fmt.Sprintf(`(define (problem p) (:domain count)
  (:objects%s - pos%s - flag)
  (:htn :ordered-subtasks (and (count)))
  (:init (at p0) (last p%d)%s))`, objs.String(), flags.String(), n, init.String())
	v := viewOf(t, domain, problem)
	if !v.recursive {
		t.Fatal("want a recursive network")
	}
	st := &Stats{}
	s := newDFS(context.Background(), v, Options{MaxNodes: 300_000}, st, nil)
	ok, err := s.run()
	if !ok || err != nil || s.depthCap <= firstDepthCap {
		t.Fatalf("%v, %v after %d nodes, depth cap %d: want a plan past the first cap", ok, err, st.Nodes, s.depthCap)
	}
}
