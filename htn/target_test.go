package htn

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/ground"
)

// TestTargets: in testdata/target (deliver p l7) ends once (at p l7)
// holds, its only target. With the targets the parcel goes the short way
// round the ring of ten places, back through l9 and l8 (three actions,
// the carries the choice of roads makes on the recursive task's behalf,
// each nearer by one transition); in the domain's order it goes the long
// way, l1 first (seven).
func TestTargets(t *testing.T) {
	v := loadView(t, "target")
	var got []string
	for c, fs := range v.targets {
		for _, f := range fs {
			got = append(got, v.t.TaskName(ground.TaskID(c+v.nA))+": "+v.t.FactName(f))
		}
	}
	if len(got) != 1 || got[0] != "deliver p l7: (at p l7)" {
		t.Fatalf("targets %q, want [deliver p l7: (at p l7)]", got)
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
	if n := actions(Options{}); n != 3 {
		t.Errorf("with targets: %d actions, want 3", n)
	}
	if n := actions(Options{NoValueOrder: true}); n != 7 {
		t.Errorf("in the domain's order: %d actions, want 7", n)
	}
}
