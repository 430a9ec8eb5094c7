package verify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/verify"
)

// paperPlan plans the paper's puzzle (ordered) by progression.
func paperPlan(t testing.TB) (*hddl.Problem, *plan.Plan) {
	p := testutil.SudokuProblem(t, testutil.PaperPuzzle, sudoku.Ordered)
	res, err := pipeline.Run(context.Background(), p, pipeline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	pl := res.Plan
	if err := verify.Verify(context.Background(), p, pl); err != nil {
		t.Fatal(err)
	}
	return p, pl
}

func clonePlan(p *plan.Plan) *plan.Plan {
	q := &plan.Plan{Root: append([]int(nil), p.Root...)}
	for _, a := range p.Actions {
		a.Args = append([]string(nil), a.Args...)
		q.Actions = append(q.Actions, a)
	}
	for _, d := range p.Decomps {
		d.Args = append([]string(nil), d.Args...)
		d.Subtasks = append([]int(nil), d.Subtasks...)
		q.Decomps = append(q.Decomps, d)
	}
	return q
}

// setDigit changes the digit of the fill-cell task at index i of the root
// (its decomposition line, its three checks and its FILL-CELL action).
func setDigit(p *plan.Plan, root int, digit string) {
	id := p.Root[root]
	for i := range p.Decomps {
		d := &p.Decomps[i]
		if d.ID != id {
			continue
		}
		d.Args[3] = digit
		for _, s := range d.Subtasks {
			for j := range p.Decomps {
				if p.Decomps[j].ID == s {
					p.Decomps[j].Args[len(p.Decomps[j].Args)-1] = digit
				}
			}
			for j := range p.Actions {
				if p.Actions[j].ID == s {
					p.Actions[j].Args[3] = digit
				}
			}
		}
	}
}

// removeSubtree deletes the lines of task id and its descendants.
func removeSubtree(p *plan.Plan, id int) {
	drop := map[int]bool{id: true}
	for changed := true; changed; {
		changed = false
		for _, d := range p.Decomps {
			if drop[d.ID] {
				for _, s := range d.Subtasks {
					if !drop[s] {
						drop[s], changed = true, true
					}
				}
			}
		}
	}
	var acts []plan.Action
	for _, a := range p.Actions {
		if !drop[a.ID] {
			acts = append(acts, a)
		}
	}
	var decs []plan.Decomposition
	for _, d := range p.Decomps {
		if !drop[d.ID] {
			decs = append(decs, d)
		}
	}
	p.Actions, p.Decomps = acts, decs
}

// withSubtasks returns the i-th decomposition line that has subtasks.
func withSubtasks(p *plan.Plan, i int) *plan.Decomposition {
	for k := range p.Decomps {
		if len(p.Decomps[k].Subtasks) > 0 {
			if i == 0 {
				return &p.Decomps[k]
			}
			i--
		}
	}
	return nil
}

func TestVerifierRejectsMutations(t *testing.T) {
	p, pl := paperPlan(t)
	// the first two blanks of the paper puzzle are r0c3 and r0c4
	cases := []struct {
		name   string
		mutate func(*plan.Plan)
		want   string
	}{
		{"wrong digit in one line", func(q *plan.Plan) { q.Actions[0].Args[3] = "d9" }, "subtask 4 of method m-fill-cell must be"},
		{"digit already in the row", func(q *plan.Plan) { setDigit(q, 0, "d3") }, "precondition of method m-check"},
		{"two equal digits in a row", func(q *plan.Plan) {
			setDigit(q, 1, q.Actions[0].Args[3])
		}, "precondition of method m-check"},
		{"missing task", func(q *plan.Plan) { removeSubtree(q, q.Root[0]); q.Root = q.Root[1:] }, "not covered by the root"},
		{"swapped order", func(q *plan.Plan) {
			q.Actions[0], q.Actions[1] = q.Actions[1], q.Actions[0]
		}, "comes too"},
		{"unknown method", func(q *plan.Plan) { q.Decomps[0].Method = "m-nothing" }, "unknown method m-nothing"},
		{"detached cycle smuggling in an action", func(q *plan.Plan) {
			// overwrites the given r0c0; the cycle hangs from nothing
			q.Actions = append(q.Actions, plan.Action{ID: 9999, Name: "FILL-CELL", Args: []string{"b0", "c0", "r0", "d1"}})
			q.Decomps = append(q.Decomps, plan.Decomposition{ID: 9998, Task: "fill-cell", Args: []string{"b0", "c0", "r0", "d1"}, Method: "m-fill-cell", Subtasks: []int{9998, 9999}})
		}, "action 9999 is not reached from the root"},
		{"detached two-cycle", func(q *plan.Plan) {
			q.Decomps = append(q.Decomps,
				plan.Decomposition{ID: 9998, Task: "all-check", Method: "m-all-check", Subtasks: []int{9997}},
				plan.Decomposition{ID: 9997, Task: "all-check", Method: "m-all-check", Subtasks: []int{9998}})
		}, "task 9998 is not reached from the root"},
		{"a task that lists itself", func(q *plan.Plan) {
			d := &q.Decomps[0]
			d.Subtasks = append(d.Subtasks, d.ID)
		}, "lists itself as a subtask"},
		{"a subtask listed twice", func(q *plan.Plan) {
			a, b := withSubtasks(q, 0), withSubtasks(q, 1)
			a.Subtasks[len(a.Subtasks)-1] = b.Subtasks[len(b.Subtasks)-1]
		}, "is a subtask of both"},
		{"a cycle through the root", func(q *plan.Plan) {
			// the first check of the first fill-cell decomposes into its parent
			child := q.Decomps[0].Subtasks[0]
			for i := range q.Decomps {
				if q.Decomps[i].ID == child {
					q.Decomps[i].Subtasks = []int{q.Decomps[0].ID}
				}
			}
		}, "is in the root and also a subtask"},
		{"action outside the tree", func(q *plan.Plan) {
			q.Actions = append(q.Actions, plan.Action{ID: 9999, Name: "FILL-CELL", Args: []string{"b0", "c0", "r0", "d1"}})
		}, "not reached from the root"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := clonePlan(pl)
			c.mutate(q)
			// through the text format, so that line numbers are real
			q2, err := plan.Read(strings.NewReader(q.String()))
			if err != nil {
				t.Fatal(err)
			}
			err = verify.Verify(context.Background(), p, q2)
			if err == nil {
				t.Fatal("the mutated plan verifies")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			if pe, ok := err.(*plan.Error); !ok || (pe.Line == 0 && c.name != "missing task") {
				t.Errorf("error %v names no plan line", err)
			}
		})
	}
}

// TestTypedVariables: a method variable, or a free variable of the initial
// network, bound to an object outside its type makes the plan invalid,
// even when the task's own parameter would take the object.
func TestTypedVariables(t *testing.T) {
	_, p, err := hddl.Load("testdata/typed-domain.hddl", "testdata/typed-problem.hddl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{"typed-ok.plan", ""},
		{"typed-method-var.plan", "variable ?t must be of type truck, but c1 is of type car"},
		{"typed-root-var.plan", "binds variable ?x of the initial network to c1, which is of type car, not truck"},
	} {
		f, err := os.Open(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		pl, err := plan.Read(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		err = verify.Verify(context.Background(), p, pl)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.file, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.file, err, c.want)
		}
	}
}
