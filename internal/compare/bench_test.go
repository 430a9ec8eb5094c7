package compare_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/internal/memguard"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
)

// benchEngine solves puzzles with one engine, cycling through them, so
// ns/op is the mean time per puzzle (all stages, plan verified). It also
// reports puzzles per second. It runs under the heap floor the htnsat
// command sets (memguard.DefaultFloor), as "htnsat compare" does.
func benchEngine(b *testing.B, ps []sudoku.Puzzle, e compare.Engine) {
	defer memguard.Floor(memguard.DefaultFloor)()
	opt := compare.Options{}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := ps[i%len(ps)]
		i++
		r := compare.RunEngine(context.Background(), p, e, opt)
		if r.Status != plan.Solved || !r.Verified {
			b.Fatalf("%s on %s: %s %s", e, p.Name, r.Status, r.Error)
		}
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "puzzles/s")
}

// BenchmarkEngines runs every engine on the first embedded sample of each
// size (the paper's puzzle for 9×9): the ratios between engines of one
// size come from the same run.
func BenchmarkEngines(b *testing.B) {
	seen := map[int]bool{}
	for _, p := range sudoku.Samples() {
		if seen[p.Size()] {
			continue
		}
		seen[p.Size()] = true
		for _, e := range compare.Engines {
			b.Run(fmt.Sprintf("%dx%d/%s", p.Size(), p.Size(), e), func(b *testing.B) {
				benchEngine(b, []sudoku.Puzzle{p}, e)
			})
		}
	}
}

// BenchmarkTop1465 cycles every engine through magictour's 1,465 hard 9×9
// puzzles (skipped without ../shared). With -benchtime=1465x each engine
// solves each puzzle once.
func BenchmarkTop1465(b *testing.B) {
	ps, errs := sudoku.ReadFile(context.Background(), filepath.Join(testutil.SudokuDir(b), "9x9", "magictour-top1465.txt"), 0)
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	for _, e := range compare.Engines {
		b.Run(string(e), func(b *testing.B) { benchEngine(b, ps, e) })
	}
}

// BenchmarkMemoryProbe measures what Options.Memory (a collection before
// each run and the 1 ms heap poll, which compare always turns on) costs:
// the progression engine on the first 16×16 sample with it off and on.
func BenchmarkMemoryProbe(b *testing.B) {
	var p sudoku.Puzzle
	for _, q := range sudoku.Samples() {
		if q.Size() == 16 {
			p = q
			break
		}
	}
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("memory=%v", on), func(b *testing.B) {
			opt := compare.Options{Memory: on}
			for b.Loop() {
				if r := compare.RunEngine(context.Background(), p, compare.Progression, opt); r.Status != plan.Solved {
					b.Fatalf("%s: %s %s", p.Name, r.Status, r.Error)
				}
			}
		})
	}
}
