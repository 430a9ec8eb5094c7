package htn

import (
	"context"
	"fmt"
	"testing"

	"github.com/htnsat/htnsat/ground"
)

// checkReach recomputes the reach of s from its network and kills and
// compares it with the counts kept on the way; it also checks that every
// fact lost (false, no adder in reach) has no live user in reach left.
func checkReach(s *dfs) string {
	v, r := s.v, s.reach
	nT := v.t.NumTasks()
	// a task's unit: its strongly connected component, recomputed here
	// by plain reachability (a task is its own unit unless two tasks
	// reach each other)
	unit := make([]int32, nT)
	for id := range unit {
		unit[id] = int32(id)
	}
	if v.recursive {
		reaches := func(from int32) []bool {
			seen := make([]bool, nT)
			stack := []int32{from}
			walkSubtasks(v, &stack, func(int32) bool { return true }, func(st int32) {
				if !seen[st] {
					seen[st] = true
					stack = append(stack, st)
				}
			})
			return seen
		}
		for i := v.nA; i < nT; i++ {
			if unit[i] != int32(i) {
				continue
			}
			from := reaches(int32(i))
			for j := i + 1; j < nT; j++ {
				if from[j] && reaches(int32(j))[i] {
					unit[j] = int32(i)
				}
			}
		}
	}
	in := make([]bool, nT)
	ref := map[int32]int32{} // per unit, by its first task
	var stack []int32
	enter := func(id int32) {
		for j := range unit {
			if unit[j] == unit[id] && !in[j] {
				in[j] = true
				stack = append(stack, int32(j))
			}
		}
	}
	for i := range s.nodes {
		if nd := &s.nodes[i]; nd.alive && nd.kind == nodeTask {
			ref[unit[nd.id]]++
			enter(nd.id)
		}
	}
	walkSubtasks(v, &stack, func(m int32) bool { return !s.methDead[m] }, func(st int32) {
		if !in[st] {
			enter(st)
		}
	})
	for m := range v.meths {
		live := !s.methDead[m] && in[v.meths[m].Task]
		if r.counted[m] != live {
			return fmt.Sprintf("method %s: counted %v, want %v", v.t.MethodName(ground.MethodID(m)), r.counted[m], live)
		}
		if live {
			for _, st := range v.meths[m].Subtasks {
				if unit[st] != unit[v.meths[m].Task] {
					ref[unit[st]]++
				}
			}
		}
	}
	for id := range unit {
		if unit[id] != int32(id) {
			continue
		}
		if got := r.ref[r.unitOf(int32(id))]; got != ref[int32(id)] {
			return fmt.Sprintf("unit of task %s: %d references, want %d", v.t.TaskName(ground.TaskID(id)), got, ref[int32(id)])
		}
	}
	addCnt := make([]int32, v.nFacts)
	for a := 0; a < v.nA; a++ {
		adding := !s.actDead[a] && in[a]
		if r.adding[a] != adding {
			return fmt.Sprintf("action %s: adding %v, want %v", v.t.TaskName(ground.TaskID(a)), r.adding[a], adding)
		}
		if adding {
			for _, f := range v.t.Actions[a].Add {
				addCnt[f]++
			}
		}
	}
	for f := range addCnt {
		if addCnt[f] != r.addCnt[f] {
			return fmt.Sprintf("fact %s: %d adders, want %d", v.t.FactName(ground.FactID(f)), r.addCnt[f], addCnt[f])
		}
		if addCnt[f] > 0 || s.has(ground.FactID(f)) {
			continue
		}
		for _, u := range v.preUsers[f] {
			if u >= 0 && !s.methDead[u] && in[v.meths[u].Task] || u < 0 && !s.actDead[-1-u] && in[-1-u] {
				return fmt.Sprintf("fact %s is lost but a user in reach lives", v.t.FactName(ground.FactID(f)))
			}
		}
	}
	return ""
}

// walkSubtasks pops the tasks off stack until it is empty and hands each
// subtask of each of their methods that use accepts to next, which
// pushes what is to be walked.
func walkSubtasks(v *view, stack *[]int32, use func(m int32) bool, next func(st int32)) {
	for len(*stack) > 0 {
		id := (*stack)[len(*stack)-1]
		*stack = (*stack)[:len(*stack)-1]
		if int(id) < v.nA {
			continue
		}
		for _, m := range v.taskMeths[int(id)-v.nA] {
			if use(m) {
				for _, st := range v.meths[m].Subtasks {
					next(int32(st))
				}
			}
		}
	}
}

// checkedReach runs s with its reach checked at every node and undo.
func checkedReach(t *testing.T, s *dfs) (bool, error) {
	t.Helper()
	if s.reach == nil {
		t.Fatal("no reach")
	}
	checks := 0
	s.hooks.check = func(s *dfs) {
		checks++
		if msg := checkReach(s); msg != "" {
			t.Fatalf("after %d nodes: %s", s.stats.Nodes, msg)
		}
	}
	s.hooks.undo = func(s *dfs, _ step) {
		if msg := checkReach(s); msg != "" {
			t.Fatalf("after an undo at %d nodes: %s", s.stats.Nodes, msg)
		}
	}
	ok, err := s.run()
	for len(s.path) > 0 {
		s.undo()
	}
	if checks == 0 {
		t.Fatal("nothing checked")
	}
	return ok, err
}

// TestReach: testdata/reach deletes a fact that only the finished task
// (a) could add again; the search must see it lost at once, not after
// the 2^12 ways of the (c) tasks in between. testdata/reach-recursive is
// the same with a task that recurs, where the reach is counted over the
// task graph's strongly connected components.
func TestReach(t *testing.T) {
	for _, dir := range []string{"reach", "reach-recursive"} {
		t.Run(dir, func(t *testing.T) {
			v := loadView(t, dir)
			if v.recursive != (dir == "reach-recursive") {
				t.Fatalf("recursive: %v", v.recursive)
			}
			st := &Stats{}
			ok, err := checkedReach(t, newDFS(context.Background(), v, Options{}, st, nil))
			if !ok || err != nil {
				t.Fatalf("no plan: %v", err)
			}
			if st.Lost == 0 || st.Nodes > 100 {
				t.Errorf("%d nodes, %d facts lost: the lost fact was not seen", st.Nodes, st.Lost)
			}
			off := &Stats{}
			// (the ways collapse into their sets when the search
			// records the nodes searched to the end, so that is off too)
			if ok, err := newDFS(context.Background(), v, Options{NoReach: true, NoDuplicates: true}, off, nil).run(); !ok || err != nil {
				t.Fatalf("no plan without reach: %v", err)
			}
			if off.Nodes < 4096 {
				t.Errorf("without reach %d nodes: the test no longer needs it", off.Nodes)
			}
			t.Logf("%d nodes with reach, %d without", st.Nodes, off.Nodes)
			// the portfolio reports its members' lost facts
			if _, ps, err := Solve(context.Background(), v.t, Options{}); err != nil || ps.Lost == 0 {
				t.Errorf("portfolio: %v, %d facts lost", err, ps.Lost)
			}
		})
	}
}

// TestBoundedMemberNoReach: on a recursive network the portfolio's
// depth-first member keeps the reach and its bounded member
// (Options.RecursionBound) goes without it, so that only the first finds
// facts lost.
func TestBoundedMemberNoReach(t *testing.T) {
	v := loadView(t, "reach-recursive")
	for _, c := range []struct {
		member string
		lost   bool
	}{{"dfs", true}, {"dfs-rec", false}} {
		w := map[string]int{}
		for _, m := range PortfolioMembers {
			w[m] = 0
		}
		w[c.member] = 1
		_, st, err := Solve(context.Background(), v.t, Options{Weights: w})
		if err != nil {
			t.Fatalf("%s: %v", c.member, err)
		}
		if st.Search != "portfolio: "+c.member {
			t.Fatalf("answered by %q, want %s alone", st.Search, c.member)
		}
		if (st.Lost > 0) != c.lost {
			t.Errorf("%s: %d facts lost, want lost facts %v", c.member, st.Lost, c.lost)
		}
	}
}

// TestReachInvariant checks the reach's counts at every node and undo of
// searches over networks totally and partially ordered, with choice
// groups and restarts.
func TestReachInvariant(t *testing.T) {
	for _, dir := range []string{"goal", "interleave", "split", "recursive", "transport", "reach-recursive", "landmark"} {
		t.Run(dir, func(t *testing.T) {
			v := loadView(t, dir)
			if _, err := checkedReach(t, newDFS(context.Background(), v, Options{MaxNodes: 20_000}, &Stats{}, nil)); err != nil && err != ErrNodeLimit {
				t.Fatal(err)
			}
		})
	}
	for _, style := range []string{"ordered", "unordered"} {
		t.Run("sudoku-"+style, func(t *testing.T) {
			v, groups := hardView(t, style)
			st := &Stats{}
			if ok, err := checkedReach(t, newDFS(context.Background(), v, Options{RestartBudget: 300, MaxNodes: 3_000}, st, groups)); !ok && err != ErrNodeLimit {
				t.Fatalf("no plan: %v", err)
			}
			t.Logf("%d nodes, %d facts lost", st.Nodes, st.Lost)
		})
	}
}

// TestReachSound checks that the reach kills nothing a plan needs: on
// the hard puzzle (unordered, so restarts look at many paths), wherever
// the path agrees with a plan's choices, none of the plan's methods for
// a task still in the network was killed.
func TestReachSound(t *testing.T) {
	v, groups := hardView(t, "unordered")
	s := newDFS(context.Background(), v, Options{NoReach: true}, &Stats{}, groups)
	if ok, err := s.runWithRestarts(); !ok || err != nil {
		t.Fatalf("no plan: %v", err)
	}
	chosen := map[ground.TaskID]int32{}
	for _, st := range s.path {
		if st.method >= 0 {
			chosen[s.v.meths[st.method].Task] = st.method
		}
	}
	st := &Stats{}
	s = newDFS(context.Background(), v, Options{RestartBudget: 300, Seed: 7, MaxNodes: 20_000}, st, groups)
	agreeing := 0
	s.hooks.check = func(s *dfs) {
		for _, p := range s.path {
			if p.method >= 0 && chosen[s.v.meths[p.method].Task] != p.method {
				return
			}
		}
		agreeing++
		for task, m := range chosen {
			if s.inNet[task] > 0 && s.methDead[m] {
				t.Fatalf("after %d nodes, on the plan's path (%d steps): its method %s was killed", s.stats.Nodes, len(s.path), s.v.t.MethodName(ground.MethodID(m)))
			}
		}
	}
	if _, err := s.runWithRestarts(); err != nil && err != ErrNodeLimit {
		t.Fatal(err)
	}
	if agreeing < 100 || st.Lost == 0 {
		t.Errorf("%d nodes on the plan's path, %d facts lost: too few to tell", agreeing, st.Lost)
	}
	t.Logf("%d nodes on the plan's path, %d facts lost", agreeing, st.Lost)
}
