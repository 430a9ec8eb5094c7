package satenc_test

import (
	"context"
	"io"
	"testing"

	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

// BenchmarkEncode measures the encoding alone (grounding outside the
// loop) and reports the size of the formula; an empty 36x36 grid has
// 46,656 methods of about a hundred precondition literals each.
func BenchmarkEncode(b *testing.B) {
	for _, c := range []struct {
		name, line string
		opt        satenc.Options
		noFold     bool
	}{
		{"paper", paperPuzzle, satenc.Options{}, false},
		{"hard", hardPuzzle, satenc.Options{}, false},
		{"hard-no-groups", hardPuzzle, satenc.Options{NoGroups: true}, false},
		{"hard-no-fold", hardPuzzle, satenc.Options{}, true},
		{"empty-36x36", sudoku.New(6).Line(), satenc.Options{}, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			_, f := sudokuTask(b, c.line, sudoku.Unordered)
			task := f.Task
			if c.noFold {
				task = f.Orig
			}
			depth := task.Depth()
			b.ReportAllocs()
			var enc *satenc.Encoding
			for b.Loop() {
				var err error
				if enc, err = satenc.Encode(context.Background(), task, depth, &satenc.CNF{}, c.opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(enc.NumVars), "vars")
			b.ReportMetric(float64(enc.Clauses), "clauses")
		})
	}
}

// BenchmarkSolve measures encoding, gophersat and decoding together.
func BenchmarkSolve(b *testing.B) {
	for _, c := range []struct {
		name, line string
		opt        satenc.Options
	}{
		{"paper", paperPuzzle, satenc.Options{}},
		{"hard", hardPuzzle, satenc.Options{}},
		{"hard-no-groups", hardPuzzle, satenc.Options{NoGroups: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			_, task := sudokuTask(b, c.line, sudoku.Unordered)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := satenc.Solve(context.Background(), task.Task, satenc.Config{Options: c.opt}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDIMACSWriter streams a million 3-literal clauses through the
// DIMACS writer (to a temporary file, then out with the header).
func BenchmarkDIMACSWriter(b *testing.B) {
	const n, vars = 1_000_000, 100_000
	b.ReportAllocs()
	for b.Loop() {
		w, err := satenc.NewDIMACSWriter(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < n; i++ {
			v := satenc.Var(i%vars + 1)
			w.AddClause(satenc.Lit(v), -satenc.Lit(v%vars+1), satenc.Lit((v*7)%vars+1))
		}
		if err := w.WriteTo(io.Discard, vars, []string{"benchmark"}); err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
	b.ReportMetric(n, "clauses/op")
}
