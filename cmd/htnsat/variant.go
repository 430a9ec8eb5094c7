package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku/variant"
	"github.com/spf13/cobra"
)

func newCmdSudokuVariant(ios *ioStreams) *cobra.Command {
	var count int
	var mzn, xcsp, solver string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "variant FILE.json",
		Short: "Solve a variant puzzle (killer, thermo, arrow, kropki, XV, lines, ...) in the f-puzzles layout",
		Long: `Read a puzzle in the f-puzzles JSON layout (README lists the constraints read;
any other is an error), solve it through the direct SAT encoding, check the
solution against every rule and print it with the time taken. --count N counts
the solutions up to N; --mzn and --xcsp write the same instance as MiniZinc
(seed 004's language) and XCSP3.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if count < 0 {
				return &usageError{fmt.Errorf("--count %d: must be 0 or more", count)}
			}
			s, err := satSolver(solver)
			if err != nil {
				return err
			}
			p, err := variant.ReadFPuzzlesFile(args[0])
			if err != nil {
				return withCode(exitFailure, err)
			}
			if mzn != "" {
				if err := writeOut(ios, mzn, func(w io.Writer) error { return variant.WriteMiniZinc(w, p) }); err != nil {
					return withCode(exitFailure, err)
				}
			}
			if xcsp != "" {
				if err := writeOut(ios, xcsp, func(w io.Writer) error { return variant.WriteXCSP3(w, p) }); err != nil {
					return withCode(exitFailure, err)
				}
			}
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			t0 := time.Now()
			res, err := variant.Solve(ctx, p, s, max(count, 1))
			elapsed := time.Since(t0)
			if errors.Is(err, variant.ErrNoSolution) {
				return withCode(exitFailure, err)
			}
			if err != nil {
				return failure(plan.WithCause(ctx, err))
			}
			out := ios.Out
			if p.Title != "" {
				fmt.Fprintln(out, p.Title)
			}
			fmt.Fprint(out, res.Solution.String())
			fmt.Fprintln(out, res.Solution.Line())
			sols := ""
			switch {
			case count > 1 && res.Solutions == count:
				sols = fmt.Sprintf(", %d or more solutions", res.Solutions)
			case count > 1:
				sols = fmt.Sprintf(", %d solution(s)", res.Solutions)
			}
			fmt.Fprintf(out, "direct-sat: solved, every rule checked, %.2f ms, %d vars, %d clauses%s\n", elapsed.Seconds()*1000, res.Vars, res.Clauses, sols)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&count, "count", 0, "count the solutions up to this number")
	f.StringVar(&mzn, "mzn", "", "also write the puzzle as a MiniZinc model to this file")
	f.StringVar(&xcsp, "xcsp", "", "also write the puzzle as an XCSP3 instance to this file")
	f.StringVar(&solver, "sat-solver", "", "SAT solver: gophersat, libcadical (linked builds) or a DIMACS solver command")
	f.DurationVar(&timeout, "timeout", 60*time.Second, "time limit")
	return cmd
}
