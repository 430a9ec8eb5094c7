package htn

import (
	"bytes"
	"context"
	"testing"
)

// TestForward: the greedy search's forward step (bfs.forward) ends each
// node's forced chain where a walk by single successors, made apart,
// ends: the same state and network, the estimate of that node, its
// successors when it has a choice, a dead end where the walk finds no
// successor, and one expanded node counted per step. Checked on every
// node of a breadth-first walk (up to a bound) of the RC tests' problems
// and three more,
// under RC and under the least-actions estimate; the walk must meet
// chains of several steps, choices and dead ends.
func TestForward(t *testing.T) {
	var long, choices, dead int
	views := rcViews()
	for _, dir := range []string{"reach", "protect", "target"} {
		views[dir] = func(t testing.TB) *view { return loadView(t, dir) }
	}
	for name, load := range views {
		for _, rc := range []bool{true, false} {
			t.Run(name, func(t *testing.T) {
				v := load(t)
				b := &bfs{v: v, visited: newSeenSet(), stats: &Stats{}}
				if rc {
					b.rc = newRC(v)
				}
				open := []*bnode{b.root()}
				for walked := 0; len(open) > 0 && walked < 400; walked++ {
					n := open[0]
					open = open[1:]
					if len(n.net.ents) == 0 {
						continue
					}
					// the walk apart, by single successors
					m, steps := n, 0
					var succ []*bnode
					for len(m.net.ents) > 0 {
						var err error
						if succ, err = b.successors(m); err != nil {
							t.Fatal(err)
						}
						if len(succ) != 1 {
							break
						}
						m, steps = succ[0], steps+1
					}
					want := bytes.Clone(b.keyOf(m))
					before := b.stats.Nodes
					c := *n
					end, next, err := b.forward(context.Background(), &c)
					if err != nil {
						t.Fatal(err)
					}
					if got := b.stats.Nodes - before; got != int64(steps) {
						t.Fatalf("node %d: %d steps counted, the walk took %d", walked, got, steps)
					}
					if len(m.net.ents) > 0 && len(succ) == 0 {
						dead++
						if end.h != costInf {
							t.Fatalf("node %d: the chain ends without a successor after %d steps, estimate %d, want a dead end", walked, steps, end.h)
						}
						continue
					}
					if !bytes.Equal(b.keyOf(end), want) {
						t.Fatalf("node %d: the chain's end is not the walk's (%d steps)", walked, steps)
					}
					if h := b.h(m.state, m.net); end.h != h {
						t.Fatalf("node %d: end estimate %d, want %d", walked, end.h, h)
					}
					if steps > 1 {
						long++
					}
					if len(succ) > 1 {
						choices++
						if len(next) != len(succ) {
							t.Fatalf("node %d: %d successors of the end, want %d", walked, len(next), len(succ))
						}
					}
					for _, s := range succ {
						if s.h = b.h(s.state, s.net); s.h != costInf && !b.seen(s) {
							open = append(open, s)
						}
					}
				}
			})
		}
	}
	t.Logf("chains of several steps %d, ends with a choice %d, dead ends %d", long, choices, dead)
	if long == 0 || choices == 0 || dead == 0 {
		t.Errorf("chains of several steps %d, ends with a choice %d, dead ends %d: want each", long, choices, dead)
	}
}
