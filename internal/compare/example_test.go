package compare_test

import (
	"context"
	"fmt"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/sudoku"
)

// Solve the paper's puzzle with each engine and report the outcome.
func ExampleRunEngine() {
	p, _ := sudoku.ParsePuzzle("345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3..")
	for _, e := range compare.Engines {
		r := compare.RunEngine(context.Background(), p, e, compare.Options{})
		fmt.Println(e, r.Status, "verified:", r.Verified, r.Solution.Line() == "345691728612783549798245136964157283523864917871932465139528674457316892286479351")
	}
	// Output:
	// progression solved verified: true true
	// htn-sat solved verified: true true
	// direct-sat solved verified: true true
}
