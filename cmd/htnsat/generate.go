package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/variant"
	"github.com/spf13/cobra"
)

func newCmdSudokuGenerate(ios *ioStreams) *cobra.Command {
	var size, count, killer int
	var given float64
	var seed uint64
	var output string
	cmd := &cobra.Command{
		Use: "generate --size N",
		Example: `  # ten 36×36 puzzles with 40 % of the cells given
  htnsat sudoku generate --size 36 --given 0.4 --count 10 --seed 1 -o sudoku/sets/36x36/given40.txt
  # an empty 16×16 grid
  htnsat sudoku generate --size 16 --given 0
  # ten killer Sudokus (cages of up to 4 cells, unique, no givens), one f-puzzles file each
  htnsat sudoku generate --killer 4 --count 10 --seed 1 -o sudoku/sets/killer`,
		Short: "Make puzzles of any size: a random solved grid, then cells removed at random",
		Long: `Make puzzles: for each, a random solved grid (a pattern grid shuffled by the
moves that keep a grid solved: digits relabelled, rows within bands and bands,
columns within stacks and stacks, a transposition), then all but --given of its
cells removed at random. The puzzles may have several solutions. The same
--seed gives the same puzzles; the file starts with the command that made it.

With --killer M, killer Sudokus instead, each with a unique solution and no
givens: the solved grid cut into cages of up to M cells (grown from random
cells by random neighbours whose digit the cage lacks), each with the sum of
its digits; while a second solution exists (direct SAT counts), a cell where
it differs becomes a cage of its own. -o names a directory that gets one
f-puzzles file per puzzle (killer-01.json, ...), for htnsat sudoku variant
and compare; without -o, one puzzle is written to stdout.`,
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
			if cmd.Flags().Changed("killer") {
				return generateKillers(cmd.Context(), ios, rng, k, killer, count, seed, output)
			}
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
	f.IntVar(&killer, "killer", 0, "make killer Sudokus with cages of up to this many cells (1 to the grid size); -o is then a directory")
	f.StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

// generateKillers writes count killer puzzles (variant.GenerateKiller) as
// f-puzzles files into directory dir, or one to stdout.
func generateKillers(ctx context.Context, ios *ioStreams, rng *rand.Rand, k, maxCage, count int, seed uint64, dir string) error {
	n := k * k
	if maxCage < 1 || maxCage > n {
		return &usageError{fmt.Errorf("--killer %d: cages of 1 to %d cells", maxCage, n)}
	}
	if dir == "" && count != 1 {
		return &usageError{errors.New("--killer with --count above 1 writes a directory: give it with -o")}
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	for i := 1; i <= count; i++ {
		p, err := variant.GenerateKiller(ctx, rng, k, maxCage, nil)
		if err != nil {
			return err
		}
		p.Title = fmt.Sprintf("killer %d×%d, %d of %d (htnsat sudoku generate --size %d --killer %d --count %d --seed %d)", n, n, i, count, n, maxCage, count, seed)
		path := ""
		if dir != "" {
			path = filepath.Join(dir, fmt.Sprintf("killer-%02d.json", i))
		}
		if err := writeFile(ctx, ios, path, func(w io.Writer) error { return variant.WriteFPuzzles(w, p) }); err != nil {
			return err
		}
	}
	return nil
}
