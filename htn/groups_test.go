package htn

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/testutil"
)

func (gs *groupState) check(s *dfs) string {
	for p, ms := range gs.pairMeths {
		c := int32(0)
		used := int32(0)
		for _, m := range ms {
			task := s.v.meths[m].Task
			n := gs.node[task]
			undecided := s.nodes[n].alive
			if undecided && !s.methDead[m] {
				c++
			}
			if !undecided {
				// decided: which method? find the step
				for _, st := range s.path {
					if st.node == n && st.method == m {
						used++
					}
				}
			}
		}
		if c != gs.cnt[p] || used != gs.used[p] {
			return fmt.Sprintf("mismatch pair %d: cnt %d (want %d) used %d (want %d)", p, gs.cnt[p], c, gs.used[p], used)
		}
		inF := gs.forced.Has(int32(p))
		if inF != (c == 1 && used == 0) {
			return fmt.Sprintf("forced set wrong for pair %d: cnt %d used %v inForced %v", p, c, used, inF)
		}
	}
	return ""
}

// snapshot is what a restart must bring back: the state, the network and
// the liveness counters.
func snapshot(s *dfs) string {
	var b strings.Builder
	fmt.Fprint(&b, s.state, len(s.nodes), s.deadEnd, s.count, s.methDead, s.actDead, s.inNet, s.checkIn, len(s.trail))
	front := slices.Sorted(slices.Values(s.front.Members))
	fmt.Fprint(&b, front)
	for i := range s.nodes {
		fmt.Fprint(&b, s.nodes[i].alive, s.nodes[i].preds, s.nodes[i].succ)
	}
	if gs := s.groups; gs != nil {
		fmt.Fprint(&b, gs.cnt, gs.used, gs.zero, len(gs.forced.Members), gs.decided)
	}
	return b.String()
}

// TestGroupsInvariant recomputes the counters of the choice groups from
// scratch at every search node and after every undone step of a search on
// a hard puzzle, and compares. The search restarts every few hundred
// nodes: each restart must bring back the state of the start.
func TestGroupsInvariant(t *testing.T) {
	d, err := hddl.LoadDomain("../domains/sudoku.hddl")
	if err != nil {
		t.Fatal(err)
	}
	p, err := hddl.LoadProblem("../testdata/sudoku/hard-unordered.hddl", d)
	if err != nil {
		t.Fatal(err)
	}
	task, _, err := ground.Ground(context.Background(), p, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{RestartBudget: 300}
	folded := testutil.Compact(t, task).Task
	v, err := newView(context.Background(), folded)
	if err != nil {
		t.Fatal(err)
	}
	st := &Stats{}
	groups, err := folded.ChoiceGroups(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := newDFS(context.Background(), v, o, st, groups)
	if s.groups == nil {
		t.Fatal("no choice groups")
	}
	if msg := s.groups.check(s); msg != "" {
		t.Fatal("at the root:", msg)
	}
	s.hooks.check = func(s *dfs) {
		if msg := s.groups.check(s); msg != "" {
			t.Fatalf("after %d nodes, path %d: %s", s.stats.Nodes, len(s.path), msg)
		}
	}
	s.hooks.undo = func(s *dfs, _ step) {
		if msg := s.groups.check(s); msg != "" {
			t.Fatalf("after an undo at %d nodes: %s", s.stats.Nodes, msg)
		}
	}
	start := snapshot(s)
	s.hooks.restart = func(s *dfs) {
		if got := snapshot(s); got != start {
			t.Fatalf("restart %d does not restore the start", s.stats.Restarts+1)
		}
	}
	ok, err := s.runWithRestarts()
	if !ok || err != nil {
		t.Fatalf("no plan: %v", err)
	}
	if st.Restarts == 0 {
		t.Error("the search never restarted")
	}
	t.Logf("%d nodes, %d forced, %d restarts", st.Nodes, st.Forced, st.Restarts)
}
