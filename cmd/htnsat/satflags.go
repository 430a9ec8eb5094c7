package main

import (
	"context"
	"errors"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/htn"
	"github.com/spf13/pflag"
)

// satFlags are the options of the SAT engine.
type satFlags struct {
	solver   string
	maxDepth int
}

func (s *satFlags) register(f *pflag.FlagSet) {
	f.StringVar(&s.solver, "sat-solver", "", "external DIMACS solver command (e.g. 'cadical -q'); default: gophersat in-process")
	f.IntVar(&s.maxDepth, "max-depth", 0, "SAT engine: deepest decomposition to try for recursive problems (0: default)")
}

func solveSAT(ctx context.Context, t *ground.Task, s *satFlags, rep *planReport, stage func(string, time.Time) time.Time, t0 time.Time) (*htn.Plan, error) {
	return nil, errors.New("the sat engine is not available yet")
}
