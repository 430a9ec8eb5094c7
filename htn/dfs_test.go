package htn

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/internal/testutil"
)

// loadView grounds a problem of testdata (uncompacted) for the searches.
func loadView(t *testing.T, dir string) *view {
	t.Helper()
	_, task := testutil.LoadTask(t, "../testdata/"+dir+"/domain.hddl", "../testdata/"+dir+"/problem.hddl")
	v, err := newView(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// serialSearch is a serial depth-first search of dir whose every step is
// checked: the node it acts on belongs to the latest open decomposition,
// i.e. no alive node has a later batch.
func serialSearch(t *testing.T, dir string, opt Options) (*dfs, bool, error) {
	t.Helper()
	v := loadView(t, dir)
	if v.total {
		t.Fatalf("%s: a totally ordered network", dir)
	}
	opt.Serial = true
	s := newDFS(context.Background(), v, opt, &Stats{}, nil)
	steps := 0
	s.hooks.undo = func(s *dfs, st step) {
		steps++
		b := s.nodes[st.node].batch
		for i := range s.nodes {
			if nd := &s.nodes[i]; nd.alive && nd.batch > b {
				t.Fatalf("step on node %d (batch %d) while node %d of batch %d is open", st.node, b, i, nd.batch)
			}
		}
	}
	ok, err := s.run()
	// undo the plan's steps too, so that they are checked
	for len(s.path) > 0 {
		s.undo()
	}
	if steps == 0 {
		t.Fatal("no step was checked")
	}
	return s, ok, err
}

func TestSerial(t *testing.T) {
	t.Run("transport", func(t *testing.T) {
		// unordered deliveries by one truck, done one after another
		s, ok, err := serialSearch(t, "transport", Options{MaxNodes: 2_000})
		if !ok || err != nil {
			t.Fatalf("no plan in %d nodes: %v", s.stats.Nodes, err)
		}
		t.Logf("%d nodes", s.stats.Nodes)
		// the best-first search's serial successors
		st := &Stats{}
		sol, _, err := bestFirst(context.Background(), s.v, Options{Serial: true, MaxNodes: 2_000}, GBFS, st, nil)
		if err != nil {
			t.Fatalf("serial gbfs: no plan in %d nodes: %v", st.Nodes, err)
		}
		t.Logf("serial gbfs: %d actions, %d nodes", len(sol.Order), st.Nodes)
	})
	t.Run("interleave", func(t *testing.T) {
		// the only plan interleaves the two tasks: the serial space is
		// empty, which must not be reported as a proof
		s, ok, err := serialSearch(t, "interleave", Options{})
		if ok || err != nil {
			t.Fatalf("serial search: %v, %v; want exhausted", ok, err)
		}
		if _, _, err := bestFirst(context.Background(), s.v, Options{Serial: true}, GBFS, &Stats{}, nil); err != ErrNoPlan {
			t.Fatalf("serial gbfs: %v, want exhausted", err)
		}
		t.Logf("serial search exhausted after %d nodes", s.stats.Nodes)
		for _, search := range []Search{DFS, GBFS, AStar, Auto} {
			sol, st, err := Solve(context.Background(), loadView(t, "interleave").t, Options{Search: search, Serial: true})
			if err != nil {
				t.Fatalf("%v: %v", search, err)
			}
			if len(sol.Order) != 3 {
				t.Errorf("%v: %d actions, want a1 b1 a2", search, len(sol.Order))
			}
			t.Logf("%v: %s", search, st.Search)
		}
	})
}

func TestGoalLost(t *testing.T) {
	v := loadView(t, "goal")
	s := newDFS(context.Background(), v, Options{NoRestarts: true, MaxNodes: 200}, &Stats{}, nil)
	// the counts of the tasks that may reach each goal stay those of the
	// network
	s.hooks.check = func(s *dfs) {
		var want [64]int32
		for i := range s.nodes {
			if nd := &s.nodes[i]; nd.alive && nd.kind == nodeTask {
				for j := range s.v.goals {
					if s.v.goalMask[nd.id]&(1<<j) != 0 {
						want[j]++
					}
				}
			}
		}
		if want != s.goalBy {
			t.Fatalf("after %d nodes: goal counts %v, want %v", s.stats.Nodes, s.goalBy[:len(s.v.goals)], want[:len(s.v.goals)])
		}
	}
	ok, err := s.run()
	if !ok || err != nil {
		// without the goal check the search tries the 2^12 ways of the
		// (c) tasks after the wrong method of (a)
		t.Fatalf("no plan in %d nodes: %v", s.stats.Nodes, err)
	}
	if s.stats.DeadEnds == 0 {
		t.Error("no dead end: the lost goal was not seen")
	}
	t.Logf("%d nodes, %d dead ends", s.stats.Nodes, s.stats.DeadEnds)
}
