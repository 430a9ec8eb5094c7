package htn

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/htnsat/htnsat/internal/testutil"
)

// TestRCCache: the relaxed composition estimate read from the cache of
// costs by state (rcHeuristic.cache) is at every node of a best-first
// search the one a fresh heuristic computes for that node alone, on
// problems whose nodes come back to states met before, some with
// networks that need costs beyond where the first exploration from that
// state stopped (rcEntry.bound). The run must use each of the cache's
// paths: a new state, a state met before, one explored again from the
// start and one whose last exploration goes on.
func TestRCCache(t *testing.T) {
	var hits, misses, again, resumed int
	for name, load := range rcViews() {
		t.Run(name, func(t *testing.T) {
			v := load(t)
			rc := walkRC(t, v, 3000, func(c *bnode) int32 { return newRC(v).eval(c.state, c.net) })
			hits += rc.hits
			misses += rc.misses
			again += rc.again
			resumed += rc.resumed
		})
	}
	t.Logf("hits %d, new states %d, explored again %d (%d going on with the last exploration)", hits, misses, again, resumed)
	if hits == 0 || misses == 0 || again == resumed || resumed == 0 {
		t.Errorf("hits %d, new states %d, explored again %d (%d going on with the last exploration): want each path taken", hits, misses, again, resumed)
	}
}

// rcViews are the problems of the RC tests, an IPC 2020 Blocksworld one
// among them (testdata/blocksworld-gtohp). Each loads with the test of its
// own problem, which it may skip.
func rcViews() map[string]func(testing.TB) *view {
	views := map[string]func(testing.TB) *view{}
	for _, dir := range []string{"transport", "goal", "recursive", "interleave", "blocksworld-gtohp"} {
		views[dir] = func(t testing.TB) *view { return loadView(t, dir) }
	}
	return views
}

// walkRC runs a breadth-first search of v under RC for up to max
// evaluations and fails the test where a node's estimate is not the one
// want gives; it returns the heuristic.
func walkRC(t *testing.T, v *view, max int, want func(*bnode) int32) *rcHeuristic {
	b := &bfs{v: v, visited: newSeenSet(), stats: &Stats{}}
	b.rc = newRC(v)
	open := []*bnode{b.root()}
	evals := 0
	for len(open) > 0 && evals < max {
		n := open[0]
		open = open[1:]
		succ, err := b.successors(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range succ {
			evals++
			w := int64(want(c))
			if w == rcInf {
				w = costInf
			}
			if c.h != w {
				t.Fatalf("node %d: estimate %d, want %d", evals, c.h, w)
			}
			if c.h != costInf && !b.seen(c) {
				open = append(open, c)
			}
		}
	}
	if evals < 5 {
		t.Fatalf("only %d nodes", evals)
	}
	return b.rc
}

// ipcView is the view of an IPC 2020 total-order problem.
func ipcView(t testing.TB, domain, problem string) *view {
	dir := testutil.IPCDir(t, "total-order", domain)
	_, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, problem))
	v, err := newView(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRCExact: the exploration (stopped early, cached, gone on with)
// finds the additive costs defined by the relaxed problem, here computed
// by iterating its equations to their fixpoint, at every node a search
// meets on problems of several shapes.
func TestRCExact(t *testing.T) {
	views := rcViews()
	views["ipc-assembly"] = func(t testing.TB) *view {
		return ipcView(t, "AssemblyHierarchical", "genericLinearProblem_depth04.hddl")
	}
	for name, load := range views {
		t.Run(name, func(t *testing.T) {
			v := load(t)
			walkRC(t, v, 300, func(c *bnode) int32 { return naiveRC(v, c) })
		})
	}
}

// naiveRC is the relaxed composition estimate of n by the equations: a
// fact costs 0 in the state and otherwise the least cost of an action
// adding it; an action costs 1 plus its preconditions, and so does its
// task; a method costs its preconditions and subtasks, and a compound
// task the least of its methods.
func naiveRC(v *view, n *bnode) int32 {
	t := v.t
	nF := v.nFacts
	cost := make([]int64, nF+v.nA+len(t.Compounds))
	for i := range cost {
		cost[i] = rcInf
		if i < nF && n.state.Has(i) {
			cost[i] = 0
		}
	}
	sum := func(base int64, pre []int32) int64 {
		for _, p := range pre {
			if cost[p] == rcInf {
				return rcInf
			}
			base += cost[p]
		}
		return base
	}
	lower := func(node int32, c int64) bool {
		if c < cost[node] {
			cost[node] = c
			return true
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for a := 0; a < v.nA; a++ {
			var pre []int32
			for _, f := range t.Actions[a].Pre {
				pre = append(pre, int32(f))
			}
			c := sum(1, pre)
			if c == rcInf {
				continue
			}
			for _, f := range t.Actions[a].Add {
				changed = lower(int32(f), c) || changed
			}
			changed = lower(int32(nF+a), c) || changed
		}
		for i := range v.meths {
			sm := &v.meths[i]
			var pre []int32
			for _, f := range sm.Pre {
				pre = append(pre, int32(f))
			}
			for _, s := range sm.Subtasks {
				pre = append(pre, int32(nF+int(s)))
			}
			if c := sum(0, pre); c != rcInf {
				changed = lower(int32(nF+int(sm.Task)), c) || changed
			}
		}
	}
	var need []int32
	for _, x := range n.net.ents {
		if x.kind == nodeTask {
			need = append(need, int32(nF)+x.id)
			continue
		}
		for _, p := range v.meths[x.id].Pre {
			need = append(need, int32(p))
		}
	}
	for _, g := range t.Goal {
		need = append(need, int32(g))
	}
	h := sum(0, need)
	return int32(min(h, rcInf-1))
}
