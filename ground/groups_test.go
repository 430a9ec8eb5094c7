package ground_test

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/sudoku"
)

// unitBlanks lists the blank cells of every row, column and box with at
// least two blanks.
func unitBlanks(pz sudoku.Puzzle) map[string]bool {
	n, k := pz.Size(), pz.Box
	out := map[string]bool{}
	for u := 0; u < n; u++ {
		var row, col, box []int
		for i := 0; i < n; i++ {
			if pz.At(u, i) == 0 {
				row = append(row, u*n+i)
			}
			if pz.At(i, u) == 0 {
				col = append(col, i*n+u)
			}
			r, c := (u/k)*k+i/k, (u%k)*k+i%k
			if pz.At(r, c) == 0 {
				box = append(box, r*n+c)
			}
		}
		for _, cells := range [][]int{row, col, box} {
			if len(cells) >= 2 {
				sort.Ints(cells)
				out[fmt.Sprint(cells)] = true
			}
		}
	}
	return out
}

// TestChoiceGroupsSudoku checks the groups found in Sudoku problems: the
// cells of every group lie in one row, column or box (anything else would
// be a wrong inference: cells of different units may share a digit), and
// on hard puzzles, where no unit's blanks lie inside another's, the groups
// are exactly the 27 units.
func TestChoiceGroupsSudoku(t *testing.T) {
	for _, c := range []struct {
		line string
		all  bool
	}{
		{paperPuzzle, false},
		{"8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..", true},
		{".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...", true},
	} {
		pz, _ := sudoku.ParsePuzzle(c.line)
		n := pz.Size()
		units := unitBlanks(pz)
		for _, style := range []sudoku.Style{sudoku.Ordered, sudoku.Unordered} {
			task, _ := groundSudoku(t, c.line, style)
			gs, err := task.ChoiceGroups(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range gs {
				if len(g.Tasks) != len(g.Values) || !g.Atomic {
					t.Errorf("%s: group of %d tasks, %d values, atomic %v", style, len(g.Tasks), len(g.Values), g.Atomic)
				}
				var cells []int
				for _, id := range g.Tasks {
					// a choice method's fill-cell subtask names the cell
					m := task.Methods[task.Compound(id).Methods[0]]
					fc := task.Compound(m.Subtasks[0])
					cells = append(cells, cellIndex(task, fc.Args[2], fc.Args[1], n))
				}
				sort.Ints(cells)
				if !inOneUnit(cells, n, pz.Box) {
					t.Errorf("%.10s %s: group %v is not inside a unit", c.line, style, cells)
				}
				if c.all && !units[fmt.Sprint(cells)] {
					t.Errorf("%.10s %s: group %v is not the blanks of a unit", c.line, style, cells)
				}
			}
			if c.all && len(gs) != 27 {
				t.Errorf("%.10s %s: %d groups, want 27", c.line, style, len(gs))
			}
			if len(gs) < 20 {
				t.Errorf("%.10s %s: only %d groups", c.line, style, len(gs))
			}
		}
	}
}

func inOneUnit(cells []int, n, k int) bool {
	same := func(f func(int) int) bool {
		for _, x := range cells {
			if f(x) != f(cells[0]) {
				return false
			}
		}
		return true
	}
	return same(func(x int) int { return x / n }) || same(func(x int) int { return x % n }) ||
		same(func(x int) int { return (x/n/k)*k + x%n/k })
}

// cellIndex reads the row and column objects (r<i>, c<j>) of a cell.
func cellIndex(task *ground.Task, r, c, n int) int {
	var ri, ci int
	fmt.Sscanf(task.Problem.Objects[r].Name, "r%d", &ri)
	fmt.Sscanf(task.Problem.Objects[c].Name, "c%d", &ci)
	return ri*n + ci
}

// TestChoiceGroupsEmpty checks that the analysis' work budget holds for
// empty grids, where every cell offers every digit: its units are all
// found, 3N groups of N tasks (the budget once counted each pair of
// cells by its digits, and an empty 36×36 grid had none).
func TestChoiceGroupsEmpty(t *testing.T) {
	sizes := []int{4, 5, 6}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, k := range sizes {
		n := k * k
		_, p, err := sudoku.Model(sudoku.New(k), sudoku.Unordered)
		if err != nil {
			t.Fatal(err)
		}
		task, _, err := ground.Ground(context.Background(), p, ground.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := ground.Compact(context.Background(), task)
		if err != nil {
			t.Fatal(err)
		}
		gs, err := f.Task.ChoiceGroups(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(gs) != 3*n {
			t.Errorf("%dx%d empty: %d groups, want %d", n, n, len(gs), 3*n)
		}
		for _, g := range gs {
			if len(g.Tasks) != n || len(g.Values) != n {
				t.Errorf("%dx%d empty: a group of %d tasks and %d values", n, n, len(g.Tasks), len(g.Values))
			}
		}
	}
}

// seatsDomain: guests take seats, each seat once (a choice group of the
// guests), then greet in one of two ways; trailing, if given, is one more
// subtask after the greeting.
func seatsDomain(trailing string) string {
	return `(define (domain seats)
  (:requirements :hierarchy :typing :negative-preconditions)
  (:types guest seat)
  (:predicates (taken ?s - seat) (seated ?g - guest) (marked ?s - seat) (noted ?g - guest) (waved ?g - guest) (nodded ?g - guest))
  (:task assign :parameters (?g - guest ?s - seat))
  (:task greet :parameters (?g - guest))
  (:task mark :parameters (?s - seat))
  (:task note :parameters (?g - guest))
  (:method m-assign
    :parameters (?g - guest ?s - seat)
    :task (assign ?g ?s)
    :precondition (and (not (taken ?s)) (not (marked ?s)))
    :ordered-subtasks (and (TAKE ?g ?s) (greet ?g)` + trailing + `))
  (:method m-wave :parameters (?g - guest) :task (greet ?g) :ordered-subtasks (and (WAVE ?g)))
  (:method m-nod :parameters (?g - guest) :task (greet ?g) :ordered-subtasks (and (NOD ?g)))
  (:method m-mark :parameters (?s - seat) :task (mark ?s) :ordered-subtasks (and (MARK ?s)))
  (:method m-note :parameters (?g - guest) :task (note ?g) :ordered-subtasks (and (NOTE ?g)))
  (:action TAKE :parameters (?g - guest ?s - seat) :effect (and (taken ?s) (seated ?g)))
  (:action WAVE :parameters (?g - guest) :effect (waved ?g))
  (:action NOD :parameters (?g - guest) :effect (nodded ?g))
  (:action MARK :parameters (?s - seat) :effect (marked ?s))
  (:action NOTE :parameters (?g - guest) :effect (noted ?g)))`
}

const seatsProblem = `(define (problem p) (:domain seats)
  (:objects g1 g2 - guest s1 s2 - seat)
  (:htn :parameters (?x ?y - seat)
    :subtasks (and (t1 (assign g1 ?x)) (t2 (assign g2 ?y))))
  (:init))`

// TestChoiceGroupsAtomicPrefix: in a partially ordered network a group is
// atomic when each choice reaches its one action through single-method
// tasks, whatever follows that action, as long as what follows adds for
// good or requires false no fact that the exclusions could rest on (noted:
// added for good, required false by none); a trailing task that adds such
// a fact (marked, which a choice requires false) leaves it not atomic.
func TestChoiceGroupsAtomicPrefix(t *testing.T) {
	for _, c := range []struct {
		trailing string
		atomic   bool
	}{{"", true}, {" (note ?g)", true}, {" (mark ?s)", false}} {
		task, _, err := groundText(t, seatsDomain(c.trailing), seatsProblem)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range []*ground.Task{task, testutil.Compact(t, task).Task} {
			gs, err := tk.ChoiceGroups(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(gs) != 1 || len(gs[0].Tasks) != 2 {
				t.Fatalf("trailing %q: groups %+v, want one of two tasks", c.trailing, gs)
			}
			if gs[0].Atomic != c.atomic {
				t.Errorf("trailing %q: atomic %v, want %v", c.trailing, gs[0].Atomic, c.atomic)
			}
		}
	}
}
