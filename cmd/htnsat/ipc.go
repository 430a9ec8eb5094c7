package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/internal/ipc"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/slurm"
)

type ipcOptions struct {
	ipc.Options
	dir               string
	filter            string
	first             int
	every             int
	pandaPI           string
	either            []string
	quality           []string
	scores            []string
	published         string
	optimize, optimal bool
	from              string
	pick              ipc.Pick
	list              bool
	slurmFlags
}

// slurmFlags are the flags of ipc and compare --process on a Slurm
// cluster.
type slurmFlags struct {
	slurm      string // the experiment folder to write and submit
	collect    string // the experiment folder to read back
	task       string // the experiment folder of the task running here
	submission int
	perTask    int
	so         slurm.Options
}

// register adds the flags; what says what --slurm submits, defMem the
// default of --slurm-mem.
func (sf *slurmFlags) register(f *pflag.FlagSet, what, defMem string) {
	f.StringVar(&sf.slurm, "slurm", "", what)
	f.StringVar(&sf.collect, "collect", "", "read the rows of the Slurm experiment in this folder: its CSV file(s) and tables, as a local run makes them")
	f.StringVar(&sf.so.Partition, "partition", "", "--slurm: the partition (default: the cluster's)")
	f.IntVar(&sf.so.RunsPerTask, "runs-per-task", 0, "--slurm: runs one array task does in turn (0: as few tasks as a 1,000-task array allows)")
	f.IntVar(&sf.so.Throttle, "throttle", 0, "--slurm: most array tasks at once (0: as many as Slurm runs)")
	f.IntVar(&sf.so.TaskMemMB, "slurm-mem", 0, "--slurm: memory of a task in MiB (0: "+defMem+")")
	f.BoolVar(&sf.so.NoSubmit, "no-submit", false, "--slurm: write the experiment and its sbatch script, but do not submit it")
	// the side of a task: what the sbatch script runs
	f.StringVar(&sf.task, "slurm-task", "", "run one task of this Slurm experiment (the sbatch script's command)")
	f.IntVar(&sf.submission, "submission", 0, "--slurm-task: the submission")
	f.IntVar(&sf.perTask, "task-runs", 0, "--slurm-task: runs a task does")
	for _, h := range []string{"slurm-task", "submission", "task-runs"} {
		f.MarkHidden(h)
	}
}

func newCmdIPC(ios *ioStreams) *cobra.Command {
	opts := &ipcOptions{}
	cmd := &cobra.Command{
		Use: "ipc [DIR]",
		Example: `  # ground every problem of a benchmark folder (one folder per track and domain)
  htnsat ipc ~/ipc2020-domains --stage ground --csv ground.csv
  # plan the first 3 problems of every domain with the SAT engine, 2 at a time
  htnsat ipc ~/ipc2020-domains --stage plan --engine htn-sat --first 3 --jobs 2 --csv sat.csv
  # continue that run after an interruption
  htnsat ipc ~/ipc2020-domains --stage plan --engine htn-sat --first 3 --jobs 2 --csv sat.csv --resume
  # better plans for 60 s each, scored against an earlier run's first plans
  htnsat ipc ~/ipc2020-domains --stage plan --optimize --filter total-order --jobs 2 --csv opt.csv --quality first.csv
  # both engines on a Slurm cluster, then the tables
  htnsat ipc ~/ipc2020-domains --stage plan --engine progression,htn-sat --slurm ~/exp/both
  htnsat ipc --collect ~/exp/both`,
		Short: "Run a stage over an IPC HTN benchmark set (2020 or 2023) and tabulate the results per domain",
		Long: `Run "htnsat ground" or "htnsat plan" on every problem of an IPC HTN benchmark
set laid out as the 2020 and 2023 competitions did: one folder per track
(total-order, partial-order), then one per domain, holding the problems (.hddl,
or .pddl as IPC 2023's Lamps) and either one domain file whatever its name
(domain.hddl, UL_domain.hddl) or a <problem>-domain.hddl beside each problem.
Files that cannot be paired are skipped and listed on stderr; --list prints
the pairs it read (after --filter, --first, --every and --from) and runs
nothing. The default set
is ../shared/data/ipc2020, beside the repository, or $HTNSAT_SHARED/data/ipc2020
(github.com/panda-planner-dev/ipc2020-domains); ../shared/data/ipc2023 holds
the 2023 one. Each problem runs in its own process with a time and memory
limit; the table gives per domain the problems done, the time taken and the
size of the ground task. Each problem is one row of --csv, written as soon as
it is done; --resume keeps the rows of an earlier, interrupted run with the
same --csv file and runs only the problems it lacks.

--pandapi FILE grounds only the problems of FILE (pandapi-ground.csv: pandaPI's
grounder's facts, actions, methods and seconds per problem) and prints them
beside ours: the methods of the compacted task and the time of the stages
after parsing.

--either CSV --either CSV ... runs nothing: it reads the rows of earlier
plan runs (their --csv files) and counts, per domain, the problems each
solved and those at least one solved, on the problems all of them ran:
what the engines side by side (htnsat plan --engine auto) solve.

--optimize (or --optimal) runs each problem with plan --optimize (or
--optimal) and adds a table of plan costs: per domain the problems solved,
the IPC quality score (a problem's best cost among the runs compared, divided
by the run's cost, summed), the plans proven optimal, and the same for the
run's first plans. --quality CSV adds earlier runs (or, alone, compares only
earlier runs): the IPC's satisficing score of each.

--from CSV runs only the problems that have a row in an earlier run's CSV
file, narrowed by --status (those rows' statuses) and --over (rows that
took longer than this): for example, the timeouts of a table again, or the
problems it solved late.

--slurm EXP writes the runs (every problem with every engine of --engine,
which may list several) as an experiment into the folder EXP and submits it
to Slurm as one job array; --collect EXP writes the CSV file of each engine
beside it and prints the tables, as a local run does. Submitting again runs
only the runs without a row (docs/cluster.md).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case opts.task != "":
				return runSlurmTask(cmd.Context(), opts)
			case opts.collect != "":
				return runCollect(cmd.Context(), ios, opts)
			case opts.slurm != "" && len(args) == 0:
				if _, err := os.Stat(filepath.Join(opts.slurm, slurm.ExperimentFile)); err == nil {
					// submitting again: the experiment says what to run
					return submitSlurm(cmd.Context(), ios, opts, nil)
				}
			}
			// tables of earlier runs: no benchmark folder needed
			if len(opts.either) > 0 {
				return ipc.EitherTable(ios.Out, opts.either)
			}
			if len(opts.scores) > 0 {
				runs, err := ipc.ReadRuns(opts.scores)
				if err != nil {
					return err
				}
				return printScores(ios.Out, runs, opts, opts.published)
			}
			if len(opts.quality) > 0 && !cmd.Flags().Changed("stage") {
				runs, err := ipc.ReadRuns(opts.quality)
				if err != nil {
					return err
				}
				return ipc.QualityTable(ios.Out, runs)
			}
			if len(args) == 1 {
				opts.dir = args[0]
			} else {
				shared, err := corpus.SharedDir()
				if err != nil {
					return err
				}
				opts.dir = filepath.Join(shared, "data", "ipc2020")
			}
			return runIPC(cmd.Context(), ios, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Stage, "stage", "ground", "what to run: ground or plan")
	f.StringVar(&opts.Engine, "engine", "auto", "planning engine for --stage plan: auto (plan's default), progression, sat or lazy")
	f.DurationVar(&opts.Timeout, "timeout", 60*time.Second, "time limit per problem")
	f.IntVar(&opts.Jobs, "jobs", 1, "problems run in parallel")
	f.BoolVar(&opts.Pin, "pin", false, "run each problem on one CPU of its own (taskset -c), as the competitions do; --jobs at most the CPUs")
	capFlag(f, "jobs", maxParallel)
	f.StringVar(&opts.filter, "filter", "", "only problems whose track/domain/name contains this")
	f.StringVar(&opts.CSV, "csv", "", "write one row per problem to this CSV file")
	f.IntVar(&opts.MemMB, "mem", 8192, "memory limit per problem in MiB")
	f.StringArrayVar(&opts.Extra, "arg", nil, "extra argument passed to each run (repeatable; taken whole, commas included)")
	f.IntVar(&opts.first, "first", 0, "only the first N problems of each domain (0: all)")
	f.IntVar(&opts.every, "every", 0, "only every N-th problem of each domain, from its first (a sample of every domain and size)")
	f.BoolVar(&opts.Resume, "resume", false, "keep the rows already in --csv and run only the other problems")
	f.StringVar(&opts.pandaPI, "pandapi", "", "ground the problems of this pandaPI figures file and compare (see above)")
	f.StringVar(&opts.from, "from", "", "only the problems with a row in this CSV file of an earlier run (see above)")
	f.BoolVar(&opts.list, "list", false, "run nothing: print the problems selected, one a line: track, domain, domain file and problem file, tab-separated (for scripts)")
	f.StringSliceVar(&opts.pick.Statuses, "status", nil, "with --from: only rows with one of these statuses")
	f.DurationVar(&opts.pick.Over, "over", 0, "with --from: only rows that took longer than this")
	f.BoolVar(&opts.optimize, "optimize", false, "--stage plan: each run improves its plan until --timeout (plan --optimize); the table has the plans' costs and the IPC quality score")
	f.BoolVar(&opts.optimal, "optimal", false, "--stage plan: each run searches for a proven optimal plan (plan --optimal)")
	f.StringArrayVar(&opts.quality, "quality", nil, "score the plans of these runs' CSV files against each other (repeatable; alone, or beside a --stage plan run; see above)")
	f.StringArrayVar(&opts.either, "either", nil, "count the problems solved by either of these runs' CSV files (repeatable; see above)")
	f.StringArrayVar(&opts.scores, "scores", nil, "the IPC scores (coverage, agile, satisficing) of these runs' CSV files, per domain, beside the published IPC 2023 entrants (repeatable; --timeout is the runs' limit; see above)")
	f.StringVar(&opts.published, "published", "", "the competition's published tables (TO-TABLE-*.csv, PO-TABLE-*.csv) for the scores (default: DIR/results, or ../shared/data/ipc2023/results with --scores)")
	opts.slurmFlags.register(f, "write the runs as an experiment into this folder and submit it to Slurm as a job array (see above); --engine may list several engines", "--mem plus 256")
	return cmd
}

func runIPC(ctx context.Context, ios *ioStreams, opts *ipcOptions) error {
	if opts.Stage != "ground" && opts.Stage != "plan" {
		return &usageError{fmt.Errorf("--stage must be ground or plan")}
	}
	if opts.Resume && opts.CSV == "" {
		return &usageError{fmt.Errorf("--resume needs --csv")}
	}
	if opts.from == "" && (len(opts.pick.Statuses) > 0 || opts.pick.Over > 0) {
		return &usageError{fmt.Errorf("--status and --over narrow --from: give --from CSV")}
	}
	ins, skipped, err := corpus.IPC(opts.dir)
	if err != nil {
		return err
	}
	if len(skipped) > 0 {
		fmt.Fprintf(ios.Err, "skipped %d files of %s:\n", len(skipped), opts.dir)
		for i, sk := range skipped {
			if i == 10 {
				fmt.Fprintf(ios.Err, "  ... and %d more\n", len(skipped)-i)
				break
			}
			fmt.Fprintf(ios.Err, "  %s: %s\n", sk.File, sk.Why)
		}
	}
	if opts.Exe, err = os.Executable(); err != nil {
		return err
	}
	if isTerminal(ios.Err) {
		opts.Progress = func(done, total int, in corpus.Instance) {
			fmt.Fprintf(ios.Err, "\r%d/%d %-60s", done, total, in.Name())
		}
	}
	sel := ipc.Every(ipc.Select(ins, opts.filter, opts.first), opts.every)
	if opts.from != "" {
		rows, err := ipc.ReadCSV(opts.from)
		if err != nil {
			return err
		}
		if sel, err = ipc.SelectFrom(sel, rows, opts.pick); err != nil {
			return &usageError{fmt.Errorf("--from %s: %w", opts.from, err)}
		}
	}
	if opts.list {
		// every line is checked before the first is printed: a script
		// reading them gets all or none
		for _, in := range sel {
			for _, field := range []string{in.Track, in.Domain, in.DomainFile, in.ProblemFile} {
				if strings.ContainsAny(field, "\t\n\r") {
					return fmt.Errorf("--list: %q holds a tab or a line break, which a tab-separated line cannot carry", field)
				}
			}
		}
		for _, in := range sel {
			fmt.Fprintf(ios.Out, "%s\t%s\t%s\t%s\n", in.Track, in.Domain, in.DomainFile, in.ProblemFile)
		}
		return nil
	}
	var panda []ipc.PandaRow
	if opts.pandaPI != "" {
		if opts.Stage != "ground" {
			return &usageError{fmt.Errorf("--pandapi compares grounding: use it with --stage ground")}
		}
		if panda, err = ipc.ReadPandaPI(opts.pandaPI); err != nil {
			return err
		}
		if sel, err = ipc.SelectPandaPI(ins, sel, panda); err != nil {
			return err
		}
	}
	if opts.optimize || opts.optimal {
		if opts.Stage != "plan" {
			return &usageError{fmt.Errorf("--optimize and --optimal need --stage plan")}
		}
		opts.Extra = append(opts.Extra, map[bool]string{false: "--optimize", true: "--optimal"}[opts.optimal])
	}
	var others []ipc.Rows
	if len(opts.quality) > 0 {
		if others, err = ipc.ReadRuns(opts.quality); err != nil {
			return err
		}
	}
	if opts.slurm != "" {
		return submitSlurm(ctx, ios, opts, sel)
	}
	if _, err := pipeline.ParseEngine(opts.Engine); err != nil && opts.Stage == "plan" {
		return &usageError{fmt.Errorf("--engine: %w", err)}
	} else if err == nil {
		e, _ := pipeline.ParseEngine(opts.Engine)
		opts.Engine = string(e)
	}
	results, err := ipc.Run(ctx, sel, opts.Options)
	if opts.Progress != nil {
		fmt.Fprintf(ios.Err, "\r%80s\r", "")
	}
	if err != nil {
		return err
	}
	if panda != nil {
		ipc.PandaTable(ios.Out, panda, results)
		return nil
	}
	verb := "grounded"
	if opts.Stage == "plan" {
		verb = "solved (" + opts.Engine + ")"
	}
	ipc.Table(ios.Out, results, verb)
	if opts.Stage == "plan" {
		pub := opts.published
		if pub == "" {
			pub = filepath.Join(opts.dir, "results")
		}
		if _, err := os.Stat(filepath.Join(pub, "TO-TABLE-coverage.csv")); err == nil {
			name := opts.Engine
			if opts.CSV != "" {
				name = strings.TrimSuffix(filepath.Base(opts.CSV), ".csv")
			}
			if err := printScores(ios.Out, []ipc.Rows{{Name: name, Rows: ipc.Keyed(results)}}, opts, pub); err != nil {
				return err
			}
		}
	}
	if opts.Stage == "plan" && (opts.optimize || opts.optimal || len(others) > 0) {
		fmt.Fprintln(ios.Out)
		name := opts.Engine
		if opts.CSV != "" {
			name = strings.TrimSuffix(filepath.Base(opts.CSV), ".csv")
		}
		return ipc.QualityTable(ios.Out, append([]ipc.Rows{{Name: name, Rows: ipc.Keyed(results)}}, others...))
	}
	return nil
}

// printScores prints the IPC scores of runs beside the competition's
// published tables in dir ("": ../shared/data/ipc2023/results when there,
// else none).
func printScores(w io.Writer, runs []ipc.Rows, opts *ipcOptions, dir string) error {
	if dir == "" {
		if shared, err := corpus.SharedDir(); err == nil {
			dir = filepath.Join(shared, "data", "ipc2023", "results")
		}
	}
	var pub *ipc.Published
	if dir != "" {
		var err error
		if pub, err = ipc.ReadPublished(dir); err != nil && opts.published != "" {
			return err
		}
	}
	pin := "one CPU each"
	if !opts.Pin {
		pin = "the machine's CPUs"
	}
	note := fmt.Sprintf("%s a problem, %d MiB, %s, this machine", opts.Timeout, opts.MemMB, pin)
	if len(opts.scores) > 0 {
		note = fmt.Sprintf("scored with a limit of %s", opts.Timeout)
	}
	return ipc.ScoreTables(w, runs, opts.Timeout.Seconds(), pub, note)
}

// submitSlurm writes the experiment of the runs of sel (each problem with
// each engine) into opts.slurm and submits what is not done.
func submitSlurm(ctx context.Context, ios *ioStreams, opts *ipcOptions, sel []corpus.Instance) error {
	if err := slurm.Check(opts.slurm, opts.so); err != nil {
		return &usageError{fmt.Errorf("--slurm: %w", err)}
	}
	var engines []string
	if opts.Stage == "plan" {
		for _, name := range strings.Split(opts.Engine, ",") {
			e, err := pipeline.ParseEngine(name)
			if err != nil {
				return &usageError{fmt.Errorf("--engine: %w", err)}
			}
			engines = append(engines, string(e))
		}
	}
	var exp *ipc.Experiment
	if sel != nil {
		var err error
		if exp, err = ipc.NewExperiment(sel, engines, opts.Options, version()); err != nil {
			return err
		}
	}
	s, err := ipc.Submit(ctx, opts.slurm, exp, opts.so)
	if err != nil {
		return withCode(exitFailure, err)
	}
	printSubmission(ios.Out, "ipc", opts.slurm, s)
	return nil
}

// runSlurmTask runs the task of this array job ($SLURM_ARRAY_TASK_ID).
func runSlurmTask(ctx context.Context, opts *ipcOptions) error {
	if _, err := slurm.TaskID(); err != nil {
		return &usageError{fmt.Errorf("--slurm-task: %w", err)}
	}
	if err := ipc.RunTask(ctx, opts.task, opts.submission, opts.perTask); err != nil {
		return failure(err)
	}
	return nil
}

// runCollect writes the CSV file of each engine of the experiment in
// opts.collect (beside the experiment, as a local run's --csv) and prints
// its table; runs that are not finished are listed, and make it exit 1.
func runCollect(ctx context.Context, ios *ioStreams, opts *ipcOptions) error {
	c, err := ipc.Collect(ctx, opts.collect)
	if err != nil {
		return withCode(exitFailure, err)
	}
	for _, eng := range c.Engines() {
		rs := c.Results[eng]
		file := filepath.Join(opts.collect, ipc.CSVName(eng))
		if err := writeFile(ctx, ios, file, func(w io.Writer) error { return ipc.WriteCSV(w, rs) }); err != nil {
			return withCode(exitFailure, err)
		}
		verb := "grounded"
		if eng != "" {
			verb = "solved (" + eng + ")"
		}
		fmt.Fprintf(ios.Out, "%s (%d rows)\n\n", file, len(rs))
		ipc.Table(ios.Out, rs, verb)
		fmt.Fprintln(ios.Out)
	}
	// plans of an optimising experiment: their quality, the engines side
	// by side
	var runs []ipc.Rows
	optimized := false
	for _, eng := range c.Engines() {
		if eng == "" {
			continue
		}
		runs = append(runs, ipc.Rows{Name: eng, Rows: ipc.Keyed(c.Results[eng])})
		for _, r := range c.Results[eng] {
			if v, _ := r.Report["first_plan_cost"].(float64); v > 0 {
				optimized = true
			}
		}
	}
	if optimized {
		if err := ipc.QualityTable(ios.Out, runs); err != nil {
			return withCode(exitFailure, err)
		}
		fmt.Fprintln(ios.Out)
	}
	if len(c.Stopped) > 0 {
		fmt.Fprintf(ios.Err, "%d runs were stopped by Slurm (their rows say why; htnsat ipc --slurm %s runs them again):\n", len(c.Stopped), opts.collect)
		c.List(ios.Err, c.Stopped, 10)
	}
	if len(c.Missing) > 0 {
		fmt.Fprintf(ios.Err, "%d of %d runs have not run:\n", len(c.Missing), len(c.Experiment.Runs))
		c.List(ios.Err, c.Missing, 10)
		return withCode(exitFailure, fmt.Errorf("the experiment is not finished: %d runs to go (htnsat ipc --slurm %s submits them when no task is queued)", len(c.Missing), opts.collect))
	}
	return nil
}

// printSubmission tells what a --slurm submission of command (ipc,
// compare) did and what to run next.
func printSubmission(w io.Writer, command, dir string, s *slurm.Submission) {
	switch {
	case s.Runs == 0:
		fmt.Fprintf(w, "%s: every run has its row; htnsat %s --collect %s reads them\n", dir, command, dir)
	case s.JobID != "":
		fmt.Fprintf(w, "%s: submission %d, %d runs in %d array tasks: job %s\nwhen it is done: htnsat %s --collect %s\n", dir, s.N, s.Runs, s.Tasks, s.JobID, command, dir)
	default:
		fmt.Fprintf(w, "%s: submission %d, %d runs in %d array tasks, not submitted; submit with:\n  %s\n", dir, s.N, s.Runs, s.Tasks, s.Command)
	}
}
