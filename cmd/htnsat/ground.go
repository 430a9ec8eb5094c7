package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/proc"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
	"github.com/spf13/cobra"
)

type groundOptions struct {
	io          *ioStreams
	domainFile  string
	problemFile string
	maxGround   int
	timeout     time.Duration
	json        bool
	dump        bool
}

func newCmdGround(ios *ioStreams) *cobra.Command {
	opts := &groundOptions{io: ios}
	cmd := &cobra.Command{
		Use: "ground DOMAIN PROBLEM",
		Example: `  htnsat ground domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl
  htnsat ground --json domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl`,
		Short: "Ground an HDDL problem and report the size of the ground task",
		Long: `Ground an HDDL problem: static preconditions are joined like a database query,
unreachable facts, actions, tasks and methods are pruned, and the free variables
of the initial task network become choices. Prints the counts of the ground task
and of the compacted task the engines see (tasks with a single method inlined),
the ground instances of every lifted action and method, and the time of each
stage. --json gives the same as JSON; --dump prints the ground task.`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.domainFile, opts.problemFile = args[0], args[1]
			ctx, cancel := withTimeout(cmd.Context(), opts.timeout)
			defer cancel()
			return runGround(ctx, opts)
		},
	}
	cmd.Flags().IntVar(&opts.maxGround, "max-ground", ground.DefaultMaxGround, "most ground actions plus methods to build before giving up")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 0, "give up after this long (0: no limit)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&opts.dump, "dump", false, "print the ground task readably")
	return cmd
}

// withTimeout derives a context that ends after d (d <= 0: never), the
// process's exit included: the kernel takes a while to unmap a large
// process at exit (7.5 GB of CaDiCaL clauses: 0.55 s; under the IPC
// run's load, Towers pfile_17 with 4.4 GB ended 2.4 s past its limit),
// so, as the resident memory grows, the work stops earlier by
// exitReserve per GiB, with the status timeout all the same. Between the
// stop and the exit the searches' members also wind down and the report
// is written: two IPC runs side by side at 3-3.7 GB took 0.8-1.5 s from
// the stop to the exit (Freecell-Learned probfreecell-13-1 ended at
// 60.6 s under 250 ms per GiB).
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	progress.From(ctx).SetLimit(d)
	deadline := time.Now().Add(d)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	ctx, stop := context.WithCancelCause(ctx)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		pid := os.Getpid()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				rss, ok := proc.RSS(pid)
				if ok && time.Until(deadline) < time.Duration(rss>>20)*exitReserve>>10 {
					progress.From(ctx).OutOfTimeNow()
					stop(context.DeadlineExceeded)
					return
				}
			}
		}
	}()
	return deadlineCtx{ctx, deadline}, func() { stop(nil); cancel() }
}

// deadlineCtx reads its deadline off the clock: a context's Err changes
// only when the runtime gets round to running its timer, which on a
// loaded machine can be milliseconds late, long enough for a short stage
// that polls Err to finish past the deadline without seeing it ("cnf
// --timeout 1ms" wrote its 4 ms formula beside two other test binaries).
type deadlineCtx struct {
	context.Context
	deadline time.Time
}

func (c deadlineCtx) Err() error {
	if err := c.Context.Err(); err != nil {
		if errors.Is(context.Cause(c.Context), context.DeadlineExceeded) {
			// stopped early for the exit's reserve: out of time all
			// the same, not cancelled (a context derived from this one
			// says cancelled: describe reads the tracker's mark)
			return context.DeadlineExceeded
		}
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// exitReserve is the time kept per GiB of resident memory for the exit.
const exitReserve = 500 * time.Millisecond

// groundReport is the JSON form of "htnsat ground" (see docs/formats.md).
type groundReport struct {
	Domain          string             `json:"domain"`
	Problem         string             `json:"problem"`
	Status          plan.Status        `json:"status"`
	Message         string             `json:"message,omitempty"`
	Facts           int                `json:"facts"`
	Actions         int                `json:"actions"`
	CompoundTasks   int                `json:"compound_tasks"`
	Methods         int                `json:"methods"`
	CompactTasks    int                `json:"compact_compound_tasks"`
	CompactMethods  int                `json:"compact_methods"`
	InitialTasks    int                `json:"initial_tasks"`
	InitFacts       int                `json:"init_facts"`
	GoalFacts       int                `json:"goal_facts"`
	ReachableFacts  int                `json:"reachable_facts"`
	BuiltActions    int                `json:"built_actions"`
	BuiltMethods    int                `json:"built_methods"`
	PossibleTasks   int                `json:"possible_tasks"`
	JoinSteps       int64              `json:"join_steps"`
	ActionInstances map[string]int     `json:"action_instances"`
	MethodInstances map[string]int     `json:"method_instances"`
	StageSeconds    map[string]float64 `json:"stage_seconds"`
	ParseSeconds    float64            `json:"parse_seconds"`
	GroundSeconds   float64            `json:"ground_seconds"` // the stages after parsing, compaction included
	TotalSeconds    float64            `json:"total_seconds"`
	PeakRSSMB       float64            `json:"peak_rss_mb,omitempty"` // this process's peak resident memory so far (Linux)
}

func runGround(ctx context.Context, opts *groundOptions) error {
	start := time.Now()
	p, _, err := pipeline.Load(ctx, opts.domainFile, opts.problemFile)
	if err != nil {
		return failure(err)
	}
	d := p.Domain
	parsed := time.Now()
	progress.From(ctx).Stage("ground")
	t, st, err := ground.Ground(ctx, p, ground.Options{MaxGround: opts.maxGround})
	if err != nil {
		err = plan.WithCause(ctx, err)
		if opts.json {
			writeJSON(opts.io.Out, groundReport{Domain: d.Name, Problem: p.Name, Status: statusOf(progress.From(ctx), err), Message: err.Error(),
				ParseSeconds: parsed.Sub(start).Seconds(), TotalSeconds: time.Since(start).Seconds(), PeakRSSMB: proc.SelfPeakRSSMB()})
		}
		return failure(err)
	}
	c0 := time.Now()
	progress.From(ctx).Stage("compact")
	f, err := ground.Compact(ctx, t)
	if err != nil {
		return failure(plan.WithCause(ctx, err))
	}
	compactTime := time.Since(c0)
	r := groundReport{
		Domain: d.Name, Problem: p.Name, Status: plan.OK,
		Facts: len(t.Facts), Actions: len(t.Actions), CompoundTasks: len(t.Compounds), Methods: len(t.Methods),
		CompactTasks: len(f.Task.Compounds), CompactMethods: len(f.Task.Methods),
		InitialTasks: len(t.Initial), InitFacts: len(t.Init), GoalFacts: len(t.Goal) + len(t.GoalNeg),
		ReachableFacts: st.ReachableFacts, BuiltActions: st.BuiltActions, BuiltMethods: st.BuiltMethods,
		PossibleTasks: st.PossibleTasks, JoinSteps: st.JoinSteps,
		ActionInstances: st.ActionInstances, MethodInstances: st.MethodInstances,
		StageSeconds: map[string]float64{},
		ParseSeconds: parsed.Sub(start).Seconds(),
		TotalSeconds: time.Since(start).Seconds(),
		PeakRSSMB:    proc.SelfPeakRSSMB(),
	}
	for _, s := range st.Stages {
		r.StageSeconds[s.Name] = s.Duration.Seconds()
	}
	r.StageSeconds["compact"] = compactTime.Seconds()
	for _, v := range r.StageSeconds {
		r.GroundSeconds += v
	}
	out := opts.io.Out
	if opts.json {
		return writeJSON(out, r)
	}
	if opts.dump {
		return t.Write(out)
	}
	fmt.Fprintf(out, "facts           %d (%d reachable before pruning)\n", r.Facts, r.ReachableFacts)
	fmt.Fprintf(out, "actions         %d (%d built)\n", r.Actions, r.BuiltActions)
	fmt.Fprintf(out, "compound tasks  %d (%d possible bottom-up; %d after compaction)\n", r.CompoundTasks, r.PossibleTasks, r.CompactTasks)
	fmt.Fprintf(out, "methods         %d (%d built; %d after compaction)\n", r.Methods, r.BuiltMethods, r.CompactMethods)
	fmt.Fprintf(out, "initial tasks   %d\n", r.InitialTasks)
	fmt.Fprintf(out, "init facts      %d, goal facts %d\n", r.InitFacts, r.GoalFacts)
	fmt.Fprintf(out, "\ninstances per lifted action and method:\n")
	printCounts(out, "action", r.ActionInstances)
	printCounts(out, "method", r.MethodInstances)
	fmt.Fprintf(out, "\ntime:\n  %-14s %8.2f ms\n", "parse", r.ParseSeconds*1000)
	for _, s := range st.Stages {
		fmt.Fprintf(out, "  %-14s %8.2f ms\n", s.Name, s.Duration.Seconds()*1000)
	}
	fmt.Fprintf(out, "  %-14s %8.2f ms\n", "compact", compactTime.Seconds()*1000)
	fmt.Fprintf(out, "  %-14s %8.2f ms\n", "total", r.TotalSeconds*1000)
	return nil
}

// failure gives a failed run the exit code of its status, and a grounding
// budget that ran out the flag that raises it.
func failure(err error) error {
	if errors.Is(err, ground.ErrTooLarge) {
		err = fmt.Errorf("%w (--max-ground raises the budget)", err)
	}
	return withCode(plan.StatusOf(err).ExitCode(), err)
}

func printCounts(w io.Writer, kind string, m map[string]int) {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-7s %-40s %8d\n", kind, n, m[n])
	}
}
