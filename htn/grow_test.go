package htn_test

import (
	"context"
	"errors"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/plan"
)

// solveGrow grounds p on demand into a growing task, searches, and
// verifies the plan (written and read back) when there is one.
func solveGrow(t testing.TB, ctx context.Context, p *hddl.Problem, gopt ground.Options, opt htn.Options) (*plan.Plan, *htn.Stats, error) {
	t.Helper()
	g, err := ground.NewGrow(ctx, p, gopt)
	if err != nil {
		t.Fatalf("NewGrow: %v", err)
	}
	sol, st, err := htn.SolveGrow(ctx, g, opt)
	if gopt.GrowRoom == 1 && g.NumActions() > 1 && g.Relaid == 0 {
		t.Errorf("%d actions made in a room of 1, and the IDs never moved", g.NumActions())
	}
	if err != nil {
		return nil, st, err
	}
	pl := sol.ToPlan(g.Task)
	verifyWritten(t, p, pl)
	return pl, st, nil
}

// The search over a growing task agrees with the search over the full
// grounding on every totally ordered problem of testdata and the paper's
// Sudoku (orderedProblems): a verified plan where the ground search finds
// one, a proof there is none where it proves none.
func TestSolveGrowAgrees(t *testing.T) {
	probs, names := orderedProblems(t)
	for i, p := range probs {
		t.Run(names[i], func(t *testing.T) {
			task := testutil.Ground(t, p)
			_, _, gerr := htn.Solve(context.Background(), testutil.Compact(t, task).Task, htn.Options{})
			// the IDs of compound tasks move when the actions outgrow
			// their room: from a room of 1, many times
			for _, room := range []int{0, 1} {
				pl, _, err := solveGrow(t, context.Background(), p, ground.Options{GrowRoom: room}, htn.Options{})
				switch {
				case gerr == nil && err != nil:
					t.Fatalf("room %d: the ground search finds a plan, the growing one: %v", room, err)
				case errors.Is(gerr, htn.ErrNoPlan) && !errors.Is(err, htn.ErrNoPlan):
					t.Fatalf("room %d: the ground search proves there is no plan, the growing one: %v (%v)", room, err, pl)
				}
			}
		})
	}
}

// Two tasks can have method instances alike in all but the task they
// decompose: here a method without subtasks whose precondition is on
// another variable than the task's (as IPC Barman-BDI's HandEmptyNull).
// Each task gets its own; before, the second was taken for the first's
// and the problem said to have no plan.
func TestSolveGrowKeepsTasksApart(t *testing.T) {
	p := testutil.ParseHDDL(t, `(define (domain d)
  (:requirements :typing :hierarchy)
  (:types hand)
  (:predicates (free ?h - hand) (done ?h - hand))
  (:task empty :parameters (?h - hand))
  (:task finish :parameters (?h - hand))
  (:method null :parameters (?h - hand ?o - hand) :task (empty ?h)
    :precondition (free ?o) :ordered-subtasks (and))
  (:method finish :parameters (?h - hand) :task (finish ?h)
    :ordered-subtasks (and (mark ?h)))
  (:action mark :parameters (?h - hand) :effect (done ?h)))`, `(define (problem p) (:domain d)
  (:objects left right - hand)
  (:htn :ordered-subtasks (and (empty right) (finish left) (empty left)))
  (:init (free left)))`)
	if _, _, err := solveGrow(t, context.Background(), p, ground.Options{}, htn.Options{}); err != nil {
		t.Fatalf("no plan: %v", err)
	}
}
