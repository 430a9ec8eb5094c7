package htn

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
)

func TestProf25(t *testing.T) {
	d, _ := hddl.LoadDomain("/tmp/d25.hddl")
	p, _ := hddl.LoadProblem("/tmp/p25u.hddl", d)
	task, _, _ := ground.Ground(context.Background(), p, ground.Options{})
	o := DefaultOptions()
	v := newView(task, o.Fold)
	st := &Stats{}
	s := newDFS(context.Background(), v, o, st)
	// count choice tasks and their live methods at the root
	hist := map[int32]int{}
	for i := range s.nodes {
		n := s.nodes[i]
		if int(n.id) >= v.nA {
			hist[s.count[int(n.id)-v.nA]]++
		}
	}
	t.Logf("root live-method histogram: %v", hist)
	t.Logf("facts %d, neverDel %v", v.nFacts, countTrue(v.neverDel))
	kills := 0
	for f := range v.killOnTrue {
		kills += len(v.killOnTrue[f])
	}
	t.Logf("killOnTrue entries: %d", kills)
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}
