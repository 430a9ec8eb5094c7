package htn

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/internal/testutil"
)

// protectView grounds testdata/protect/domain.hddl with the given problem
// file (uncompacted) for the searches.
func protectView(t *testing.T, problem string) *view {
	t.Helper()
	_, task := testutil.LoadTask(t, "../testdata/protect/domain.hddl", "../testdata/protect/"+problem)
	v, err := newView(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestProtect: (spoil) deletes (fresh), which the action (finish) waiting
// further on needs and which only (e), after it, adds again. The search
// turns back as soon as (a) is decomposed by m-a-spoil; without the check
// it tries the 2^12 ways of the (c) tasks first (with the reach, which
// sees (e) and so kills nothing, and without the record of the nodes
// searched to the end, which would collapse the ways into their sets, and
// the lookahead, which would decompose the tasks in another order).
func TestProtect(t *testing.T) {
	v := protectView(t, "problem.hddl")
	if !v.total || v.recursive {
		t.Fatalf("total %v, recursive %v: want a totally ordered acyclic network", v.total, v.recursive)
	}
	base := Options{NoDuplicates: true, NoLookahead: true, NoRestarts: true}
	on, off := &Stats{}, &Stats{}
	for _, c := range []struct {
		st        *Stats
		noProtect bool
	}{{on, false}, {off, true}} {
		opt := base
		opt.NoProtect = c.noProtect
		s := newDFS(context.Background(), v, opt, c.st, nil)
		if ok, err := s.run(); !ok || err != nil {
			t.Fatalf("protect %v: no plan: %v", !c.noProtect, err)
		}
		if len(s.path) == 0 {
			t.Fatal("empty path")
		}
	}
	if on.Nodes > 100 || on.DeadEnds == 0 {
		t.Errorf("with the check %d nodes, %d dead ends: the threat was not seen", on.Nodes, on.DeadEnds)
	}
	if off.Nodes < 4096 {
		t.Errorf("without the check %d nodes: the test no longer needs it", off.Nodes)
	}
	t.Logf("%d nodes with the check, %d without", on.Nodes, off.Nodes)
}

// TestProtectMend: (a2) can only spoil, and (e) mends before (finish)
// needs (fresh): the check must let the only plan through, at every node.
func TestProtectMend(t *testing.T) {
	v := protectView(t, "problem-mend.hddl")
	st := &Stats{}
	s := newDFS(context.Background(), v, Options{NoDuplicates: true, NoLookahead: true}, st, nil)
	checks := 0
	s.hooks.check = func(s *dfs) {
		if s.prot != nil && len(s.path) > 0 {
			checks++
		}
	}
	if ok, err := s.run(); !ok || err != nil {
		t.Fatalf("no plan: %v (%d dead ends)", err, st.DeadEnds)
	}
	if checks == 0 {
		t.Fatal("the check never ran")
	}
	sol, _, err := Solve(context.Background(), v.t, Options{})
	if err != nil || len(sol.Order) != 6 {
		t.Fatalf("portfolio: %v", err)
	}
}

// TestProtectCounts: the count of nodes needing each fact is that of the
// alive action and check nodes, at every node of a search that
// backtracks.
func TestProtectCounts(t *testing.T) {
	v := protectView(t, "problem.hddl")
	s := newDFS(context.Background(), v, Options{NoDuplicates: true, NoLookahead: true, NoRestarts: true}, &Stats{}, nil)
	s.hooks.check = func(s *dfs) {
		if s.prot == nil {
			return
		}
		want := make([]int32, v.nFacts)
		for i := range s.nodes {
			if nd := &s.nodes[i]; nd.alive {
				for _, f := range s.pre(nd) {
					want[f]++
				}
			}
		}
		for f := range want {
			if want[f] != s.prot.need[f] {
				t.Fatalf("fact %d: need %d, want %d", f, s.prot.need[f], want[f])
			}
		}
	}
	if ok, err := s.run(); !ok || err != nil {
		t.Fatalf("no plan: %v", err)
	}
}
