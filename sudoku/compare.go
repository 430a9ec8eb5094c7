package sudoku

import (
	"context"
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed samples/*.txt
var samples embed.FS

// Samples returns the embedded default puzzle set: the paper's puzzle and
// a few puzzles of each size (4, 9, 16 and 25).
func Samples() []Puzzle {
	names, _ := fs.Glob(samples, "samples/*.txt")
	sort.Slice(names, func(i, j int) bool { return sizeOf(names[i]) < sizeOf(names[j]) })
	var out []Puzzle
	for _, n := range names {
		f, _ := samples.Open(n)
		ps, _ := Read(f, path.Base(n))
		f.Close()
		out = append(out, ps...)
	}
	for i := range out {
		if out[i].Line() == paperLine {
			out[i].Name = "paper"
		}
	}
	return out
}

const paperLine = "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."

func sizeOf(name string) int {
	n := 0
	for _, c := range strings.TrimPrefix(path.Base(name), "") {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// CompareOptions configure a comparison.
type CompareOptions struct {
	Options
	Engines []Engine
	Timeout time.Duration // per puzzle and engine (0: none)
	Jobs    int           // puzzles solved in parallel (default 1)
	// Progress, if set, is called after each puzzle with the number done.
	Progress func(done, total int)
}

// Compare runs every engine on every puzzle. The rows come in puzzle
// order, then engine order, whatever Jobs is, so that the same input gives
// the same rows apart from timings. Before measuring, each engine solves a
// small puzzle once, so that one-time set-up costs stay out of the rows.
// Every run's memory is measured (Options.Memory).
func Compare(ctx context.Context, puzzles []Puzzle, opt CompareOptions) []Run {
	opt.Memory = true
	warm, _ := ParsePuzzle("...3..4114..3...")
	for _, e := range opt.Engines {
		RunEngine(ctx, warm, e, opt.Options)
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
					pctx, cancel := ctx, context.CancelFunc(func() {})
					if opt.Timeout > 0 {
						pctx, cancel = context.WithTimeout(ctx, opt.Timeout)
					}
					r := RunEngine(pctx, puzzles[i], e, opt.Options)
					cancel()
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
