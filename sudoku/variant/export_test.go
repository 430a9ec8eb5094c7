package variant

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
)

// fixtures are the f-puzzles files of testdata.
func fixtures(t *testing.T) map[string]*Puzzle {
	t.Helper()
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) == 0 {
		t.Fatal("no testdata/*.json")
	}
	out := map[string]*Puzzle{}
	for _, f := range files {
		p, err := ReadFPuzzlesFile(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = p
	}
	return out
}

// TestMiniZinc runs the MiniZinc export of each fixture through minizinc
// (Debian's package, with Gecode) where it is installed, and compares its
// solution with ours.
func TestMiniZinc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs minizinc")
	}
	mzn, err := exec.LookPath("minizinc")
	if err != nil {
		t.Skip("minizinc not installed (apt-get install minizinc)")
	}
	for name, p := range fixtures(t) {
		res, err := Solve(context.Background(), p, satenc.Gophersat{}, 2)
		if err != nil || res.Solutions != 1 {
			t.Fatalf("%s: %v, %d solutions", name, err, res.Solutions)
		}
		file := filepath.Join(t.TempDir(), "p.mzn")
		var b bytes.Buffer
		if err := WriteMiniZinc(&b, p); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(file, b.Bytes(), 0o644)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, mzn, file)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("%s: minizinc: %v\n%s", name, err, stderr.Bytes())
		}
		g := sudoku.New(p.Grid.Box)
		fields := strings.Fields(strings.Split(string(out), "----------")[0])
		if len(fields) != len(g.Cells) {
			t.Fatalf("%s: minizinc printed %q", name, out)
		}
		for i, f := range fields {
			g.Cells[i], _ = strconv.Atoi(f)
		}
		if g.Line() != res.Solution.Line() {
			t.Errorf("%s: minizinc %s, htnsat %s", name, g.Line(), res.Solution.Line())
		}
	}
}

// TestXCSP3 checks that the XCSP3 export is well-formed XML with one
// constraint element per clue kind written.
func TestXCSP3(t *testing.T) {
	for name, p := range fixtures(t) {
		var b bytes.Buffer
		if err := WriteXCSP3(&b, p); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			XMLName     xml.Name `xml:"instance"`
			Constraints struct {
				Sums    []struct{} `xml:"sum"`
				Ordered []struct{} `xml:"ordered"`
			} `xml:"constraints"`
		}
		if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sums := 0
		for _, s := range append(append([]Sum{}, p.Killers...), p.LittleKiller...) {
			if s.Sum > 0 {
				sums++
			}
		}
		for _, a := range p.Arrows {
			sums += len(a.Lines)
		}
		if len(doc.Constraints.Sums) != sums || len(doc.Constraints.Ordered) != len(p.Thermos) {
			t.Errorf("%s: %d sums and %d orders, want %d and %d", name, len(doc.Constraints.Sums), len(doc.Constraints.Ordered), sums, len(p.Thermos))
		}
	}
}
