package ground_test

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/testutil"
)

const guardDomain = `(define (domain guard)
  (:requirements :typing :hierarchy :equality)
  (:types item grade place)
  (:constants fine - grade)
  (:predicates (smooth ?x - item) (stay ?x - item))
  (:task process :parameters (?x - item ?g - grade))
  (:task move :parameters (?x - item ?from ?to - place))
  (:method fine :parameters (?x - item ?g - grade) :task (process ?x ?g)
    :precondition (= ?g fine)
    :ordered-subtasks (and (polish ?x)))
  (:method still :parameters (?x - item ?p - place) :task (move ?x ?p ?p)
    :ordered-subtasks (and (wait ?x)))
  (:action polish :parameters (?x - item) :effect (smooth ?x))
  (:action wait :parameters (?x - item) :effect (stay ?x)))`

// What a task of a growing task may add (Watch.Mark) takes in the
// conditions its methods put on the task's own arguments: an equality
// of the precondition, a variable the method's task names twice. Before,
// (process a coarse) was taken to reach (smooth a), which no method of
// it makes, and the search ordered its methods by goals it cannot meet.
func TestWatchGuards(t *testing.T) {
	p := testutil.ParseHDDL(t, guardDomain, `(define (problem p) (:domain guard)
  (:objects a b - item coarse - grade here there - place)
  (:htn :ordered-subtasks (and (process a coarse) (process b fine) (move a here there) (move b here here)))
  (:init)
  (:goal (and (smooth a) (smooth b) (stay a) (stay b))))`)
	g, err := ground.NewGrow(context.Background(), p, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	task := g.Task
	if len(task.Initial) != 4 || len(task.Goal) != 4 {
		t.Fatalf("%d initial tasks, %d goals, want 4 and 4", len(task.Initial), len(task.Goal))
	}
	w := g.Watch(task.Goal, len(task.Goal))
	goal := map[string]int{}
	for i, f := range task.Goal {
		goal[task.FactName(f)] = i
	}
	for k, want := range []string{"", "(smooth b)", "", "(stay b)"} {
		id := task.Initial[k]
		m := make([]uint64, 1)
		w.Mark(id, m, nil)
		for name, i := range goal {
			if got := m[0]&(1<<i) != 0; got != (name == want) {
				t.Errorf("%s: reaches %s %v, want %v", task.TaskName(id), name, got, !got)
			}
		}
	}
}

// A task of a network whose open variables no later task has is bound
// by a synthetic task of its own, as the full grounding makes a choice
// task for it, so that the search orders its bindings by what the task
// itself reaches; a variable two tasks share keeps one synthetic task
// for the rest of the network.
func TestGrowOwnVariables(t *testing.T) {
	for _, c := range []struct {
		net  string
		want int
	}{
		{"(process a ?g) (process b ?h) (move a here ?p)", 3},
		{"(process a ?g) (process b ?g) (move a here ?p)", 1},
		{"(process a coarse) (process b ?g) (process a ?g)", 2},
	} {
		p := testutil.ParseHDDL(t, guardDomain, `(define (problem p) (:domain guard)
  (:objects a b - item coarse - grade here there - place)
  (:htn :parameters (?g ?h - grade ?p - place) :ordered-subtasks (and `+c.net+`))
  (:init)
  (:goal (and (smooth a) (smooth b))))`)
		g, err := ground.NewGrow(context.Background(), p, ground.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(g.Task.Initial); got != c.want {
			t.Errorf("%s: %d initial tasks, want %d", c.net, got, c.want)
		}
	}
}
