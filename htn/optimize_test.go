package htn_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/verify"
)

// optimize runs htn.Optimize on the folded task and returns the costs of
// the plans it reported, each verified with the cost it claims.
func optimize(t *testing.T, p *hddl.Problem, f *ground.Folding, any htn.Anytime) ([]int64, bool, error) {
	t.Helper()
	var costs []int64
	any.Found = func(s *ground.Solution, c int64) error {
		pl := f.Unfold(s).ToPlan(f.Orig)
		if pl.TotalCost() != c {
			t.Errorf("plan of cost %d reported as %d", pl.TotalCost(), c)
		}
		read, err := plan.Read(strings.NewReader(pl.String()))
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Verify(context.Background(), p, read); err != nil {
			t.Errorf("plan of cost %d: %v\n%s", c, err, pl)
		}
		costs = append(costs, c)
		return nil
	}
	_, optimal, _, err := htn.Optimize(context.Background(), f.Task, htn.Options{}, any)
	for i := 1; i < len(costs); i++ {
		if costs[i] >= costs[i-1] {
			t.Errorf("plan %d costs %d, not less than the one before (%d)", i, costs[i], costs[i-1])
		}
	}
	return costs, optimal, err
}

// TestOptimize: on the travel domain with action costs, the anytime
// search improves the first plan (cost 8, walking) to the optimum (7, a
// taxi out and a walk back) and proves it; --optimal finds it directly;
// with a bound of 7 there is provably nothing cheaper, with 8 the 7.
func TestOptimize(t *testing.T) {
	dir := filepath.Join("..", "testdata", "costs")
	p, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "problem.hddl"))
	f := testutil.Compact(t, task)
	costs, optimal, err := optimize(t, p, f, htn.Anytime{})
	if err != nil || !optimal || len(costs) < 2 || costs[len(costs)-1] != 7 {
		t.Errorf("anytime: costs %v, optimal %v, %v; want ... 7, proven", costs, optimal, err)
	}
	costs, optimal, err = optimize(t, p, f, htn.Anytime{Optimal: true})
	if err != nil || !optimal || len(costs) != 1 || costs[0] != 7 {
		t.Errorf("optimal: costs %v, optimal %v, %v; want [7], proven", costs, optimal, err)
	}
	if costs, _, err := optimize(t, p, f, htn.Anytime{Bound: 7}); !errors.Is(err, htn.ErrNoPlan) || len(costs) != 0 {
		t.Errorf("below 7: costs %v, %v; want no plan", costs, err)
	}
	if costs, optimal, err := optimize(t, p, f, htn.Anytime{Bound: 8}); err != nil || !optimal || len(costs) != 1 || costs[0] != 7 {
		t.Errorf("below 8: costs %v, optimal %v, %v; want [7]", costs, optimal, err)
	}
}

// TestOptimalNoWorse: on the small problems of testdata, totally and
// partially ordered, recursive or not, the proven optimum costs no more
// than any plan a search of the portfolio finds, and the anytime search
// ends at the same cost.
func TestOptimalNoWorse(t *testing.T) {
	for _, c := range [][2]string{
		{"recursive/domain.hddl", "recursive/problem.hddl"},
		{"interleave/domain.hddl", "interleave/problem.hddl"},
		{"ipc-mini/total-order/split/domain.hddl", "ipc-mini/total-order/split/p1.hddl"},
		{"ipc-mini/total-order/split/domain.hddl", "ipc-mini/total-order/split/p2.hddl"},
		{"ipc-mini/partial-order/split/domain.hddl", "ipc-mini/partial-order/split/p1.hddl"},
	} {
		t.Run(c[1], func(t *testing.T) {
			p, task := testutil.LoadTask(t, filepath.Join("..", "testdata", c[0]), filepath.Join("..", "testdata", c[1]))
			f := testutil.Compact(t, task)
			best, optimal, err := optimize(t, p, f, htn.Anytime{Optimal: true})
			if err != nil || !optimal || len(best) != 1 {
				t.Fatalf("optimal: %v, %v, %v", best, optimal, err)
			}
			for _, s := range []htn.Search{htn.DFS, htn.GBFS, htn.AStar, htn.Auto} {
				pl, _ := solveFolding(t, p, f, htn.Options{Search: s})
				if pl.TotalCost() < best[0] {
					t.Errorf("%s found a plan of cost %d, below the optimum %d", s, pl.TotalCost(), best[0])
				}
			}
			costs, optimal, err := optimize(t, p, f, htn.Anytime{})
			if err != nil || !optimal || costs[len(costs)-1] != best[0] {
				t.Errorf("anytime: %v, optimal %v, %v; want to end at %d", costs, optimal, err, best[0])
			}
		})
	}
}

// TestOptimalHugeCosts: costs above 2^29, up to the largest a domain may
// state (hddl.MaxCost), are compared as they are. The search once capped
// each action's cost at 2^29-1 and a path's at 2^29, so that one action of
// cost 2^31-1 looked as cheap as two of 6·10^8, and the dear plan was
// proven "optimal".
func TestOptimalHugeCosts(t *testing.T) {
	dir := filepath.Join("..", "testdata", "hostile", "optimal-huge-costs")
	p, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "problem.hddl"))
	f := testutil.Compact(t, task)
	for _, any := range []htn.Anytime{{Optimal: true}, {}} {
		costs, optimal, err := optimize(t, p, f, any)
		if err != nil || !optimal || len(costs) == 0 || costs[len(costs)-1] != 1_200_000_000 {
			t.Errorf("optimal %v: costs %v, proven %v, %v; want to end at 1200000000, proven", any.Optimal, costs, optimal, err)
		}
	}
}
