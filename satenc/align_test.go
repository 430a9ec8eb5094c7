package satenc_test

import (
	"context"
	"testing"
	"time"

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
	if err := satenc.CheckAlignments(enc); err != nil {
		t.Fatal(err)
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

// slowSolver answers after a delay, or gives up when its context ends
// first.
type slowSolver struct {
	satenc.Solver
	delay time.Duration
}

func (s slowSolver) Solve(ctx context.Context, cnf *satenc.CNF) (*satenc.Result, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
	}
	// both may be ready when a loaded machine runs this late: the
	// context's end wins
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.Solver.Solve(ctx, cnf)
}

// TestSkipping: with Skip, when no layer can be decided within its
// budget, the engine moves on to deeper ones, and the last depth, asked
// without a budget, still gives a plan that verifies. Without it every
// depth is decided, and the first plan is at the depth the task needs.
func TestSkipping(t *testing.T) {
	defer satenc.SetSkipPace(5*time.Millisecond, 1<<40)()
	p, task := testutil.LoadTask(t, "testdata/align-domain.hddl", "testdata/align-problem.hddl")
	f := testutil.Compact(t, task)
	ctx := context.Background()
	slow := slowSolver{satenc.Gophersat{}, 100 * time.Millisecond}
	for _, skip := range []bool{true, false} {
		sol, st, err := satenc.Solve(ctx, f.Task, satenc.Config{Solver: slow, MaxDepth: 12, Skip: skip})
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Verify(ctx, p, f.Unfold(sol).ToPlan(f.Orig)); err != nil {
			t.Fatalf("skip %v, depth %d: %v", skip, st.Depth, err)
		}
		t.Logf("skip %v: depth %d, %d tries, %d skipped", skip, st.Depth, st.Tries, st.Skipped)
		switch {
		case !skip && (st.Depth != 5 || st.Skipped != 0):
			t.Errorf("no skipping: depth %d, %d layers skipped; want depth 5, none skipped", st.Depth, st.Skipped)
		case skip && (st.Depth != 12 || st.Skipped != st.Tries-1):
			t.Errorf("skipping: depth %d, %d of %d tries skipped; want depth 12, all but the last skipped", st.Depth, st.Skipped, st.Tries)
		}
	}
}

// stoppable is gophersat behind the incremental interface with a time
// limit, as the linked CaDiCaL is: what Config.Skip needs for horizons.
type stoppable struct{ satenc.Gophersat }

func (stoppable) Incremental() satenc.Incremental {
	return &stoppableIncr{satenc.NewIncremental(satenc.Gophersat{})}
}

type stoppableIncr struct{ satenc.Incremental }

func (s *stoppableIncr) SolveWithin(ctx context.Context, d time.Duration, assumptions ...satenc.Lit) (bool, bool, error) {
	sub, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	sat, err := s.Solve(sub, assumptions...)
	if err != nil && ctx.Err() == nil {
		return false, false, nil
	}
	return sat, err == nil, err
}

// TestHorizons: with Skip and a solver that can be stopped, the engine
// shares time among several depths at once (algorithm B) and still finds
// a plan that verifies, at the depth the task needs when every slice is
// long enough to decide.
func TestHorizons(t *testing.T) {
	p, task := testutil.LoadTask(t, "testdata/align-domain.hddl", "testdata/align-problem.hddl")
	f := testutil.Compact(t, task)
	ctx := context.Background()
	sol, st, err := satenc.Solve(ctx, f.Task, satenc.Config{Solver: stoppable{}, MaxDepth: 12, Skip: true})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Incremental {
		t.Error("the stoppable solver was not used incrementally")
	}
	if err := verify.Verify(ctx, p, f.Unfold(sol).ToPlan(f.Orig)); err != nil {
		t.Fatalf("depth %d: %v", st.Depth, err)
	}
	if st.Depth != 5 || st.Skipped != 0 {
		t.Errorf("depth %d, %d slices ran out; want depth 5, none", st.Depth, st.Skipped)
	}
}
