package htn_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/verify"
)

// Plan the paper's puzzle with the progression search, check the plan
// with the verifier and print some of it in the IPC 2020 format: the
// action that fills the first blank, and the method that chose it, whose
// three checks are pure tests with no actions of their own (folded into
// the method's precondition for the search, and put back in the plan).
func ExampleSolve() {
	_, p, err := hddl.Load("../domains/sudoku.hddl", "../testdata/sudoku/paper-ordered.hddl")
	if err != nil {
		fmt.Println(err)
		return
	}
	t, _, err := ground.Ground(context.Background(), p, ground.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	folded, err := ground.Compact(context.Background(), t)
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, _, err := htn.Solve(context.Background(), folded.Task, htn.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pl := folded.Unfold(sol).ToPlan(t)
	fmt.Println(pl.Length(), "actions; verified:", verify.Verify(context.Background(), p, pl) == nil)
	// the first action, and the decomposition of the task that put it there
	lines := strings.Split(pl.String(), "\n")
	fmt.Println(strings.Join(lines[:2], "\n"))
	for i, l := range lines {
		if strings.HasPrefix(l, "root ") {
			fmt.Println(strings.Join(lines[i+1:i+5], "\n"))
		}
	}
	// Output:
	// 46 actions; verified: true
	// ==>
	// 0 FILL-CELL b1 c3 r0 d6
	// 46 fill-cell b1 c3 r0 d6 -> m-fill-cell 93 94 95 0
	// 93 check-box b1 d6 -> m-check-box
	// 94 check-row r0 d6 -> m-check-row
	// 95 check-column c3 d6 -> m-check-column
}
