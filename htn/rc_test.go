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
// paths: a new state, a state met before, and one explored again.
func TestRCCache(t *testing.T) {
	views := map[string]func() *view{}
	for _, dir := range []string{"transport", "goal", "recursive", "interleave"} {
		views[dir] = func() *view { return loadView(t, dir) }
	}
	views["ipc-blocksworld"] = func() *view {
		dir := testutil.IPCDir(t, "total-order", "Blocksworld-GTOHP")
		_, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "p05.hddl"))
		v, err := newView(context.Background(), task)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var hits, misses, again int
	for name, load := range views {
		t.Run(name, func(t *testing.T) {
			v := load()
			b := &bfs{v: v, visited: newSeenSet(), stats: &Stats{}}
			b.rc = newRC(v)
			open := []*bnode{b.root()}
			evals := 0
			for len(open) > 0 && evals < 3000 {
				n := open[0]
				open = open[1:]
				for _, c := range b.successors(n) {
					evals++
					want := newRC(v).eval(c.state, c.net)
					if c.h != want {
						t.Fatalf("node %d: cached estimate %d, fresh %d", evals, c.h, want)
					}
					if c.h != rcInf && !b.seen(c) {
						open = append(open, c)
					}
				}
			}
			hits += b.rc.hits
			misses += b.rc.misses
			again += b.rc.again
		})
	}
	t.Logf("hits %d, new states %d, explored again %d", hits, misses, again)
	if hits == 0 || misses == 0 || again == 0 {
		t.Errorf("hits %d, new states %d, explored again %d: want each path taken", hits, misses, again)
	}
}
