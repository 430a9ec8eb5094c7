package htn_test

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/sudoku"
)

// benchSolve measures the progression search alone (the task is grounded
// once, outside the loop) and reports the nodes expanded.
func benchSolve(b *testing.B, line string, style sudoku.Style, opt htn.Options) {
	_, task := sudokuTask(b, line, style)
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		_, st, err := htn.Solve(context.Background(), task, opt)
		if err != nil {
			b.Fatal(err)
		}
		nodes = st.Nodes
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// The paper's puzzle in its own (ordered) network and in the unordered one.
func BenchmarkSolvePaperOrdered(b *testing.B) {
	benchSolve(b, paperPuzzle, sudoku.Ordered, htn.DefaultOptions())
}

func BenchmarkSolvePaperUnordered(b *testing.B) {
	benchSolve(b, paperPuzzle, sudoku.Unordered, htn.DefaultOptions())
}

// A hard 9×9 with each acceleration on and then off, measured in one run
// so the ratios can be read off directly.
func BenchmarkSolveHard(b *testing.B) {
	base := htn.DefaultOptions()
	for _, c := range []struct {
		name   string
		change func(*htn.Options)
	}{
		{"all", func(*htn.Options) {}},
		{"no-groups", func(o *htn.Options) { o.Groups = false }},
		{"no-mrv", func(o *htn.Options) { o.MRV = false }},
		{"no-conflicts", func(o *htn.Options) { o.Conflicts = false }},
		{"no-restarts", func(o *htn.Options) { o.Restarts = false }},
	} {
		o := base
		c.change(&o)
		b.Run(c.name, func(b *testing.B) { benchSolve(b, hardPuzzle, sudoku.Unordered, o) })
	}
}
