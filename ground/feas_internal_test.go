package ground

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/hddl"
)

// A growing task's grounding stops asking feasibility questions once they
// have taken most of its join steps and rarely answered no; until then,
// and without feasAdaptive, it asks them.
func TestFeasibilityAdaptive(t *testing.T) {
	_, p, err := hddl.Load("../testdata/recursive/domain.hddl", "../testdata/recursive/problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	for _, adaptive := range []bool{false, true} {
		lz, err := NewLazy(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		lz.feasAdaptive = adaptive
		var compound int32 = -1
		for _, ot := range lz.Initial() {
			if id := lz.Bind(ot, make([]int32, len(p.Vars))); id >= 0 && !ot.Ref.Primitive {
				compound = id
				break
			}
		}
		if compound < 0 {
			t.Fatal("no compound task in the initial network")
		}
		// questions that took all the work and never said no
		lz.feasAsked, lz.feasNo = feasTrial, 0
		lz.ticks, lz.feasTicks = 1000, 1000
		lz.mayApply(compound, lz.Init())
		if asked := lz.feasAsked > feasTrial; asked == adaptive {
			t.Errorf("adaptive %v: asked %v", adaptive, asked)
		}
		// questions that told something: asked again
		lz.feasAsked, lz.feasNo = feasTrial, feasTrial
		delete(lz.possible, compound)
		lz.mayApply(compound, lz.Init())
		if lz.feasAsked == feasTrial {
			t.Errorf("adaptive %v: a useful question was not asked", adaptive)
		}
	}
}
