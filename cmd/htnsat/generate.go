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
	"time"

	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
	"github.com/htnsat/htnsat/sudoku/variant"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newCmdSudokuGenerate(ios *ioStreams) *cobra.Command {
	var size, count, killer, tries int
	var given float64
	var seed uint64
	var output, level, variantFile string
	var unique bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use: "generate --size N",
		Example: `  # ten 36×36 puzzles with 40 % of the cells given
  htnsat sudoku generate --size 36 --given 0.4 --count 10 --seed 1 -o sudoku/sets/36x36/given40.txt
  # an empty 16×16 grid
  htnsat sudoku generate --size 16 --given 0
  # ten killer Sudokus (cages of up to 4 cells, unique, no givens), one f-puzzles file each
  htnsat sudoku generate --killer 4 --count 10 --seed 1 -o sudoku/sets/killer
  # twenty 9×9 puzzles with one solution each, that singleton arc consistency solves and nothing weaker
  htnsat sudoku generate --level sac --count 20
  # a diagonal Sudoku's givens made to order, one solution, rated gac
  htnsat sudoku generate --level gac --variant FILE.json -o DIR`,
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
and compare; without -o, one puzzle is written to stdout.

With --unique, each puzzle has exactly one solution and no given that can go
(cells emptied in a random order while one solution is left, counted by
search). With --level L (fc, ac, gac, sac or sgac: the levels of htnsat
sudoku rate and of the hint panel), each puzzle has exactly one solution,
which the propagation of level L alone finds and that of the level below it
does not: cells are emptied while L still solves the puzzle, and a puzzle a
weaker level solves is made again from another grid (--tries times at most;
sgac-only puzzles are rare at 9×9). Their lines record the count and the
solution (puzzle:1:solution), which solve and compare check. With
--variant FILE.json, the givens of that variant (its all-different clues:
extra regions, diagonals, disjoint groups, cages without totals) are made
to order, one f-puzzles file per puzzle.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			cmd.SetContext(ctx)
			progress.From(ctx).Stage("generate")
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
			if unique || level != "" || variantFile != "" {
				if cmd.Flags().Changed("given") || cmd.Flags().Changed("killer") {
					return &usageError{errors.New("--unique and --level empty cells as far as the puzzle allows: give neither --given nor --killer")}
				}
				return generateUnique(cmd.Context(), ios, rng, k, count, level, tries, variantFile, output, cmd)
			}
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
	f.BoolVar(&unique, "unique", false, "puzzles with exactly one solution, no given of which can go")
	f.StringVar(&level, "level", "", "puzzles with one solution that this consistency level (fc, ac, gac, sac, sgac) finds and the one below does not")
	f.IntVar(&tries, "tries", 200, "--level: grids tried for each puzzle")
	f.StringVar(&variantFile, "variant", "", "make the givens of this f-puzzles variant (all-different clues only); -o is then a directory")
	f.DurationVar(&timeout, "timeout", 0, "give up after this long (0: no limit); nothing is written then")
	return cmd
}

// generateUnique writes count puzzles with one solution each (at a
// consistency level, or as few givens as uniqueness allows), as lines
// puzzle:1:solution, or, for a variant, as f-puzzles files in the
// directory out.
func generateUnique(ctx context.Context, ios *ioStreams, rng *rand.Rand, k, count int, level string, tries int, variantFile, out string, cmd *cobra.Command) error {
	m := csp.NewModel(k)
	var v *variant.Puzzle
	if variantFile != "" {
		var err error
		if v, err = variant.ReadFPuzzlesFile(ctx, variantFile); err != nil {
			return withCode(exitFailure, err)
		}
		if m, err = v.CSPModel(); err != nil {
			return withCode(exitFailure, fmt.Errorf("%s: %w", variantFile, err))
		}
		if out == "" && count != 1 {
			return &usageError{errors.New("--variant with --count above 1 writes a directory: give it with -o")}
		}
	}
	var l csp.Level = -1
	if level != "" {
		var err error
		if l, err = csp.ParseLevel(level); err != nil || l.Each() {
			return &usageError{fmt.Errorf("--level %q: fc, ac, gac, sac or sgac", level)}
		}
	}
	if tries < 1 {
		return &usageError{fmt.Errorf("--tries %d: at least 1", tries)}
	}
	made := make([][2]sudoku.Grid, 0, count)
	for range count {
		var g, sol sudoku.Grid
		var err error
		if l >= 0 {
			g, sol, err = m.Generate(ctx, rng, l, tries)
		} else {
			g, sol, err = m.GenerateMinimal(ctx, rng)
		}
		if err != nil {
			return failure(err)
		}
		made = append(made, [2]sudoku.Grid{g, sol})
	}
	line := "# htnsat sudoku " + strings.Join(os.Args[2:], " ")
	if cmd != nil {
		line = "# htnsat " + cmd.CommandPath()[len("htnsat "):] + " " + flagLine(cmd)
	}
	if v == nil {
		return writeFile(ctx, ios, out, func(w io.Writer) error {
			fmt.Fprintln(w, line)
			for _, p := range made {
				if _, err := fmt.Fprintf(w, "%s:1:%s\n", p[0].Line(), p[1].Line()); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return withCode(exitFailure, err)
		}
	}
	base := strings.TrimSuffix(filepath.Base(variantFile), filepath.Ext(variantFile))
	for i, p := range made {
		q := *v
		q.Grid = p[0]
		q.Title = fmt.Sprintf("%s, %d of %d (%s)", v.Title, i+1, count, strings.TrimPrefix(line, "# "))
		path := ""
		if out != "" {
			path = filepath.Join(out, fmt.Sprintf("%s-%02d.json", base, i+1))
		}
		if err := writeFile(ctx, ios, path, func(w io.Writer) error { return variant.WriteFPuzzles(w, &q) }); err != nil {
			return withCode(exitFailure, err)
		}
	}
	return nil
}

// flagLine is the flags a command was given, as they would be typed.
func flagLine(cmd *cobra.Command) string {
	var parts []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" {
			parts = append(parts, "--"+f.Name)
		} else {
			parts = append(parts, "--"+f.Name+" "+f.Value.String())
		}
	})
	return strings.Join(parts, " ")
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
