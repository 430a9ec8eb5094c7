package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/spf13/cobra"
)

// paperPuzzle is the example puzzle of "Planning Sudoku for HDDL" (Fig. 1).
const paperPuzzle = "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."

func newCmdSudoku(ios *ioStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sudoku",
		Short: "Sudoku end to end: HDDL generation, solving by every engine, direct SAT baseline",
	}
	cmd.AddCommand(newCmdSudokuDomain(ios), newCmdSudokuHDDL(ios), newCmdSudokuSolve(ios), newCmdSudokuHint(ios), newCmdSudokuRate(ios), newCmdSudokuVariant(ios))
	return cmd
}

func newCmdSudokuDomain(ios *ioStreams) *cobra.Command {
	var size int
	var output string
	cmd := &cobra.Command{
		Use:   "domain --size N",
		Short: "Write the paper's Sudoku domain for N×N grids (N = 4, 9, 16, 25, 36)",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			k := 0
			for kk := sudoku.MinBox; kk <= sudoku.MaxBox; kk++ {
				if kk*kk == size {
					k = kk
				}
			}
			if k == 0 {
				return &usageError{fmt.Errorf("--size %d: the size must be k² for k = %d..%d (4, 9, 16, 25, 36)", size, sudoku.MinBox, sudoku.MaxBox)}
			}
			return writeFile(cmd.Context(), ios, output, func(w io.Writer) error { return sudoku.WriteDomain(w, k) })
		},
	}
	cmd.Flags().IntVar(&size, "size", 9, "grid size N")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

func newCmdSudokuHDDL(ios *ioStreams) *cobra.Command {
	var style, output, name string
	cmd := &cobra.Command{
		Use:   "hddl PUZZLE",
		Short: "Write the HDDL problem of a puzzle for the paper's domain",
		Long: `Write the HDDL problem of a puzzle: the grid structure and the givens as initial
facts, one fill-cell task per blank cell with its digit a free variable of the
initial task network, then all-check. --style ordered is the paper's (fill
tasks in row-major order); unordered leaves them unordered, all-check last.
PUZZLE is the puzzle in any form the reader accepts, or "-" for stdin.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := sudoku.ParseStyle(style)
			if err != nil {
				return &usageError{err}
			}
			if err := sudoku.CheckName(name); err != nil {
				return &usageError{fmt.Errorf("--name: %w", err)}
			}
			ps, err := readPuzzleArg(cmd.Context(), ios, args[0])
			if err != nil {
				return withCode(exitFailure, err)
			}
			if len(ps) != 1 {
				return withCode(exitFailure, fmt.Errorf("%d puzzles where one was expected", len(ps)))
			}
			return writeFile(cmd.Context(), ios, output, func(w io.Writer) error { return sudoku.WriteProblem(w, ps[0].Grid, st, name) })
		},
	}
	cmd.Flags().StringVar(&style, "style", "ordered", "ordered (the paper's) or unordered")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	cmd.Flags().StringVar(&name, "name", "sudoku", "problem name")
	return cmd
}

// readPuzzleArg reads puzzles from an argument: a puzzle, "-" for the
// standard input, or the name of a puzzle file.
func readPuzzleArg(ctx context.Context, ios *ioStreams, arg string) ([]sudoku.Puzzle, error) {
	if arg == "-" {
		ps, errs := sudoku.ReadContext(ctx, ios.In, "stdin", 0)
		if ctx.Err() != nil {
			return nil, stoppedReading(ctx, errs)
		}
		if len(ps) == 0 && len(errs) == 0 {
			return nil, errors.New("stdin: no puzzle (the input is empty)")
		}
		return ps, errors.Join(errs...)
	}
	p, err := sudoku.ParsePuzzle(arg)
	if err != nil {
		if st, serr := os.Stat(arg); serr == nil && !st.IsDir() {
			// a file named where a puzzle was expected: read it
			ps, _, err := readPuzzleFiles(ctx, ios, []string{arg}, 0)
			return ps, err
		}
		return nil, err
	}
	return []sudoku.Puzzle{p}, nil
}

// readPuzzleFiles reads the puzzles of the files, at most limit (0: all),
// telling unreadable lines on stderr (sudoku.MaxErrors a file, then their
// count) and how ambiguous ones were read; unread is the number of lines
// that could not be read. It fails if nothing could be read, or when ctx
// ends.
func readPuzzleFiles(ctx context.Context, ios *ioStreams, files []string, limit int) (all []sudoku.Puzzle, unread int, err error) {
	for _, f := range files {
		left := 0
		if limit > 0 {
			if left = limit - len(all); left <= 0 {
				break
			}
		}
		ps, errs := sudoku.ReadFile(ctx, f, left)
		if ctx.Err() != nil {
			return nil, 0, stoppedReading(ctx, errs)
		}
		for _, e := range errs {
			fmt.Fprintln(ios.Err, e)
			var le *sudoku.LineError
			if errors.As(e, &le) && le.More > 0 {
				unread += le.More
			} else {
				unread++
			}
		}
		notes := 0
		for _, p := range ps {
			if p.Note != "" {
				notes++
			}
		}
		if notes > 0 {
			fmt.Fprintf(ios.Err, "%s: %d puzzles %s\n", f, notes, sudoku.LettersOnly)
		}
		all = append(all, ps...)
	}
	if len(all) == 0 {
		return nil, unread, withCode(exitFailure, fmt.Errorf("no puzzle could be read (%d lines could not)", unread))
	}
	return all, unread, nil
}

// stoppedReading is the error of a read that ctx stopped: the reader's
// last error (which says where it stopped: no writer on a pipe, a line)
// with the exit code of a timeout or an interrupt.
func stoppedReading(ctx context.Context, errs []error) error {
	err := context.Cause(ctx)
	if len(errs) > 0 {
		err = errs[len(errs)-1]
	}
	return withCode(plan.StatusOf(err).ExitCode(), err)
}

// unreadError is the failure of a command that ran the puzzles it could
// read but not some lines of its files (told above).
func unreadError(unread int) error {
	if unread == 0 {
		return nil
	}
	return withCode(exitFailure, fmt.Errorf("%d lines of the puzzle files could not be read (see above)", unread))
}

type solveOptions struct {
	files   []string
	engines string
	style   string
	unique  bool
	count   int
	line    bool
	timeout time.Duration
	limit   int
	svg     string
	engine  engineFlags
}

func newCmdSudokuSolve(ios *ioStreams) *cobra.Command {
	opts := &solveOptions{}
	cmd := &cobra.Command{
		Use:   "solve [PUZZLE | -f FILE]",
		Short: "Solve puzzles with the progression planner, the HTN-to-SAT compiler and the direct SAT encoding",
		Long: `Solve each puzzle with the chosen engines and print the solved grid (or its
one-line form with --line), the time of each stage per engine and whether the
solution is verified. With no argument it solves the paper's puzzle with the
embedded domain. An engine that runs out of time is reported as such.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSudokuSolve(cmd.Context(), ios, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.files, "file", "f", nil, "read the puzzles of this file (repeatable)")
	f.StringVar(&opts.engines, "engine", "all", "progression, htn-sat, direct-sat, a comma-separated list, or all")
	f.StringVar(&opts.style, "style", "unordered", "initial task network of the HDDL problem: ordered (the paper's) or unordered")
	f.IntVar(&opts.count, "count", 0, "direct-sat: also count the solutions, up to this number (blocking each one found)")
	f.BoolVar(&opts.unique, "unique", false, "direct-sat: tell whether the solution is unique (--count 2)")
	f.BoolVar(&opts.line, "line", false, "print solutions in the one-line form")
	f.DurationVar(&opts.timeout, "timeout", 60*time.Second, "time limit per puzzle and engine")
	f.IntVar(&opts.limit, "limit", 0, "solve only the first N puzzles")
	f.StringVar(&opts.svg, "svg", "", "draw the solved grids to this SVG file (givens black, filled digits blue; a sheet for several puzzles)")
	opts.engine.register(f)
	return cmd
}

func runSudokuSolve(ctx context.Context, ios *ioStreams, opts *solveOptions, args []string) error {
	engines, err := compare.ParseEngines(opts.engines)
	if err != nil {
		return &usageError{err}
	}
	style, err := sudoku.ParseStyle(opts.style)
	if err != nil {
		return &usageError{err}
	}
	var puzzles []sudoku.Puzzle
	unread := 0
	switch {
	case len(args) == 1 && len(opts.files) > 0:
		return &usageError{errors.New("give a puzzle or -f FILE, not both")}
	case len(args) == 1:
		if puzzles, err = readPuzzleArg(ctx, ios, args[0]); err != nil {
			return withCode(exitFailure, err)
		}
	case len(opts.files) > 0:
		if puzzles, unread, err = readPuzzleFiles(ctx, ios, opts.files, opts.limit); err != nil {
			return err
		}
	default:
		p, _ := sudoku.ParsePuzzle(paperPuzzle)
		p.Name = "paper"
		puzzles = []sudoku.Puzzle{p}
	}
	eo, err := opts.engine.compare()
	if err != nil {
		return err
	}
	eo.Style = style
	if eo.Count, err = countOption(opts.count, opts.unique); err != nil {
		return err
	}
	var all []compare.Run
	var pics []sudoku.Picture
	for _, p := range puzzles {
		var runs []compare.Run
		for _, e := range engines {
			if err := ctx.Err(); err != nil {
				return failure(plan.WithCause(ctx, err))
			}
			pctx, cancel := withTimeout(ctx, opts.timeout)
			runs = append(runs, compare.RunEngine(pctx, p, e, eo))
			cancel()
		}
		printSolve(ios.Out, p, runs, opts.line, eo.Count)
		all = append(all, runs...)
		pic := sudoku.Picture{Title: p.Name, Puzzle: p.Grid}
		for i := range runs {
			if runs[i].Verified {
				pic.Solution = &runs[i].Solution
				break
			}
		}
		pics = append(pics, pic)
	}
	if opts.svg != "" {
		if err := writeFile(ctx, ios, opts.svg, func(w io.Writer) error { return sudoku.WriteSheetSVG(w, pics, 3) }); err != nil {
			return withCode(exitFailure, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return failure(plan.WithCause(ctx, err))
	}
	if err := runsExit(all); err != nil {
		return err
	}
	return unreadError(unread)
}

// printSolve prints a puzzle's solution and its runs (countLimit: the
// --count asked, to tell "N or more" solutions from exactly N).
func printSolve(w io.Writer, p sudoku.Puzzle, runs []compare.Run, line bool, countLimit int) {
	var sol *sudoku.Grid
	for i := range runs {
		if runs[i].Verified && sol == nil {
			sol = &runs[i].Solution
		}
	}
	if line {
		out := "no solution"
		if sol != nil {
			out = sol.Line()
		}
		fmt.Fprintf(w, "%s %s\n", p.Line(), out)
	} else {
		fmt.Fprintf(w, "%s: %d×%d, %d givens\n", p.Name, p.Size(), p.Size(), p.Givens())
		if sol != nil {
			fmt.Fprint(w, sol.String())
		}
	}
	fmt.Fprintf(w, "  %-12s %-10s %-8s %9s", "engine", "status", "verified", "total")
	for _, s := range compare.Stages {
		fmt.Fprintf(w, " %8s", s)
	}
	fmt.Fprintf(w, "  %s\n", "size")
	for _, r := range runs {
		ver := "no"
		if r.Verified {
			ver = "yes"
		}
		fmt.Fprintf(w, "  %-12s %-10s %-8s %9s", r.Engine, r.Status, ver, ms(r.Total))
		for _, s := range compare.Stages {
			if d, ok := r.Stages[s]; ok {
				fmt.Fprintf(w, " %8s", ms(d))
			} else {
				fmt.Fprintf(w, " %8s", "-")
			}
		}
		size := ""
		switch {
		case r.Engine == compare.Progression:
			size = fmt.Sprintf("%d nodes", r.Nodes)
		case r.Vars > 0:
			size = fmt.Sprintf("%d vars, %d clauses", r.Vars, r.Clauses)
		}
		switch {
		case r.Solutions == 1:
			size += ", 1 solution"
		case r.Solutions > 1 && r.Solutions == countLimit:
			size += fmt.Sprintf(", %d or more solutions", r.Solutions)
		case r.Solutions > 1:
			size += fmt.Sprintf(", %d solutions", r.Solutions)
		}
		fmt.Fprintf(w, "  %s\n", size)
		if r.Error != "" {
			fmt.Fprintf(w, "    %s\n", r.Error)
		}
	}
	if !line {
		fmt.Fprintln(w)
	}
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2fms", d.Seconds()*1000)
}
