//go:build cadical

package satenc_test

import (
	"context"
	"os"
	"testing"

	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// TestCadicalIncremental: the linked CaDiCaL keeps what it learnt when a
// layer has no plan. Over the depths a problem needs, one solver growing
// with the layers learns fewer clauses in all than a fresh solver for
// each depth under the same assumption, and the plan verifies. The depths
// are asked one at a time (OneDepth): sharing time among depths would
// count the clauses of searches stopped undecided too.
func TestCadicalIncremental(t *testing.T) {
	// they need five and eight layers, and the layers before fail (with
	// CaDiCaL deciding variables false first, most small problems need
	// almost no search: Satellite p10 learns 5 clauses from scratch)
	cases := []struct{ domain, problem string }{
		{"Satellite-GTOHP", "p05"},
		{"Hiking", "p03"},
	}
	if d, p := os.Getenv("CADICAL_DOMAIN"), os.Getenv("CADICAL_PROBLEM"); d != "" {
		cases = []struct{ domain, problem string }{{d, p}}
	}
	for _, c := range cases {
		p, f := loadIPC(t, c.domain, c.problem)
		ctx := context.Background()
		sol, st, err := satenc.Solve(ctx, f.Task, satenc.Config{Solver: satenc.Cadical{}, OneDepth: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Verify(ctx, p, f.Unfold(sol).ToPlan(f.Orig)); err != nil {
			t.Fatalf("%s %s: %v", c.domain, c.problem, err)
		}
		// the same layers, each depth in a fresh solver under the same
		// assumption
		scratch := int64(0)
		for depth := max(f.Task.MinDepth(), 1); depth <= st.Depth; depth++ {
			s := satenc.Cadical{}.Incremental()
			enc, err := satenc.NewEncoding(ctx, f.Task, s, satenc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for enc.Depth < depth {
				if err := enc.AddLayer(); err != nil {
					t.Fatal(err)
				}
			}
			final, err := enc.Final()
			if err != nil {
				t.Fatal(err)
			}
			sat, err := s.Solve(ctx, final)
			if err != nil {
				t.Fatal(err)
			}
			if sat != (depth == st.Depth) {
				t.Errorf("%s %s depth %d: from scratch %v", c.domain, c.problem, depth, sat)
			}
			scratch += s.(interface{ Learnt() int64 }).Learnt()
			s.Close()
		}
		t.Logf("%s %s: depth %d, %d clauses learnt incrementally, %d from scratch", c.domain, c.problem, st.Depth, st.Learnt, scratch)
		if st.Learnt < 0 || st.Learnt >= scratch {
			t.Errorf("%s %s: %d clauses learnt incrementally, %d from scratch", c.domain, c.problem, st.Learnt, scratch)
		}
	}
}

// TestCadicalHorizons: with slices of two conflicts, searches are
// stopped and resumed across the open depths (algorithm B), and the plan
// found still verifies, at a depth no shallower than the one the task
// needs (8). Slices of time made the test depend on the machine's speed:
// with CaDiCaL deciding false first, most small problems take a few
// microseconds a search.
func TestCadicalHorizons(t *testing.T) {
	defer satenc.SetSliceConflicts(2)()
	p, f := loadIPC(t, "Hiking", "p03")
	ctx := context.Background()
	sol, st, err := satenc.Solve(ctx, f.Task, satenc.Config{Solver: satenc.Cadical{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Verify(ctx, p, f.Unfold(sol).ToPlan(f.Orig)); err != nil {
		t.Fatalf("depth %d: %v", st.Depth, err)
	}
	t.Logf("depth %d, %d searches, %d stopped undecided", st.Depth, st.Tries, st.Skipped)
	if st.Depth < 8 || st.Skipped == 0 {
		t.Errorf("depth %d, %d searches stopped; want depth 8 or more after stopped searches", st.Depth, st.Skipped)
	}
}
