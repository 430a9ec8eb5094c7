package compare

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/htnsat/htnsat/internal/slurm"
	"github.com/htnsat/htnsat/sudoku"
)

// A comparison by processes (Process) on a Slurm cluster (package slurm):
// every puzzle × HTN engine a run, "htnsat plan" on the puzzle's HDDL
// files inside an array task, its row the Run a local --process run makes.
// experiment.json holds the puzzles (as lines, with what their files
// recorded), the engines, the style, the time limit and the engine flags.

// Experiment is what experiment.json holds.
type Experiment struct {
	Version string       `json:"version"`
	Exe     string       `json:"exe"`
	Args    []string     `json:"args,omitempty"` // engine flags of every "plan"
	Style   sudoku.Style `json:"style"`
	Timeout string       `json:"timeout"` // per run
	Engines []Engine     `json:"engines"`
	Puzzles []ExpPuzzle  `json:"puzzles"`
}

// ExpPuzzle is a puzzle of an experiment.
type ExpPuzzle struct {
	Line          string `json:"line"`
	Name          string `json:"name"`
	Source        string `json:"source,omitempty"`
	SolutionCount int    `json:"solution_count"` // -1: none recorded
	Solution      string `json:"solution,omitempty"`
}

// NewExperiment makes the experiment of puzzles with the HTN engines run
// as processes (pr: the executable and the engine flags).
func NewExperiment(puzzles []sudoku.Puzzle, engines []Engine, pr *Process, style sudoku.Style, timeout time.Duration, version string) *Experiment {
	e := &Experiment{Version: version, Exe: pr.Exe, Args: pr.Args, Style: style, Timeout: timeout.String(), Engines: engines}
	for _, p := range puzzles {
		ep := ExpPuzzle{Line: p.Line(), Name: p.Name, Source: p.Source, SolutionCount: p.SolutionCount}
		if p.Solution != nil {
			ep.Solution = p.Solution.Line()
		}
		e.Puzzles = append(e.Puzzles, ep)
	}
	return e
}

// puzzle is puzzle i as the reader made it.
func (e *Experiment) puzzle(i int) (sudoku.Puzzle, error) {
	ep := e.Puzzles[i]
	g, err := sudoku.ParseLine(ep.Line)
	if err != nil {
		return sudoku.Puzzle{}, fmt.Errorf("experiment: puzzle %d: %w", i, err)
	}
	p := sudoku.Puzzle{Grid: g, Name: ep.Name, Source: ep.Source, SolutionCount: ep.SolutionCount}
	if ep.Solution != "" {
		s, err := sudoku.ParseLine(ep.Solution)
		if err != nil {
			return sudoku.Puzzle{}, fmt.Errorf("experiment: puzzle %d: %w", i, err)
		}
		p.Solution = &s
	}
	return p, nil
}

// Runs is the number of runs: every puzzle with every engine, run id
// i*len(Engines)+k for puzzle i and engine k (Batch's order).
func (e *Experiment) Runs() int { return len(e.Puzzles) * len(e.Engines) }

// LoadExperiment reads the experiment in dir.
func LoadExperiment(dir string) (*Experiment, error) {
	return slurm.Describe[Experiment](context.Background(), dir, nil)
}

// Check makes sure the experiment is whole: a binary, a time limit,
// engines and puzzles.
func (e *Experiment) Check() error {
	switch {
	case e.Exe == "":
		return errors.New("experiment: no executable (exe)")
	case len(e.Engines) == 0:
		return errors.New("experiment: no engines")
	case len(e.Puzzles) == 0:
		return errors.New("experiment: no puzzles")
	}
	if d, err := time.ParseDuration(e.Timeout); err != nil || d <= 0 {
		return fmt.Errorf("experiment: time limit (timeout) %q is not a positive duration", e.Timeout)
	}
	return nil
}

// Submit writes e into dir, or takes the experiment already there (e is
// then ignored), and submits the runs that have no row (slurm.Submit).
func Submit(ctx context.Context, dir string, e *Experiment, so slurm.Options) (*slurm.Submission, error) {
	e, err := slurm.Describe(ctx, dir, e)
	if err != nil {
		return nil, err
	}
	timeout, err := time.ParseDuration(e.Timeout)
	if err != nil {
		return nil, err
	}
	job := slurm.Job{
		Runs: e.Runs(), Version: e.Version,
		RunTime: timeout + grace + 5*time.Second, // the process's grace, writing its files
		MemMB:   1024,                            // a 25x25 process and the harness, with room
		Exe:     e.Exe, Subcommand: "compare",
	}
	return slurm.Submit(ctx, dir, job, so)
}

// RunTask runs this array task's slice of submission n of the experiment
// in dir: each run a process (Process.Run), its row written as soon as it
// ends; a run cut short by the task's own end writes none.
func RunTask(ctx context.Context, dir string, n, per int) error {
	e, err := LoadExperiment(dir)
	if err != nil {
		return err
	}
	timeout, err := time.ParseDuration(e.Timeout)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "htnsat-task-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	pr := &Process{Exe: e.Exe, Args: e.Args, Dir: work}
	return slurm.RunSlice(ctx, dir, n, per, e.Runs(), func(id int) (any, error) {
		i, k := id/len(e.Engines), id%len(e.Engines)
		p, err := e.puzzle(i)
		if err != nil {
			return nil, err
		}
		return pr.Run(ctx, i, p, e.Engines[k], Options{Style: e.Style}, timeout), nil
	})
}

// Collected is what the rows of an experiment say.
type Collected struct {
	Experiment *Experiment
	Puzzles    []sudoku.Puzzle
	Runs       []Run // in Batch's order; a run never begun has no Status
	Stopped    []int // runs Slurm stopped (their rows say why)
	Missing    []int // runs never begun
}

// Collect reads the rows of the experiment in dir; a run that Slurm
// stopped gets a row with the status slurm.Collect says.
func Collect(ctx context.Context, dir string) (*Collected, error) {
	e, err := LoadExperiment(dir)
	if err != nil {
		return nil, err
	}
	sc, err := slurm.Collect(ctx, dir, e.Runs())
	if err != nil {
		return nil, err
	}
	c := &Collected{Experiment: e, Runs: make([]Run, e.Runs()), Missing: sc.Missing}
	for i := range e.Puzzles {
		p, err := e.puzzle(i)
		if err != nil {
			return nil, err
		}
		c.Puzzles = append(c.Puzzles, p)
		for k, eng := range e.Engines {
			id := i*len(e.Engines) + k
			r := Run{Puzzle: p.Name, Size: p.Size(), Givens: p.Givens(), Engine: eng, Style: e.Style}
			if b, ok := sc.Rows[id]; ok {
				if err := json.Unmarshal(b, &r); err != nil {
					return nil, fmt.Errorf("%s: run %d: %w", dir, id, err)
				}
				if !r.Status.Known() {
					return nil, fmt.Errorf("%s: run %d: its row's status %q is not one htnsat writes", dir, id, r.Status)
				}
			} else if s, ok := sc.Stopped[id]; ok {
				r.Status, r.Error, r.Total = s.Status, s.Message, time.Duration(s.Seconds*float64(time.Second))
				c.Stopped = append(c.Stopped, id)
			}
			c.Runs[id] = r
		}
	}
	return c, nil
}

// Done is the runs that have a row (finished, or stopped by Slurm), in
// Batch's order.
func (c *Collected) Done() []Run {
	var out []Run
	for _, r := range c.Runs {
		if r.Status != "" {
			out = append(out, r)
		}
	}
	return out
}
