package variant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFPuzzles feeds arbitrary bytes to the f-puzzles reader: it must not
// panic, and a puzzle it accepts has a well-formed grid, cells inside it,
// clue values a grid can meet, and no more constrained cells than the
// reader allows. The seeds are the example files and a few shapes.
func FuzzFPuzzles(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	grid := `"grid":[` + strings.TrimSuffix(strings.Repeat(`[{},{},{},{}],`, 4), ",") + `]`
	for _, s := range []string{
		`{"size":4,` + grid + `}`,
		`{"size":4,` + grid + `,"killercage":[{"cells":["R1C1","R1C2"],"value":"7"}]}`,
		`{"size":4,` + grid + `,"killercage":[{"cells":["R1C1","R1C2"],"value":"9223372036854775807"}]}`,
		`{"size":4,` + grid + `,"thermometer":[{"lines":[["R1C1","R1C2","R1C3"]]}]}`,
		`{"size":4,` + grid + `,"ratio":[{"cells":["R1C1","R1C2"],"value":2}]}`,
		"\uFEFF{}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := ReadFPuzzles(strings.NewReader(string(src)))
		if err != nil {
			if len(err.Error()) > 1000 {
				t.Fatalf("a message of %d bytes", len(err.Error()))
			}
			return
		}
		if err := p.Grid.Check(); err != nil {
			t.Fatalf("accepted a grid that breaks a rule: %v", err)
		}
		n := p.Size()
		cells := n * n
		in := func(cs []int) {
			for _, c := range cs {
				if c < 0 || c >= cells {
					t.Fatalf("cell %d outside a %dx%d grid", c, n, n)
				}
			}
		}
		for _, k := range p.Killers {
			in(k.Cells)
			if k.Sum > maxDistinctSum(len(k.Cells), n) {
				t.Fatalf("cage total %d over %d cells of 1..%d", k.Sum, len(k.Cells), n)
			}
		}
		for _, ls := range [][][]int{p.Thermos, p.Renbans, p.Whispers, p.Palindromes, p.Extra} {
			for _, l := range ls {
				in(l)
			}
		}
		if p.constrainedCells() > MaxConstraintCells(n) {
			t.Fatalf("%d constrained cells", p.constrainedCells())
		}
	})
}
