package satenc_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// improve runs satenc.Improve from the SAT engine's first plan and
// returns the costs of the plans it found (the first plan's first), each
// verified with the cost it claims.
func improve(t *testing.T, p *hddl.Problem, f *ground.Folding, cfg satenc.Config) ([]int64, bool) {
	t.Helper()
	ctx := context.Background()
	cost := func(s *ground.Solution) int64 {
		pl := f.Unfold(s).ToPlan(f.Orig)
		read, err := plan.Read(strings.NewReader(pl.String()))
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Verify(ctx, p, read); err != nil {
			t.Fatalf("%v\n%s", err, pl)
		}
		return pl.TotalCost()
	}
	sol, st, err := satenc.Solve(ctx, f.Task, cfg)
	if err != nil {
		t.Fatal(err)
	}
	costs := []int64{cost(sol)}
	optimal, _, err := satenc.Improve(ctx, f.Task, cfg, st.Depth, costs[0], nil, func(s *ground.Solution, c int64) error {
		if got := cost(s); got != c || c >= costs[len(costs)-1] {
			t.Errorf("plan of cost %d reported as %d, after one of %d", got, c, costs[len(costs)-1])
		}
		costs = append(costs, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return costs, optimal
}

// TestImprove: the bound on the cost of the last layer's actions leads
// the SAT engine from its first plan to the optimum: in the travel domain
// with costs (recursive, so never proven) to 7, and in a task without
// recursion, where a cheap method has more actions than a dear one, to the
// optimum with a proof; in total order it agrees with the progression
// search's proven optimum on the small problems of testdata.
func TestImprove(t *testing.T) {
	dir := filepath.Join("..", "testdata", "costs")
	p, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "problem.hddl"))
	costs, optimal := improve(t, p, testutil.Compact(t, task), satenc.Config{MaxDepth: 10})
	if costs[len(costs)-1] != 7 || optimal {
		t.Errorf("travel: costs %v, optimal %v; want to end at 7, unproven (recursive)", costs, optimal)
	}
	// at a fixed depth nothing deeper is tried: at 3 layers the walk back
	// cannot follow the taxi, and the best is 8 (two taxis), unproven
	if costs, optimal := improve(t, p, testutil.Compact(t, task), satenc.Config{Depth: 3}); costs[len(costs)-1] != 8 || optimal {
		t.Errorf("travel at depth 3: costs %v, optimal %v; want to end at 8, unproven", costs, optimal)
	}
	dom := `(define (domain d) (:requirements :hierarchy :action-costs)
  (:predicates (done))
  (:functions (total-cost) - number)
  (:task t :parameters ())
  (:method dear :parameters () :task (t) :ordered-subtasks (and (b)))
  (:method cheap :parameters () :task (t) :ordered-subtasks (and (a) (a) (a)))
  (:action a :parameters () :effect (and (done) (increase (total-cost) 1)))
  (:action b :parameters () :effect (and (done) (increase (total-cost) 5))))`
	prob := `(define (problem p) (:domain d) (:htn :ordered-subtasks (and (t) (t))) (:init (= (total-cost) 0)))`
	pp := testutil.ParseHDDL(t, dom, prob)
	costs, optimal = improve(t, pp, testutil.Compact(t, testutil.Ground(t, pp)), satenc.Config{})
	if costs[len(costs)-1] != 6 || !optimal {
		t.Errorf("costs %v, optimal %v; want to end at 6, proven", costs, optimal)
	}
	for _, c := range [][2]string{
		{"ipc-mini/total-order/split/domain.hddl", "ipc-mini/total-order/split/p1.hddl"},
		{"ipc-mini/total-order/split/domain.hddl", "ipc-mini/total-order/split/p2.hddl"},
	} {
		p, task := testutil.LoadTask(t, filepath.Join("..", "testdata", c[0]), filepath.Join("..", "testdata", c[1]))
		f := testutil.Compact(t, task)
		costs, optimal := improve(t, p, f, satenc.Config{MaxDepth: 12})
		var best int64
		_, proven, _, err := htn.Optimize(context.Background(), f.Task, htn.Options{}, htn.Anytime{Optimal: true, Found: func(_ *ground.Solution, c int64) error { best = c; return nil }})
		if err != nil || !proven {
			t.Fatalf("%s: progression: %v", c[1], err)
		}
		if last := costs[len(costs)-1]; last < best || optimal && last != best {
			t.Errorf("%s: SAT ends at %d (optimal %v), the optimum is %d", c[1], last, optimal, best)
		}
	}
}
