package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/htnsat/htnsat/sudoku"
	"github.com/spf13/cobra"
)

func newCmdSudokuGenerate(ios *ioStreams) *cobra.Command {
	var size, count int
	var given float64
	var seed uint64
	var output string
	cmd := &cobra.Command{
		Use: "generate --size N",
		Example: `  # ten 36×36 puzzles with 40 % of the cells given
  htnsat sudoku generate --size 36 --given 0.4 --count 10 --seed 1 -o sudoku/sets/36x36/given40.txt
  # an empty 16×16 grid
  htnsat sudoku generate --size 16 --given 0`,
		Short: "Make puzzles of any size: a random solved grid, then cells removed at random",
		Long: `Make puzzles: for each, a random solved grid (a pattern grid shuffled by the
moves that keep a grid solved: digits relabelled, rows within bands and bands,
columns within stacks and stacks, a transposition), then all but --given of its
cells removed at random. The puzzles may have several solutions. The same
--seed gives the same puzzles; the file starts with the command that made it.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			k, err := boxOfSize(size)
			if err != nil {
				return err
			}
			if !(given >= 0 && given <= 1) { // NaN too
				return &usageError{fmt.Errorf("--given %g: a fraction of the cells, from 0 to 1", given)}
			}
			if count < 1 || count > 100_000 {
				return &usageError{fmt.Errorf("--count %d: from 1 to 100,000", count)}
			}
			rng := rand.New(rand.NewPCG(seed, seed^0x5DEECE66D))
			givens := int(given*float64(size*size) + 0.5)
			return writeFile(cmd.Context(), ios, output, func(w io.Writer) error {
				fmt.Fprintf(w, "# htnsat sudoku generate --size %d --given %g --count %d --seed %d\n", size, given, count, seed)
				for range count {
					p, _ := sudoku.Generate(rng, k, givens)
					if _, err := io.WriteString(w, strings.TrimSpace(p.Line())+"\n"); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&size, "size", 9, "grid size N (4, 9, 16, 25, 36 or 49)")
	f.Float64Var(&given, "given", 0.4, "fraction of the cells given (0: an empty grid)")
	f.IntVar(&count, "count", 1, "puzzles to make")
	f.Uint64Var(&seed, "seed", 1, "seed of the random choices")
	f.StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	return cmd
}
