package ground_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/htnsat/htnsat/ground"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/sudoku"
)

func benchGround(b *testing.B, g sudoku.Grid) {
	_, p, err := sudoku.Model(g, sudoku.Ordered)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ground.Ground(context.Background(), p, ground.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGroundPaper grounds the paper's puzzle with the paper's domain
// (parsing excluded).
func BenchmarkGroundPaper(b *testing.B) {
	pz, _ := sudoku.ParsePuzzle(paperPuzzle)
	benchGround(b, pz.Grid)
}

// BenchmarkGroundEmpty9 grounds an empty 9×9 grid: 81 free digits.
func BenchmarkGroundEmpty9(b *testing.B) { benchGround(b, sudoku.New(3)) }

// BenchmarkGround25 grounds a 25×25 puzzle of the standard set.
func BenchmarkGround25(b *testing.B) { benchGround(b, grid25()) }

// grid25 is a 25×25 puzzle of the standard set, or an empty 25×25 grid
// if it cannot be read.
func grid25() sudoku.Grid {
	ps, errs := sudoku.ReadFile(context.Background(), filepath.Join("..", "sudoku", "sets", "25x25", "sudoku_1_1.txt"), 0)
	if len(errs) == 0 && len(ps) == 1 {
		return ps[0].Grid
	}
	return sudoku.New(5)
}

// BenchmarkParseAndGroundPaper includes parsing the domain and problem.
func BenchmarkParseAndGroundPaper(b *testing.B) {
	pz, _ := sudoku.ParsePuzzle(paperPuzzle)
	dsrc, dname, _ := sudoku.DomainText(3)
	psrc, _ := sudoku.ProblemText(pz.Grid, sudoku.Ordered, "paper")
	b.ReportAllocs()
	for b.Loop() {
		d, err := hddl.ParseDomain(dname, dsrc)
		if err != nil {
			b.Fatal(err)
		}
		p, err := hddl.ParseProblem("paper.hddl", psrc, d)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := ground.Ground(context.Background(), p, ground.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompact25 compacts the ground task of a 25×25 puzzle of the
// shared set with the unordered network (grounding excluded).
func BenchmarkCompact25(b *testing.B) {
	task := groundUnordered(b, grid25())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ground.Compact(context.Background(), task); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChoiceGroups finds the choice groups of the compacted ground
// task of the paper's puzzle and of a 25×25 puzzle, unordered network
// (each iteration on a task compacted afresh, outside the timing: a task
// keeps its groups once found).
func BenchmarkChoiceGroups(b *testing.B) {
	pz, _ := sudoku.ParsePuzzle(paperPuzzle)
	for _, c := range []struct {
		name string
		g    sudoku.Grid
	}{{"paper", pz.Grid}, {"25x25", grid25()}} {
		b.Run(c.name, func(b *testing.B) {
			task := groundUnordered(b, c.g)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				f, err := ground.Compact(context.Background(), task)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := f.Task.ChoiceGroups(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// groundUnordered grounds g's model with the unordered network.
func groundUnordered(b *testing.B, g sudoku.Grid) *ground.Task {
	_, p, err := sudoku.Model(g, sudoku.Unordered)
	if err != nil {
		b.Fatal(err)
	}
	task, _, err := ground.Ground(context.Background(), p, ground.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return task
}
