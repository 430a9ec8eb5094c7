package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
	"github.com/spf13/cobra"
)

type planOptions struct {
	io          *ioStreams
	domainFile  string
	problemFile string
	engine      string
	search      string
	heuristic   string
	timeout     time.Duration
	output      string
	json        bool
	noVerify    bool
	maxGround   int
	maxNodes    int64
	noFold      bool
	noGroups    bool
	noRestarts  bool
	noConflicts bool
	seed        uint64
	noMRV       bool
	noFocus     bool
	noDeadEnds  bool
	completePO  bool
	sat         satFlags
}

func newCmdPlan(ios *ioStreams, runF func(context.Context, *planOptions) error) *cobra.Command {
	opts := &planOptions{io: ios}
	cmd := &cobra.Command{
		Use:   "plan DOMAIN PROBLEM",
		Short: "Find a plan by progression search or through SAT, and verify it",
		Long: `Parse, ground and solve an HDDL problem. The plan is printed in the IPC 2020
HTN plan format (to stdout, or to the file given by -o) and checked by the
independent verifier; statistics go to stderr.

Engines: progression (depth-first, greedy best-first or A* progression search
over task networks) and sat (an HTN-to-CNF encoding solved by gophersat or an
external solver).`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.domainFile, opts.problemFile = args[0], args[1]
			ctx, cancel := withTimeout(cmd.Context(), opts.timeout)
			defer cancel()
			if runF != nil {
				return runF(ctx, opts)
			}
			return runPlan(ctx, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.engine, "engine", "progression", "progression or sat")
	f.StringVar(&opts.search, "search", "auto", "progression search: auto (dfs, or gbfs for recursive problems), dfs, gbfs or astar")
	f.StringVar(&opts.heuristic, "heuristic", "auto", "best-first searches: rc (relaxed composition, state-aware), tdg (least actions, admissible) or auto (rc for gbfs, tdg for astar)")
	f.DurationVar(&opts.timeout, "timeout", 0, "give up after this long (0: no limit)")
	f.StringVarP(&opts.output, "output", "o", "", "write the plan to this file")
	f.BoolVar(&opts.json, "json", false, "print a JSON report instead of the plan")
	f.BoolVar(&opts.noVerify, "no-verify", false, "do not verify the plan")
	f.IntVar(&opts.maxGround, "max-ground", ground.DefaultMaxGround, "most ground actions plus methods to build")
	f.Int64Var(&opts.maxNodes, "max-nodes", 0, "most search nodes (0: no limit)")
	f.BoolVar(&opts.noFold, "no-fold", false, "do not fold pure tests into method preconditions (both engines)")
	f.BoolVar(&opts.noGroups, "no-groups", false, "do not reason over choice groups (both engines)")
	f.BoolVar(&opts.noMRV, "no-mrv", false, "decompose compound tasks in network order, not most constrained first")
	f.BoolVar(&opts.noFocus, "no-focus", false, "partial order: do not decompose the latest decomposition's tasks before older ones")
	f.BoolVar(&opts.noDeadEnds, "no-dead-ends", false, "do not track methods that can never apply again")
	f.BoolVar(&opts.noRestarts, "no-restarts", false, "depth-first search: never start over")
	f.BoolVar(&opts.noConflicts, "no-conflicts", false, "do not weigh the choice of task by past dead ends")
	f.Uint64Var(&opts.seed, "seed", 0, "seed of the random tie-breaking after restarts")
	f.BoolVar(&opts.completePO, "complete-po", false, "in partial-order networks, also try decompositions before applicable actions (complete, slower)")
	opts.sat.register(f)
	return cmd
}

// planReport is the JSON form of "htnsat plan" (see README).
type planReport struct {
	Domain       string             `json:"domain"`
	Problem      string             `json:"problem"`
	Engine       string             `json:"engine"`
	Status       string             `json:"status"` // solved, unsolvable, timeout, node-limit, error
	Message      string             `json:"message,omitempty"`
	PlanLength   int                `json:"plan_length"`
	Verified     bool               `json:"verified"`
	Facts        int                `json:"facts"`
	Actions      int                `json:"actions"`
	Methods      int                `json:"methods"`
	Nodes        int64              `json:"nodes,omitempty"`
	Restarts     int64              `json:"restarts,omitempty"`
	Search       string             `json:"search,omitempty"`
	Variables    int                `json:"variables,omitempty"`
	Clauses      int                `json:"clauses,omitempty"`
	Depth        int                `json:"depth,omitempty"`
	StageSeconds map[string]float64 `json:"stage_seconds"`
	TotalSeconds float64            `json:"total_seconds"`
}

func runPlan(ctx context.Context, opts *planOptions) error {
	start := time.Now()
	rep := &planReport{Engine: opts.engine, StageSeconds: map[string]float64{}}
	stage := func(name string, t0 time.Time) time.Time {
		now := time.Now()
		rep.StageSeconds[name] += now.Sub(t0).Seconds()
		return now
	}
	t0 := time.Now()
	d, p, err := hddl.Load(opts.domainFile, opts.problemFile)
	if err != nil {
		return withCode(exitFailure, err)
	}
	rep.Domain, rep.Problem = d.Name, p.Name
	t0 = stage("parse", t0)
	plan, err := solveProblem(ctx, p, opts, rep, stage, t0)
	rep.TotalSeconds = time.Since(start).Seconds()
	if err != nil {
		rep.Status, rep.Message = statusOf(err), err.Error()
		if opts.json {
			writeJSON(opts.io.Out, rep)
			if rep.Status == "error" {
				return withCode(exitFailure, err)
			}
			return nil
		}
		return planError(err)
	}
	rep.Status = "solved"
	rep.PlanLength = plan.Length()
	if !opts.noVerify {
		t1 := time.Now()
		if err := verify.Verify(p, plan); err != nil {
			return withCode(exitFailure, fmt.Errorf("the plan found does not verify: %w", err))
		}
		rep.Verified = true
		stage("verify", t1)
		rep.TotalSeconds = time.Since(start).Seconds()
	}
	if opts.output != "" {
		if err := writePlanFile(opts.output, plan); err != nil {
			return err
		}
	}
	if opts.json {
		return writeJSON(opts.io.Out, rep)
	}
	if opts.output == "" {
		if err := plan.Write(opts.io.Out); err != nil {
			return err
		}
	}
	printPlanStats(opts.io.Err, rep)
	return nil
}

// solveProblem grounds p and runs the chosen engine.
func solveProblem(ctx context.Context, p *hddl.Problem, opts *planOptions, rep *planReport, stage func(string, time.Time) time.Time, t0 time.Time) (*plan.Plan, error) {
	t, _, err := ground.Ground(ctx, p, ground.Options{MaxGround: opts.maxGround})
	if err != nil {
		return nil, err
	}
	rep.Facts, rep.Actions, rep.Methods = len(t.Facts), len(t.Actions), len(t.Methods)
	t0 = stage("ground", t0)
	switch opts.engine {
	case "progression":
		o := htn.DefaultOptions()
		s, err := htn.ParseSearch(opts.search)
		if err != nil {
			return nil, &usageError{err}
		}
		if o.Heuristic, err = htn.ParseHeuristic(opts.heuristic); err != nil {
			return nil, &usageError{err}
		}
		o.Search, o.Fold, o.MRV, o.DeadEnds, o.CompletePO, o.MaxNodes = s, !opts.noFold, !opts.noMRV, !opts.noDeadEnds, opts.completePO, opts.maxNodes
		o.Focus = !opts.noFocus
		o.Groups, o.Restarts, o.Conflicts, o.Seed = !opts.noGroups, !opts.noRestarts, !opts.noConflicts, opts.seed
		sol, st, err := htn.Solve(ctx, t, o)
		rep.Search = st.Search
		rep.Nodes, rep.Restarts = st.Nodes, st.Restarts
		stage("search", t0)
		if err != nil {
			return nil, err
		}
		return sol.ToPlan(t), nil
	case "sat":
		opts.sat.enc = satenc.Options{NoGroups: opts.noGroups, NoFold: opts.noFold}
		return solveSAT(ctx, t, &opts.sat, rep, stage, t0)
	}
	return nil, &usageError{fmt.Errorf("unknown engine %q (want progression or sat)", opts.engine)}
}

func statusOf(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return "timeout"
	case errors.Is(err, ground.ErrUnsolvable), errors.Is(err, htn.ErrNoPlan):
		return "unsolvable"
	case errors.Is(err, htn.ErrNodeLimit):
		return "node-limit"
	case errors.Is(err, satenc.ErrDepthLimit):
		return "depth-limit"
	case errors.Is(err, ground.ErrTooLarge):
		return "too-large"
	}
	return "error"
}

func planError(err error) error {
	switch statusOf(err) {
	case "timeout":
		return withCode(exitTimeout, err)
	case "unsolvable":
		return withCode(exitFailure, fmt.Errorf("no plan: %w", err))
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return err
	}
	return withCode(exitFailure, err)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writePlanFile(path string, plan *plan.Plan) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := plan.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printPlanStats(w io.Writer, r *planReport) {
	fmt.Fprintf(w, "plan: %d actions, verified: %v\n", r.PlanLength, r.Verified)
	fmt.Fprintf(w, "ground task: %d facts, %d actions, %d methods\n", r.Facts, r.Actions, r.Methods)
	if r.Engine == "progression" {
		fmt.Fprintf(w, "search: %s, %d nodes, %d restarts\n", r.Search, r.Nodes, r.Restarts)
	} else {
		fmt.Fprintf(w, "sat: depth %d, %d variables, %d clauses\n", r.Depth, r.Variables, r.Clauses)
	}
	for _, s := range []string{"parse", "ground", "search", "encode", "solve", "decode", "verify"} {
		if v, ok := r.StageSeconds[s]; ok {
			fmt.Fprintf(w, "  %-8s %9.2f ms\n", s, v*1000)
		}
	}
	fmt.Fprintf(w, "  %-8s %9.2f ms\n", "total", r.TotalSeconds*1000)
}
