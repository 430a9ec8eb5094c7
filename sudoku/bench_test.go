package sudoku

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// benchEngine solves puzzles with one engine, cycling through them, so
// ns/op is the mean time per puzzle (all stages, plan verified). It also
// reports puzzles per second.
func benchEngine(b *testing.B, ps []Puzzle, e Engine) {
	opt := DefaultOptions()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := ps[i%len(ps)]
		i++
		r := RunEngine(context.Background(), p, e, opt)
		if r.Status != Solved || !r.Verified {
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
	for _, p := range Samples() {
		if seen[p.Size()] {
			continue
		}
		seen[p.Size()] = true
		for _, e := range Engines {
			b.Run(fmt.Sprintf("%dx%d/%s", p.Size(), p.Size(), e), func(b *testing.B) {
				benchEngine(b, []Puzzle{p}, e)
			})
		}
	}
}

// BenchmarkTop1465 cycles every engine through magictour's 1,465 hard 9×9
// puzzles (skipped without ../shared). With -benchtime=1465x each engine
// solves each puzzle once.
func BenchmarkTop1465(b *testing.B) {
	ps, errs := ReadFile(filepath.Join(sharedSudoku(b), "9x9", "magictour-top1465.txt"))
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	for _, e := range Engines {
		b.Run(string(e), func(b *testing.B) { benchEngine(b, ps, e) })
	}
}

// BenchmarkEncodeDirect measures the direct Sudoku→SAT encoding of the
// paper's puzzle and of an empty 25×25 grid.
func BenchmarkEncodeDirect(b *testing.B) {
	p, err := ParsePuzzle(paper)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    Grid
	}{{"paper", p.Grid}, {"empty25", New(5)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeDirect(c.g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMemoryProbe measures what Options.Memory (a collection before
// each run and the 1 ms heap poll, which compare always turns on) costs:
// the progression engine on the first 16×16 sample with it off and on.
func BenchmarkMemoryProbe(b *testing.B) {
	var p Puzzle
	for _, q := range Samples() {
		if q.Size() == 16 {
			p = q
			break
		}
	}
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("memory=%v", on), func(b *testing.B) {
			opt := DefaultOptions()
			opt.Memory = on
			for b.Loop() {
				if r := RunEngine(context.Background(), p, Progression, opt); r.Status != Solved {
					b.Fatalf("%s: %s %s", p.Name, r.Status, r.Error)
				}
			}
		})
	}
}
