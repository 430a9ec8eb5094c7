package variant

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/sudoku"
)

var update = flag.Bool("update", false, "rewrite the golden pictures of testdata/pictures")

// pictureCases are one puzzle per key the f-puzzles reader accepts (the
// table of docs/sudoku.md), each with a given or two and the clue of its
// key, and what the clue's layer of the picture must hold.
var pictureCases = []struct {
	name, key, value string
	layer, want      string // the SVG's group of the clue, and an element in it
}{
	{"killercage", "killercage", `[{"cells":["R1C1","R1C2","R2C1","R3C1","R3C2"],"value":"24"},{"cells":["R5C5","R5C6"]}]`, "killer-cages", `stroke-dasharray`},
	{"littlekillersum", "littlekillersum", `[{"cells":["R1C2","R2C3","R3C4","R4C5"],"value":"20","cell":"R0C1","direction":"DR"}]`, "little-killers", `>20</text>`},
	{"thermometer", "thermometer", `[{"lines":[["R2C2","R3C2","R4C3","R4C4"]]}]`, "thermometers", `<circle`},
	{"arrow", "arrow", `[{"cells":["R5C5"],"lines":[["R5C5","R6C6","R7C7"]]}]`, "arrows", `<polygon`},
	{"ratio", "ratio", `[{"cells":["R1C1","R1C2"],"value":"2"}]`, "kropki-xv", `<circle`},
	{"difference", "difference", `[{"cells":["R3C3","R4C3"],"value":"1"}]`, "kropki-xv", `fill="#ffffff" stroke="#111111"`},
	{"xv", "xv", `[{"cells":["R2C2","R2C3"],"value":"X"},{"cells":["R4C4","R5C4"],"value":"V"}]`, "kropki-xv", `>V</text>`},
	{"negative", "negative", `["ratio","difference","xv"]`, "rules", `every black dot is given`},
	{"renban", "renban", `[{"lines":[["R7C1","R7C2","R7C3","R8C3"]]}]`, "lines", `stroke="#d2a8f0"`},
	{"whispers", "whispers", `[{"lines":[["R1C9","R2C8","R3C7"]]}]`, "lines", `stroke="#72c86e"`},
	{"palindrome", "palindrome", `[{"lines":[["R9C1","R8C2","R7C3","R6C4"]]}]`, "lines", `stroke="#a8a8a8"`},
	{"quadruple", "quadruple", `[{"cells":["R4C4","R4C5","R5C4","R5C5"],"values":[1,2,9]}]`, "quadruples", `>1 2 9</text>`},
	{"extraregion", "extraregion", `[{"cells":["R2C2","R2C3","R2C4","R3C2","R3C3","R3C4","R4C2","R4C3","R4C4"]}]`, "extra-regions", `fill="#dde8f6"`},
	{"diagonal+", "diagonal+", `true`, "diagonals", `<polyline`},
	{"diagonal-", "diagonal-", `true`, "diagonals", `<polyline`},
	{"antiknight", "antiknight", `true`, "rules", `anti-knight`},
	{"antiking", "antiking", `true`, "rules", `anti-king`},
	{"nonconsecutive", "nonconsecutive", `true`, "rules", `nonconsecutive`},
	{"disjointgroups", "disjointgroups", `true`, "rules", `disjoint groups`},
	{"odd", "odd", `[{"cell":"R8C8"},{"cell":"R9C9"}]`, "odd-even", `<circle`},
	{"even", "even", `[{"cell":"R8C9"}]`, "odd-even", `<rect`},
}

// pictureFixture is a 9x9 f-puzzles file with two givens and one key.
func pictureFixture(t *testing.T, key, value string) *Puzzle {
	t.Helper()
	grid := make([][]map[string]any, 9)
	for r := range grid {
		grid[r] = make([]map[string]any, 9)
		for c := range grid[r] {
			grid[r][c] = map[string]any{}
		}
	}
	grid[0][8] = map[string]any{"value": 3, "given": true}
	grid[8][0] = map[string]any{"value": 7, "given": true}
	doc := map[string]json.RawMessage{"size": json.RawMessage("9"), key: json.RawMessage(value)}
	g, _ := json.Marshal(grid)
	doc["grid"] = g
	b, _ := json.Marshal(doc)
	p, err := ReadFPuzzles(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return p
}

// TestPictures: each variant's picture is its golden SVG (go test
// ./sudoku/variant -run TestPictures -update rewrites them, to be looked
// at), its clue is drawn in its layer, and the PNG of the same drawing
// decodes at twice the SVG's size.
func TestPictures(t *testing.T) {
	for _, c := range pictureCases {
		t.Run(c.name, func(t *testing.T) {
			p := pictureFixture(t, c.key, c.value)
			var b bytes.Buffer
			if err := WriteSVG(&b, p, nil, "htnsat picture test: "+c.key); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "pictures", c.name+".svg")
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("the picture differs from %s (-update rewrites it)", golden)
			}
			layer := b.String()
			if i := strings.Index(layer, `<g class="`+c.layer+`">`); i >= 0 {
				layer = layer[i:]
				layer = layer[:strings.Index(layer, "</g>")]
			} else {
				t.Fatalf("no layer %s", c.layer)
			}
			if !strings.Contains(layer, c.want) {
				t.Errorf("layer %s lacks %s:\n%s", c.layer, c.want, layer)
			}
			var pb bytes.Buffer
			if err := WritePNG(&pb, p, nil, "htnsat picture test: "+c.key); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&pb)
			if err != nil {
				t.Fatal(err)
			}
			w, h := PictureSize(p, "htnsat picture test: "+c.key)
			if img.Bounds().Dx() != int(2*w+0.999) || img.Bounds().Dy() != int(2*h+0.999) {
				t.Errorf("PNG %v, want twice %gx%g", img.Bounds(), w, h)
			}
		})
	}
}

// TestPictureDigits: the givens are drawn bold in black, the digits of
// a solution in blue, and a long title is wrapped, never cut.
func TestPictureDigits(t *testing.T) {
	p := pictureFixture(t, "antiking", "true")
	sol, err := sudoku.ParseLine("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
	if err != nil {
		t.Fatal(err)
	}
	title := strings.Repeat("a very long title of a puzzle ", 8)
	var b bytes.Buffer
	if err := WriteSVG(&b, p, &sol, title); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, given := range []string{"3", "7"} {
		if !strings.Contains(svg, `fill="#111111" text-anchor="middle" dominant-baseline="central" font-weight="bold">`+given+`</text>`) {
			t.Errorf("the given %s is not bold black", given)
		}
	}
	if n := strings.Count(svg, `fill="#1a56c4"`); n != 79 {
		t.Errorf("%d digits in blue, want the 79 the puzzle does not give", n)
	}
	w, _ := PictureSize(p, title)
	for _, line := range strings.Split(svg, "\n") {
		if strings.Contains(line, "a very long title") && !strings.Contains(line, `x="`) {
			t.Errorf("a title line without a position: %s", line)
		}
	}
	if lines := strings.Count(svg, "a very long title"); lines < 3 || w > 600 {
		t.Errorf("the title took %d lines in a picture %g wide", lines, w)
	}
}

// TestPictureSizes: at every size, a well-formed SVG with one text per
// digit, givens (black, bold) told apart from a solution's digits (blue),
// box lines thicker; a sheet of three puzzles, two to a row.
func TestPictureSizes(t *testing.T) {
	for k := sudoku.MinBox; k <= sudoku.MaxBox; k++ {
		g := sudoku.New(k)
		n := g.Size()
		sol := sudoku.New(k) // a pattern solution: (r*k + r/k + c) mod n
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				sol.Set(r, c, (r*k+r/k+c)%n+1)
			}
		}
		for c := 0; c < n; c++ {
			g.Set(0, c, sol.At(0, c))
		}
		var b bytes.Buffer
		if err := WriteSheet(&b, []Picture{Classic("a <test> & more", g, &sol)}, 1, false); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil {
			t.Fatalf("%dx%d: not XML: %v", n, n, err)
		}
		if got := strings.Count(out, `font-weight="bold">`) - 1; got != n { // the title is bold too
			t.Errorf("%dx%d: %d givens drawn, want %d", n, n, got, n)
		}
		if got := strings.Count(out, `fill="#1a56c4"`); got != n*n-n {
			t.Errorf("%dx%d: %d solved digits drawn, want %d", n, n, got, n*n-n)
		}
		if got := strings.Count(out, `stroke-width="2.60"`); got != 2*(k+1) {
			t.Errorf("%dx%d: %d thick lines, want %d", n, n, got, 2*(k+1))
		}
	}
	var b bytes.Buffer
	g := sudoku.New(3)
	if err := WriteSheet(&b, []Picture{Classic("", g, nil), Classic("", g, nil), Classic("", g, nil)}, 2, false); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), `<g class="grid">`); got != 3 {
		t.Errorf("a sheet of three: %d grids", got)
	}
	for _, bad := range []string{"grid.jpg", "grid", "grid.svg.txt"} {
		if _, err := PNGFile(bad); err == nil {
			t.Errorf("%s taken for a picture", bad)
		}
	}
	if p, err := PNGFile("GRID.PNG"); err != nil || !p {
		t.Errorf("GRID.PNG: %v %v", p, err)
	}
}

// TestSheetLimits: a sheet of more pictures than MaxSheet, or a PNG sheet
// past MaxPNGPixels, is refused before anything is drawn; SVG has no
// pixel limit, and a sheet within both limits is drawn.
func TestSheetLimits(t *testing.T) {
	many := make([]Picture, MaxSheet+1)
	for i := range many {
		many[i] = Classic("", sudoku.New(3), nil)
	}
	var b bytes.Buffer
	if err := WriteSheet(&b, many, 3, false); err == nil || !strings.Contains(err.Error(), "at most") || b.Len() != 0 {
		t.Errorf("%d pictures: err %v, %d bytes written", len(many), err, b.Len())
	}
	if err := CheckSheet(many[:MaxSheet], 3, false); err != nil {
		t.Errorf("%d pictures refused: %v", MaxSheet, err)
	}
	big := make([]Picture, 40)
	for i := range big {
		big[i] = Classic("", sudoku.New(sudoku.MaxBox), nil)
	}
	if err := CheckSheet(big, 3, true); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("forty %dx%d grids as PNG: err %v", sudoku.MaxBox*sudoku.MaxBox, sudoku.MaxBox*sudoku.MaxBox, err)
	}
	if err := CheckSheet(big, 3, false); err != nil {
		t.Errorf("forty large grids as SVG refused: %v", err)
	}
	if err := WriteSheet(&b, many[:2], 2, true); err != nil || b.Len() == 0 {
		t.Errorf("two 9x9 grids as PNG: err %v, %d bytes", err, b.Len())
	}
}
