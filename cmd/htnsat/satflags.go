package main

import (
	"context"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/spf13/pflag"
)

// satFlags are the options of the SAT engine.
type satFlags struct {
	solver   string
	maxDepth int
	depth    int
	enc      satenc.Options // NoGroups and NoFold come from the shared flags of plan
}

func (s *satFlags) register(f *pflag.FlagSet) {
	f.StringVar(&s.solver, "sat-solver", "", "external DIMACS solver command (e.g. 'cadical -q'); default: gophersat in-process")
	f.IntVar(&s.maxDepth, "max-depth", 0, "SAT engine: deepest decomposition tree tried for recursive problems (0: 32)")
	f.IntVar(&s.depth, "depth", 0, "SAT engine: use exactly this depth (0: automatic)")
}

func (s *satFlags) config() satenc.Config {
	cfg := satenc.Config{MaxDepth: s.maxDepth, Depth: s.depth, Options: s.enc}
	if s.solver != "" {
		cfg.Solver = satenc.External{Command: s.solver}
	}
	return cfg
}

func solveSAT(ctx context.Context, t *ground.Task, s *satFlags, rep *planReport, stage func(string, time.Time) time.Time, t0 time.Time) (*plan.Plan, error) {
	sol, st, err := satenc.Solve(ctx, t, s.config())
	rep.Depth, rep.Variables, rep.Clauses = st.Depth, st.Vars, st.Clauses
	rep.StageSeconds["encode"] = st.Encode.Seconds()
	rep.StageSeconds["solve"] = st.Solve.Seconds()
	rep.StageSeconds["decode"] = st.Decode.Seconds()
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	plan := sol.ToPlan(t)
	rep.StageSeconds["decode"] += time.Since(t1).Seconds()
	return plan, nil
}

func satExternal(cmd string) satenc.Solver { return satenc.External{Command: cmd} }
