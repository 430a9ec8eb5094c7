package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/htnsat/htnsat/internal/atomicfile"
	"github.com/htnsat/htnsat/internal/memguard"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// withCode attaches an exit code to err, unless err carries one already
// (the code of the first error that knew why, such as an interrupt while
// reading, is the one that counts).
func withCode(code int, err error) error {
	var ee *exitError
	if err == nil || errors.As(err, &ee) {
		return err
	}
	return &exitError{code: code, err: err}
}

type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }

// catchSignals makes every command that runs end its work on Ctrl-C or
// SIGTERM as on a timeout; main sets it (tests calling run do not).
var catchSignals bool

// afterSignal is how long a command may take to end after Ctrl-C or
// SIGTERM (every stage stops within half a second; what is left is
// writing what was done) before the watchdog ends the process.
const afterSignal = 5 * time.Second

// watchdog waits for the first Ctrl-C or SIGTERM (ctx's end) and hands
// the signals back to the system, so that a second one ends the process
// at once; and if the command has not finished afterSignal later, it
// removes the temporary files of the writes under way and exits with
// the code of an interrupt. A stage that failed to look at its context
// costs seconds, not a process that cannot be stopped.
func watchdog(ctx context.Context, finished <-chan struct{}, unsignal func(), errw io.Writer) {
	select {
	case <-finished:
		return
	case <-ctx.Done():
	}
	unsignal()
	select {
	case <-finished:
	case <-time.After(afterSignal):
		fmt.Fprintf(errw, "htnsat: interrupted: still running %s after the signal; exiting\n", afterSignal)
		atomicfile.RemoveTemps()
		os.Exit(exitTimeout)
	}
}

// DefaultMaxMemoryMB is the default of --max-memory.
const DefaultMaxMemoryMB = 8192

// rootOptions are the flags every command shares.
type rootOptions struct {
	maxMemoryMB int64
	quiet       bool
	stopGuard   func()
	ctx         context.Context // the running command's, under its guards
	tracker     *progress.Tracker
}

// showsProgress are the commands that show their progress on a terminal
// (one run each; compare and ipc print their own).
var showsProgress = map[string]bool{"plan": true, "ground": true, "cnf": true, "decode": true, "verify": true, "parse": true}

func newRootCmd(ios *ioStreams, ro *rootOptions) *cobra.Command {
	root := &cobra.Command{
		Use:   "htnsat",
		Short: "HTN planning with HDDL: parse, ground, plan by progression or SAT, and solve Sudoku",
		Long: `htnsat reads HDDL domains and problems, grounds them, and plans either by
progression search or by compiling to SAT. It solves Sudoku puzzles end to end
through the HDDL model of "Planning Sudoku for HDDL" and compares the engines.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
		Example: `  htnsat sudoku solve
  htnsat plan domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl
  htnsat compare -f sudoku/sets/9x9/top95.txt
  htnsat COMMAND --help`,
	}
	root.SetUsageFunc(usage)
	root.SetOut(ios.Out)
	root.SetErr(ios.Err)
	root.SetIn(ios.In)
	root.PersistentFlags().Int64Var(&ro.maxMemoryMB, "max-memory", DefaultMaxMemoryMB, "stop any stage, with status memory, once the heap or the resident memory (linked solvers included) passes this many MiB (0: no limit)")
	root.PersistentFlags().BoolVarP(&ro.quiet, "quiet", "q", false, "no progress line on a terminal's standard error (plan, ground, cnf, decode, verify, parse show the stage, the time and the search's counters there after a second)")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if err := checkFlags(cmd); err != nil {
			return err
		}
		ctx, unsignal := cmd.Context(), func() {}
		finished := make(chan struct{})
		if catchSignals {
			// only a command that runs: help and usage errors start
			// 0.4 ms sooner without the signal goroutine and its thread
			ctx, unsignal = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			go watchdog(ctx, finished, unsignal, ios.Err)
		}
		ctx, stop := memguard.Start(ctx, ro.maxMemoryMB<<20)
		ro.tracker = progress.New()
		ctx = progress.With(ctx, ro.tracker)
		cmd.SetContext(ctx)
		ro.ctx = ctx
		unshow := func() {}
		if !ro.quiet && showsProgress[cmd.Name()] && isTerminal(ios.Err) {
			unshow = ro.tracker.Show(ios.Err, time.Second)
		}
		// Many small runs in one process (compare, ipc, serve) collect
		// far less often under a floor; a quarter of the memory limit
		// at most, so the limit still leaves the collector room.
		floor := int64(memguard.DefaultFloor)
		if lim := ro.maxMemoryMB << 20; lim > 0 {
			floor = min(floor, lim/4)
		}
		unfloor := memguard.Floor(floor)
		ro.stopGuard = func() { unshow(); close(finished); unfloor(); stop(); unsignal() }
		return nil
	}
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
	root.AddCommand(newCmdServe(ios))
	return root
}

// run executes the command line and returns the process exit code: 0
// success, 2 a bad command line, and otherwise the exit code of the
// error's status (plan.Status.ExitCode): 3 for a timeout or an interrupt,
// 1 for anything else, a failed write to the standard output included.
func run(ctx context.Context, args []string, ios *ioStreams) int {
	out := &checkedWriter{w: ios.Out}
	ios = &ioStreams{In: ios.In, Out: out, Err: ios.Err}
	ro := &rootOptions{stopGuard: func() {}}
	root := newRootCmd(ios, ro)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	ro.stopGuard()
	err = withGuardCause(ro.ctx, err)
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the output: %w", out.err)
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(ios.Err, "htnsat: %s\n", describe(ro.tracker, err))
	var ue *usageError
	var ee *exitError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &ee):
		return ee.code
	case isArgError(err):
		return exitUsage
	}
	return statusOf(ro.tracker, err).ExitCode()
}

// statusOf is the status of err: plan.StatusOf, except that a run
// stopped early for its exit's reserve is out of time (a context derived
// from the stopped one says cancelled, and the status said interrupted).
func statusOf(t *progress.Tracker, err error) plan.Status {
	if t.RanOutOfTime() && errors.Is(err, context.Canceled) {
		return plan.Timeout
	}
	return plan.StatusOf(err)
}

// describe is the message of err: a run out of time says when and where
// (the stage and its counters), not "context deadline exceeded".
func describe(t *progress.Tracker, err error) string {
	msg := err.Error()
	ctxErr := context.DeadlineExceeded
	if t.RanOutOfTime() && errors.Is(err, context.Canceled) {
		ctxErr = context.Canceled // stopped early for the exit: out of time
	}
	if t == nil || !errors.Is(err, ctxErr) {
		return msg
	}
	if rest, ok := strings.CutSuffix(msg, ctxErr.Error()); ok {
		return rest + t.OutOfTime()
	}
	return msg
}

// withGuardCause tells that the memory guard stopped a command that
// failed with a bare context error (every stage returns ctx.Err(); the
// guard set the cause): status memory, exit 1, and the guard's message,
// not "context canceled" and the exit code of an interrupt.
func withGuardCause(ctx context.Context, err error) error {
	if ctx == nil || err == nil || ctx.Err() == nil {
		return err
	}
	c := context.Cause(ctx)
	if !errors.Is(c, plan.ErrMemory) || errors.Is(err, plan.ErrMemory) || !errors.Is(err, context.Canceled) {
		return err
	}
	if err.Error() != context.Canceled.Error() {
		c = fmt.Errorf("%s: %w", strings.TrimSuffix(err.Error(), ": "+context.Canceled.Error()), c)
	}
	return withCode(plan.StatusOf(c).ExitCode(), c)
}

// checkedWriter remembers the first error of its writes: a command that
// printed its result to a full disk has failed, whatever else it did.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
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

// rangeArgs is cobra.RangeArgs with an error that run recognises as a
// usage error.
func rangeArgs(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.RangeArgs(lo, hi)(cmd, args); err != nil {
			return &usageError{fmt.Errorf("%w\nusage: %s", err, cmd.UseLine())}
		}
		return nil
	}
}

func isArgError(err error) bool {
	// cobra reports unknown commands with this text
	return err != nil && len(err.Error()) > 15 && err.Error()[:15] == "unknown command"
}

// flagsIn is the help text of the flags of fs in a group ("" for the
// command's own), hidden ones left out.
func flagsIn(fs *pflag.FlagSet, group string) string {
	out := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.VisitAll(func(f *pflag.Flag) {
		g := ""
		if a := f.Annotations[groupAnnotation]; len(a) > 0 {
			g = a[0]
		}
		if g == group && !f.Hidden {
			out.AddFlag(f)
		}
	})
	return strings.TrimRight(out.FlagUsages(), " \n")
}

// usage prints a command's usage as cobra's default does, with the engine
// flags listed apart from the command's own. It is Go code, not a
// template: executing a template links reflection that keeps every
// method of the binary (2.4 MB more, and a slower start).
func usage(c *cobra.Command) error {
	w := c.OutOrStderr()
	fmt.Fprint(w, "Usage:")
	if c.Runnable() {
		fmt.Fprintf(w, "\n  %s", c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\n  %s [command]", c.CommandPath())
	}
	if c.HasExample() {
		fmt.Fprintf(w, "\n\nExamples:\n%s", c.Example)
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprint(w, "\n\nAvailable Commands:")
		pad := 0
		for _, s := range c.Commands() {
			pad = max(pad, len(s.Name()))
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				fmt.Fprintf(w, "\n  %-*s %s", pad, s.Name(), s.Short)
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		if own := flagsIn(c.LocalFlags(), ""); own != "" {
			fmt.Fprintf(w, "\n\nFlags:\n%s", own)
		}
		if eng := flagsIn(c.LocalFlags(), "engine"); eng != "" {
			fmt.Fprintf(w, "\n\nEngine flags (the search and the SAT encoding; docs/how-it-works.md):\n%s", eng)
		}
	}
	if c.HasAvailableInheritedFlags() {
		fmt.Fprintf(w, "\n\nGlobal Flags:\n%s", strings.TrimRight(c.InheritedFlags().FlagUsages(), " \n"))
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\n\nUse \"%s [command] --help\" for more information about a command.", c.CommandPath())
	}
	fmt.Fprintln(w)
	return nil
}
