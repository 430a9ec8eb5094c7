package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

// TestOptimize: with each engine, an optimising run tells each plan,
// cheaper than the last, and ends at the travel domain's optimum (7);
// progression and auto prove it (the domain is recursive, which the SAT
// engine's depth bound cannot: it shows nothing cheaper up to its maximum
// depth). On Sudoku, where every plan has the same
// length, the first plan is proven optimal at once.
func TestOptimize(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "costs")
	p, _ := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "problem.hddl"))
	for _, e := range []pipeline.Engine{pipeline.Progression, pipeline.SAT, pipeline.Auto} {
		for _, optimal := range []bool{false, true} {
			var costs []int64
			cfg := pipeline.Config{Engine: e, Optimize: !optimal, Optimal: optimal, SAT: satenc.Config{MaxDepth: 10}}
			cfg.Improved = func(pl *plan.Plan) error {
				if n := len(costs); n > 0 && pl.TotalCost() >= costs[n-1] {
					t.Errorf("%s: plan of cost %d after one of %d", e, pl.TotalCost(), costs[n-1])
				}
				costs = append(costs, pl.TotalCost())
				return nil
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			res, err := pipeline.Run(ctx, p, cfg)
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			if !res.Verified || res.Plan.TotalCost() != 7 || len(costs) != res.Plans || costs[len(costs)-1] != 7 {
				t.Errorf("%s (optimal %v): verified %v, cost %d, plans %v (%d)", e, optimal, res.Verified, res.Plan.TotalCost(), costs, res.Plans)
			}
			if res.Optimal != (e != pipeline.SAT) {
				t.Errorf("%s (optimal %v): proven %v", e, optimal, res.Optimal)
			}
			if e == pipeline.SAT && res.ExhaustedDepth != 10 {
				// the SAT engine's bound: nothing cheaper up to MaxDepth
				t.Errorf("SAT (optimal %v): nothing cheaper up to depth %d, want 10", optimal, res.ExhaustedDepth)
			}
		}
	}
	sp := testutil.SudokuProblem(t, testutil.PaperPuzzle, sudoku.Ordered)
	for _, e := range []pipeline.Engine{pipeline.Progression, pipeline.SAT} {
		res, err := pipeline.Run(context.Background(), sp, pipeline.Config{Engine: e, Optimize: true})
		if err != nil || !res.Optimal || res.Plans != 1 || res.Plan.Length() != 46 {
			t.Errorf("Sudoku, %s: %v, optimal %v, %d plans", e, err, res.Optimal, res.Plans)
		}
	}
}
