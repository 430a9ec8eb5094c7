package main

import (
	"fmt"
	"time"

	"github.com/htnsat/htnsat/internal/input"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/verify"
	"github.com/spf13/cobra"
)

func newCmdVerify(ios *ioStreams) *cobra.Command {
	var timeout time.Duration
	cmd := &cobra.Command{
		Use: "verify DOMAIN PROBLEM PLAN",
		Example: `  htnsat plan -o paper.plan domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl
  htnsat verify domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl paper.plan`,
		Short: "Check a plan in the IPC 2020 HTN format against an HDDL problem",
		Long: `Check a plan against the lifted problem, independently of the grounder and the
planners: actions executable in order, every task of the initial network
covered, every decomposition by a method of its task with its subtasks in an
order the method allows, method preconditions holding where they must, the goal
holding at the end. An invalid plan gets exit code 1 and the reason, with the
plan line it concerns.`,
		Args: exactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			cmd.SetContext(ctx)
			p, _, err := pipeline.Load(cmd.Context(), args[0], args[1])
			if err != nil {
				return failure(err)
			}
			f, err := input.Open(ctx, args[2])
			if err != nil {
				return failure(plan.WithCause(ctx, err))
			}
			defer f.Close()
			progress.From(ctx).Stage("read the plan")
			pl, err := plan.Read(input.Reader(ctx, f))
			if err != nil {
				if ctx.Err() != nil {
					return failure(plan.WithCause(ctx, err))
				}
				return withCode(exitFailure, fmt.Errorf("%s: %w", args[2], err))
			}
			progress.From(cmd.Context()).Stage("verify")
			if err := verify.Verify(cmd.Context(), p, pl); err != nil {
				if ctxErr := cmd.Context().Err(); ctxErr != nil {
					return failure(plan.WithCause(cmd.Context(), err))
				}
				return withCode(exitFailure, fmt.Errorf("%s: invalid: %w", args[2], err))
			}
			cost := ""
			if p.Domain.Costs {
				cost = fmt.Sprintf(", cost %d", verify.Cost(p, pl))
			}
			fmt.Fprintf(ios.Out, "%s: valid plan (%d actions, %d decompositions%s)\n", args[2], pl.Length(), len(pl.Decomps), cost)
			return nil
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up after this long (0: no limit)")
	return cmd
}
