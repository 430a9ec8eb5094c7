package compare

import (
	"context"
	"sync"
	"time"

	"github.com/htnsat/htnsat/sudoku"
)

// BatchOptions configure a batch of runs.
type BatchOptions struct {
	Options
	Engines []Engine
	Timeout time.Duration // per puzzle and engine (0: none)
	Jobs    int           // puzzles solved in parallel (default 1)
	// Progress, if set, is called after each puzzle with the number done.
	Progress func(done, total int)
	// Process, if set, runs each puzzle and engine as a process of its
	// own (Process.Run) instead of in this one.
	Process *Process
}

// Batch runs every engine on every puzzle. The rows come in puzzle
// order, then engine order, whatever Jobs is, so that the same input gives
// the same rows apart from timings. Before measuring, each engine solves a
// small puzzle once, so that one-time set-up costs stay out of the rows.
// Every run's memory is measured (Options.Memory), in process; with
// Process, each run is a process of its own and no warm-up is done (each
// process starts cold, as a planner run per problem does). The rows carry
// no plan (Run.Plan is nil): RunEngine gives it for a single run.
func Batch(ctx context.Context, puzzles []sudoku.Puzzle, opt BatchOptions) []Run {
	opt.Memory = opt.Process == nil
	if opt.Process == nil {
		warm, _ := sudoku.ParsePuzzle("...3..4114..3...")
		for _, e := range opt.Engines {
			RunEngine(ctx, warm, e, opt.Options)
		}
	}
	runs := make([]Run, len(puzzles)*len(opt.Engines))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(opt.Jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				for k, e := range opt.Engines {
					var r Run
					if opt.Process != nil {
						r = opt.Process.Run(ctx, i, puzzles[i], e, opt.Options, opt.Timeout)
					} else {
						pctx, cancel := ctx, context.CancelFunc(func() {})
						if opt.Timeout > 0 {
							pctx, cancel = context.WithTimeout(ctx, opt.Timeout)
						}
						r = RunEngine(pctx, puzzles[i], e, opt.Options)
						cancel()
					}
					// A plan keeps its ground task reachable: thousands
					// of them would make every collection before a run
					// (Options.Memory) slower than the run.
					r.Plan = nil
					runs[i*len(opt.Engines)+k] = r
				}
				mu.Lock()
				done++
				if opt.Progress != nil {
					opt.Progress(done, len(puzzles))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range puzzles {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	// puzzles never started (interrupted) keep empty rows: drop them
	out := runs[:0]
	for _, r := range runs {
		if r.Engine != "" {
			out = append(out, r)
		}
	}
	return out
}
