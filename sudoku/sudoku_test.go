package sudoku

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/domains"
	"github.com/htnsat/htnsat/hddl"
)

// PaperPuzzle is the example puzzle of "Planning Sudoku for HDDL" (Fig. 1).
const paper = "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."

// sharedSudoku is the folder of the standard puzzle sets.
func sharedSudoku(t testing.TB) string {
	t.Helper()
	return "sets"
}

func TestReadSharedFiles(t *testing.T) {
	dir := sharedSudoku(t)
	want := map[string]int{
		"4x4/course-100.txt": 100, "9x9/course-100.txt": 100, "9x9/top95.txt": 95,
		"9x9/hardest.txt": 11, "9x9/magictour-top1465.txt": 1465, "9x9/royle-17-clue.txt": 49158,
		"9x9/with-solutions.txt": 43, "16x16/course-100.txt": 100, "16x16/hard-10.txt": 10,
		"36x36/given40.txt": 10, "36x36/empty.txt": 1, "49x49/given50.txt": 10,
	}
	sizes := map[string]int{"4x4": 4, "9x9": 9, "16x16": 16, "25x25": 25, "36x36": 36, "49x49": 49}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.txt"))
	if len(files) < 19 {
		t.Fatalf("only %d puzzle files under %s", len(files), dir)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		ps, errs := ReadFile(context.Background(), f, 0)
		for _, e := range errs {
			t.Errorf("%v", e)
		}
		if n, ok := want[rel]; ok && len(ps) != n {
			t.Errorf("%s: read %d puzzles, want %d", rel, len(ps), n)
		}
		if strings.HasPrefix(rel, "25x25/") && len(ps) != 1 {
			t.Errorf("%s: read %d puzzles, want 1", rel, len(ps))
		}
		size := sizes[filepath.Dir(rel)]
		for _, p := range ps {
			if p.Size() != size {
				t.Fatalf("%s: %s is %d×%d, want %d", rel, p.Name, p.Size(), p.Size(), size)
			}
			if p.Solution != nil {
				if err := p.Solution.Extends(p.Grid); err != nil || !p.Solution.IsSolved() {
					t.Errorf("%s: bad solution: %v", p.Source, err)
				}
			}
		}
	}
}

func TestReadForms(t *testing.T) {
	paperGrid, err := ParsePuzzle(paper)
	if err != nil {
		t.Fatal(err)
	}
	rows := func(sep string) string {
		var b strings.Builder
		for r := 0; r < 9; r++ {
			b.WriteString(strings.Join(strings.Split(paper[r*9:r*9+9], ""), sep))
			b.WriteString("\n")
		}
		return b.String()
	}
	numbers := strings.NewReplacer(".", "0").Replace(rows(" "))
	cases := []struct{ name, in string }{
		{"dots", paper},
		{"zeros", strings.ReplaceAll(paper, ".", "0")},
		{"rows", rows("")},
		{"number rows", numbers},
		{"drawn", paperGrid.String()},
		{"with name", paper + "  paper-puzzle"},
		{"solution line", paper + ":1:"},
		{"comma-separated numbers", strings.Join(strings.Split(strings.ReplaceAll(paper, ".", "0"), ""), ",")},
		{"comma-separated rows", strings.ReplaceAll(rows(","), "\n", ",\n")},
		{"comma-separated number rows", strings.NewReplacer(".", "0", " ", ", ").Replace(rows(" "))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParsePuzzle(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if p.Line() != paper {
				t.Fatalf("got %s, want %s", p.Line(), paper)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	in := strings.Join([]string{
		"# comment",
		paper[:80],                          // line 2: too short
		paper,                               // line 3: fine
		"33" + paper[2:],                    // line 4: 3 twice in row 1
		strings.Replace(paper, "3", "x", 1), // line 5: unknown symbol
		paper,                               // line 6: fine
	}, "\n")
	ps, errs := Read(strings.NewReader(in), "f.txt")
	if len(ps) != 2 {
		t.Errorf("read %d puzzles, want 2", len(ps))
	}
	want := []string{"f.txt:2: a puzzle line has 80 cells", "f.txt:4: conflicting digits: digit 3 twice in row 1", "f.txt:5: unknown symbol 'x'"}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors (%v), want %d", len(errs), errs, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d = %q, want prefix %q", i, errs[i], w)
		}
	}
	if ps[1].Name != "f.txt#4" || ps[1].Source != "f.txt:6" {
		t.Errorf("second puzzle named %s at %s", ps[1].Name, ps[1].Source)
	}
}

func TestLineRoundTrip(t *testing.T) {
	for k := MinBox; k <= MaxBox; k++ {
		g := New(k)
		n := g.Size()
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if (r+c)%3 == 0 {
					g.Set(r, c, (r*k+r/k+c)%n+1) // a valid pattern
				}
			}
		}
		if err := g.Check(); err != nil {
			t.Fatalf("k=%d: pattern invalid: %v", k, err)
		}
		p, err := ParsePuzzle(g.Line())
		if err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		if p.Line() != g.Line() {
			t.Fatalf("k=%d: line form changed", k)
		}
	}
}

// TestGeneratedDomainIsPaperDomain checks that the generator for 9×9 gives
// the same model as the embedded paper domain, by comparing the canonical
// prints of both (printing is exact: see the hddl round-trip tests).
func TestGeneratedDomainIsPaperDomain(t *testing.T) {
	var b strings.Builder
	if err := WriteDomain(&b, 3); err != nil {
		t.Fatal(err)
	}
	gen, err := hddl.ParseDomain("generated.hddl", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	paperDom, err := hddl.ParseDomain(domains.SudokuFile, domains.Sudoku)
	if err != nil {
		t.Fatal(err)
	}
	if hddl.DomainString(gen) != hddl.DomainString(paperDom) {
		t.Fatalf("generated 9×9 domain differs from domains/sudoku.hddl:\n%s\n---\n%s", hddl.DomainString(gen), hddl.DomainString(paperDom))
	}
}

func TestProblemsParse(t *testing.T) {
	for k := MinBox; k <= 5; k++ {
		for _, st := range []Style{Ordered, Unordered} {
			g := New(k)
			g.Set(0, 0, 1)
			d, p, err := Model(g, st)
			if err != nil {
				t.Fatalf("k=%d %s: %v", k, st, err)
			}
			n := g.Size()
			if len(p.Initial.Subtasks) != n*n {
				t.Errorf("k=%d: %d initial tasks, want %d", k, len(p.Initial.Subtasks), n*n)
			}
			if p.NumParams != n*n-1 {
				t.Errorf("k=%d: %d free variables, want %d", k, p.NumParams, n*n-1)
			}
			if p.Initial.Total != (st == Ordered) {
				t.Errorf("k=%d %s: total order %v", k, st, p.Initial.Total)
			}
			if len(d.Constants) != 4*n {
				t.Errorf("k=%d: %d constants", k, len(d.Constants))
			}
		}
	}
}

// TestProblemFiles keeps testdata/sudoku/{paper,hard}-*.hddl equal to what
// the generator writes for the paper's puzzle and a hard one; the tests of
// the packages below sudoku read them.
func TestProblemFiles(t *testing.T) {
	for name, line := range map[string]string{"paper": paper, "hard": hard} {
		p, err := ParsePuzzle(line)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range []Style{Ordered, Unordered} {
			text, err := ProblemText(p.Grid, st, name+"-"+st.String())
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("..", "testdata", "sudoku", name+"-"+st.String()+".hddl")
			if *update {
				os.MkdirAll(filepath.Dir(file), 0o755)
				if err := os.WriteFile(file, text, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			old, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test ./sudoku -update writes it)", err)
			}
			if string(old) != string(text) {
				t.Errorf("%s is out of date (go test ./sudoku -update)", file)
			}
		}
	}
}
