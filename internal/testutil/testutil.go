// Package testutil holds the fixtures the tests of several packages share:
// the Sudoku puzzles they solve and the loading and grounding of a problem.
// Only tests import it.
package testutil

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/sudoku"
)

// PaperPuzzle is the puzzle of the paper ("Planning Sudoku for HDDL", Fig. 1).
const PaperPuzzle = "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."

// HardPuzzle takes naive solvers long.
const HardPuzzle = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."

// SudokuTask builds the HDDL problem of a puzzle in the given style and
// grounds it with the default options.
func SudokuTask(t testing.TB, line string, style sudoku.Style) (*hddl.Problem, *ground.Task) {
	t.Helper()
	p := SudokuProblem(t, line, style)
	return p, Ground(t, p)
}

// SudokuProblem builds the HDDL problem of a puzzle in the given style.
func SudokuProblem(t testing.TB, line string, style sudoku.Style) *hddl.Problem {
	t.Helper()
	pz, err := sudoku.ParsePuzzle(line)
	if err != nil {
		t.Fatal(err)
	}
	_, p, err := sudoku.Model(pz.Grid, style)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// IPCDir is the folder of one IPC 2020 domain in ../shared; the test is
// skipped when ../shared is absent.
func IPCDir(t testing.TB, track, domain string) string {
	t.Helper()
	shared, err := corpus.SharedDir()
	if err != nil {
		t.Skip("no ../shared: ", err)
	}
	return filepath.Join(shared, "data", "ipc2020", track, domain)
}

// SudokuDir is the folder of the standard Sudoku puzzle sets in the
// repository (sudoku/sets).
func SudokuDir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "sudoku", "sets")
}

// ParseHDDL reads a domain and a problem given as text.
func ParseHDDL(t testing.TB, domain, problem string) *hddl.Problem {
	t.Helper()
	d, err := hddl.ParseDomain("domain.hddl", []byte(domain))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hddl.ParseProblem("problem.hddl", []byte(problem), d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// LoadTask reads a domain and problem file and grounds them.
func LoadTask(t testing.TB, domain, problem string) (*hddl.Problem, *ground.Task) {
	t.Helper()
	_, p, err := hddl.Load(domain, problem)
	if err != nil {
		t.Fatal(err)
	}
	return p, Ground(t, p)
}

// Ground grounds p with the default options and validates the result.
func Ground(t testing.TB, p *hddl.Problem) *ground.Task {
	t.Helper()
	task, _, err := ground.Ground(context.Background(), p, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	return task
}

// ReadCSV reads every record of a CSV file.
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

// Compact compacts task as the pipeline does, failing the test on error.
func Compact(t testing.TB, task *ground.Task) *ground.Folding {
	t.Helper()
	f, err := ground.Compact(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
