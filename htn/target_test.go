package htn

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/ground"
)

// TestTargets: in testdata/target (deliver p l9) ends once (at p l9)
// holds, its only target. With the targets the parcel goes down the road
// that arrives (one action, the carry the choice of roads makes on the
// recursive task's behalf); in the domain's order it goes the long way
// round the ring (nine).
func TestTargets(t *testing.T) {
	v := loadView(t, "target")
	var got []string
	for c, fs := range v.targets {
		for _, i := range fs {
			for f, j := range v.tIdx {
				if j == i {
					got = append(got, v.t.TaskName(ground.TaskID(c+v.nA))+": "+v.t.FactName(ground.FactID(f)))
				}
			}
		}
	}
	if len(got) != 1 || got[0] != "deliver p l9: (at p l9)" {
		t.Fatalf("targets %q, want [deliver p l9: (at p l9)]", got)
	}
	actions := func(opt Options) int {
		s := newDFS(context.Background(), v, opt, &Stats{}, nil)
		ok, err := s.run()
		if !ok || err != nil {
			t.Fatalf("%+v: no plan: %v", opt, err)
		}
		n := 0
		for _, st := range s.path {
			if st.method < 0 && s.nodes[st.node].kind == nodeTask {
				n++
			}
		}
		return n
	}
	if n := actions(Options{}); n != 1 {
		t.Errorf("with targets: %d actions, want 1", n)
	}
	if n := actions(Options{NoValueOrder: true}); n != 9 {
		t.Errorf("in the domain's order: %d actions, want 9", n)
	}
}
