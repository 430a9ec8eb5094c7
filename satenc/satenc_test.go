package satenc_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/sudoku"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

const (
	paperPuzzle = testutil.PaperPuzzle
	hardPuzzle  = testutil.HardPuzzle
)

// sudokuTask is the ground task of a puzzle's problem with its pure tests
// folded, as the pipeline gives it to the engine; planOf writes a plan of
// it with the tests put back.
func sudokuTask(t testing.TB, line string, style sudoku.Style) (*hddl.Problem, *ground.Folding) {
	p, task := testutil.SudokuTask(t, line, style)
	return p, testutil.Compact(t, task)
}

func planOf(f *ground.Folding, sol *ground.Solution) *plan.Plan { return f.Unfold(sol).ToPlan(f.Orig) }

func smallTask(t testing.TB) (*hddl.Problem, *ground.Folding) {
	p, task := testutil.LoadTask(t, "testdata/small-domain.hddl", "testdata/small-problem.hddl")
	return p, testutil.Compact(t, task)
}

func TestSudokuGophersat(t *testing.T) {
	for _, line := range []string{paperPuzzle, hardPuzzle} {
		for _, style := range []sudoku.Style{sudoku.Ordered, sudoku.Unordered} {
			p, task := sudokuTask(t, line, style)
			sol, st, err := satenc.Solve(context.Background(), task.Task, satenc.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.Verify(context.Background(), p, planOf(task, sol)); err != nil {
				t.Fatalf("%s: verify: %v", style, err)
			}
			if st.Linear != (style == sudoku.Unordered) {
				t.Errorf("%s: linearised=%v", style, st.Linear)
			}
			t.Logf("%.10s… %s: depth %d, %d vars, %d clauses, encode %v, solve %v", line, style, st.Depth, st.Vars, st.Clauses, st.Encode, st.Solve)
		}
	}
}

// TestExternalSolvers solves through every DIMACS solver installed here.
func TestExternalSolvers(t *testing.T) {
	p, task := sudokuTask(t, hardPuzzle, sudoku.Ordered)
	found := 0
	for _, cmd := range []string{"cadical -q", "minisat", "picosat", "cryptominisat5 --verb=0", "kissat -q"} {
		if _, err := exec.LookPath(strings.Fields(cmd)[0]); err != nil {
			continue
		}
		found++
		sol, _, err := satenc.Solve(context.Background(), task.Task, satenc.Config{Solver: satenc.External{Command: cmd}})
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if err := verify.Verify(context.Background(), p, planOf(task, sol)); err != nil {
			t.Fatalf("%s: verify: %v", cmd, err)
		}
	}
	if found == 0 {
		t.Skip("skipping: no external SAT solver installed (apt install cadical minisat picosat)")
	}
}

// TestGoldenCNF checks the encoding of a small problem clause by clause
// against testdata/small.cnf (go test -update rewrites it).
func TestGoldenCNF(t *testing.T) {
	_, task := smallTask(t)
	depth := task.Task.Depth()
	w, err := satenc.NewDIMACSWriter("")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := satenc.Encode(context.Background(), task.Task, depth, w, satenc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var comments []string
	for v := 1; v <= enc.NumVars; v++ {
		comments = append(comments, "var "+itoa(v)+" "+enc.VarName(satenc.Var(v)))
	}
	var got bytes.Buffer
	if err := w.WriteTo(&got, enc.NumVars, comments); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "small.cnf")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./satenc -update writes it)", err)
	}
	gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			t.Fatalf("line %d differs:\n got: %s\nwant: %s", i+1, gl[i], wl[i])
		}
	}
	if len(gl) != len(wl) {
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
	// and the formula has a plan
	sol, _, err := satenc.Solve(context.Background(), task.Task, satenc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Length() < 1 {
		t.Fatal("empty plan")
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

// TestBitFlip flips every task and method variable of a model in turn: the
// decoder must refuse the model or give a plan the verifier rejects.
// (Fact variables are not read by the decoder: a flipped fact leaves the
// plan as it was.)
func TestBitFlip(t *testing.T) {
	p, task := sudokuTask(t, paperPuzzle, sudoku.Ordered)
	cnf := &satenc.CNF{}
	enc, err := satenc.Encode(context.Background(), task.Task, task.Task.Depth(), cnf, satenc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := satenc.Gophersat{}.Solve(context.Background(), cnf)
	if err != nil || !res.Sat {
		t.Fatalf("solve: %v", err)
	}
	if sol, err := enc.Decode(res.Model); err != nil || verify.Verify(context.Background(), p, planOf(task, sol)) != nil {
		t.Fatalf("the model itself does not decode to a valid plan: %v", err)
	}
	flipped, refused := 0, 0
	for v := 1; v <= enc.NumVars; v++ {
		if k := enc.VarKind(satenc.Var(v)); k != "task" && k != "action" && k != "method" {
			continue
		}
		m := append([]bool(nil), res.Model...)
		m[v] = !m[v]
		flipped++
		sol, err := enc.Decode(m)
		if err != nil {
			if !errors.Is(err, satenc.ErrBadModel) {
				t.Fatalf("flipping variable %d: %v, not a bad model", v, err)
			}
			refused++
			continue
		}
		if verify.Verify(context.Background(), p, planOf(task, sol)) == nil {
			t.Fatalf("flipping variable %d (%s) still gives a valid plan", v, enc.VarName(satenc.Var(v)))
		}
	}
	// most flips break the tree itself (two tasks at a vertex, a task
	// without its method, a missing subtask), which the decoder refuses
	if refused*2 < flipped {
		t.Errorf("the decoder refused %d of %d flips, want at least half", refused, flipped)
	}
	t.Logf("%d flips, each refused (%d by the decoder)", flipped, refused)
}

func TestReadModel(t *testing.T) {
	cases := []struct {
		in   string
		sat  bool
		true []int
		bad  bool
	}{
		{"c comment\ns SATISFIABLE\nv 1 -2\nv 3 0\n", true, []int{1, 3}, false},
		{"SAT\n-1 2 -3 0\n", true, []int{2}, false},
		{"s UNSATISFIABLE\n", false, nil, false},
		{"UNSAT\n", false, nil, false},
		{"s UNKNOWN\n", false, nil, true},
		{"v 1 2 0\n", false, nil, true},
		{"s SATISFIABLE\nv 1 9 0\n", false, nil, true},
	}
	for i, c := range cases {
		r, err := satenc.ReadModel(strings.NewReader(c.in), 3)
		if c.bad {
			if err == nil {
				t.Errorf("case %d: no error", i)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		if r.Sat != c.sat {
			t.Errorf("case %d: sat=%v", i, r.Sat)
		}
		for _, v := range c.true {
			if !r.Model[v] {
				t.Errorf("case %d: variable %d should be true", i, v)
			}
		}
	}
}

// TestSplitMethods solves, through the encoding, a domain whose method the
// grounder splits into synthetic tasks (testdata/split/*.hddl): the
// decoded plan hides them and verifies against the lifted model.
func TestSplitMethods(t *testing.T) {
	p, orig := testutil.LoadTask(t, "../testdata/split/domain.hddl", "../testdata/split/problem.hddl")
	task := testutil.Compact(t, orig)
	sol, _, err := satenc.Solve(context.Background(), task.Task, satenc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	pl := planOf(task, sol)
	if err := verify.Verify(context.Background(), p, pl); err != nil {
		t.Fatalf("verify: %v\n%s", err, pl)
	}
	if len(pl.Actions) != 6 {
		t.Errorf("%d actions, want 6:\n%s", len(pl.Actions), pl)
	}
}

// TestIPCCompacted solves small IPC problems whose compacted tasks inline
// many tasks (Entertainment's compiled conditional effects, Factories'
// split delivery, Childsnack's split serving) and checks that the plans,
// unfolded, verify against the lifted models.
func TestIPCCompacted(t *testing.T) {
	for _, c := range []struct{ domain, problem string }{
		{"Childsnack", "p01"}, {"Factories-simple", "pfile01"}, {"Entertainment", "pfile01"},
		{"Elevator-Learned-ECAI-16", "s01-0"}, {"Snake", "pb01.snake"}, {"Transport", "pfile01"},
		{"Rover-GTOHP", "p01"}, {"Barman-BDI", "pfile01"}, {"Hiking", "p01"},
	} {
		dir := testutil.IPCDir(t, "total-order", c.domain)
		df := filepath.Join(dir, "domain.hddl")
		if _, err := os.Stat(df); err != nil {
			df = filepath.Join(dir, c.problem+"-domain.hddl")
		}
		p, orig := testutil.LoadTask(t, df, filepath.Join(dir, c.problem+".hddl"))
		f := testutil.Compact(t, orig)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		sol, _, err := satenc.Solve(ctx, f.Task, satenc.Config{})
		cancel()
		if err != nil {
			t.Errorf("%s %s: %v", c.domain, c.problem, err)
			continue
		}
		if err := verify.Verify(context.Background(), p, planOf(f, sol)); err != nil {
			t.Errorf("%s %s: %v", c.domain, c.problem, err)
		}
	}
}

// cancellingSink ends a context after a number of clauses and counts the
// clauses it gets.
type cancellingSink struct {
	satenc.CNF
	after, n int
	cancel   context.CancelFunc
}

func (s *cancellingSink) AddClause(...satenc.Lit) {
	if s.n++; s.n == s.after {
		s.cancel()
	}
}

// TestEncodeCancel: an encoding whose context ends stops soon after, with
// the context's error, instead of writing the whole formula.
func TestEncodeCancel(t *testing.T) {
	_, task := sudokuTask(t, paperPuzzle, sudoku.Ordered)
	depth := task.Task.Depth()
	full := &cancellingSink{cancel: func() {}}
	if _, err := satenc.Encode(context.Background(), task.Task, depth, full, satenc.Options{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &cancellingSink{after: 100, cancel: cancel}
	_, err := satenc.Encode(ctx, task.Task, depth, s, satenc.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Encode after cancel: %v, want context.Canceled", err)
	}
	if s.n > full.n/2 {
		t.Errorf("the cancelled encoding wrote %d of %d clauses", s.n, full.n)
	}
}
