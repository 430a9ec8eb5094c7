package sudoku_test

import (
	"context"
	"fmt"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/verify"
)

// Solve the paper's puzzle end to end through its HDDL model: generate the
// problem, ground it, plan by progression, verify the plan and read the
// grid back from its FILL-CELL actions.
func Example() {
	p, err := sudoku.ParsePuzzle("345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3..")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, prob, err := sudoku.Model(p.Grid, sudoku.Unordered)
	if err != nil {
		fmt.Println(err)
		return
	}
	task, _, err := ground.Ground(context.Background(), prob, ground.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	folded, err := ground.Compact(context.Background(), task)
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, _, err := htn.Solve(context.Background(), folded.Task, htn.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pl := folded.Unfold(sol).ToPlan(task)
	if err := verify.Verify(context.Background(), prob, pl); err != nil {
		fmt.Println(err)
		return
	}
	g, err := sudoku.GridFromPlan(pl, p.Grid)
	if err == nil {
		err = g.Solves(p.Grid)
	}
	fmt.Println("plan length:", pl.Length(), "solved:", err == nil)
	fmt.Print(g)
	// Output:
	// plan length: 46 solved: true
	// +-------+-------+-------+
	// | 3 4 5 | 6 9 1 | 7 2 8 |
	// | 6 1 2 | 7 8 3 | 5 4 9 |
	// | 7 9 8 | 2 4 5 | 1 3 6 |
	// +-------+-------+-------+
	// | 9 6 4 | 1 5 7 | 2 8 3 |
	// | 5 2 3 | 8 6 4 | 9 1 7 |
	// | 8 7 1 | 9 3 2 | 4 6 5 |
	// +-------+-------+-------+
	// | 1 3 9 | 5 2 8 | 6 7 4 |
	// | 4 5 7 | 3 1 6 | 8 9 2 |
	// | 2 8 6 | 4 7 9 | 3 5 1 |
	// +-------+-------+-------+
}

// The direct SAT encoding, the baseline, also tells whether the solution
// is unique.
func ExampleSolveDirect() {
	p, _ := sudoku.ParsePuzzle("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")
	g, unique, _, err := sudoku.SolveDirect(context.Background(), p.Grid, nil, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Line(), unique)
	// Output:
	// 812753649943682175675491283154237896369845721287169534521974368438526917796318452 unique
}
