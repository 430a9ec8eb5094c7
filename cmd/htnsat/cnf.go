package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/excerpt"
	"github.com/htnsat/htnsat/internal/input"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/verify"
)

func newCmdCNF(ios *ioStreams) *cobra.Command {
	var output string
	var depth, maxGround int
	var names bool
	var encOpt encodingOptions
	var timeout time.Duration
	cmd := &cobra.Command{
		Use: "cnf DOMAIN PROBLEM -o OUT.cnf",
		Example: `  # the encoding of the paper's puzzle, for any DIMACS solver
  htnsat cnf domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl -o paper.cnf
  # a recursive problem needs a depth
  htnsat cnf --depth 6 testdata/recursive/domain.hddl testdata/recursive/problem.hddl -o rec.cnf`,
		Short: "Write the HTN-to-SAT encoding of a problem as DIMACS",
		Long: `Ground the problem and write its CNF encoding (a path decomposition tree in
the style of totSAT) in DIMACS. Comment lines record the depth and name every
variable: task, method or action at a vertex of the tree, fact at a step. Any
SAT solver can read the file; "htnsat decode" turns its model into a plan (it
reads the depth and the encoding options back from the comments). Problems
with recursion need --depth.`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			cmd.SetContext(ctx)
			if output == "" {
				return &usageError{errors.New("-o OUT.cnf is required")}
			}
			start := time.Now()
			p, _, err := pipeline.Load(cmd.Context(), args[0], args[1])
			if err != nil {
				return failure(err)
			}
			d := p.Domain
			progress.From(cmd.Context()).Stage("ground")
			t, _, err := ground.Ground(cmd.Context(), p, ground.Options{MaxGround: maxGround})
			if err != nil {
				return failure(err)
			}
			folding, err := encOpt.fold(cmd.Context(), t)
			if err != nil {
				return failure(err)
			}
			if depth <= 0 {
				if depth = folding.Task.Depth(); depth < 0 {
					return withCode(exitFailure, errors.New("the problem has recursion: give the depth of the decomposition tree with --depth"))
				}
			}
			w, err := satenc.NewDIMACSWriter("")
			if err != nil {
				return err
			}
			defer w.Close()
			t0 := time.Now()
			progress.From(cmd.Context()).Stage("encode")
			enc, err := satenc.Encode(cmd.Context(), folding.Task, depth, w, encOpt.sat)
			if err != nil {
				return failure(err)
			}
			comments := []string{
				"htnsat HTN-to-SAT encoding",
				"domain " + d.Name + " (" + args[0] + ")",
				"problem " + p.Name + " (" + args[1] + ")",
				fmt.Sprintf("depth %d", depth),
				"options " + formatEncOptions(encOpt),
				fmt.Sprintf("steps %d, vertices %d", enc.Steps(), enc.Vertices()),
			}
			if names {
				for v := 1; v <= enc.NumVars; v++ {
					comments = append(comments, fmt.Sprintf("var %d %s", v, enc.VarName(satenc.Var(v))))
				}
			}
			err = writeFile(cmd.Context(), ios, output, func(f io.Writer) error { return w.WriteTo(f, w.NumVars(), comments) })
			if err != nil {
				return err
			}
			fmt.Fprintf(ios.Err, "%s: depth %d, %d variables, %d clauses (encode %.1f ms, total %.1f ms)\n",
				output, depth, enc.NumVars, enc.Clauses, time.Since(t0).Seconds()*1000, time.Since(start).Seconds()*1000)
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "the DIMACS file to write (-: the standard output)")
	cmd.Flags().IntVar(&depth, "depth", 0, "depth of the decomposition tree (0: what the problem needs, if it has no recursion)")
	capFlag(cmd.Flags(), "depth", satenc.DepthCap)
	cmd.Flags().IntVar(&maxGround, "max-ground", ground.DefaultMaxGround, "most ground actions plus methods to build")
	cmd.Flags().BoolVar(&names, "names", true, "name every variable in a comment line")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up after this long (0: no limit)")
	cmd.Flags().BoolVar(&encOpt.sat.NoGroups, "no-groups", false, "leave out the clauses inferred from choice groups")
	cmd.Flags().BoolVar(&encOpt.noFold, "no-fold", false, "do not compact the ground task (tasks with a single method stay, pure tests included)")
	return cmd
}

func newCmdDecode(ios *ioStreams) *cobra.Command {
	var output string
	var noVerify bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use: "decode DOMAIN PROBLEM OUT.cnf MODEL",
		Example: `  htnsat cnf domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl -o paper.cnf
  cadical -q paper.cnf > model.txt
  htnsat decode domains/sudoku.hddl testdata/sudoku/paper-ordered.hddl paper.cnf model.txt -o paper.plan`,
		Short: "Turn a SAT solver's model of an exported CNF into a plan",
		Long: `Rebuild the encoding that "htnsat cnf" wrote (same problem, same depth: the
numbering is deterministic), read the solver's model (the competition form with
"s" and "v" lines, or MiniSat's result file) and print the plan in the IPC 2020
format, checked by the verifier.`,
		Args: exactArgs(4),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			cmd.SetContext(ctx)
			p, _, err := pipeline.Load(cmd.Context(), args[0], args[1])
			if err != nil {
				return failure(err)
			}
			depth, encOpt, vars, clauses, err := readCNFHeader(ctx, args[2])
			if err != nil {
				return failure(plan.WithCause(ctx, err))
			}
			mf, err := input.Open(ctx, args[3])
			if err != nil {
				return failure(plan.WithCause(ctx, err))
			}
			defer mf.Close()
			res, err := satenc.ReadModel(bufio.NewReader(input.Reader(ctx, mf)), vars)
			if err != nil {
				if ctx.Err() != nil {
					return failure(plan.WithCause(ctx, err))
				}
				return withCode(exitFailure, fmt.Errorf("%s: %w", args[3], err))
			}
			if !res.Sat {
				return withCode(exitFailure, fmt.Errorf("%s: the formula is unsatisfiable: no plan at depth %d", args[3], depth))
			}
			t, _, err := ground.Ground(cmd.Context(), p, ground.Options{})
			if err != nil {
				return failure(err)
			}
			folding, err := encOpt.fold(cmd.Context(), t)
			if err != nil {
				return failure(err)
			}
			// the encoding again, each clause checked against the model
			chk := &modelCheck{model: res.Model}
			enc, err := satenc.Encode(cmd.Context(), folding.Task, depth, chk, encOpt.sat)
			if err != nil {
				return failure(err)
			}
			if enc.NumVars != vars || enc.Clauses != clauses {
				return withCode(exitFailure, fmt.Errorf("%s does not match this problem: it has %d variables and %d clauses, the encoding at depth %d has %d and %d", args[2], vars, clauses, depth, enc.NumVars, enc.Clauses))
			}
			if chk.falsified > 0 {
				return withCode(exitFailure, fmt.Errorf("%s is not a model of %s for this problem: clause %d of the formula (and %d more) is false under it; give the model the solver found for %s", args[3], args[2], chk.first, chk.falsified-1, args[2]))
			}
			sol, err := enc.Decode(res.Model)
			if err != nil {
				return withCode(exitFailure, err)
			}
			pl := folding.Unfold(sol).ToPlan(t)
			if !noVerify {
				if err := verify.Verify(cmd.Context(), p, pl); err != nil {
					return withCode(exitFailure, fmt.Errorf("the decoded plan does not verify: %w", err))
				}
			}
			return writeFile(cmd.Context(), ios, output, pl.Write)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the plan to this file")
	cmd.Flags().BoolVar(&noVerify, "no-verify", false, "do not verify the plan")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up after this long (0: no limit)")
	return cmd
}

// modelCheck is a clause sink that checks each clause against a model:
// falsified counts the clauses the model makes false, first is the number
// of the first of them (from 1, as the DIMACS file lists them).
type modelCheck struct {
	model            []bool
	n                satenc.Var
	clauses          int
	falsified, first int
}

func (m *modelCheck) NewVar() satenc.Var { m.n++; return m.n }

func (m *modelCheck) AddClause(lits ...satenc.Lit) {
	m.clauses++
	for _, l := range lits {
		if v := int(l.Var()); v < len(m.model) && m.model[v] == (l > 0) {
			return
		}
	}
	if m.falsified++; m.falsified == 1 {
		m.first = m.clauses
	}
}

// encodingOptions are the options that shape an exported CNF: the
// decoder must rebuild the same encoding.
type encodingOptions struct {
	noFold bool
	sat    satenc.Options
}

// fold compacts t unless told not to.
func (o encodingOptions) fold(ctx context.Context, t *ground.Task) (*ground.Folding, error) {
	if o.noFold {
		return ground.NoFolding(t), nil
	}
	return ground.Compact(ctx, t)
}

// formatEncOptions and parseEncOptions write and read the encoding
// options in the "c options" comment of an exported CNF.
func formatEncOptions(o encodingOptions) string {
	var fs []string
	if o.sat.NoGroups {
		fs = append(fs, "no-groups")
	}
	if o.noFold {
		fs = append(fs, "no-fold")
	}
	if len(fs) == 0 {
		return "default"
	}
	return strings.Join(fs, " ")
}

func parseEncOptions(s string) (encodingOptions, error) {
	var o encodingOptions
	for _, f := range strings.Fields(s) {
		switch f {
		case "default":
		case "no-groups":
			o.sat.NoGroups = true
		case "no-fold":
			o.noFold = true
		default:
			return o, fmt.Errorf("unknown encoding option %q", f)
		}
	}
	return o, nil
}

// readCNFHeader reads the depth and options comments and the problem line
// of a CNF written by "htnsat cnf".
func readCNFHeader(ctx context.Context, path string) (depth int, opt encodingOptions, vars, clauses int, err error) {
	f, err := input.Open(ctx, path)
	if err != nil {
		return 0, opt, 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(input.Reader(ctx, f))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	depth = -1
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "c depth "); ok {
			if depth, err = strconv.Atoi(rest); err != nil || depth < 1 || depth > satenc.DepthCap {
				return 0, opt, 0, 0, fmt.Errorf("%s: \"c depth %s\": want a depth from 1 to %d", path, excerpt.Quote(rest), satenc.DepthCap)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "c options "); ok {
			if opt, err = parseEncOptions(rest); err != nil {
				return 0, opt, 0, 0, fmt.Errorf("%s: %w", path, err)
			}
			continue
		}
		if strings.HasPrefix(line, "p cnf ") {
			fs := strings.Fields(line)
			if len(fs) != 4 {
				return 0, opt, 0, 0, fmt.Errorf("%s: bad header %s", path, excerpt.Quote(line))
			}
			vars, err1 := strconv.Atoi(fs[2])
			clauses, err2 := strconv.Atoi(fs[3])
			if err1 != nil || err2 != nil {
				return 0, opt, 0, 0, fmt.Errorf("%s: bad header %s", path, excerpt.Quote(line))
			}
			if depth < 0 {
				return 0, opt, 0, 0, fmt.Errorf("%s: no \"c depth\" comment: not written by htnsat cnf", path)
			}
			return depth, opt, vars, clauses, nil
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return 0, opt, 0, 0, fmt.Errorf("%s: a line longer than 64 MiB before the \"p cnf\" header: not written by htnsat cnf", path)
		}
		return 0, opt, 0, 0, err
	}
	return 0, opt, 0, 0, fmt.Errorf("%s: no \"p cnf\" header", path)
}
