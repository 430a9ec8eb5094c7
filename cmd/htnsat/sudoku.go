package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
	"github.com/htnsat/htnsat/sudoku/variant"
	"github.com/spf13/cobra"
)

// paperPuzzle is the example puzzle of "Planning Sudoku for HDDL" (Fig. 1).
const paperPuzzle = "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."

func newCmdSudoku(ios *ioStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use: "sudoku",
		Example: `  htnsat sudoku solve
  htnsat sudoku solve -f sudoku/sets/9x9/top95.txt --line`,
		Short: "Sudoku end to end: HDDL generation, solving by every engine, direct SAT baseline",
	}
	cmd.AddCommand(newCmdSudokuDomain(ios), newCmdSudokuHDDL(ios), newCmdSudokuSolve(ios), newCmdSudokuHint(ios), newCmdSudokuRate(ios), newCmdSudokuVariant(ios), newCmdSudokuGenerate(ios))
	return cmd
}

func newCmdSudokuDomain(ios *ioStreams) *cobra.Command {
	var size int
	var output string
	cmd := &cobra.Command{
		Use:     "domain --size N",
		Example: `  htnsat sudoku domain --size 16 -o domain-16.hddl`,
		Short:   "Write the paper's Sudoku domain for N×N grids (N = 4, 9, 16, 25, 36, 49)",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			k, err := boxOfSize(size)
			if err != nil {
				return err
			}
			return writeFile(cmd.Context(), ios, output, func(w io.Writer) error { return sudoku.WriteDomain(w, k) })
		},
	}
	cmd.Flags().IntVar(&size, "size", 9, "grid size N")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

// boxOfSize is the box side k of a --size N grid (N = k²), or a usage
// error.
func boxOfSize(size int) (int, error) {
	for k := sudoku.MinBox; k <= sudoku.MaxBox; k++ {
		if k*k == size {
			return k, nil
		}
	}
	return 0, &usageError{fmt.Errorf("--size %d: the size must be k² for k = %d..%d (4, 9, 16, 25, 36, 49)", size, sudoku.MinBox, sudoku.MaxBox)}
}

func newCmdSudokuHDDL(ios *ioStreams) *cobra.Command {
	var style, output, name string
	cmd := &cobra.Command{
		Use: "hddl PUZZLE",
		Example: `  htnsat sudoku hddl --style ordered 345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3..
  echo ...3..4114..3... | htnsat sudoku hddl -`,
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
		Use: "solve [PUZZLE | -f FILE]",
		Example: `  # the paper's puzzle with every engine
  htnsat sudoku solve
  # a puzzle file, one engine, solutions on one line each
  htnsat sudoku solve --engine progression --line -f sudoku/sets/9x9/top95.txt
  # recorded answers (puzzle:count:solution) are checked
  htnsat sudoku solve --engine direct-sat -f sudoku/sets/9x9/with-solutions.txt
  # is the solution unique?
  htnsat sudoku solve --engine direct-sat --unique 4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........`,
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
	f.StringVar(&opts.engines, "engine", "all", "progression, htn-sat (or sat), direct-sat, auto, lazy, a comma-separated list, or all")
	f.StringVar(&opts.style, "style", "unordered", "initial task network of the HDDL problem: ordered (the paper's) or unordered")
	f.IntVar(&opts.count, "count", 0, "direct-sat: also count the solutions, up to this number (blocking each one found)")
	f.BoolVar(&opts.unique, "unique", false, "direct-sat: tell whether the solution is unique (--count 2)")
	f.BoolVar(&opts.line, "line", false, "print solutions in the one-line form")
	f.DurationVar(&opts.timeout, "timeout", 60*time.Second, "time limit per puzzle and engine")
	f.IntVar(&opts.limit, "limit", 0, "solve only the first N puzzles")
	f.StringVar(&opts.svg, "svg", "", "draw the puzzles and their solutions to this .svg or .png file (givens black, solved digits blue, a variant's clues as setters draw them; a sheet for several puzzles)")
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
	asPNG := false
	if opts.svg != "" {
		if asPNG, err = variant.PNGFile(opts.svg); err != nil {
			return &usageError{fmt.Errorf("--svg %w", err)}
		}
	}
	var puzzles []sudoku.Puzzle
	var variants []*variant.Puzzle
	unread := 0
	files := opts.files
	if len(args) == 1 && len(files) == 0 && isJSONFile(args[0]) {
		files, args = args, nil
	}
	var plain []string
	for _, f := range files {
		if !isJSONFile(f) {
			plain = append(plain, f)
			continue
		}
		// an f-puzzles file: a variant, solved with its rules
		v, err := variant.ReadFPuzzlesFile(ctx, f)
		if err != nil {
			return withCode(exitFailure, err)
		}
		if v.Title == "" {
			v.Title = filepath.Base(f)
		}
		variants = append(variants, v)
	}
	switch {
	case len(args) == 1 && len(files) > 0:
		return &usageError{errors.New("give a puzzle or -f FILE, not both")}
	case len(args) == 1:
		if puzzles, err = readPuzzleArg(ctx, ios, args[0]); err != nil {
			return withCode(exitFailure, err)
		}
	case len(plain) > 0:
		if puzzles, unread, err = readPuzzleFiles(ctx, ios, plain, opts.limit); err != nil {
			return err
		}
	case len(variants) > 0:
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
	j := judge{countLimit: eo.Count}
	var pics []variant.Picture
	type job struct {
		p sudoku.Puzzle
		v *variant.Puzzle
	}
	var jobs []job
	for _, p := range puzzles {
		jobs = append(jobs, job{p: p})
	}
	for _, v := range variants {
		jobs = append(jobs, job{p: sudoku.Puzzle{Grid: v.Grid, Name: v.Title, SolutionCount: -1}, v: v})
	}
	if opts.svg != "" {
		// the sheet must fit before anything is solved
		var blank []variant.Picture
		for _, jb := range jobs {
			pic := variant.Classic(jb.p.Name, jb.p.Grid, nil)
			if jb.v != nil {
				pic.Puzzle = jb.v
			}
			blank = append(blank, pic)
		}
		if err := variant.CheckSheet(blank, 3, asPNG); err != nil {
			return &usageError{fmt.Errorf("--svg %s: %w", opts.svg, err)}
		}
	}
	for _, jb := range jobs {
		p := jb.p
		veo := eo
		veo.Variant = jb.v
		var runs []compare.Run
		for _, e := range engines {
			if err := ctx.Err(); err != nil {
				return failure(plan.WithCause(ctx, err))
			}
			pctx, cancel := withTimeout(ctx, opts.timeout)
			runs = append(runs, compare.RunEngine(pctx, p, e, veo))
			cancel()
		}
		printSolve(ios.Out, p, runs, opts.line, eo.Count)
		if disagreed := j.add(ios.Err, p, runs); !disagreed && eo.Count == 0 {
			// not asked to count: count up to what tells a second
			// solution, or the count the file records, apart
			pctx, cancel := withTimeout(ctx, opts.timeout)
			j.checkCount(pctx, ios.Err, p, jb.v, runs, veo)
			cancel()
		}
		pic := variant.Classic(p.Name, p.Grid, nil)
		if jb.v != nil {
			pic.Puzzle = jb.v // drawn with its clues
		}
		for i := range runs {
			if runs[i].Verified {
				pic.Solution = &runs[i].Solution
				break
			}
		}
		pics = append(pics, pic)
	}
	if opts.svg != "" {
		if err := writeFile(ctx, ios, opts.svg, func(w io.Writer) error { return variant.WriteSheet(w, pics, 3, asPNG) }); err != nil {
			return withCode(exitFailure, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return failure(plan.WithCause(ctx, err))
	}
	if err := j.exit(); err != nil {
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

// isJSONFile reports whether a puzzle file is in the f-puzzles JSON layout:
// its name ends in .json, or it starts with "{".
func isJSONFile(path string) bool {
	if strings.HasSuffix(strings.ToLower(path), ".json") {
		return true
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 512)
	n, _ := f.Read(b)
	t := strings.TrimLeft(string(b[:n]), "\uFEFF \t\r\n")
	return strings.HasPrefix(t, "{")
}

// judge tells how the runs of a set of puzzles ended, against the answers
// the puzzle files record ("puzzle:count:solution"): a run agrees when it
// finds the recorded solution (any solution, when several are recorded) or
// proves that there is none when none is recorded.
type judge struct {
	countLimit                         int // --count: solutions counted up to this
	runs, timedOut, unsolved, disagree int
}

// add judges the runs of one puzzle and tells each disagreement, with the
// puzzle's file and line, on w.
func (j *judge) add(w io.Writer, p sudoku.Puzzle, runs []compare.Run) (disagreed bool) {
	for _, r := range runs {
		j.runs++
		if msg := disagreement(p, r, j.countLimit); msg != "" {
			j.disagree++
			disagreed = true
			fmt.Fprintf(w, "%s: %s: %s\n", p.Source, r.Engine, msg)
			continue
		}
		switch {
		case r.Status.ExitCode() == exitTimeout:
			j.timedOut++
		case r.Status == plan.Unsolvable && p.SolutionCount == 0:
			// as recorded: no solution
		case r.Status != plan.Solved || !r.Verified:
			j.unsolved++
		}
	}
	return disagreed
}

// disagreement says how run r contradicts the answer p records, or ""
// (limit: the count asked, r.Solutions counts up to it).
func disagreement(p sudoku.Puzzle, r compare.Run, limit int) string {
	switch {
	case p.SolutionCount < 0:
		return "" // nothing recorded
	case p.SolutionCount == 0 && r.Verified:
		return "found a solution, the file records none: " + r.Solution.Line()
	case p.SolutionCount > 0 && r.Status == plan.Unsolvable:
		return fmt.Sprintf("found no solution, the file records %d", p.SolutionCount)
	case p.SolutionCount == 1 && p.Solution != nil && r.Verified && r.Solution.Line() != p.Solution.Line():
		return "found " + r.Solution.Line() + ", the file records " + p.Solution.Line()
	case r.Solutions > 0 && r.Solutions != min(p.SolutionCount, limit):
		return fmt.Sprintf("counted %d solutions (up to %d), the file records %d", r.Solutions, limit, p.SolutionCount)
	}
	return ""
}

// checkCount counts the solutions of a puzzle one of its runs solved, up
// to one more than the file records (at least 2; a variant by direct SAT,
// a classic puzzle by search): a puzzle with several solutions is told (a
// warning), and a count the file records that the puzzle does not have is
// a disagreement, as a recorded solution is. A count that runs out of time
// says nothing.
func (j *judge) checkCount(ctx context.Context, w io.Writer, p sudoku.Puzzle, v *variant.Puzzle, runs []compare.Run, eo compare.Options) {
	var sol *sudoku.Grid
	for i := range runs {
		if runs[i].Verified {
			sol = &runs[i].Solution
			break
		}
	}
	if sol == nil {
		return
	}
	limit := min(max(2, p.SolutionCount+1), MaxRecordedCount)
	var n int
	if v != nil {
		res, err := variant.Solve(ctx, v, eo.SAT.Solver, limit)
		if err != nil {
			return
		}
		n = res.Solutions
	} else {
		// search maintaining GAC counts hundreds of solutions in
		// milliseconds, where re-solving with each blocked takes seconds
		res, err := csp.NewModel(p.Grid.Box).Search(ctx, p.Grid, limit, csp.GACAll)
		if err != nil {
			return
		}
		n = res.Solutions
	}
	switch {
	case p.SolutionCount >= 0 && n != min(p.SolutionCount, limit):
		j.disagree++
		fmt.Fprintf(w, "%s: counted %d solutions (up to %d), the file records %d\n", p.Source, n, limit, p.SolutionCount)
	case n > 1:
		fmt.Fprintf(w, "%s: warning: the puzzle has more than one solution (%d found, counting up to %d)\n", p.Source, n, limit)
	}
}

// MaxRecordedCount bounds the solutions counted to check a recorded count.
const MaxRecordedCount = 1000

// exit is the command's exit: 1 when a run disagreed with its file, 3
// when one ran out of time, 1 when one found no verified answer, 0 when
// every run solved its puzzle or agreed with the answer recorded.
func (j *judge) exit() error {
	switch {
	case j.disagree > 0:
		return withCode(exitFailure, fmt.Errorf("%d of %d runs disagree with the answers the files record (see above)", j.disagree, j.runs))
	case j.timedOut > 0:
		return withCode(exitTimeout, fmt.Errorf("%d runs ran out of time", j.timedOut))
	case j.unsolved > 0:
		return withCode(exitFailure, fmt.Errorf("%d runs found no verified solution", j.unsolved))
	}
	return nil
}
