package satenc_test

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// TestAlignment grows the tree of a recursion whose methods end in the
// recursive task after one subtask and after two. Aligned, the task stays
// at one child per vertex, so the tree grows by a few vertices a layer;
// left-aligned it would double at every layer (over 8,000 vertices at
// depth 12). The plan found still verifies.
func TestAlignment(t *testing.T) {
	p, task := testutil.LoadTask(t, "testdata/align-domain.hddl", "testdata/align-problem.hddl")
	f := testutil.Compact(t, task)
	ctx := context.Background()
	enc, err := satenc.NewEncoding(ctx, f.Task, &satenc.CNF{}, satenc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const depth = 12
	for enc.Depth < depth {
		if err := enc.AddLayer(); err != nil {
			t.Fatal(err)
		}
	}
	if n := enc.Vertices(); n > 10*depth*depth {
		t.Errorf("%d vertices at depth %d, want at most %d", n, depth, 10*depth*depth)
	}
	for _, s := range []satenc.Solver{satenc.Gophersat{}, satenc.Default()} {
		sol, st, err := satenc.Solve(ctx, f.Task, satenc.Config{Solver: s})
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if err := verify.Verify(ctx, p, f.Unfold(sol).ToPlan(f.Orig)); err != nil {
			t.Fatalf("%s, depth %d: %v", s.Name(), st.Depth, err)
		}
	}
}
