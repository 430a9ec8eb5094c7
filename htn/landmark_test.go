package htn

import (
	"context"
	"testing"
)

// TestLandmarks: in testdata/landmark the goal (seen-2) needs (seen-1)
// first, which observe-2 deletes again: a landmark, not a goal. The branch
// that cannot make it true must end at once, not after the 2^12 ways of
// the tasks before observe-2 (the reach, which would see it too, off).
func TestLandmarks(t *testing.T) {
	v := loadView(t, "landmark")
	var names []string
	for i := v.lmFrom; i < v.lmTo; i++ {
		names = append(names, v.t.FactName(v.goals[i]))
	}
	if len(names) != 1 || names[0] != "(seen-1)" {
		t.Fatalf("landmarks %q, want [(seen-1)]", names)
	}
	run := func(opt Options) int64 {
		st := &Stats{}
		ok, err := newDFS(context.Background(), v, opt, st, nil).run()
		if !ok || err != nil {
			t.Fatalf("%+v: no plan: %v", opt, err)
		}
		return st.Nodes
	}
	on := run(Options{NoReach: true, NoValueOrder: true})
	off := run(Options{NoReach: true, NoValueOrder: true, NoLandmarks: true})
	if on > 50 || off < 4096 {
		t.Errorf("%d nodes with landmarks, %d without: want few and over 4096", on, off)
	}
	// the goal order counts the landmark: the full story goes first
	if n := run(Options{NoReach: true}); n > 10 {
		t.Errorf("goal order with landmarks: %d nodes", n)
	}
}
