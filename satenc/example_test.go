package satenc_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

// Solve the paper's puzzle through the HTN-to-SAT encoding with the
// in-process solver, and verify the decoded plan.
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
	// tasks without a choice are inlined, pure tests become preconditions
	folded, err := ground.Compact(context.Background(), t)
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, st, err := satenc.Solve(context.Background(), folded.Task, satenc.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pl := folded.Unfold(sol).ToPlan(t)
	fmt.Printf("depth %d, %d variables, %d clauses\n", st.Depth, st.Vars, st.Clauses)
	fmt.Println(pl.Length(), "actions; verified:", verify.Verify(context.Background(), p, pl) == nil)
	// Output:
	// depth 2, 712 variables, 1689 clauses
	// 46 actions; verified: true
}

// Write the encoding as DIMACS for any SAT solver, with comments naming
// variables (here the first two), and print its first lines.
func ExampleWriteDIMACS() {
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
	t = folded.Task
	cnf := &satenc.CNF{}
	enc, err := satenc.Encode(context.Background(), t, t.Depth(), cnf, satenc.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	comments := []string{"var 1 " + enc.VarName(1), "var 2 " + enc.VarName(2)}
	var b strings.Builder
	if err := satenc.WriteDIMACS(&b, cnf, enc.NumVars, comments); err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.SplitN(b.String(), "\n", 5)
	fmt.Println(strings.Join(lines[:4], "\n"))
	// Output:
	// c var 1 task at vertex 0 (layer 1): __choice_0
	// c var 2 method at vertex 0: __choose d2 for __choice_0
	// p cnf 712 1689
	// 1 0
}
