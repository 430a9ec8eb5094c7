package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/spf13/cobra"
)

type parseOptions struct {
	io          *ioStreams
	domainFile  string
	problemFile string
	json        bool
	print       bool
	timeout     time.Duration
}

func newCmdParse(ios *ioStreams) *cobra.Command {
	opts := &parseOptions{io: ios}
	cmd := &cobra.Command{
		Use: "parse DOMAIN PROBLEM",
		Example: `  htnsat parse domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl
  htnsat parse --print domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl`,
		Short: "Parse and check an HDDL domain and problem and summarise them",
		Long: `Parse and check an HDDL domain and problem. Prints counts of types,
constants, objects, predicates, tasks, methods and actions, the initial task
network and its free variables, and whether the problem is totally ordered.
Errors are reported as file:line:col: message, at most ten at a time.`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.domainFile, opts.problemFile = args[0], args[1]
			ctx, cancel := withTimeout(cmd.Context(), opts.timeout)
			defer cancel()
			return runParse(ctx, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the summary as JSON")
	cmd.Flags().BoolVar(&opts.print, "print", false, "print the domain and problem as canonical HDDL")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 0, "give up after this long (0: no limit)")
	return cmd
}

// parseSummary is the JSON form of "htnsat parse".
type parseSummary struct {
	Domain         string `json:"domain"`
	Problem        string `json:"problem"`
	Types          int    `json:"types"`
	ImplicitTypes  int    `json:"implicit_types"`
	Constants      int    `json:"constants"`
	Objects        int    `json:"objects"`
	Predicates     int    `json:"predicates"`
	CompoundTasks  int    `json:"compound_tasks"`
	Actions        int    `json:"actions"`
	Methods        int    `json:"methods"`
	InitialTasks   int    `json:"initial_tasks"`
	FreeVariables  int    `json:"free_variables"`
	InitFacts      int    `json:"init_facts"`
	GoalGiven      bool   `json:"goal"`
	TotalOrder     bool   `json:"total_order"`
	InitialOrdered bool   `json:"initial_network_total_order"`
	Warnings       int    `json:"warnings"`
}

func summarize(d *hddl.Domain, p *hddl.Problem) parseSummary {
	s := parseSummary{
		Domain:         d.Name,
		Problem:        p.Name,
		Types:          len(d.Types) - 1,
		Constants:      len(d.Constants),
		Objects:        len(p.Objects) - len(d.Constants),
		Predicates:     len(d.Predicates),
		CompoundTasks:  len(d.Tasks),
		Actions:        len(d.Actions),
		Methods:        len(d.Methods),
		InitialTasks:   len(p.Initial.Subtasks),
		FreeVariables:  p.NumParams,
		InitFacts:      len(p.Init),
		GoalGiven:      p.Goal != nil,
		TotalOrder:     p.IsTotalOrder(),
		InitialOrdered: p.Initial.Total,
		Warnings:       len(d.Warnings) + len(p.Warnings),
	}
	for _, t := range d.Types {
		if t.Implicit {
			s.ImplicitTypes++
		}
	}
	return s
}

func runParse(ctx context.Context, opts *parseOptions) error {
	p, _, err := pipeline.Load(ctx, opts.domainFile, opts.problemFile)
	if err != nil {
		return failure(err)
	}
	d := p.Domain
	for _, w := range append(append([]*hddl.Error{}, d.Warnings...), p.Warnings...) {
		fmt.Fprintln(opts.io.Err, w)
	}
	out := opts.io.Out
	switch {
	case opts.print:
		if err := hddl.WriteDomain(out, d); err != nil {
			return err
		}
		fmt.Fprintln(out)
		return hddl.WriteProblem(out, p)
	case opts.json:
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(summarize(d, p))
	}
	s := summarize(d, p)
	yes := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(out, "domain          %s (%s)\n", s.Domain, opts.domainFile)
	fmt.Fprintf(out, "problem         %s (%s)\n", s.Problem, opts.problemFile)
	fmt.Fprintf(out, "types           %d (%d implicit)\n", s.Types, s.ImplicitTypes)
	fmt.Fprintf(out, "constants       %d\n", s.Constants)
	fmt.Fprintf(out, "objects         %d\n", s.Objects)
	fmt.Fprintf(out, "predicates      %d\n", s.Predicates)
	fmt.Fprintf(out, "compound tasks  %d\n", s.CompoundTasks)
	fmt.Fprintf(out, "actions         %d\n", s.Actions)
	fmt.Fprintf(out, "methods         %d\n", s.Methods)
	fmt.Fprintf(out, "init facts      %d\n", s.InitFacts)
	fmt.Fprintf(out, "initial tasks   %d (%d free variables)\n", s.InitialTasks, s.FreeVariables)
	fmt.Fprintf(out, "goal            %s\n", yes[s.GoalGiven])
	fmt.Fprintf(out, "total order     %s (initial network: %s)\n", yes[s.TotalOrder], yes[s.InitialOrdered])
	return nil
}
