package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/crillab/gophersat/solver"
	"github.com/spf13/cobra"

	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/internal/testutil"
)

// runCLI runs htnsat with args and returns the exit code and outputs.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &ioStreams{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

const (
	sudokuDomain = "../../domains/sudoku.hddl"
	paperOrdered = "../../testdata/sudoku/paper-ordered.hddl"
)

func TestParseCommand(t *testing.T) {
	code, out, _ := runCLI(t, "", "parse", sudokuDomain, paperOrdered)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"methods         5", "initial tasks   47 (46 free variables)", "total order     yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "", "parse", "--json", sudokuDomain, paperOrdered)
	var s parseSummary
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s.FreeVariables != 46 || s.Actions != 1 || s.CompoundTasks != 5 {
		t.Errorf("--json: exit %d, %+v", code, s)
	}
}

func TestExitCodes(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.hddl")
	os.WriteFile(bad, []byte("(define (domain d) (:predicates (p ?x)) (:action a :precondition (q)))"), 0o644)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"parse", bad, bad}, exitFailure, "bad.hddl:1:67: unknown predicate q/0"},
		{[]string{"parse", "only-one"}, exitUsage, "accepts 2 arg(s)"},
		{[]string{"frobnicate"}, exitUsage, "unknown command"},
		{[]string{"plan", "--bogus", sudokuDomain, paperOrdered}, exitUsage, "unknown flag"},
		{[]string{"parse", "/does/not/exist", paperOrdered}, exitFailure, "no such file"},
		{[]string{"sudoku", "solve", "12345"}, exitFailure, "has 5"},
		{[]string{"ipc", t.TempDir(), "--status", "timeout"}, exitUsage, "give --from CSV"},
		{[]string{"sudoku", "generate", "--killer", "0"}, exitUsage, "cages of 1 to 9 cells"},
		{[]string{"sudoku", "generate", "--size", "4", "--killer", "5"}, exitUsage, "cages of 1 to 4 cells"},
		{[]string{"sudoku", "generate", "--killer", "3", "--count", "2"}, exitUsage, "give it with -o"},
		{[]string{"sudoku", "variant", "--hddl-checks", "never", "x.json"}, exitUsage, "at-fill or after-fills"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

// TestGenerateKiller: --killer writes one f-puzzles file per puzzle that
// sudoku variant reads and every engine solves.
func TestGenerateKiller(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "killer")
	if code, _, errOut := runCLI(t, "", "sudoku", "generate", "--size", "4", "--killer", "3", "--count", "2", "-o", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"killer-01.json", "killer-02.json"} {
		code, out, errOut := runCLI(t, "", "sudoku", "variant", filepath.Join(dir, f), "--engine", "all", "--count", "2")
		if code != 0 || strings.Count(out, "solved     yes") != 3 || !strings.Contains(out, "1 solution") {
			t.Errorf("%s: exit %d\n%s%s", f, code, out, errOut)
		}
	}
}

// TestGenerateLevel: sudoku generate --level sac makes 20 9x9 puzzles,
// each with one solution (counted by search, as its line records) and
// rated sac by sudoku rate; --variant makes a diagonal Sudoku's givens,
// one solution that keeps its diagonals; --unique alone, puzzles with one
// solution and no given that can go.
func TestGenerateLevel(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sac.txt")
	if code, _, errOut := runCLI(t, "", "sudoku", "generate", "--level", "sac", "--count", "20", "--seed", "7", "-o", file); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "", "sudoku", "rate", "-f", file)
	if code != 0 || !strings.Contains(out, "20 puzzles: sac 20") {
		t.Errorf("rate: exit %d\n%s%s", code, out, errOut)
	}
	b, _ := os.ReadFile(file)
	m := csp.NewModel(3)
	lines := 0
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		parts := strings.Split(l, ":")
		g, err := sudoku.ParseLine(parts[0])
		if err != nil || len(parts) != 3 || parts[1] != "1" {
			t.Fatalf("%q: %v", l, err)
		}
		res, err := m.Search(context.Background(), g, 2, csp.GACAll)
		if err != nil || res.Solutions != 1 || res.First.Line() != parts[2] {
			t.Errorf("%s: %d solutions", parts[0], res.Solutions)
		}
		lines++
	}
	if lines != 20 {
		t.Errorf("%d puzzles", lines)
	}
	// solve checks the recorded counts and solutions
	if code, _, errOut := runCLI(t, "", "sudoku", "solve", "--engine", "direct-sat", "--line", "-f", file); code != 0 {
		t.Errorf("solve: exit %d: %s", code, errOut)
	}
	dir := t.TempDir()
	x := filepath.Join(dir, "x.json")
	row := "[" + strings.Repeat("{},", 8) + "{}]"
	os.WriteFile(x, []byte(`{"size":9,"diagonal+":true,"diagonal-":true,"grid":[`+strings.Repeat(row+",", 8)+row+`]}`), 0o644)
	if code, _, errOut := runCLI(t, "", "sudoku", "generate", "--level", "gac", "--variant", x, "--count", "2", "-o", filepath.Join(dir, "out")); code != 0 {
		t.Fatalf("variant: exit %d: %s", code, errOut)
	}
	for _, f := range []string{"x-01.json", "x-02.json"} {
		code, out, errOut := runCLI(t, "", "sudoku", "variant", filepath.Join(dir, "out", f), "--count", "2")
		if code != 0 || !strings.Contains(out, "1 solution") {
			t.Errorf("%s: exit %d\n%s%s", f, code, out, errOut)
		}
	}
	code, out, errOut = runCLI(t, "", "sudoku", "generate", "--unique", "--count", "2", "--size", "4")
	if code != 0 || strings.Count(out, ":1:") != 2 {
		t.Errorf("--unique: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, _ := runCLI(t, "", "sudoku", "generate", "--level", "gac-each"); code != exitUsage {
		t.Errorf("--level gac-each: exit %d", code)
	}
}

func TestPlanAndVerify(t *testing.T) {
	dir := t.TempDir()
	for _, engine := range []string{"progression", "sat"} {
		planFile := filepath.Join(dir, engine+".plan")
		code, _, errOut := runCLI(t, "", "plan", "--engine", engine, "-o", planFile, sudokuDomain, paperOrdered)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", engine, code, errOut)
		}
		if !strings.Contains(errOut, "verified: true") {
			t.Errorf("%s: stats lack the verification: %s", engine, errOut)
		}
		code, out, errOut := runCLI(t, "", "verify", sudokuDomain, paperOrdered, planFile)
		if code != 0 || !strings.Contains(out, "valid plan (46 actions") {
			t.Errorf("verify %s: exit %d, %s %s", engine, code, out, errOut)
		}
	}
	// a corrupted plan
	b, _ := os.ReadFile(filepath.Join(dir, "progression.plan"))
	broken := strings.Replace(string(b), "FILL-CELL b1 c3 r0", "FILL-CELL b1 c4 r0", 1)
	bad := filepath.Join(dir, "bad.plan")
	os.WriteFile(bad, []byte(broken), 0o644)
	code, _, errOut := runCLI(t, "", "verify", sudokuDomain, paperOrdered, bad)
	if code != exitFailure || !strings.Contains(errOut, "plan line") {
		t.Errorf("corrupted plan: exit %d, %s", code, errOut)
	}
}

func TestCNFAndDecode(t *testing.T) {
	dir := t.TempDir()
	cnf := filepath.Join(dir, "paper.cnf")
	if code, _, errOut := runCLI(t, "", "cnf", sudokuDomain, paperOrdered, "-o", cnf); code != 0 {
		t.Fatalf("cnf: %s", errOut)
	}
	head, _ := os.ReadFile(cnf)
	if !strings.Contains(string(head), "c depth 2") || !strings.Contains(string(head), "p cnf ") {
		t.Fatalf("the CNF lacks its header")
	}
	// a model in the competition form, made by solving in-process
	code, out, _ := runCLI(t, "", "sudoku", "solve", "--engine", "htn-sat", "--line")
	if code != 0 || !strings.Contains(out, "solved") {
		t.Fatalf("sudoku solve: %s", out)
	}
	// decode refuses a model that is not one of this formula, naming a
	// clause it makes false
	model := filepath.Join(dir, "model.txt")
	os.WriteFile(model, []byte("s SATISFIABLE\nv 0\n"), 0o644)
	code, _, errOut := runCLI(t, "", "decode", sudokuDomain, paperOrdered, cnf, model)
	if code != exitFailure || !strings.Contains(errOut, "is not a model of") || !strings.Contains(errOut, "clause 1 of the formula") {
		t.Errorf("decode of an empty model: exit %d, %s", code, errOut)
	}
}

// TestCNFRoundTrip exports the paper's puzzle with each set of encoding
// options, solves the DIMACS file as any outside solver would (gophersat
// reading the file), and decodes the model into a plan that verifies.
func TestCNFRoundTrip(t *testing.T) {
	dir := t.TempDir()
	clauses := map[string]bool{}
	for _, opts := range [][]string{nil, {"--no-groups"}, {"--no-fold"}, {"--no-groups", "--no-fold"}} {
		name := strings.Join(append([]string{"default"}, opts...), "")
		cnf := filepath.Join(dir, name+".cnf")
		args := append([]string{"cnf", sudokuDomain, paperOrdered, "-o", cnf}, opts...)
		if code, _, errOut := runCLI(t, "", args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
		text, err := os.ReadFile(cnf)
		if err != nil {
			t.Fatal(err)
		}
		want := "c options " + strings.TrimPrefix(strings.Join(opts, " "), "--")
		if len(opts) == 0 {
			want = "c options default"
		}
		want = strings.ReplaceAll(want, " --", " ")
		if !strings.Contains(string(text), want+"\n") {
			t.Errorf("%s: no %q line", name, want)
		}
		header := string(text[strings.Index(string(text), "p cnf"):])
		clauses[header[:strings.Index(header, "\n")]] = true

		pb, err := solver.ParseCNF(strings.NewReader(string(text)))
		if err != nil {
			t.Fatalf("%s: gophersat cannot read the file: %v", name, err)
		}
		s := solver.New(pb)
		if s.Solve() != solver.Sat {
			t.Fatalf("%s: unsatisfiable", name)
		}
		var model strings.Builder
		model.WriteString("s SATISFIABLE\nv")
		for i, b := range s.Model() {
			v := i + 1
			if !b {
				v = -v
			}
			fmt.Fprintf(&model, " %d", v)
		}
		model.WriteString(" 0\n")
		mf := filepath.Join(dir, name+".model")
		os.WriteFile(mf, []byte(model.String()), 0o644)
		plan := filepath.Join(dir, name+".plan")
		if code, _, errOut := runCLI(t, "", "decode", sudokuDomain, paperOrdered, cnf, mf, "-o", plan); code != 0 {
			t.Fatalf("%s: decode: %s", name, errOut)
		}
		if code, out, errOut := runCLI(t, "", "verify", sudokuDomain, paperOrdered, plan); code != 0 || !strings.Contains(out, "valid plan (46 actions") {
			t.Errorf("%s: verify: %s %s", name, out, errOut)
		}
	}
	if len(clauses) != 4 {
		t.Errorf("the options should change the formula: headers %v", clauses)
	}
}

func TestSudokuCommands(t *testing.T) {
	code, out, _ := runCLI(t, "", "sudoku", "domain", "--size", "4")
	if code != 0 || !strings.Contains(out, "d1 d2 d3 d4 - digit") {
		t.Errorf("domain --size 4: %d %s", code, out)
	}
	if code, _, errOut := runCLI(t, "", "sudoku", "domain", "--size", "10"); code != exitUsage || !strings.Contains(errOut, "k²") {
		t.Errorf("domain --size 10: %d %s", code, errOut)
	}
	code, out, _ = runCLI(t, "...3..4114..3...", "sudoku", "hddl", "--style", "unordered", "-")
	if code != 0 || !strings.Contains(out, ":ordering") {
		t.Errorf("hddl from stdin: %d %s", code, out)
	}
	code, out, errOut := runCLI(t, "", "sudoku", "solve")
	if code != 0 || strings.Count(out, "solved     yes") != 3 {
		t.Errorf("solve (paper, all engines): exit %d\n%s%s", code, out, errOut)
	}
}

func TestCompareFiles(t *testing.T) {
	dir := t.TempDir()
	puzzles := filepath.Join(dir, "p.txt")
	os.WriteFile(puzzles, []byte("# two 4x4 puzzles and a broken line\n...3..4114..3...\n1..4..1..3..4..3\n12345\n"), 0o644)
	csvFile, jsonFile := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.json")
	for _, plot := range []string{"r.svg", "r.png"} {
		plotFile := filepath.Join(dir, plot)
		// the puzzles read are run and written; the line that could not
		// be read is told, and fails the command
		code, out, errOut := runCLI(t, "", "compare", "-f", puzzles, "--csv", csvFile, "--json", jsonFile, "--plot", plotFile)
		if code != exitFailure || !strings.Contains(errOut, "1 lines of the puzzle files could not be read") {
			t.Fatalf("compare: exit %d: %s %s", code, out, errOut)
		}
		if !strings.Contains(errOut, "p.txt:4:") {
			t.Errorf("the broken line is not reported: %s", errOut)
		}
		f, err := os.Open(plotFile)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(plot, ".svg") {
			dec := xml.NewDecoder(f)
			for {
				if _, err := dec.Token(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("the SVG does not parse: %v", err)
				}
			}
		} else if _, err := png.Decode(f); err != nil {
			t.Fatalf("the PNG does not decode: %v", err)
		}
		f.Close()
	}
	if rows := testutil.ReadCSV(t, csvFile); len(rows) != 1+2*3 {
		t.Fatalf("CSV: %d rows (want a header and one row per puzzle and engine)", len(rows))
	}
	var js []map[string]any
	b, _ := os.ReadFile(jsonFile)
	if err := json.Unmarshal(b, &js); err != nil || len(js) != 6 {
		t.Fatalf("JSON: %d rows, %v", len(js), err)
	}
	for _, r := range js {
		if r["status"] != "solved" || r["verified"] != true {
			t.Errorf("row %v", r)
		}
		if peak, _ := r["peak_heap_mb"].(float64); r["engine"] != "direct-sat" && peak <= 0 {
			t.Errorf("%s on %s: no peak heap measured", r["engine"], r["puzzle"])
		}
	}
}

// TestMain lets the test binary stand in for htnsat when a command (ipc)
// runs itself as a subprocess.
func TestMain(m *testing.M) {
	if os.Getenv("HTNSAT_TEST_MAIN") == "1" {
		os.Exit(runMain())
	}
	os.Exit(m.Run())
}

// TestIPCResume runs "htnsat ipc" over a two-problem corpus laid out like
// the IPC set, then resumes from a CSV with one row missing and one row
// edited: the edited row is kept, the missing problem is run again.
func TestIPCResume(t *testing.T) {
	t.Setenv("HTNSAT_TEST_MAIN", "1")
	dir := t.TempDir()
	dom := filepath.Join(dir, "total-order", "split")
	if err := os.MkdirAll(dom, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "partial-order"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("../../testdata/split/domain.hddl", filepath.Join(dom, "domain.hddl"))
	copyFile("../../testdata/split/problem.hddl", filepath.Join(dom, "p1.hddl"))
	copyFile("../../testdata/split/problem.hddl", filepath.Join(dom, "p2.hddl"))
	csvFile := filepath.Join(dir, "out.csv")
	readRows := func() [][]string { return testutil.ReadCSV(t, csvFile) }
	code, out, errOut := runCLI(t, "", "ipc", dir, "--stage", "plan", "--csv", csvFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "| total-order | split | 2/2 |") {
		t.Errorf("table:\n%s", out)
	}
	recs := readRows()
	if len(recs) != 3 || recs[1][3] != "solved" || recs[2][3] != "solved" || recs[1][10] != "6" {
		t.Fatalf("rows: %v", recs)
	}
	// keep p1 with a mark in its seconds, drop p2
	recs[1][4] = "99.000"
	f, err := os.Create(csvFile)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(recs[:2])
	f.Close()
	code, _, errOut = runCLI(t, "", "ipc", dir, "--stage", "plan", "--csv", csvFile, "--resume")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	recs = readRows()
	if len(recs) != 3 || recs[1][2] != "p1.hddl" || recs[1][4] != "99.000" || recs[2][2] != "p2.hddl" || recs[2][3] != "solved" || recs[2][4] == "99.000" {
		t.Fatalf("rows after resume: %v", recs)
	}
	if code, _, _ := runCLI(t, "", "ipc", dir, "--resume"); code == 0 {
		t.Error("--resume without --csv accepted")
	}
}

// TestDepthLimitStatus: the SAT engine on a recursive problem whose plan
// needs a deeper tree than --max-depth reports depth-limit, not error.
func TestDepthLimitStatus(t *testing.T) {
	shared, err := corpus.SharedDir()
	if err != nil {
		t.Skip("no ../shared: ", err)
	}
	dir := filepath.Join(shared, "data", "ipc2020", "total-order", "AssemblyHierarchical")
	args := []string{"plan", "--engine", "sat", "--json", filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "genericLinearProblem_depth04.hddl")}
	for _, c := range []struct{ depth, status string }{{"3", "depth-limit"}, {"32", "solved"}} {
		_, out, errOut := runCLI(t, "", append(args, "--max-depth", c.depth)...)
		var rep planReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil || string(rep.Status) != c.status {
			t.Errorf("--max-depth %s: status %q, want %q (%v %s)", c.depth, rep.Status, c.status, err, errOut)
		}
	}
}

// TestIPCMemoryLimit: with --mem, a problem whose grounding needs more is
// stopped and its row says memory, whether the child stopped itself (its
// --max-memory) or the harness killed it.
func TestIPCMemoryLimit(t *testing.T) {
	t.Setenv("HTNSAT_TEST_MAIN", "1")
	dir := t.TempDir()
	dom := filepath.Join(dir, "total-order", "sudoku25")
	if err := os.MkdirAll(dom, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "partial-order"), 0o755); err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{
		"../../testdata/sudoku/domain-25.hddl":          "domain.hddl",
		"../../testdata/sudoku/empty-25-unordered.hddl": "p1.hddl",
	} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dom, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	csvFile := filepath.Join(dir, "out.csv")
	code, out, errOut := runCLI(t, "", "ipc", dir, "--stage", "ground", "--mem", "40", "--csv", csvFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs := testutil.ReadCSV(t, csvFile)
	if len(recs) != 2 || recs[1][3] != "memory" {
		t.Fatalf("rows %v\n%s", recs, out)
	}
}

// TestCompareProcess: with --process each HTN engine runs as a process of
// its own (the test binary standing in for htnsat) on HDDL files; the rows
// are verified, carry the process's stages and its peak resident memory,
// and time the whole process (at least the stages it reports). direct-sat
// and variant files are refused as usage errors, and the files written
// are gone afterwards.
func TestCompareProcess(t *testing.T) {
	t.Setenv("HTNSAT_TEST_MAIN", "1")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	puzzles := filepath.Join(dir, "p.txt")
	if err := os.WriteFile(puzzles, []byte("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n...3..4114..3...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonFile := filepath.Join(dir, "rows.json")
	// this process holds 256 MB: a child's peak must not count it (Linux
	// carries the parent's peak into the child's rusage)
	ballast := make([]byte, 256<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	code, out, errOut := runCLI(t, "", "compare", "--process", "-f", puzzles, "--json", jsonFile, "--no-groups")
	runtime.KeepAlive(ballast)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if !strings.Contains(out, "engines progression, htn-sat") || !strings.Contains(out, "one process per run") || !strings.Contains(out, "no choice groups") {
		t.Errorf("header:\n%s", out)
	}
	var rows []map[string]any
	b, _ := os.ReadFile(jsonFile)
	if err := json.Unmarshal(b, &rows); err != nil || len(rows) != 4 {
		t.Fatalf("JSON: %d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r["status"] != "solved" || r["verified"] != true {
			t.Errorf("row %v", r)
		}
		total, _ := r["total_ms"].(float64)
		ground, _ := r["ground_ms"].(float64)
		parse, _ := r["parse_ms"].(float64)
		if ground <= 0 || parse <= 0 || total < ground+parse {
			t.Errorf("%s on %s: total %.3f ms, parse %.3f, ground %.3f", r["engine"], r["puzzle"], total, parse, ground)
		}
		if peak, _ := r["peak_heap_mb"].(float64); runtime.GOOS == "linux" && (peak <= 1 || peak >= 200) {
			t.Errorf("%s on %s: peak resident memory %.1f MB (the parent holds 256 MB)", r["engine"], r["puzzle"], peak)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("files left behind in the temporary directory: %v", left)
	}
	for _, args := range [][]string{
		{"compare", "--process", "-f", puzzles, "--engines", "all"},
		{"compare", "--process", "-f", "../../testdata/variants/none.json"},
	} {
		if code, _, errOut := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errOut)
		}
	}
}

// TestEngineNames: every command takes the same engine names, the
// canonical ones and the alias sat, in any case.
func TestEngineNames(t *testing.T) {
	for _, name := range []string{"htn-sat", "sat", "SAT", "progression", "auto"} {
		if code, _, errOut := runCLI(t, "", "plan", "--engine", name, sudokuDomain, paperOrdered); code != 0 {
			t.Errorf("plan --engine %s: exit %d %s", name, code, errOut)
		}
		if code, _, errOut := runCLI(t, "", "sudoku", "solve", "--engine", name, "--line", "...3..4114..3..."); code != 0 {
			t.Errorf("sudoku solve --engine %s: exit %d %s", name, code, errOut)
		}
		if code, _, errOut := runCLI(t, "", "compare", "--engine", name, "--limit", "2"); code != 0 {
			t.Errorf("compare --engine %s: exit %d %s", name, code, errOut)
		}
	}
	code, out, _ := runCLI(t, "", "plan", "--engine", "sat", "--json", sudokuDomain, paperOrdered)
	if code != 0 || !strings.Contains(out, `"engine": "htn-sat"`) {
		t.Errorf("plan --engine sat --json: the report names the engine %q", out)
	}
	if code, _, errOut := runCLI(t, "", "plan", "--engine", "magic", sudokuDomain, paperOrdered); code != exitUsage || !strings.Contains(errOut, "htn-sat (or sat)") {
		t.Errorf("an unknown engine: exit %d %s", code, errOut)
	}
}

// TestHelpExamples: every command's help has an example, and --version
// names the version.
func TestHelpExamples(t *testing.T) {
	root := newRootCmd(&ioStreams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, &rootOptions{})
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		if c.Name() != "help" && c.Name() != "completion" && c.Parent() != nil && c.Parent().Name() != "completion" {
			n++
			if strings.TrimSpace(c.Example) == "" {
				t.Errorf("%s has no example", c.CommandPath())
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	if n < 16 {
		t.Errorf("%d commands", n)
	}
	code, out, _ := runCLI(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "htnsat ") {
		t.Errorf("--version: %d %q", code, out)
	}
}

// TestIPCList: --list prints the pairs ipc reads, after the selection,
// one tab-separated line each, and runs nothing.
func TestIPCList(t *testing.T) {
	dir := "../../testdata/ipc-mini"
	code, out, errOut := runCLI(t, "", "ipc", dir, "--list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		"total-order\tsplit\t" + filepath.Join(dir, "total-order/split/domain.hddl") + "\t" + filepath.Join(dir, "total-order/split/p1.hddl"),
		"total-order\tsplit\t" + filepath.Join(dir, "total-order/split/domain.hddl") + "\t" + filepath.Join(dir, "total-order/split/p2.hddl"),
		"partial-order\tsplit\t" + filepath.Join(dir, "partial-order/split/domain.hddl") + "\t" + filepath.Join(dir, "partial-order/split/p1.hddl"),
	}
	if !slices.Equal(lines, want) {
		t.Errorf("--list:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
	_, out, _ = runCLI(t, "", "ipc", dir, "--list", "--first", "1", "--filter", "total-order")
	if out != want[0]+"\n" {
		t.Errorf("--list --first 1 --filter total-order: %q", out)
	}
	// a problem file whose name holds a tab, after one that does not: no
	// line at all, and an error that says why
	tab := filepath.Join(t.TempDir(), "total-order", "split")
	if err := os.MkdirAll(tab, 0o755); err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{"domain.hddl": "domain.hddl", "p1.hddl": "p1.hddl", "p2.hddl": "p\t2.hddl"} {
		b, err := os.ReadFile(filepath.Join(dir, "total-order/split", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tab, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut = runCLI(t, "", "ipc", filepath.Dir(filepath.Dir(tab)), "--list")
	if code == 0 || out != "" || !strings.Contains(errOut, "tab or a line break") {
		t.Errorf("--list over a file name with a tab: exit %d, out %q, err %q", code, out, errOut)
	}
}
