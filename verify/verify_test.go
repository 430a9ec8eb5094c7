package verify_test

import (
	"context"
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
	if err := verify.Verify(p, pl); err != nil {
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
		{"action outside the tree", func(q *plan.Plan) {
			q.Actions = append(q.Actions, plan.Action{ID: 9999, Name: "FILL-CELL", Args: []string{"b0", "c0", "r0", "d1"}})
		}, "not part of the decomposition"},
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
			err = verify.Verify(p, q2)
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
