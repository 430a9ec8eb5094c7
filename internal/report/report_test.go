package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"github.com/htnsat/htnsat/internal/canvas"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
)

func run(puzzle string, size int, e compare.Engine, st plan.Status, total time.Duration) compare.Run {
	r := compare.Run{Puzzle: puzzle, Size: size, Engine: e, Status: st, Total: total,
		Verified: st == plan.Solved, Stages: pipeline.Times{}}
	if st == plan.Solved {
		r.Stages["ground"] = total / 4
		r.Stages["search"] = total * 3 / 4
		r.Solution = sudoku.New(2)
		r.Nodes = 10
	}
	return r
}

func sampleRuns() []compare.Run {
	ms := time.Millisecond
	return []compare.Run{
		run("a", 9, compare.DirectSAT, plan.Solved, 1*ms),
		run("a", 9, compare.Progression, plan.Solved, 10*ms),
		run("b", 9, compare.Progression, plan.Solved, 30*ms),
		run("c", 9, compare.Progression, plan.Timeout, 60*time.Second),
		run("d", 4, compare.Progression, plan.Solved, 2*ms),
	}
}

func TestSummary(t *testing.T) {
	rows := summarize(sampleRuns())
	// sorted by size, then by engine order (progression before direct-sat)
	var keys []string
	for _, r := range rows {
		keys = append(keys, r.size+" "+r.engine)
	}
	want := "4x4 progression|9x9 progression|9x9 direct-sat"
	if got := strings.Join(keys, "|"); got != want {
		t.Fatalf("rows %q, want %q", got, want)
	}
	p := rows[1]
	if p.solved != "2/3" || p.notes != "1 timeout" {
		t.Errorf("9x9 progression: solved %q notes %q", p.solved, p.notes)
	}
	// the timeout does not count toward the times
	if p.median != "20.00ms" || p.max != "30.00ms" {
		t.Errorf("9x9 progression: median %q max %q", p.median, p.max)
	}
	if p.shares[1] != "25%" || p.shares[2] != "75%" || p.shares[0] != "-" {
		t.Errorf("stage shares %v", p.shares)
	}

	var buf bytes.Buffer
	Summary(&buf, sampleRuns())
	if lines := strings.Split(strings.TrimSpace(buf.String()), "\n"); len(lines) != 4 {
		t.Errorf("summary has %d lines, want header + 3:\n%s", len(lines), buf.String())
	}
}

func TestSummaryMarkdownColumns(t *testing.T) {
	var buf bytes.Buffer
	SummaryMarkdown(&buf, sampleRuns())
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d lines, want header, rule and 3 rows:\n%s", len(lines), buf.String())
	}
	n := strings.Count(lines[0], "|")
	for i, l := range lines {
		if c := strings.Count(l, "|"); c != n {
			t.Errorf("line %d has %d bars, header %d: %s", i, c, n, l)
		}
	}
}

func TestCSVAndJSON(t *testing.T) {
	dir := t.TempDir()
	runs := sampleRuns()
	if err := writeFile(filepath.Join(dir, "r.csv"), func(w io.Writer) error { return WriteCSV(w, runs) }); err != nil {
		t.Fatal(err)
	}
	recs := testutil.ReadCSV(t, filepath.Join(dir, "r.csv"))
	if len(recs) != len(runs)+1 {
		t.Fatalf("%d records, want %d", len(recs), len(runs)+1)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if got := recs[2][col["total_ms"]]; got != "10.000" {
		t.Errorf("total_ms = %q", got)
	}
	if got := recs[1][col["style"]]; got != "" {
		t.Errorf("direct-sat has style %q, want none", got)
	}
	if got := recs[4][col["solution"]]; got != "" {
		t.Errorf("an unsolved run has solution %q", got)
	}

	if err := writeFile(filepath.Join(dir, "r.json"), func(w io.Writer) error { return WriteJSON(w, runs) }); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(runs) || rows[3].Status != "timeout" || rows[2].GroundMS != 7.5 {
		t.Errorf("JSON rows %+v", rows)
	}
}

// TestPlot: both formats draw every series and every stage: the SVG is
// well-formed XML with a line in each engine's colour and a legend entry
// for each engine and size; the PNG has the chart's size and pixels of
// each stage colour that has time in it.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	runs := sampleRuns()
	svgPath := filepath.Join(dir, "p.svg")
	if err := plotFile(svgPath, runs); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
	}
	svg := string(b)
	if !strings.HasPrefix(svg, "<svg") {
		t.Errorf("not an SVG: %.40q", svg)
	}
	for _, label := range []string{">progression 9x9<", ">progression 4x4<", ">direct-sat 9x9<", ">ground<", ">search<"} {
		if !strings.Contains(svg, label) {
			t.Errorf("the SVG has no %s", label)
		}
	}
	if !strings.Contains(svg, `stroke="`+canvas.Hex(lineColor(0))+`" stroke-width="1.50"`) ||
		!strings.Contains(svg, `stroke="`+canvas.Hex(lineColor(2))+`" stroke-width="1.50"`) {
		t.Error("the SVG has no line in progression's or direct-sat's colour")
	}

	pngPath := filepath.Join(dir, "p.png")
	if err := plotFile(pngPath, runs); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != chartWidth*pngScale || b.Dy() != chartHeight*pngScale {
		t.Errorf("PNG %v, want %dx%d", b, chartWidth*pngScale, chartHeight*pngScale)
	}
	seen := map[color.RGBA]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}] = true
		}
	}
	for si, s := range compare.Stages {
		used := s == "ground" || s == "search" // the stages sampleRuns times
		if used && !seen[stageColor(si)] {
			t.Errorf("no pixel of %s's colour in the PNG", s)
		}
	}
	if !seen[lineColor(0)] {
		t.Error("no pixel of progression's line colour in the PNG")
	}
	if _, err := PlotFormat(filepath.Join(dir, "p.jpg")); err == nil {
		t.Error("a .jpg plot should be refused")
	}
}

// TestByRating: per rating, weakest first, the puzzles and each engine's
// median, an unsolved run counting as slowest; nothing without ratings.
func TestByRating(t *testing.T) {
	var b strings.Builder
	ByRating(&b, sampleRuns())
	if b.Len() != 0 {
		t.Errorf("without ratings: %q", b.String())
	}
	ms := time.Millisecond
	runs := []compare.Run{
		run("a", 9, compare.Progression, plan.Solved, 10*ms),
		run("b", 9, compare.Progression, plan.Solved, 30*ms),
		run("c", 9, compare.Progression, plan.Timeout, time.Second),
		run("d", 9, compare.Progression, plan.Solved, 2*ms),
	}
	for i, r := range []string{"sgac", "sgac", "sgac", "gac"} {
		runs[i].Rating = r
	}
	ByRating(&b, runs)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[2], "gac") || !strings.HasPrefix(lines[3], "sgac") {
		t.Fatalf("%q", b.String())
	}
	if f := strings.Fields(lines[3]); f[1] != "3" || f[2] != "30.00ms" {
		t.Errorf("sgac row %q: want 3 puzzles, median 30 ms (10, 30, unsolved)", lines[3])
	}
}

// TestPlotNothingSolved: no runs, or none solved, still give both charts
// (empty axes), in both formats.
func TestPlotNothingSolved(t *testing.T) {
	dir := t.TempDir()
	for _, runs := range [][]compare.Run{nil, {run("a", 9, compare.Progression, plan.Timeout, time.Second)}} {
		for _, name := range []string{"e.svg", "e.png"} {
			path := filepath.Join(dir, name)
			if err := plotFile(path, runs); err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(path); err != nil || st.Size() == 0 {
				t.Errorf("%s with %d runs: %v", name, len(runs), err)
			}
		}
	}
}

// writeFile writes a file with fn.
func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plotFile draws the runs into path, in the format of its extension.
func plotFile(path string, runs []compare.Run) error {
	format, err := PlotFormat(path)
	if err != nil {
		return err
	}
	return writeFile(path, func(w io.Writer) error { return Plot(w, format, runs) })
}
