package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/proc"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
	"github.com/spf13/cobra"
)

type planOptions struct {
	io          *ioStreams
	domainFile  string
	problemFile string
	engine      string
	timeout     time.Duration
	output      string
	json        bool
	noVerify    bool
	tree        string
	treeFull    bool
	optimize    bool
	optimal     bool
	engines     engineFlags
}

func newCmdPlan(ios *ioStreams) *cobra.Command {
	opts := &planOptions{io: ios}
	cmd := &cobra.Command{
		Use: "plan DOMAIN PROBLEM [PLANFILE]",
		Example: `  # both engines side by side, the plan to stdout
  htnsat plan domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl
  # the SAT engine, the plan to a file, a JSON report
  htnsat plan --engine htn-sat -o paper.plan --json domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl
  # the progression search under a time limit, and the decomposition tree
  htnsat plan --engine progression --timeout 10s --tree paper.svg domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl
  # a problem grounded on demand, without its full grounding
  htnsat plan --engine lazy testdata/costs/domain.hddl testdata/costs/problem.hddl
  # ever cheaper plans for 10 s, each printed as found (the last is the best)
  htnsat plan --optimize --timeout 10s testdata/costs/domain.hddl testdata/costs/problem.hddl
  # as the IPC runs a planner: DOMAIN PROBLEM PLANFILE
  htnsat plan testdata/costs/domain.hddl testdata/costs/problem.hddl costs.plan`,
		Short: "Find a plan by progression search or through SAT, and verify it",
		Long: `Parse, ground and solve an HDDL problem. The plan is printed in the IPC 2020
HTN plan format (to stdout, or to the file given by -o or as the third
argument, as the IPC's planner interface DOMAIN PROBLEM PLANFILE has it) and
checked by the independent verifier; statistics go to stderr.

Engines: progression (depth-first, greedy best-first or A* progression search
over task networks), htn-sat (or sat: an HTN-to-CNF encoding solved by the linked CaDiCaL,
gophersat or an external solver), and auto, the default: both side by side on
the same ground task, keeping the first verified plan (or proof that there is
none) and stopping the other.

When the full grounding of a problem is beyond --max-ground, progression
and auto plan it with grounding on demand instead (the lazy engine, which
--engine lazy asks for directly): a depth-first progression search that
instantiates only the methods and actions it meets, in the states where it
meets them, so memory follows the part of the problem it visits. stderr says when it takes over. On a totally ordered problem auto
also runs it while the grounder works, on the other core: a plan it finds
first stops the grounding.

With --optimize the search goes on after the first plan and prints each
cheaper plan it finds (the last one printed is the best; -o always holds the
best so far) until the time limit, or until it proves the last plan optimal.
--optimal searches for a plan of least cost and its proof from the start.
Costs are the actions' (increase (total-cost) N) where the domain has them,
1 per action otherwise.`,
		Args: rangeArgs(2, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.domainFile, opts.problemFile = args[0], args[1]
			if len(args) == 3 {
				if opts.output != "" {
					return &usageError{fmt.Errorf("the plan file is given twice: -o %s and %s", opts.output, args[2])}
				}
				opts.output = args[2]
			}
			ctx, cancel := withTimeout(cmd.Context(), opts.timeout)
			defer cancel()
			return runPlan(ctx, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.engine, "engine", "auto", "progression, htn-sat (or sat), auto (both side by side, on two cores, the first verified plan kept), or lazy (progression grounding on demand)")
	f.DurationVar(&opts.timeout, "timeout", 0, "give up after this long (0: no limit)")
	f.StringVarP(&opts.output, "output", "o", "", "write the plan to this file")
	f.BoolVar(&opts.json, "json", false, "print a JSON report instead of the plan")
	f.BoolVar(&opts.noVerify, "no-verify", false, "do not verify the plan")
	f.BoolVar(&opts.optimize, "optimize", false, "after the first plan, search for cheaper ones until --timeout (or a proof that the last is optimal), printing each")
	f.BoolVar(&opts.optimal, "optimal", false, "search for a plan of least cost and prove it (A* with an admissible estimate); the report says optimal: true only with a proof")
	f.StringVar(&opts.tree, "tree", "", "draw the decomposition tree to this .dot (Graphviz) or .svg file")
	f.BoolVar(&opts.treeFull, "tree-full", false, "draw every subtree (by default siblings alike are drawn once, with their number)")
	opts.engines.register(f)
	return cmd
}

// planReport is the JSON form of "htnsat plan" (see docs/formats.md).
type planReport struct {
	Domain       string             `json:"domain"`
	Problem      string             `json:"problem"`
	Engine       string             `json:"engine"`
	AnsweredBy   string             `json:"answered_by,omitempty"`
	Status       plan.Status        `json:"status"`
	Message      string             `json:"message,omitempty"`
	PlanLength   int                `json:"plan_length"`
	PlanCost     int                `json:"plan_cost"`                        // its actions' costs; its length in a domain without costs
	Optimal      bool               `json:"optimal"`                          // the plan is proven of least cost (--optimize, --optimal)
	Plans        int                `json:"plans,omitempty"`                  // plans found by --optimize or --optimal, each cheaper than the last
	FirstCost    int64              `json:"first_plan_cost,omitempty"`        // the cost of the first of them
	Exhausted    int                `json:"no_cheaper_up_to_depth,omitempty"` // SAT: no cheaper plan with a decomposition tree this deep (when not proven optimal)
	LinearBound  bool               `json:"linearised,omitempty"`             // that bound holds for the linearised orders only
	Verified     bool               `json:"verified"`
	Facts        int                `json:"facts"`
	Actions      int                `json:"actions"`
	Methods      int                `json:"methods"`
	Compact      int                `json:"compact_methods"`
	Nodes        int64              `json:"nodes,omitempty"`
	Restarts     int64              `json:"restarts,omitempty"`
	Ahead        int64              `json:"ahead,omitempty"`
	Lost         int64              `json:"facts_lost,omitempty"` // facts found false for good by the reach (progression)
	Search       string             `json:"search,omitempty"`
	Variables    int                `json:"variables,omitempty"`
	Clauses      int                `json:"clauses,omitempty"`
	Depth        int                `json:"depth,omitempty"`
	Skipped      int                `json:"skipped_layers,omitempty"`
	StageSeconds map[string]float64 `json:"stage_seconds"`
	TotalSeconds float64            `json:"total_seconds"`
	PeakRSSMB    float64            `json:"peak_rss_mb,omitempty"` // this process's peak resident memory so far (Linux)
	Cores        int                `json:"cores"`                 // the CPUs auto may use (--cores)
	// OnDemand is what the lazy engine grounded, when it planned
	OnDemand *onDemandReport `json:"grounded_on_demand,omitempty"`
}

// onDemandReport tells what grounding on demand made, and why it was
// used when the engine asked for was another.
type onDemandReport struct {
	FullGrounding string `json:"full_grounding,omitempty"` // the grounder's refusal
	Facts         int    `json:"facts"`
	Tasks         int    `json:"tasks"`
	Actions       int    `json:"actions"`
	Methods       int    `json:"method_instances"`
}

func runPlan(ctx context.Context, opts *planOptions) error {
	start := time.Now()
	engine, err := pipeline.ParseEngine(opts.engine)
	if err != nil {
		return &usageError{err}
	}
	if opts.tree != "" && !strings.HasSuffix(opts.tree, ".dot") && !strings.HasSuffix(opts.tree, ".svg") {
		return &usageError{fmt.Errorf("--tree %s: the file must end in .dot or .svg", opts.tree)}
	}
	cfg, err := opts.engines.pipeline(engine)
	if err != nil {
		return err
	}
	cfg.NoVerify = opts.noVerify
	cfg.Optimize, cfg.Optimal = opts.optimize, opts.optimal
	p, parse, err := pipeline.Load(ctx, opts.domainFile, opts.problemFile)
	if err != nil {
		return failure(err)
	}
	if cfg.Optimize || cfg.Optimal {
		cfg.Improved = opts.improved(ctx, start)
	}
	res, err := pipeline.Run(ctx, p, cfg)
	res.Times.Add("parse", parse)
	if res.Fallback != "" {
		fmt.Fprintf(opts.io.Err, "%s: planning with grounding on demand (the lazy engine)\n", res.Fallback)
	}
	rep := &planReport{Domain: p.Domain.Name, Problem: p.Name, Engine: string(engine), Status: statusOf(progress.From(ctx), err), StageSeconds: map[string]float64{}, Cores: cfg.UsedCores()}
	fillReport(rep, res)
	rep.TotalSeconds = time.Since(start).Seconds()
	rep.PeakRSSMB = proc.SelfPeakRSSMB()
	if err != nil {
		rep.Message = describe(progress.From(ctx), err)
		if opts.json {
			writeJSON(opts.io.Out, rep)
		}
		return failure(err)
	}
	if opts.output != "" && cfg.Improved == nil {
		if err := writeFile(ctx, opts.io, opts.output, res.Plan.Write); err != nil {
			return err
		}
	}
	if opts.tree != "" {
		if err := writeTree(ctx, opts.io, opts.tree, res.Plan, !opts.treeFull); err != nil {
			return err
		}
	}
	if opts.json {
		return writeJSON(opts.io.Out, rep)
	}
	if opts.output == "" && cfg.Improved == nil {
		if err := res.Plan.Write(opts.io.Out); err != nil {
			return err
		}
	}
	printPlanStats(opts.io.Err, rep)
	return nil
}

// improved is what an optimising run does with each plan, cheaper than
// the last: -o is rewritten (atomically, so it always holds the best plan
// so far), or without -o the plan is printed, unless the report is JSON;
// a line on stderr tells its cost and time.
func (opts *planOptions) improved(ctx context.Context, start time.Time) func(*plan.Plan) error {
	return func(pl *plan.Plan) error {
		switch {
		case opts.output != "":
			// the context may end while the file is written: the last
			// plan must still be kept, so the write has its own
			if err := writeFile(context.WithoutCancel(ctx), opts.io, opts.output, pl.Write); err != nil {
				return err
			}
		case !opts.json:
			if err := pl.Write(opts.io.Out); err != nil {
				return err
			}
		}
		progress.From(ctx).Best(int64(pl.TotalCost()))
		fmt.Fprintf(opts.io.Err, "plan of cost %d (%d actions) at %.2f s\n", pl.TotalCost(), pl.Length(), time.Since(start).Seconds())
		return nil
	}
}

// writeTree draws the plan's decomposition tree as DOT or SVG, by the
// file's extension.
func writeTree(ctx context.Context, ios *ioStreams, path string, p *plan.Plan, collapse bool) error {
	t := plan.Tree(p, collapse)
	return writeFile(ctx, ios, path, func(w io.Writer) error {
		if strings.HasSuffix(path, ".dot") {
			return plan.WriteDOT(w, t)
		}
		return plan.WriteTreeSVG(w, t)
	})
}

// fillReport copies what a run produced into its report.
func fillReport(rep *planReport, res *pipeline.Result) {
	if t := res.Task; t != nil {
		rep.Facts, rep.Actions, rep.Methods = len(t.Facts), len(t.Actions), len(t.Methods)
		rep.Compact = rep.Methods
		if res.Compacted != nil {
			rep.Compact = len(res.Compacted.Methods)
		}
	}
	rep.AnsweredBy = string(res.Engine)
	if l := res.Lazy; l != nil {
		rep.OnDemand = &onDemandReport{FullGrounding: res.Fallback, Facts: l.Facts, Tasks: l.Tasks, Actions: l.Actions, Methods: l.Methods}
		// the task's size is then what was made on demand
		rep.Facts, rep.Actions, rep.Methods, rep.Compact = l.Facts, l.Actions, l.Methods, l.Methods
	}
	if st := res.HTN; st != nil {
		rep.Search, rep.Nodes, rep.Restarts, rep.Ahead, rep.Lost = st.Search, st.Nodes, st.Restarts, st.Ahead, st.Lost
	}
	if st := res.SAT; st != nil {
		rep.Depth, rep.Variables, rep.Clauses, rep.Skipped = st.Depth, st.Vars, st.Clauses, st.Skipped
	}
	if res.Plan != nil {
		rep.PlanLength = res.Plan.Length()
		rep.PlanCost = res.Plan.Length()
		if res.Plan.Costed {
			rep.PlanCost = res.Plan.Cost
		}
	}
	rep.Verified = res.Verified
	rep.Optimal, rep.Plans, rep.FirstCost = res.Optimal, res.Plans, res.FirstCost
	rep.Exhausted, rep.LinearBound = res.ExhaustedDepth, res.ExhaustedDepth > 0 && res.LinearBound
	if res.Stopped != "" {
		rep.Message = "improvement stopped: " + res.Stopped
	}
	for s, d := range res.Times {
		rep.StageSeconds[s] = d.Seconds()
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printPlanStats(w io.Writer, r *planReport) {
	cost := ""
	if r.PlanCost != r.PlanLength {
		cost = fmt.Sprintf(", cost %d", r.PlanCost)
	}
	optimal := ""
	switch {
	case r.Optimal:
		optimal = ", proven optimal"
	case r.Plans > 0:
		optimal = ", not proven optimal"
	}
	fmt.Fprintf(w, "plan: %d actions%s, verified: %v%s\n", r.PlanLength, cost, r.Verified, optimal)
	if r.Exhausted > 0 {
		among := ""
		if r.LinearBound {
			among = " (in the linearised orders)"
		}
		fmt.Fprintf(w, "sat: no cheaper plan with a decomposition tree up to depth %d%s\n", r.Exhausted, among)
	}
	if r.Message != "" {
		fmt.Fprintln(w, r.Message)
	}
	if o := r.OnDemand; o != nil {
		fmt.Fprintf(w, "grounded on demand: %d facts, %d tasks, %d actions, %d method instances\n", o.Facts, o.Tasks, o.Actions, o.Methods)
	} else {
		fmt.Fprintf(w, "ground task: %d facts, %d actions, %d methods (%d compacted)\n", r.Facts, r.Actions, r.Methods, r.Compact)
	}
	if r.Engine != r.AnsweredBy && r.AnsweredBy != "" {
		fmt.Fprintf(w, "engine: %s, the plan by %s\n", r.Engine, r.AnsweredBy)
	}
	if r.Search != "" {
		fmt.Fprintf(w, "search: %s, %d nodes, %d restarts, %d decompositions ahead\n", r.Search, r.Nodes, r.Restarts, r.Ahead)
	}
	if r.Depth > 0 {
		skipped := ""
		if r.Skipped > 0 {
			skipped = fmt.Sprintf(" (%d searches stopped undecided on the way)", r.Skipped)
		}
		fmt.Fprintf(w, "sat: depth %d%s, %d variables, %d clauses\n", r.Depth, skipped, r.Variables, r.Clauses)
	}
	for _, s := range pipeline.Stages {
		if v, ok := r.StageSeconds[s]; ok {
			fmt.Fprintf(w, "  %-8s %9.2f ms\n", s, v*1000)
		}
	}
	fmt.Fprintf(w, "  %-8s %9.2f ms\n", "total", r.TotalSeconds*1000)
}
