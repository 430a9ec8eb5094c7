package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/variant"
	"github.com/spf13/cobra"
)

func newCmdSudokuVariant(ios *ioStreams) *cobra.Command {
	var count int
	var rate bool
	var mzn, xcsp, engines, style, hddlOut, hddlChecks, picture string
	var timeout time.Duration
	var ef engineFlags
	cmd := &cobra.Command{
		Use: "variant FILE.json",
		Example: `  htnsat sudoku variant sudoku/variant/testdata/dune.json --count 2
  htnsat sudoku variant sudoku/variant/testdata/paper-killer-thermo.json --engine all --mzn paper.mzn
  # the puzzle and its solution drawn, clues and all
  htnsat sudoku variant sudoku/variant/testdata/lines.json --svg lines.png`,
		Short: "Solve a variant puzzle (killer, thermo, arrow, kropki, XV, lines, ...) in the f-puzzles layout",
		Long: `Read a puzzle in the f-puzzles JSON layout (docs/sudoku.md lists the constraints read;
any other is an error) and solve it with each engine asked: direct-sat (its
own encoding, every clue) and, for killer cages, diagonals, extra regions and
thermometers, the HTN engines on its HDDL model (--hddl DIR writes the domain
and problem): the progression search with killer totals and thermometers
checked as each cell is filled, htn-sat with them checked after the fills
(a smaller formula). Every solution is checked against every rule. --count N makes
direct-sat count the solutions up to N; --mzn and --xcsp write the same
instance as MiniZinc (the language of the best-known variant models) and XCSP3;
--svg F.svg (or F.png) draws the puzzle, every clue as setters draw them, and
the digits of the first verified solution in blue (the puzzle alone when no
engine solves it).`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := countOption(count, false); err != nil {
				return err
			}
			es, err := compare.ParseEngines(engines)
			if err != nil {
				return &usageError{err}
			}
			st, err := sudoku.ParseStyle(style)
			if err != nil {
				return &usageError{err}
			}
			checks, err := variant.ParseChecks(hddlChecks)
			if err != nil {
				return &usageError{fmt.Errorf("--hddl-checks: %w", err)}
			}
			eo, err := ef.compare()
			if err != nil {
				return err
			}
			asPNG := false
			if picture != "" {
				if asPNG, err = variant.PNGFile(picture); err != nil {
					return &usageError{fmt.Errorf("--svg %w", err)}
				}
			}
			v, err := variant.ReadFPuzzlesFile(cmd.Context(), args[0])
			if err != nil {
				return withCode(exitFailure, err)
			}
			type output struct {
				path string
				fn   func(io.Writer) error
			}
			writes := []output{
				{mzn, func(w io.Writer) error { return variant.WriteMiniZinc(w, v) }},
				{xcsp, func(w io.Writer) error { return variant.WriteXCSP3(w, v) }},
			}
			if hddlOut != "" {
				if err := os.MkdirAll(hddlOut, 0o755); err != nil {
					return withCode(exitFailure, err)
				}
				writes = append(writes,
					output{filepath.Join(hddlOut, "domain.hddl"), func(w io.Writer) error { return variant.WriteDomain(w, v, checks) }},
					output{filepath.Join(hddlOut, "problem.hddl"), func(w io.Writer) error { return variant.WriteProblem(w, v, st, checks) }})
			}
			for _, wr := range writes {
				if wr.path == "" {
					continue
				}
				if err := writeFile(cmd.Context(), ios, wr.path, wr.fn); err != nil {
					return withCode(exitFailure, err)
				}
			}
			eo.Style, eo.Count, eo.Variant = st, count, v
			name := v.Title
			if name == "" {
				name = filepath.Base(args[0])
			}
			p := sudoku.Puzzle{Grid: v.Grid, Name: name}
			var runs []compare.Run
			for _, e := range es {
				if err := cmd.Context().Err(); err != nil {
					return failure(plan.WithCause(cmd.Context(), err))
				}
				ctx, cancel := withTimeout(cmd.Context(), timeout)
				runs = append(runs, compare.RunEngine(ctx, p, e, eo))
				cancel()
			}
			printSolve(ios.Out, p, runs, false, count)
			if picture != "" {
				pic := variant.Picture{Title: name, Puzzle: v}
				for i := range runs {
					if runs[i].Verified {
						pic.Solution = &runs[i].Solution
						break
					}
				}
				if err := writeFile(cmd.Context(), ios, picture, func(w io.Writer) error { return variant.WriteSheet(w, []variant.Picture{pic}, 1, asPNG) }); err != nil {
					return withCode(exitFailure, err)
				}
			}
			if rate {
				m, err := v.CSPModel()
				if err != nil {
					fmt.Fprintf(ios.Out, "rating: none (%v)\n", err)
				} else {
					ctx, cancel := withTimeout(cmd.Context(), timeout)
					r, err := m.Rate(ctx, v.Grid)
					cancel()
					if err != nil {
						return failure(plan.WithCause(ctx, err))
					}
					fmt.Fprintf(ios.Out, "rating: %s (%d solution(s) up to 2)\n", r.Level, r.Solutions)
				}
			}
			return runsExit(runs)
		},
	}
	f := cmd.Flags()
	f.StringVar(&engines, "engine", "direct-sat", "progression, htn-sat (or sat), direct-sat, auto, lazy, a comma-separated list, or all")
	f.StringVar(&style, "style", "unordered", "initial task network of the HDDL problem: ordered or unordered")
	f.IntVar(&count, "count", 0, "direct-sat: count the solutions up to this number")
	f.BoolVar(&rate, "rate", false, "rate the puzzle by consistency level (all-different clues only: diagonals, extra regions, cages without totals)")
	f.StringVar(&mzn, "mzn", "", "also write the puzzle as a MiniZinc model to this file")
	f.StringVar(&xcsp, "xcsp", "", "also write the puzzle as an XCSP3 instance to this file")
	f.StringVar(&hddlOut, "hddl", "", "also write the HDDL domain and problem to this directory")
	f.StringVar(&picture, "svg", "", "draw the puzzle, its clues and its solution to this .svg or .png file")
	f.StringVar(&hddlChecks, "hddl-checks", "at-fill", "the model --hddl writes: killer totals and thermometers checked at-fill (as the progression search plans it) or after-fills (as htn-sat does)")
	f.DurationVar(&timeout, "timeout", 60*time.Second, "time limit per engine")
	ef.register(f)
	return cmd
}

// countOption is the solution count --count and --unique ask for (0: no
// count; --unique is --count 2).
func countOption(count int, unique bool) (int, error) {
	if count < 0 {
		return 0, &usageError{fmt.Errorf("--count %d: must be 0 (no count) or more", count)}
	}
	if unique && count < 2 {
		count = 2
	}
	return count, nil
}

// runsExit is the exit of a set of runs: 3 if one ran out of time, 1 if
// one found no verified solution, 0 if all solved.
func runsExit(runs []compare.Run) error {
	notSolved, timedOut := 0, 0
	for _, r := range runs {
		switch {
		case r.Status.ExitCode() == exitTimeout:
			timedOut++
		case r.Status != plan.Solved || !r.Verified:
			notSolved++
		}
	}
	switch {
	case timedOut > 0:
		return withCode(exitTimeout, fmt.Errorf("%d runs ran out of time", timedOut))
	case notSolved > 0:
		return withCode(exitFailure, fmt.Errorf("%d runs found no verified solution", notSolved))
	}
	return nil
}
