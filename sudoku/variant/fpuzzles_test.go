package variant

import (
	"strings"
	"testing"
)

func emptyGrid(n int) string {
	row := "[" + strings.TrimSuffix(strings.Repeat("{},", n), ",") + "]"
	return "[" + strings.TrimSuffix(strings.Repeat(row+",", n), ",") + "]"
}

// TestReadFixtures: the fixtures read with the clues they hold.
func TestReadFixtures(t *testing.T) {
	ps := fixtures(t)
	dune := ps["dune.json"]
	if len(dune.Killers) != 7 || len(dune.Thermos) != 6 || len(dune.Ratios) != 6 || dune.Grid.Givens() != 0 {
		t.Errorf("dune: %d cages, %d thermometers, %d dots, %d givens", len(dune.Killers), len(dune.Thermos), len(dune.Ratios), dune.Grid.Givens())
	}
	if k := dune.Killers[0]; k.Sum != 27 || len(k.Cells) != 5 || k.Cells[0] != 2 {
		t.Errorf("dune's first cage: %+v", k)
	}
	lines := ps["lines.json"]
	if len(lines.Arrows) == 0 || len(lines.XV) == 0 || !lines.NegativeXV || len(lines.Whispers) == 0 || len(lines.Renbans) == 0 || len(lines.Palindromes) == 0 || len(lines.Quadruples) != 1 {
		t.Errorf("lines: %+v", lines)
	}
}

// TestReadErrors: what the reader refuses, and why.
func TestReadErrors(t *testing.T) {
	g := emptyGrid(9)
	cases := []struct{ json, want string }{
		{`{"size":9,"grid":` + g + `,"sandwichsum":[{"cell":"R0C1","value":"3"}]}`, `constraint "sandwichsum" is not read`},
		{`{"size":9,"grid":` + g + `,"killercage":[{"cells":["R1C1","R10C1"],"value":"3"}]}`, `"R10C1": not in the 9x9 grid`},
		{`{"size":9,"grid":` + g + `,"killercage":[{"cells":["R1C1","X"],"value":"3"}]}`, `want R<row>C<column>`},
		{`{"size":9,"grid":` + g + `,"ratio":[{"cells":["R1C1","R2C2"]}]}`, `not adjacent`},
		{`{"size":9,"grid":` + g + `,"xv":[{"cells":["R1C1","R1C2"],"value":"Y"}]}`, `neither X nor V`},
		{`{"size":9,"grid":` + g + `,"arrow":[{"cells":["R1C1","R1C2"],"lines":[["R1C1","R2C1"]]}]}`, `only one-cell circles`},
		{`{"size":9,"grid":` + g + `,"negative":["sandwich"]}`, `"sandwich" is not read`},
		{`{"size":9,"grid":` + g + `,"killercage":[{"cells":["R1C1","R1C1"],"value":"3"}]}`, `cell R1C1 twice`},
		{`{"size":9,"grid":` + strings.Replace(g, "{}", `{"value":12,"given":true}`, 1) + `}`, `given 12 is not a digit`},
		{`{"size":9,"grid":` + strings.Replace(g, "{}", `{"region":4}`, 1) + `}`, `irregular regions`},
		{`{"size":9,"grid":` + strings.Replace(g, "{},{}", `{"value":5,"given":true},{"value":5,"given":true}`, 1) + `}`, `digit 5 twice`},
		{`{"size":8,"grid":[]}`, `only square-box grids`},
		{`{"grid":` + g + `}`, `no "size"`},
		{`[1,2]`, `not f-puzzles JSON`},
	}
	for _, c := range cases {
		_, err := ReadFPuzzles(strings.NewReader(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60s...: %v, want %q", c.json, err, c.want)
		}
	}
}

// TestWriteRoundTrip: what WriteFPuzzles writes reads back the same, for
// every fixture and for the killer/thermometer test puzzle.
func TestWriteRoundTrip(t *testing.T) {
	ps := fixtures(t)
	ps["killer-thermo"] = killerThermo(t)
	for name, p := range ps {
		var b strings.Builder
		if err := WriteFPuzzles(&b, p); err != nil {
			t.Fatal(err)
		}
		q, err := ReadFPuzzles(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b2 strings.Builder
		WriteFPuzzles(&b2, q)
		if b.String() != b2.String() {
			t.Errorf("%s: the round trip changed the puzzle", name)
		}
		if q.Grid.Line() != p.Grid.Line() || len(q.Killers) != len(p.Killers) || len(q.Thermos) != len(p.Thermos) ||
			len(q.Arrows) != len(p.Arrows) || len(q.XV) != len(p.XV) || q.NegativeXV != p.NegativeXV {
			t.Errorf("%s: read back differs", name)
		}
	}
}
