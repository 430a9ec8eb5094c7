package htn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/internal/sets"
	"github.com/htnsat/htnsat/internal/testutil"
)

// keyedView grounds a walk over n cells whose visit task has a method per
// cell a tail may be on (tested by its precondition: the key) and one
// without a positive precondition (the index's rest); the plan drops a
// second tail (scatter) on a cell neither visited, for the walk to go on
// to from c1.
func keyedView(t *testing.T, n int) *view {
	t.Helper()
	domain := `(define (domain walk)
  (:requirements :typing :negative-preconditions :hierarchy)
  (:types cell)
  (:predicates (at ?c - cell) (tail ?c - cell) (seen ?c - cell))
  (:task visit :parameters (?c - cell))
  (:task scatter :parameters ())
  (:method scatter :parameters (?x - cell) :task (scatter) :ordered-subtasks (and (drop ?x)))
  (:method step :parameters (?c ?t - cell) :task (visit ?c)
    :precondition (and (at ?c) (tail ?t) (not (seen ?t)))
    :ordered-subtasks (and (go ?c ?t)))
  (:method pass :parameters (?c - cell) :task (visit ?c)
    :precondition (not (tail ?c))
    :ordered-subtasks (and (look ?c)))
  (:action go :parameters (?a ?b - cell)
    :precondition (at ?a)
    :effect (and (not (at ?a)) (at ?b) (tail ?a) (not (tail ?b)) (seen ?a)))
  (:action look :parameters (?c - cell) :precondition (seen ?c) :effect ())
  (:action drop :parameters (?x - cell) :effect (tail ?x)))`
	var objs strings.Builder
	for i := range n {
		fmt.Fprintf(&objs, " c%d", i)
	}
	problem := fmt.Sprintf(`(define (problem walk) (:domain walk)
  (:objects%s - cell)
  (:htn :ordered-subtasks (and (scatter) (visit c0) (visit c1)))
  (:init (at c0) (tail c1)))`, objs.String())
	v, err := newView(context.Background(), testutil.Ground(t, testutil.ParseHDDL(t, domain, problem)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestKeyedCandidates: in random states, the methods the key index gives
// that hold, in the order it sorts them to, are those a scan of the
// task's list finds holding, in the scan's order (from a random place,
// or in a random rank); a method whose key fails never holds.
func TestKeyedCandidates(t *testing.T) {
	v := keyedView(t, 90)
	rng := rand.New(rand.NewPCG(1, 2))
	indexed := 0
	for c, k := range v.keyed {
		if k == nil {
			continue
		}
		indexed++
		ms := v.taskMeths[c]
		if len(k.rest) == 0 || len(k.rest) == len(ms) {
			t.Fatalf("task %d: %d of %d methods without a positive key, want some", c, len(k.rest), len(ms))
		}
		for range 50 {
			st := sets.NewBits(v.nFacts)
			for f := range v.nFacts {
				if rng.IntN(8) == 0 {
					st.Add(f)
				}
			}
			off := rng.IntN(len(ms))
			var rank []int32
			if rng.IntN(2) == 0 {
				rank = make([]int32, len(ms))
				for i, p := range rng.Perm(len(ms)) {
					rank[i] = int32(p)
				}
			}
			var want []int32
			for i := range ms {
				m := ms[(i+off)%len(ms)]
				if rank != nil {
					m = ms[slices.Index(rank, int32(i))]
				}
				holds := holdsIn(st, v.meths[m].Pre, v.meths[m].NegPre)
				if holds && !v.keyHolds(st, m) {
					t.Fatalf("method %d holds but its key %d does not", m, v.key[m])
				}
				if holds {
					want = append(want, m)
				}
			}
			cs := k.candidates(st, nil)
			v.inOrder(cs, c, off, rank, nil)
			var got []int32
			for _, m := range cs {
				if holdsIn(st, v.meths[m].Pre, v.meths[m].NegPre) {
					got = append(got, m)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("task %d (off %d, rank %v): index gives %v, scan %v", c, off, rank != nil, got, want)
			}
		}
	}
	if indexed == 0 {
		t.Fatal("no task indexed by key")
	}
}

// TestKeyedSearch: the searches with the key index take the nodes and
// find the plans they do without it.
func TestKeyedSearch(t *testing.T) {
	for _, opt := range []Options{{Search: DFS, NoRestarts: true}, {Search: GBFS}} {
		var nodes []int64
		var plans []string
		for _, index := range []bool{true, false} {
			v := keyedView(t, 90)
			if !index {
				clear(v.keyed)
			}
			stats := &Stats{}
			sol, err := solve(context.Background(), v, opt, stats)
			if err != nil {
				t.Fatalf("%+v, index %v: %v", opt, index, err)
			}
			nodes = append(nodes, stats.Nodes)
			plans = append(plans, fmt.Sprint(sol.Actions()))
		}
		if nodes[0] != nodes[1] || plans[0] != plans[1] {
			t.Errorf("%+v: %d nodes and plan %q with the index, %d and %q without", opt, nodes[0], plans[0], nodes[1], plans[1])
		}
	}
}
