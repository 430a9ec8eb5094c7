package htn

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
)

// TestRCGrow: over a task grounded on demand, the relaxed composition
// estimate (rcGrow) serves every task below the network first, so that
// at the root it is the estimate over the full grounding of the same
// problem; through a breadth-first walk of the growing task (whose
// searches grow it further) it stays finite wherever the lifted estimate
// is, and where the task it was made from has not grown it is the one a
// heuristic made afresh gives. Checked on the RC tests' problems and
// others (a room of one action, too, which moves the IDs: the walk
// starts over, as the search does).
func TestRCGrow(t *testing.T) {
	agreed := 0
	for _, dir := range []string{"transport", "goal", "recursive", "interleave", "blocksworld-gtohp", "reach", "protect", "target", "costs"} {
		for _, room := range []int{0, 1} {
			t.Run(dir, func(t *testing.T) {
				full := loadView(t, dir)
				fb := &bfs{v: full, visited: newSeenSet(), stats: &Stats{}}
				fb.rc = newRC(full)
				want := fb.root().h
				_, p, err := hddl.Load("../testdata/"+dir+"/domain.hddl", "../testdata/"+dir+"/problem.hddl")
				if err != nil {
					t.Fatal(err)
				}
				g, err := ground.NewGrow(context.Background(), p, ground.Options{GrowRoom: room})
				if err != nil {
					t.Fatal(err)
				}
				for restarts := 0; !walkRCGrow(t, g, want); restarts++ {
					if restarts > 64 {
						t.Fatal("the IDs keep moving")
					}
				}
				if room == 0 {
					agreed++
				}
			})
		}
	}
	if agreed < 5 {
		t.Errorf("%d problems checked, want the most", agreed)
	}
}

// walkRCGrow walks g breadth-first under rcGrow, failing the test where
// an estimate is wrong (want: the full grounding's at the root); it
// reports false where the IDs moved.
func walkRCGrow(t *testing.T, g *ground.Grow, want int64) bool {
	t.Helper()
	v := newGrowView(g, false)
	b := &bfs{v: v, visited: newSeenSet(), stats: &Stats{}, relaid: g.Relaid}
	b.rcg = &rcGrow{goOn: func() error { return b.mayGoOn(context.Background()) }}
	root := b.root()
	if g.Relaid != b.relaid {
		return false
	}
	if root.h != want {
		t.Fatalf("root estimate %d, want %d (the full grounding's)", root.h, want)
	}
	if b.rcg.off || b.rcg.served < len(g.Task.Compounds) {
		t.Fatalf("%d of %d compound tasks served in any state, off %v", b.rcg.served, len(g.Task.Compounds), b.rcg.off)
	}
	open := []*bnode{root}
	for evals := 0; len(open) > 0 && evals < 600; {
		n := open[0]
		open = open[1:]
		var succ []*bnode
		var err error
		if n.more != nil {
			succ, err = b.served(n.more.of, n.more, nil)
		} else if len(n.net.ents) > 0 {
			succ, err = b.successors(n)
		}
		if err == errRelaid {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range succ {
			evals++
			lifted := int64(0)
			for _, e := range c.net.ents {
				if e.kind == nodeTask {
					lifted = addCost(lifted, v.cost[e.id])
				}
			}
			if (c.h == costInf) != (lifted == costInf) {
				t.Fatalf("node %d: estimate %d, lifted %d", evals, c.h, lifted)
			}
			if !b.rcg.stale(v) && c.h != costInf && c.more == nil {
				fresh := newRCServed(v, b.rcg.served).eval(c.state, c.net)
				w := int64(fresh)
				if fresh == rcInf {
					w = addCost(lifted, rcGrowFar)
				}
				if got := b.rcg.eval(v, c.state, c.net); got != w {
					t.Fatalf("node %d: estimate %d, a fresh heuristic's %d", evals, got, w)
				}
			}
			if c.h != costInf && (c.more != nil || !b.seen(c)) {
				open = append(open, c)
			}
		}
	}
	return true
}
