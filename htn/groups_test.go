package htn

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/variant"
)

func (gs *groupState) check(s *dfs) string {
	// a task is decided once its node was decomposed (ahead, it stays in
	// the network as its method's check)
	undecided := func(task ground.TaskID) bool {
		nd := &s.nodes[gs.node[task]]
		return nd.alive && nd.kind == nodeTask
	}
	used := make([]int32, len(gs.pairMeths))
	for p, ms := range gs.pairMeths {
		for _, m := range ms {
			n := gs.node[s.v.meths[m].Task]
			for _, st := range s.path {
				if st.node == n && st.method == m {
					used[p]++
				}
			}
		}
	}
	taken := func(m int32) bool {
		for _, q := range gs.methPairs[m] {
			if used[q] > 0 {
				return true
			}
		}
		return false
	}
	liveTaken := make([]int32, len(gs.liveTaken))
	for m := range gs.methPairs {
		if !s.methDead[m] && taken(int32(m)) {
			liveTaken[int(s.v.meths[m].Task)-s.v.nA]++
		}
	}
	if !slices.Equal(liveTaken, gs.liveTaken) {
		return fmt.Sprintf("liveTaken %v, want %v", gs.liveTaken, liveTaken)
	}
	for p, ms := range gs.pairMeths {
		c := int32(0)
		for _, m := range ms {
			if undecided(s.v.meths[m].Task) && !s.methDead[m] && !taken(m) {
				c++
			}
		}
		if c != gs.cnt[p] || used[p] != gs.used[p] {
			return fmt.Sprintf("mismatch pair %d: cnt %d (want %d) used %d (want %d)", p, gs.cnt[p], c, gs.used[p], used[p])
		}
		inF := gs.forced.Has(int32(p))
		if inF != (c == 1 && used[p] == 0) {
			return fmt.Sprintf("forced set wrong for pair %d: cnt %d used %v inForced %v", p, c, used[p], inF)
		}
	}
	if gs.match != nil {
		// the matcher's live edges: methods neither dead nor taken
		for g := range gs.match.groups {
			mg := &gs.match.groups[g]
			if mg.nLive == nil {
				continue // a sparse group: nothing kept
			}
			for i, es := range mg.edges {
				n := make([]int32, mg.nv)
				for _, e := range es {
					if !s.methDead[e.method] && !taken(e.method) {
						n[e.value]++
					}
				}
				for j := range n {
					bit := mg.liveBits[int32(i)*mg.w+int32(j)>>6]>>(j&63)&1 == 1
					if got := mg.nLive[int32(i)*mg.nv+int32(j)]; got != n[j] || bit != (n[j] > 0) {
						return fmt.Sprintf("group %d task %d value %d: %d live edges (bit %v), want %d", g, i, j, got, bit, n[j])
					}
				}
			}
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
		fmt.Fprint(&b, gs.cnt, gs.used, gs.zero, len(gs.forced.Members), gs.decided, gs.takenBy, gs.liveTaken)
		if gs.match != nil {
			for _, mg := range gs.match.groups {
				fmt.Fprint(&b, mg.nLive, mg.liveBits)
			}
		}
	}
	return b.String()
}

// TestGroupsInvariant recomputes the counters of the choice groups from
// scratch at every search node and after every undone step of a search on
// a hard puzzle, and compares. The search restarts every few hundred
// nodes: each restart must bring back the state of the start. In the
// ordered network the search decomposes tasks ahead of their turn.
func TestGroupsInvariant(t *testing.T) {
	for _, style := range []string{"unordered", "ordered"} {
		t.Run(style, func(t *testing.T) { groupsInvariant(t, style) })
	}
}

func groupsInvariant(t *testing.T, style string) {
	_, task := testutil.LoadTask(t, "../domains/sudoku.hddl", "../testdata/sudoku/hard-"+style+".hddl")
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
	if style == "ordered" && st.Ahead == 0 {
		t.Error("the search never decomposed ahead")
	}
	t.Logf("%d nodes, %d forced, %d ahead, %d restarts", st.Nodes, st.Forced, st.Ahead, st.Restarts)
}

// hardView is the view and the choice groups of the hard puzzle's
// compacted task in the given style (testdata/sudoku/hard-STYLE.hddl).
func hardView(t *testing.T, style string) (*view, []ground.ChoiceGroup) {
	t.Helper()
	return groupsView(t, "../domains/sudoku.hddl", "../testdata/sudoku/hard-"+style+".hddl")
}

// groupsView is the view and the choice groups of a problem's compacted
// task.
func groupsView(t *testing.T, domain, problem string) (*view, []ground.ChoiceGroup) {
	t.Helper()
	_, task := testutil.LoadTask(t, domain, problem)
	return taskView(t, task)
}

// taskView is the view and the choice groups of task, compacted.
func taskView(t *testing.T, task *ground.Task) (*view, []ground.ChoiceGroup) {
	t.Helper()
	folded := testutil.Compact(t, task).Task
	v, err := newView(context.Background(), folded)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := folded.ChoiceGroups(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v, groups
}

// TestFiltersSound checks the filters of the choice groups (matching and
// locked values) against a plan: wherever the search's path agrees with
// the plan's choices so far, none of the plan's other choices may have
// been killed, since the plan extends that path. The search restarts
// every few hundred nodes, so many paths are looked at; both filters must
// kill something on the way.
func TestFiltersSound(t *testing.T) {
	for _, style := range []string{"unordered", "ordered"} {
		t.Run(style, func(t *testing.T) {
			v, groups := hardView(t, style)
			// the plan's choice per choice task
			s := newDFS(context.Background(), v, Options{}, &Stats{}, groups)
			if ok, err := s.runWithRestarts(); !ok || err != nil {
				t.Fatalf("no plan: %v", err)
			}
			chosen := map[ground.TaskID]int32{}
			for _, st := range s.path {
				if st.method >= 0 && len(s.groups.methPairs[st.method]) > 0 {
					chosen[s.v.meths[st.method].Task] = st.method
				}
			}
			if len(chosen) == 0 {
				t.Fatal("the plan makes no choice")
			}
			st := &Stats{}
			s = newDFS(context.Background(), v, Options{RestartBudget: 300, Seed: 7}, st, groups)
			agreeing := 0
			s.hooks.check = func(s *dfs) {
				for _, p := range s.path {
					if p.method < 0 {
						continue
					}
					if m, ok := chosen[s.v.meths[p.method].Task]; ok && m != p.method {
						return // off the plan
					}
				}
				agreeing++
				for task, m := range chosen {
					if !s.groups.decided[task] && (s.methDead[m] || s.groups.taken(m)) {
						t.Fatalf("after %d nodes, on the plan's path (%d steps): its method %d of undecided task %s was killed", s.stats.Nodes, len(s.path), m, s.v.t.TaskName(task))
					}
				}
			}
			if ok, err := s.runWithRestarts(); !ok || err != nil {
				t.Fatalf("no plan: %v", err)
			}
			t.Logf("%d nodes, %d on the plan's path, %d killed by matching, %d by locked values, %d restarts", st.Nodes, agreeing, st.Matched, st.Locked, st.Restarts)
			if st.Matched == 0 || st.Locked == 0 {
				t.Errorf("matching killed %d methods, locked values %d: want both at work", st.Matched, st.Locked)
			}
		})
	}
}

// TestMatcherSparse runs the same search with the groups' live edges kept
// per pair (dense, as in Sudoku) and asked edge by edge (sparse): the
// two forms must make the same moves and kills.
func TestMatcherSparse(t *testing.T) {
	v, groups := hardView(t, "unordered")
	var got [2]Stats
	for k, dense := range []bool{true, false} {
		keepDense = dense
		s := newDFS(context.Background(), v, Options{RestartBudget: 300, Seed: 7}, &got[k], groups)
		if n := s.groups.match.groups[0].nLive; (n != nil) != dense {
			t.Fatalf("dense %v: the first group keeps counters %v", dense, n != nil)
		}
		if ok, err := s.runWithRestarts(); !ok || err != nil {
			t.Fatalf("no plan: %v", err)
		}
	}
	keepDense = true
	t.Logf("dense %+v, sparse %+v", got[0], got[1])
	if got[0] != got[1] || got[0].Matched == 0 {
		t.Errorf("dense %+v, sparse %+v: want the same search, with kills by matching", got[0], got[1])
	}
}

// TestLastConflict runs the search on the hard puzzle with restarts every
// few hundred nodes: after a task fails with every method, a later
// branching must decompose that task first (the step right after the
// rule fires is a decomposition of the failed task), and a search
// without the rule never does.
func TestLastConflict(t *testing.T) {
	v, groups := hardView(t, "unordered")
	for _, off := range []bool{false, true} {
		st := &Stats{}
		s := newDFS(context.Background(), v, Options{RestartBudget: 300, NoLastConflict: off}, st, groups)
		fired, failed := int64(0), int32(-1)
		s.hooks.check = func(s *dfs) {
			if st.LastConflict > fired {
				fired = st.LastConflict
				if last := s.path[len(s.path)-1]; last.method < 0 || s.nodes[last.node].task != failed {
					t.Fatalf("the rule fired, but the step taken was %+v, not a decomposition of task %d", last, failed)
				}
			}
			failed = s.lastTask
		}
		if ok, err := s.runWithRestarts(); !ok || err != nil {
			t.Fatalf("no plan: %v", err)
		}
		t.Logf("NoLastConflict %v: %d nodes, %d branchings on the last failed task, %d restarts", off, st.Nodes, st.LastConflict, st.Restarts)
		if off && st.LastConflict != 0 || !off && st.LastConflict == 0 {
			t.Errorf("NoLastConflict %v: %d branchings on the last failed task", off, st.LastConflict)
		}
	}
}

// TestValueOrder: at every branching of a search on a hard puzzle, the
// methods valueOrder gives are those of the task, each once: the one the
// task took last first, if any, then the others by the sums of the live
// takers of their values in increasing order, ties in the order the
// search would try them without it (from off on).
func TestValueOrder(t *testing.T) {
	v, groups := hardView(t, "unordered")
	s := newDFS(context.Background(), v, Options{RestartBudget: 300, MaxNodes: 3000}, &Stats{}, groups)
	if s.groups == nil {
		t.Fatal("no choice groups")
	}
	score := func(m int32) int64 {
		var x int64
		for _, p := range s.groups.methPairs[m] {
			x += int64(s.groups.cnt[p])
		}
		return x
	}
	checked, mixed, saved := 0, 0, 0
	s.hooks.check = func(s *dfs) {
		for c, ms := range s.v.taskMeths {
			if len(ms) < 2 || c%7 != int(s.stats.Nodes%7) {
				continue
			}
			off := int(s.stats.Nodes) % len(ms)
			pos := map[int32]int{}
			for i := range ms {
				pos[ms[(i+off)%len(ms)]] = i
			}
			order := s.valueOrder(c, ms, off)
			if len(order) != len(ms) {
				t.Fatalf("%d methods ordered, want %d", len(order), len(ms))
			}
			full := order
			for _, m := range full {
				if _, ok := pos[m]; !ok {
					t.Fatalf("method %d is not one of task %d", m, c)
				}
			}
			if len(slices.Compact(slices.Sorted(slices.Values(full)))) != len(ms) {
				t.Fatal("a method twice")
			}
			if sv := s.saved[c]; sv >= 0 {
				// the method the task took last goes first
				if order[0] != sv {
					t.Fatalf("method %d first, want %d, the one task %d took last", order[0], sv, c)
				}
				order = order[1:]
				saved++
			}
			for i := 1; i < len(order); i++ {
				a, b := order[i-1], order[i]
				if score(a) > score(b) || score(a) == score(b) && pos[a] > pos[b] {
					t.Fatalf("method %d (score %d) before %d (score %d)", a, score(a), b, score(b))
				}
				if score(a) < score(b) {
					mixed++
				}
			}
			s.orders = append(s.orders, full[:0])
			checked++
		}
	}
	if _, err := s.run(); err != nil && err != ErrNodeLimit {
		t.Fatal(err)
	}
	if checked == 0 || mixed == 0 || saved == 0 {
		t.Fatalf("%d orders checked, %d with scores that differ, %d with a saved method", checked, mixed, saved)
	}
}

// TestValueBranch runs the search on an empty 25x25 grid with restarts
// every few hundred nodes. At every branching on a value, the methods
// tried must be every live method of an undecided task that takes the
// value and no other, so the branching is as complete as a task's; the
// counters must hold after undone steps (every 997th); a search with
// NoValueBranch never branches so.
func TestValueBranch(t *testing.T) {
	v, groups := groupsView(t, "../testdata/sudoku/domain-25.hddl", "../testdata/sudoku/empty-25-unordered.hddl")
	for _, off := range []bool{false, true} {
		st := &Stats{}
		s := newDFS(context.Background(), v, Options{RestartBudget: 300, Seed: 3, NoValueBranch: off}, st, groups)
		s.hooks.branchValue = func(s *dfs, p int32, order []int32) {
			gs := s.groups
			want := map[int32]bool{}
			for _, m := range gs.pairMeths[p] {
				if !s.methDead[m] && !gs.taken(m) && !gs.decided[s.v.meths[m].Task] {
					want[m] = true
				}
			}
			if gs.used[p] > 0 || len(want) < 2 || int32(len(want)) != gs.cnt[p] {
				t.Fatalf("pair %d: used %d, %d live takers, count %d", p, gs.used[p], len(want), gs.cnt[p])
			}
			got := map[int32]bool{}
			for _, m := range order {
				if !want[m] || got[m] {
					t.Fatalf("pair %d: method %d tried, live takers %v", p, m, want)
				}
				got[m] = true
			}
			if len(got) != len(want) {
				t.Fatalf("pair %d: %d methods tried, %d live takers", p, len(got), len(want))
			}
		}
		undos := 0
		s.hooks.undo = func(s *dfs, _ step) {
			if undos++; off || undos%997 != 0 {
				return
			}
			if msg := s.groups.check(s); msg != "" {
				t.Fatalf("after an undo at %d nodes: %s", s.stats.Nodes, msg)
			}
		}
		if ok, err := s.runWithRestarts(); !ok || err != nil {
			t.Fatalf("no plan: %v", err)
		}
		t.Logf("NoValueBranch %v: %d nodes, %d branchings on values, %d restarts", off, st.Nodes, st.ValueBranches, st.Restarts)
		if off != (st.ValueBranches == 0) {
			t.Errorf("NoValueBranch %v: %d branchings on values", off, st.ValueBranches)
		}
	}
}

// TestValueBranchFocus plans a killer Sudoku in its partially ordered
// model with plain depth-first search. A cell's method leaves its cage's
// move, a compound task, to do after the fill; branching on a value must
// carry that decomposition on first, as Focus does, not begin another
// cell: at every branching on a value, no node waiting in the front may
// be newer than the takers. Before this held, the search interleaved the
// cells' cage moves and took 1.49 M nodes on this puzzle (4,804 without
// value branching), so it must also end within 50,000.
func TestValueBranchFocus(t *testing.T) {
	pz, err := variant.ReadFPuzzlesFile(context.Background(), "../sudoku/sets/killer/killer-05.json")
	if err != nil {
		t.Fatal(err)
	}
	_, p, err := variant.Model(pz, sudoku.Unordered, variant.AtFill)
	if err != nil {
		t.Fatal(err)
	}
	v, groups := taskView(t, testutil.Ground(t, p))
	st := &Stats{}
	s := newDFS(context.Background(), v, Options{MaxNodes: 50000}, st, groups)
	if s.groups == nil {
		t.Fatal("no choice groups")
	}
	s.hooks.branchValue = func(s *dfs, _ int32, order []int32) {
		oldest := int32(math.MaxInt32)
		for _, m := range order {
			oldest = min(oldest, s.nodes[s.groups.node[s.v.meths[m].Task]].batch)
		}
		for _, n := range s.front.Members {
			if nd := &s.nodes[n]; nd.batch > oldest {
				t.Fatalf("after %d nodes: a branching on a value while node %d (batch %d) waits, newer than its takers (batch %d)", s.stats.Nodes, n, nd.batch, oldest)
			}
		}
	}
	if ok, err := s.run(); !ok || err != nil {
		t.Fatalf("no plan within 50,000 nodes: %v", err)
	}
	t.Logf("%d nodes, %d branchings on values", st.Nodes, st.ValueBranches)
}
