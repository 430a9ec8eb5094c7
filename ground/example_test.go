package ground_test

import (
	"context"
	"fmt"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/sudoku"
)

// Grounding the paper's domain with the paper's puzzle: one ground
// m-check-row per row and digit that can still occur (each row misses as
// many digits as it has blanks: 46 in all), found by joins.
func ExampleGround() {
	pz, _ := sudoku.ParsePuzzle("345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3..")
	_, p, err := sudoku.Model(pz.Grid, sudoku.Ordered)
	if err != nil {
		fmt.Println(err)
		return
	}
	t, st, err := ground.Ground(context.Background(), p, ground.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(t.Facts), "facts,", len(t.Actions), "actions,", len(t.Methods), "methods")
	fmt.Println("m-check-row instances:", st.MethodInstances["m-check-row"])
	// Output:
	// 225 facts, 133 actions, 405 methods
	// m-check-row instances: 46
}
