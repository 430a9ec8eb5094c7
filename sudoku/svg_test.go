package sudoku

import (
	"encoding/xml"
	"strings"
	"testing"
)

// TestSVG: well-formed SVG with one text per digit, givens and filled
// digits told apart, box lines thicker, at every size.
func TestSVG(t *testing.T) {
	for k := MinBox; k <= MaxBox; k++ {
		g := New(k)
		n := g.Size()
		// a pattern solution: (r*k + r/k + c) mod n
		sol := New(k)
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				sol.Set(r, c, (r*k+r/k+c)%n+1)
			}
		}
		if err := sol.Check(); err != nil {
			t.Fatal(err)
		}
		for c := 0; c < n; c++ {
			g.Set(0, c, sol.At(0, c))
		}
		var b strings.Builder
		if err := WriteSVG(&b, Picture{Title: "a <test> & more", Puzzle: g, Solution: &sol}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil {
			t.Fatalf("%dx%d: not XML: %v", n, n, err)
		}
		if got := strings.Count(out, `class="given"`); got != n {
			t.Errorf("%dx%d: %d givens drawn, want %d", n, n, got, n)
		}
		if got := strings.Count(out, `class="filled"`); got != n*n-n {
			t.Errorf("%dx%d: %d filled digits drawn, want %d", n, n, got, n*n-n)
		}
		if got := strings.Count(out, `stroke-width="3"`); got != 2*(k+1) {
			t.Errorf("%dx%d: %d thick lines, want %d", n, n, got, 2*(k+1))
		}
	}
	var b strings.Builder
	g := New(3)
	if err := WriteSheetSVG(&b, []Picture{{Puzzle: g}, {Puzzle: g}, {Puzzle: g}}, 2); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), `class="grid"`); got != 3 {
		t.Errorf("a sheet of 3 draws %d grids", got)
	}
}
