package sudoku

import "testing"

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

// BenchmarkProblemText writes the HDDL problem of the paper's puzzle,
// unordered network (what every HTN solve of a puzzle writes and parses).
func BenchmarkProblemText(b *testing.B) {
	p, err := ParsePuzzle(paper)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ProblemText(p.Grid, Unordered, ""); err != nil {
			b.Fatal(err)
		}
	}
}
