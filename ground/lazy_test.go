package ground_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/testutil"
)

const treeDomain = `(define (domain tree)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types place)
  (:predicates (at ?p - place) (road ?a ?b - place))
  (:task go :parameters (?from ?to - place))
  (:method arrived :parameters (?p - place) :task (go ?p ?p)
    :ordered-subtasks (and))
  (:method step :parameters (?from ?mid ?to - place) :task (go ?from ?to)
    :precondition (road ?from ?mid)
    :ordered-subtasks (and (drive ?from ?mid) (go ?mid ?to)))
  (:method wander :parameters (?from ?to ?x - place) :task (go ?from ?to)
    :ordered-subtasks (and (drive ?from ?x) (go ?x ?to)))
  (:action drive :parameters (?a ?b - place)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (not (at ?a)) (at ?b))))`

// loadTree loads the tree domain: roads a→b, a→c, c→d, b→e.
func loadTree(t *testing.T) *hddl.Problem {
	return testutil.ParseHDDL(t, treeDomain, `(define (problem p) (:domain tree)
  (:objects a b c d e - place)
  (:htn :ordered-subtasks (and (go a d)))
  (:init (at a) (road a b) (road a c) (road c d) (road b e)))`)
}

// Methods keeps only the instances whose subtasks are feasible: from a,
// the road to b leads nowhere near d, so only the step (and the wander)
// through c are made; and batches asked for a few at a time add up to
// the whole list, in the same order, reversed with the methods.
func TestLazyMethods(t *testing.T) {
	p := loadTree(t)
	lz, err := ground.NewLazy(context.Background(), p, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := lz.Bind(lz.Initial()[0], nil)
	if root < 0 {
		t.Fatal("the initial task has no variables, yet Bind did not ground it")
	}
	s := lz.Init()
	all, more, err := lz.Methods(root, s, false, 0, 0)
	if err != nil || more {
		t.Fatalf("all: more %v, %v", more, err)
	}
	var got []string
	for _, m := range all {
		name := p.Domain.Methods[m.Method].Name
		for _, st := range m.Subtasks {
			name += " " + lz.TaskName(st)
		}
		got = append(got, name)
	}
	want := []string{"step (drive a c) (go c d)", "wander (drive a c) (go c d)"}
	if !slices.Equal(got, want) {
		t.Errorf("instances of (go a d) at a:\n got %q\nwant %q", got, want)
	}
	// a few at a time
	var batched []ground.LazyMethod
	for skip := 0; ; {
		b, more, err := lz.Methods(root, s, false, skip, 1)
		if err != nil {
			t.Fatal(err)
		}
		batched = append(batched, b...)
		skip += len(b)
		if !more {
			break
		}
	}
	if len(batched) != len(all) {
		t.Fatalf("batches of one: %d instances, all at once %d", len(batched), len(all))
	}
	for i := range all {
		if all[i].Method != batched[i].Method || !slices.Equal(all[i].Subtasks, batched[i].Subtasks) {
			t.Errorf("instance %d differs in batches", i)
		}
	}
	rev, _, err := lz.Methods(root, s, true, 0, 0)
	if err != nil || len(rev) != len(all) || rev[0].Method != all[len(all)-1].Method {
		t.Errorf("reverse order: %d instances, first of method %d (%v)", len(rev), rev[0].Method, err)
	}
}

// loadSnake reads testdata/snake-slots against the IPC 2020 Snake domain
// (skipped without ../shared).
func loadSnake(t *testing.T) *hddl.Problem {
	dir := testutil.IPCDir(t, "total-order", "Snake")
	_, p, err := hddl.Load(filepath.Join(dir, "domain.hddl"), "../testdata/snake-slots/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLazyStopsWhenCancelled: once the context ends, the grounding on
// demand stops within one check of it, however deep in a feasibility
// question (joins nested in joins) it is. The Snake moves ask questions
// of tens of millions of join steps; before, each nested join looked at
// the context on its own every 4096 steps and went on, so a stopped
// search ran for minutes.
func TestLazyStopsWhenCancelled(t *testing.T) {
	p := loadSnake(t)
	ctx, cancel := context.WithCancel(context.Background())
	lz, err := ground.NewLazy(ctx, p, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := lz.Bind(lz.Initial()[0], nil)
	before := lz.JoinSteps()
	cancel()
	done := make(chan error, 1)
	go func() {
		_, _, err := lz.Methods(root, lz.Init(), false, 0, 0)
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the grounding on demand still runs a minute after its context ended")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("methods after the context ended: %v, want %v", err, context.Canceled)
	}
	if n := lz.JoinSteps() - before; n > 2*4096 {
		t.Errorf("%d join steps after the context ended, want at most %d", n, 2*4096)
	}
}
