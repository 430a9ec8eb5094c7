package ground_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/htnsat/htnsat/ground"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/corpus"
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

// BenchmarkGround25 grounds a 25×25 puzzle of the shared set (or an empty
// 25×25 grid when ../shared is absent).
func BenchmarkGround25(b *testing.B) {
	g := sudoku.New(5)
	if dir, err := corpus.SharedDir(); err == nil {
		ps, errs := sudoku.ReadFile(filepath.Join(dir, "data", "sudoku", "25x25", "sudoku_1_1.txt"))
		if len(errs) == 0 && len(ps) == 1 {
			g = ps[0].Grid
		}
	}
	benchGround(b, g)
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
