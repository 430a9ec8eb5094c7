package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/internal/ipc"
	"github.com/spf13/cobra"
)

type ipcOptions struct {
	ipc.Options
	dir     string
	filter  string
	first   int
	pandaPI string
	either  []string
	from    string
	pick    ipc.Pick
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
  htnsat ipc ~/ipc2020-domains --stage plan --engine htn-sat --first 3 --jobs 2 --csv sat.csv --resume`,
		Short: "Run a stage over the IPC 2020 HTN benchmark set and tabulate the results per domain",
		Long: `Run "htnsat ground" or "htnsat plan" on every problem of the IPC 2020 set
(default: ../shared/data/ipc2020, beside the repository, or $HTNSAT_SHARED/data/ipc2020;
the competition's domains, github.com/panda-planner-dev/ipc2020-domains, one
folder per track and domain), each in its own process with a time and memory
limit, and print a per-domain table of the problems done, the time taken and the
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

--from CSV runs only the problems that have a row in an earlier run's CSV
file, narrowed by --status (those rows' statuses) and --over (rows that
took longer than this): for example, the timeouts of a table again, or the
problems it solved late.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.dir = args[0]
			} else {
				shared, err := corpus.SharedDir()
				if err != nil {
					return err
				}
				opts.dir = filepath.Join(shared, "data", "ipc2020")
			}
			if len(opts.either) > 0 {
				return ipc.EitherTable(ios.Out, opts.either)
			}
			return runIPC(cmd.Context(), ios, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Stage, "stage", "ground", "what to run: ground or plan")
	f.StringVar(&opts.Engine, "engine", "progression", "planning engine for --stage plan: progression or sat")
	f.DurationVar(&opts.Timeout, "timeout", 60*time.Second, "time limit per problem")
	f.IntVar(&opts.Jobs, "jobs", 1, "problems run in parallel")
	capFlag(f, "jobs", maxParallel)
	f.StringVar(&opts.filter, "filter", "", "only problems whose track/domain/name contains this")
	f.StringVar(&opts.CSV, "csv", "", "write one row per problem to this CSV file")
	f.IntVar(&opts.MemMB, "mem", 8192, "memory limit per problem in MiB")
	f.StringArrayVar(&opts.Extra, "arg", nil, "extra argument passed to each run (repeatable; taken whole, commas included)")
	f.IntVar(&opts.first, "first", 0, "only the first N problems of each domain (0: all)")
	f.BoolVar(&opts.Resume, "resume", false, "keep the rows already in --csv and run only the other problems")
	f.StringVar(&opts.pandaPI, "pandapi", "", "ground the problems of this pandaPI figures file and compare (see above)")
	f.StringVar(&opts.from, "from", "", "only the problems with a row in this CSV file of an earlier run (see above)")
	f.StringSliceVar(&opts.pick.Statuses, "status", nil, "with --from: only rows with one of these statuses")
	f.DurationVar(&opts.pick.Over, "over", 0, "with --from: only rows that took longer than this")
	f.StringArrayVar(&opts.either, "either", nil, "count the problems solved by either of these runs' CSV files (repeatable; see above)")
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
	ins, err := corpus.IPC(opts.dir)
	if err != nil {
		return err
	}
	if opts.Exe, err = os.Executable(); err != nil {
		return err
	}
	if isTerminal(ios.Err) {
		opts.Progress = func(done, total int, in corpus.Instance) {
			fmt.Fprintf(ios.Err, "\r%d/%d %-60s", done, total, in.Name())
		}
	}
	sel := ipc.Select(ins, opts.filter, opts.first)
	if opts.from != "" {
		rows, err := ipc.ReadCSV(opts.from)
		if err != nil {
			return err
		}
		if sel, err = ipc.SelectFrom(sel, rows, opts.pick); err != nil {
			return &usageError{fmt.Errorf("--from %s: %w", opts.from, err)}
		}
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
	return nil
}
