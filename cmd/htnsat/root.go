package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/htnsat/htnsat/plan"
	"github.com/spf13/cobra"
)

// Exit codes (see plan.Status.ExitCode).
const (
	exitOK      = plan.ExitOK
	exitFailure = plan.ExitFailure // bad input, invalid plan, no plan, any other error
	exitUsage   = plan.ExitUsage   // bad command line
	exitTimeout = plan.ExitTimeout // --timeout expired or interrupted before an answer
)

// ioStreams are the standard streams of one run; tests use buffers.
type ioStreams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// exitError carries an exit code with an error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withCode attaches an exit code to err.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }

func newRootCmd(ios *ioStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "htnsat",
		Short: "HTN planning with HDDL: parse, ground, plan by progression or SAT, and solve Sudoku",
		Long: `htnsat reads HDDL domains and problems, grounds them, and plans either by
progression search or by compiling to SAT. It solves Sudoku puzzles end to end
through the HDDL model of "Planning Sudoku for HDDL" and compares the engines.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(ios.Out)
	root.SetErr(ios.Err)
	root.SetIn(ios.In)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{fmt.Errorf("%w\nrun '%s --help' for usage", err, c.CommandPath())}
	})
	root.AddCommand(newCmdParse(ios))
	root.AddCommand(newCmdGround(ios))
	root.AddCommand(newCmdPlan(ios))
	root.AddCommand(newCmdVerify(ios))
	root.AddCommand(newCmdCNF(ios))
	root.AddCommand(newCmdDecode(ios))
	root.AddCommand(newCmdCompare(ios))
	root.AddCommand(newCmdSudoku(ios))
	root.AddCommand(newCmdIPC(ios))
	return root
}

// run executes the command line and returns the process exit code.
func run(ctx context.Context, args []string, ios *ioStreams) int {
	root := newRootCmd(ios)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(ios.Err, "htnsat: %v\n", err)
	var ue *usageError
	var ee *exitError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return exitTimeout
	}
	if isArgError(err) {
		return exitUsage
	}
	return exitFailure
}

// exactArgs is cobra.ExactArgs with an error that run recognises as a
// usage error.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return &usageError{fmt.Errorf("%w\nusage: %s", err, cmd.UseLine())}
		}
		return nil
	}
}

func isArgError(err error) bool {
	// cobra reports unknown commands with this text
	return err != nil && len(err.Error()) > 15 && err.Error()[:15] == "unknown command"
}
