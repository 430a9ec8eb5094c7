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

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/internal/report"
	"github.com/htnsat/htnsat/internal/slurm"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
	"github.com/htnsat/htnsat/sudoku/variant"
)

type compareOptions struct {
	files   []string
	engines string
	style   string
	limit   int
	timeout time.Duration
	jobs    int
	csv     string
	json    string
	plot    string
	md      string
	unique  bool
	count   int
	rate    bool
	process bool
	engine  engineFlags
	// engineSet holds the engine flags alone, so that --process can pass
	// on those given.
	engineSet  *pflag.FlagSet
	enginesSet bool
	slurmFlags // on a Slurm cluster (--process runs)
}

func newCmdCompare(ios *ioStreams) *cobra.Command {
	opts := &compareOptions{}
	cmd := &cobra.Command{
		Use: "compare [-f PUZZLES]...",
		Example: `  # every engine on the embedded puzzles of each size
  htnsat compare
  # the HTN engines over a standard set, one row per run in a CSV, a plot
  htnsat compare -f sudoku/sets/9x9/top95.txt --engine progression,htn-sat --csv top95.csv --plot top95.svg
  # each run as a process of its own, as planners that read HDDL are run
  htnsat compare -f sudoku/sets/9x9/hardest.txt --style ordered --process`,
		Short: "Run every engine over a puzzle set, stage by stage, and report",
		Long: `Run the progression planner, the HTN-to-SAT compiler and the direct SAT
encoding over a puzzle set and compare them: for each puzzle and engine the time
of each stage (parse, ground, encode, solve, decode, verify), search nodes or
SAT variables and clauses, heap bytes allocated, status and whether the solution
is verified. Prints a summary per grid size and engine (solved, median, 90th
percentile and maximum time, median share of each stage); --csv and --json
write one row per puzzle and engine; --plot draws a cactus plot and the stage
times (SVG or PNG, by extension).

With no -f, runs the paper's puzzle and a small embedded sample of each size
(4, 9, 16, 25) with all engines.

--process runs the HTN engines the way planners that read HDDL are run: each
puzzle's domain and problem are written to files, and each engine is a new
process of this binary ("htnsat plan --engine progression|sat" on them, with
the engine flags given here), timed from its start to its exit; its plan is
read back and its grid checked. The peak column is then the process's peak
resident memory.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.enginesSet = cmd.Flags().Changed("engine") || cmd.Flags().Changed("engines")
			switch {
			case opts.task != "":
				if _, err := slurm.TaskID(); err != nil {
					return &usageError{fmt.Errorf("--slurm-task: %w", err)}
				}
				return failure(compare.RunTask(cmd.Context(), opts.task, opts.submission, opts.perTask))
			case opts.collect != "":
				return runCompareCollect(cmd.Context(), ios, opts)
			case opts.slurm != "":
				return submitCompare(cmd.Context(), ios, opts)
			}
			return runCompare(cmd.Context(), ios, opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.files, "file", "f", nil, "puzzle file (repeatable); default: the embedded sample")
	f.StringVar(&opts.engines, "engine", "all", "progression, htn-sat (or sat), direct-sat, auto, lazy, a comma-separated list, or all")
	f.StringVar(&opts.engines, "engines", "all", "the same as --engine")
	f.MarkHidden("engines")
	f.StringVar(&opts.style, "style", "unordered", "initial task network of the HDDL problems: ordered (the paper's) or unordered")
	f.IntVar(&opts.limit, "limit", 0, "only the first N puzzles")
	f.DurationVar(&opts.timeout, "timeout", 60*time.Second, "time limit per puzzle and engine")
	f.IntVar(&opts.jobs, "jobs", 1, "puzzles solved in parallel (1 keeps timings undisturbed)")
	capFlag(f, "jobs", maxParallel)
	f.StringVar(&opts.csv, "csv", "", "write one row per puzzle and engine to this CSV file")
	f.StringVar(&opts.json, "json", "", "write the rows to this JSON file")
	f.StringVar(&opts.plot, "plot", "", "draw the plots into this .svg or .png file")
	f.StringVar(&opts.md, "markdown", "", "write the summary as a Markdown table to this file")
	f.IntVar(&opts.count, "count", 0, "direct-sat: also count the solutions, up to this number (blocking each one found)")
	f.BoolVar(&opts.unique, "unique", false, "direct-sat: tell whether the solution is unique (--count 2)")
	f.BoolVar(&opts.rate, "rate", false, "rate each puzzle (sudoku rate) first: a rating column, and the median time per rating")
	f.BoolVar(&opts.process, "process", false, "run each puzzle and HTN engine as a process of its own on HDDL files (htnsat plan), timed from start to exit")
	opts.slurmFlags.register(f, "--process on a Slurm cluster: write the runs as an experiment into this folder and submit it as a job array", "1024")
	opts.engineSet = pflag.NewFlagSet("engine", pflag.ContinueOnError)
	opts.engine.register(opts.engineSet)
	f.AddFlagSet(opts.engineSet)
	return cmd
}

// ratePuzzles rates each puzzle (csp.Rate, outside the timed runs) when
// on; a rating that runs out of time is "timeout".
func ratePuzzles(ctx context.Context, puzzles []sudoku.Puzzle, on bool, timeout time.Duration) (map[string]string, error) {
	out := map[string]string{}
	if !on {
		return out, nil
	}
	models := map[int]*csp.Model{}
	for _, p := range puzzles {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := models[p.Box]
		if m == nil {
			m = csp.NewModel(p.Box)
			models[p.Box] = m
		}
		pctx, cancel := withTimeout(ctx, timeout)
		r, err := m.Rate(pctx, p.Grid)
		cancel()
		if err != nil {
			r.Level = string(plan.Timeout)
		}
		out[p.Name] = r.Level
	}
	return out, nil
}

func runCompare(ctx context.Context, ios *ioStreams, opts *compareOptions) error {
	engines, err := compare.ParseEngines(opts.engines)
	if err != nil {
		return &usageError{err}
	}
	if opts.process {
		if engines, err = processEngines(opts, engines); err != nil {
			return err
		}
	}
	style, err := sudoku.ParseStyle(opts.style)
	if err != nil {
		return &usageError{err}
	}
	eo, err := opts.engine.compare()
	if err != nil {
		return err
	}
	var plotFormat string
	if opts.plot != "" {
		if plotFormat, err = report.PlotFormat(opts.plot); err != nil {
			return &usageError{fmt.Errorf("--plot: %w", err)}
		}
	}
	// f-puzzles files (.json) are variant puzzles, each run with its rules
	var puzzles []sudoku.Puzzle
	var variants []*variant.Puzzle
	var plain []string
	unread := 0
	for _, f := range opts.files {
		if !strings.HasSuffix(f, ".json") {
			plain = append(plain, f)
			continue
		}
		v, err := variant.ReadFPuzzlesFile(ctx, f)
		if err != nil {
			return withCode(exitFailure, err)
		}
		variants = append(variants, v)
	}
	switch {
	case len(opts.files) == 0:
		puzzles = sudoku.Samples()
		if opts.limit > 0 && len(puzzles) > opts.limit {
			puzzles = puzzles[:opts.limit]
		}
	case len(plain) > 0:
		if puzzles, unread, err = readPuzzleFiles(ctx, ios, plain, opts.limit); err != nil {
			return err
		}
	}
	eo.Style = style
	if eo.Count, err = countOption(opts.count, opts.unique); err != nil {
		return err
	}
	co := compare.BatchOptions{Options: eo, Engines: engines, Timeout: opts.timeout, Jobs: opts.jobs}
	how := ""
	if opts.process {
		pr, cleanup, err := newProcess(opts)
		if err != nil {
			return err
		}
		defer cleanup()
		co.Process, how = pr, ", one process per run"
	}
	tty := isTerminal(ios.Err)
	start := time.Now()
	if tty {
		co.Progress = func(done, total int) {
			const width = 30
			n := width * done / total
			eta := ""
			if done > 0 && done < total {
				left := time.Duration(float64(time.Since(start)) / float64(done) * float64(total-done))
				eta = " eta " + left.Round(time.Second).String()
			}
			fmt.Fprintf(ios.Err, "\r[%s%s] %d/%d puzzles%s   ", strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total, eta)
		}
	}
	off := ""
	for _, o := range []struct {
		on   bool
		what string
	}{{opts.engine.noGroups, "no choice groups"}, {opts.engine.noMatching, "no matching"}, {opts.engine.noLocked, "no locked values"}, {opts.engine.noValBranch, "no value branching"}, {opts.engine.noReach, "no reach"}, {opts.engine.noProtect, "no protection"}, {opts.engine.noLastConf, "no last conflict"}, {opts.engine.noFold, "no compaction"}, {opts.engine.noRestarts, "no restarts"}, {opts.engine.noAhead, "no lookahead"}, {opts.engine.noConflicts, "no conflict weights"}} {
		if o.on {
			off += ", " + o.what
		}
	}
	fmt.Fprintf(ios.Out, "%d puzzles, engines %s, %s style%s, time limit %s each%s\n\n", len(puzzles)+len(variants), joinEngines(co.Engines), style, off, opts.timeout, how)
	ratings, err := ratePuzzles(ctx, puzzles, opts.rate, opts.timeout)
	if err != nil {
		return failure(plan.WithCause(ctx, err))
	}
	runs := compare.Batch(ctx, puzzles, co)
	// the answers the files record: a run that contradicts one is told
	disagree := 0
	for i, r := range runs {
		p := puzzles[i/len(co.Engines)]
		if msg := disagreement(p, r, co.Count); msg != "" {
			disagree++
			fmt.Fprintf(ios.Err, "%s: %s: %s\n", p.Source, r.Engine, msg)
		}
	}
	for i, v := range variants {
		vo := co
		vo.Options.Variant = v
		name := v.Title
		if name == "" {
			name = fmt.Sprintf("variant#%d", i+1)
		}
		runs = append(runs, compare.Batch(ctx, []sudoku.Puzzle{{Grid: v.Grid, Name: name}}, vo)...)
	}
	if tty {
		fmt.Fprintf(ios.Err, "\r%60s\r", "")
	}
	for i := range runs {
		runs[i].Rating = ratings[runs[i].Puzzle]
	}
	report.Summary(ios.Out, runs)
	report.ByRating(ios.Out, runs)
	fmt.Fprintf(ios.Out, "\n%d runs in %.1fs\n", len(runs), time.Since(start).Seconds())
	if opts.csv != "" {
		if err := writeFile(ctx, ios, opts.csv, func(w io.Writer) error { return report.WriteCSV(w, runs) }); err != nil {
			return err
		}
	}
	if opts.json != "" {
		if err := writeFile(ctx, ios, opts.json, func(w io.Writer) error { return report.WriteJSON(w, runs) }); err != nil {
			return err
		}
	}
	if opts.plot != "" {
		if err := writeFile(ctx, ios, opts.plot, func(w io.Writer) error { return report.Plot(w, plotFormat, runs) }); err != nil {
			return err
		}
	}
	if opts.md != "" {
		if err := writeFile(ctx, ios, opts.md, func(w io.Writer) error { report.SummaryMarkdown(w, runs); return nil }); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return withCode(exitTimeout, fmt.Errorf("interrupted after %d runs: %w", len(runs), err))
	}
	for _, r := range runs {
		if r.Status == plan.Failed {
			return withCode(exitFailure, fmt.Errorf("%s with %s: %s", r.Puzzle, r.Engine, r.Error))
		}
	}
	if disagree > 0 {
		return withCode(exitFailure, fmt.Errorf("%d runs disagree with the answers the files record (see above)", disagree))
	}
	return unreadError(unread)
}

// processEngines checks --process's command line: the HTN engines alone
// (by default both), no variant files.
func processEngines(opts *compareOptions, engines []compare.Engine) ([]compare.Engine, error) {
	if !opts.enginesSet {
		engines = []compare.Engine{compare.Progression, compare.HTNSAT}
	}
	for _, e := range engines {
		if e == compare.DirectSAT {
			return nil, &usageError{fmt.Errorf("--process runs the HTN engines (progression, htn-sat, auto), which read HDDL; direct-sat does not")}
		}
	}
	for _, f := range opts.files {
		if strings.HasSuffix(f, ".json") {
			return nil, &usageError{fmt.Errorf("--process: %s: variant puzzles run in process only", f)}
		}
	}
	return engines, nil
}

// newProcess sets up --process: this executable, the engine flags given,
// and a directory for the files, which cleanup removes.
func newProcess(opts *compareOptions) (*compare.Process, func(), error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "htnsat-compare-")
	if err != nil {
		return nil, nil, err
	}
	var args []string
	opts.engineSet.Visit(func(f *pflag.Flag) {
		v := f.Value.String()
		if f.Value.Type() == "stringToInt" {
			v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
		}
		args = append(args, "--"+f.Name+"="+v)
	})
	pr := &compare.Process{Exe: exe, Args: args, Dir: dir}
	return pr, func() { os.RemoveAll(dir) }, nil
}

func joinEngines(es []compare.Engine) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = string(e)
	}
	return strings.Join(s, ", ")
}

// submitCompare writes the --process runs of the puzzles as a Slurm
// experiment and submits what is not done; an experiment already in the
// folder is submitted again (its runs without a row).
func submitCompare(ctx context.Context, ios *ioStreams, opts *compareOptions) error {
	if err := slurm.Check(opts.slurm, opts.so); err != nil {
		return &usageError{fmt.Errorf("--slurm: %w", err)}
	}
	var exp *compare.Experiment
	if _, err := compare.LoadExperiment(opts.slurm); err != nil {
		if !opts.process {
			return &usageError{errors.New("--slurm runs the --process comparison: give --process")}
		}
		engines, err := compare.ParseEngines(opts.engines)
		if err != nil {
			return &usageError{err}
		}
		if engines, err = processEngines(opts, engines); err != nil {
			return err
		}
		style, err := sudoku.ParseStyle(opts.style)
		if err != nil {
			return &usageError{err}
		}
		if len(opts.files) == 0 {
			return &usageError{errors.New("--slurm: give the puzzle files (-f)")}
		}
		puzzles, unread, err := readPuzzleFiles(ctx, ios, opts.files, opts.limit)
		if err != nil {
			return err
		}
		if unread > 0 {
			return unreadError(unread)
		}
		pr, cleanup, err := newProcess(opts)
		if err != nil {
			return err
		}
		cleanup()
		exp = compare.NewExperiment(puzzles, engines, pr, style, opts.timeout, version())
	}
	s, err := compare.Submit(ctx, opts.slurm, exp, opts.so)
	if err != nil {
		return withCode(exitFailure, err)
	}
	printSubmission(ios.Out, "compare", opts.slurm, s)
	return nil
}

// runCompareCollect prints the summary of a Slurm experiment's rows and
// writes them to compare.csv beside it; runs not finished are listed, and
// make it exit 1.
func runCompareCollect(ctx context.Context, ios *ioStreams, opts *compareOptions) error {
	c, err := compare.Collect(ctx, opts.collect)
	if err != nil {
		return withCode(exitFailure, err)
	}
	runs := c.Done()
	report.Summary(ios.Out, runs)
	file := filepath.Join(opts.collect, "compare.csv")
	if err := writeFile(ctx, ios, file, func(w io.Writer) error { return report.WriteCSV(w, runs) }); err != nil {
		return withCode(exitFailure, err)
	}
	fmt.Fprintf(ios.Out, "\n%d runs: %s\n", len(runs), file)
	disagree := 0
	for id, r := range c.Runs {
		p := c.Puzzles[id/len(c.Experiment.Engines)]
		if msg := disagreement(p, r, 0); r.Status != "" && msg != "" {
			disagree++
			fmt.Fprintf(ios.Err, "%s: %s: %s\n", p.Source, r.Engine, msg)
		}
	}
	if len(c.Stopped) > 0 {
		fmt.Fprintf(ios.Err, "%d runs were stopped by Slurm (their rows say why; htnsat compare --slurm %s runs them again)\n", len(c.Stopped), opts.collect)
	}
	if len(c.Missing) > 0 {
		return withCode(exitFailure, fmt.Errorf("the experiment is not finished: %d of %d runs to go (htnsat compare --slurm %s submits them when no task is queued)", len(c.Missing), len(c.Runs), opts.collect))
	}
	if disagree > 0 {
		return withCode(exitFailure, fmt.Errorf("%d runs disagree with the answers the files record (see above)", disagree))
	}
	return nil
}
