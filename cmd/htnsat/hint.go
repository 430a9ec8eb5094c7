package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
	"github.com/spf13/cobra"
)

func newCmdSudokuHint(ios *ioStreams) *cobra.Command {
	var level, condition string
	var asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use: "hint [PUZZLE]",
		Example: `  # the paper's puzzle, every level
  htnsat sudoku hint
  htnsat sudoku hint --level gac 4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........`,
		Short: "The hint panel: cells each consistency level can fill, by condition",
		Long: `For each consistency level from the weakest (fc, ac, gac-each, gac, sac-each,
sac, sgac-each, sgac; see docs/sudoku.md) up to --level, how many blank cells satisfy
each condition and which: singleton (one digit left in the cell) and vital (a
digit no other cell of a row, column or box can take). The levels stop at a
contradiction (the grid has no solution: exit 1). PUZZLE is a puzzle in any form the
reader accepts, "-" for stdin; none is the paper's puzzle.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			last, err := csp.ParseLevel(level)
			if err != nil {
				return &usageError{err}
			}
			conds := []csp.Condition{csp.Singleton, csp.Vital}
			if condition != "" {
				c, err := csp.ParseCondition(condition)
				if err != nil {
					return &usageError{err}
				}
				conds = []csp.Condition{c}
			}
			p, err := onePuzzle(cmd.Context(), ios, args)
			if err != nil {
				return withCode(exitFailure, err)
			}
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			hs, err := csp.NewModel(p.Box).Hints(ctx, p.Grid, last)
			if err != nil {
				return failure(plan.WithCause(ctx, err))
			}
			if asJSON {
				for i := range hs {
					if len(conds) == 1 && conds[0] == csp.Singleton {
						hs[i].Vitals = nil
					}
					if len(conds) == 1 && conds[0] == csp.Vital {
						hs[i].Singletons = nil
					}
				}
				enc := json.NewEncoder(ios.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(map[string]any{"puzzle": p.Line(), "levels": hs}); err != nil {
					return err
				}
			} else {
				printHints(ios.Out, p, hs, conds)
			}
			if n := len(hs); n > 0 && hs[n-1].Contradiction != "" {
				return withCode(exitFailure, fmt.Errorf("the grid has no solution: %s finds that %s", hs[n-1].Level.Title(), hs[n-1].Contradiction))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&level, "level", "sgac", "the strongest level to run")
	f.StringVar(&condition, "condition", "", "singleton or vital (default both)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.DurationVar(&timeout, "timeout", 60*time.Second, "time limit")
	return cmd
}

// onePuzzle reads the puzzle of the argument, or the paper's puzzle.
func onePuzzle(ctx context.Context, ios *ioStreams, args []string) (sudoku.Puzzle, error) {
	if len(args) == 0 {
		p, err := sudoku.ParsePuzzle(paperPuzzle)
		p.Name = "paper"
		return p, err
	}
	ps, err := readPuzzleArg(ctx, ios, args[0])
	if err != nil {
		return sudoku.Puzzle{}, err
	}
	if len(ps) != 1 {
		return sudoku.Puzzle{}, fmt.Errorf("%d puzzles where one was expected", len(ps))
	}
	return ps[0], nil
}

// printHints prints, per level, how many blank cells satisfy each
// condition and which of them are new at that level.
func printHints(w io.Writer, p sudoku.Puzzle, hs []csp.LevelHints, conds []csp.Condition) {
	fmt.Fprintf(w, "%s: %d×%d, %d givens, %d blanks\n", p.Name, p.Size(), p.Size(), p.Givens(), p.Blanks())
	fmt.Fprintf(w, "%-24s %-9s %5s  %s\n", "level", "condition", "cells", "new at this level")
	seen := map[string]bool{}
	for _, h := range hs {
		if h.Contradiction != "" {
			fmt.Fprintf(w, "%-24s contradiction: %s\n", h.Level.Title(), h.Contradiction)
			continue
		}
		title := h.Level.Title()
		for _, c := range conds {
			list := h.Singletons
			if c == csp.Vital {
				list = h.Vitals
			}
			var fresh []string
			for _, x := range list {
				key := fmt.Sprintf("%s %s=%d", c, x.Cell, x.Digit)
				if seen[key] {
					continue
				}
				seen[key] = true
				s := x.Cell + "=" + sudoku.Symbol(x.Digit, p.Size())
				if x.Unit != "" {
					s += " (" + x.Unit + ")"
				}
				fresh = append(fresh, s)
			}
			line := fmt.Sprintf("%-24s %-9s %5d  %s", title, c, len(list), strings.Join(fresh, ", "))
			fmt.Fprintln(w, strings.TrimRight(line, " "))
			title = ""
		}
		if len(h.Singletons) == p.Blanks() {
			fmt.Fprintf(w, "%-24s every blank has one digit left: this level solves the puzzle\n", "")
		}
	}
}

func newCmdSudokuRate(ios *ioStreams) *cobra.Command {
	var files []string
	var asJSON, sorted bool
	var timeout time.Duration
	var limit int
	cmd := &cobra.Command{
		Use: "rate [PUZZLE | -f FILE]",
		Example: `  htnsat sudoku rate -f sudoku/sets/9x9/top95.txt --sort
  htnsat sudoku rate --json 4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........`,
		Short: "Rate puzzles: the weakest consistency level whose propagation alone solves each",
		Long: `Rate each puzzle by the weakest of fc, ac, gac, sac and sgac whose propagation
alone solves it; "search" when none does, with the nodes of a search that
maintains SGAC to the first solution; "none" when there is no solution. A
puzzle with more than one solution (a search maintaining GAC counts up to 2)
is flagged. One line per puzzle (--sort: easiest first), then how many puzzles
each level takes. --timeout bounds each puzzle (status timeout).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var ps []sudoku.Puzzle
			var err error
			unread := 0
			switch {
			case len(args) == 1 && len(files) > 0:
				return &usageError{errors.New("give a puzzle or -f FILE, not both")}
			case len(files) > 0:
				ps, unread, err = readPuzzleFiles(cmd.Context(), ios, files, limit)
			default:
				var p sudoku.Puzzle
				p, err = onePuzzle(cmd.Context(), ios, args)
				ps = []sudoku.Puzzle{p}
			}
			if err != nil {
				return withCode(exitFailure, err)
			}
			if err := runRate(cmd.Context(), ios.Out, ps, asJSON, sorted, timeout); err != nil {
				return err
			}
			return unreadError(unread)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&files, "file", "f", nil, "rate the puzzles of this file (repeatable)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.BoolVar(&sorted, "sort", false, "print the puzzles easiest first")
	f.DurationVar(&timeout, "timeout", 60*time.Second, "time limit per puzzle")
	f.IntVar(&limit, "limit", 0, "rate only the first N puzzles")
	return cmd
}

type rated struct {
	Puzzle string `json:"puzzle"`
	Name   string `json:"name"`
	Level  string `json:"level"`
	Nodes  int64  `json:"nodes,omitempty"`
	// Solutions is the number of solutions up to 2.
	Solutions int     `json:"solutions"`
	Seconds   float64 `json:"seconds"`
	rank      int
}

func runRate(ctx context.Context, w io.Writer, ps []sudoku.Puzzle, asJSON, sorted bool, timeout time.Duration) error {
	rank := map[string]int{"none": -1, "search": len(csp.RateLevels)}
	for i, l := range csp.RateLevels {
		rank[l.String()] = i
	}
	models := map[int]*csp.Model{}
	var out []rated
	timedOut := 0
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return failure(plan.WithCause(ctx, err))
		}
		m := models[p.Box]
		if m == nil {
			m = csp.NewModel(p.Box)
			models[p.Box] = m
		}
		pctx, cancel := withTimeout(ctx, timeout)
		t0 := time.Now()
		r, err := m.Rate(pctx, p.Grid)
		cancel()
		x := rated{Puzzle: p.Line(), Name: p.Name, Level: r.Level, Nodes: r.Nodes, Solutions: r.Solutions, Seconds: time.Since(t0).Seconds()}
		if err != nil {
			if ctx.Err() != nil {
				return failure(plan.WithCause(ctx, err))
			}
			x.Level = string(plan.Timeout)
			timedOut++
		}
		x.rank = rank[x.Level]
		if x.Level == string(plan.Timeout) {
			x.rank = len(csp.RateLevels) + 1
		}
		out = append(out, x)
	}
	if sorted {
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].rank != out[j].rank {
				return out[i].rank < out[j].rank
			}
			return out[i].Nodes < out[j].Nodes
		})
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		counts := map[string]int{}
		for _, x := range out {
			nodes := ""
			if x.Level == "search" {
				nodes = fmt.Sprintf(" %d nodes", x.Nodes)
			}
			if x.Solutions > 1 {
				nodes += " (not unique: 2 or more solutions)"
			}
			fmt.Fprintf(w, "%s %s%s\n", x.Puzzle, x.Level, nodes)
			counts[x.Level]++
		}
		if len(out) > 1 {
			var parts []string
			for _, l := range append(append([]string{}, levelNames()...), "search", "none", string(plan.Timeout)) {
				if counts[l] > 0 {
					parts = append(parts, fmt.Sprintf("%s %d", l, counts[l]))
				}
			}
			fmt.Fprintf(w, "%d puzzles: %s\n", len(out), strings.Join(parts, ", "))
		}
	}
	if timedOut > 0 {
		return withCode(exitTimeout, fmt.Errorf("%d puzzles ran out of time", timedOut))
	}
	return nil
}

func levelNames() []string {
	var out []string
	for _, l := range csp.RateLevels {
		out = append(out, l.String())
	}
	return out
}
