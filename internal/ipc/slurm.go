package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"time"

	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/internal/slurm"
	"github.com/htnsat/htnsat/plan"
)

// An experiment on a Slurm cluster (package slurm) is a folder whose
// experiment.json says its runs (problem × engine) and their limits, and
// which binary runs them. Each run is what a local run does (runOne), in
// an array task; its row is the Result a local run makes, so Collect gives
// the CSV rows and tables of a local run over the same problems.

// Experiment is what experiment.json holds.
type Experiment struct {
	Version string   `json:"version"` // of the binary that runs the tasks
	Exe     string   `json:"exe"`
	Stage   string   `json:"stage"`
	Timeout string   `json:"timeout"` // per run
	MemMB   int      `json:"mem_mb"`  // per run, as ipc --mem
	Extra   []string `json:"extra,omitempty"`
	Runs    []ExpRun `json:"runs"`
}

// ExpRun is one run of an experiment: a problem and, for Stage plan, an
// engine.
type ExpRun struct {
	ID     int    `json:"id"`
	Engine string `json:"engine,omitempty"`
	corpus.Instance
}

// NewExperiment lays out the runs of sel with each engine (one run per
// problem for Stage ground). Its files are absolute: the tasks run from
// wherever sbatch was called.
func NewExperiment(sel []corpus.Instance, engines []string, opts Options, version string) (*Experiment, error) {
	e := &Experiment{Version: version, Exe: opts.Exe, Stage: opts.Stage, Timeout: opts.Timeout.String(), MemMB: opts.MemMB, Extra: opts.Extra}
	if opts.Stage != "plan" {
		engines = []string{""}
	}
	for i, in := range sel {
		for _, f := range []*string{&in.DomainFile, &in.ProblemFile} {
			abs, err := filepath.Abs(*f)
			if err != nil {
				return nil, err
			}
			*f = abs
		}
		sel[i] = in
	}
	for _, eng := range engines {
		for _, in := range sel {
			e.Runs = append(e.Runs, ExpRun{ID: len(e.Runs), Engine: eng, Instance: in})
		}
	}
	return e, e.Check()
}

// options are the local harness's options for a run of e.
func (e *Experiment) options(engine string) (Options, error) {
	d, err := time.ParseDuration(e.Timeout)
	if err != nil {
		return Options{}, fmt.Errorf("experiment: timeout %q: %w", e.Timeout, err)
	}
	return Options{Exe: e.Exe, Stage: e.Stage, Engine: engine, Timeout: d, MemMB: e.MemMB, Extra: e.Extra}, nil
}

// LoadExperiment reads the experiment of dir.
func LoadExperiment(dir string) (*Experiment, error) {
	return slurm.Describe[Experiment](context.Background(), dir, nil)
}

// Check makes sure the experiment is whole: a binary, a stage, limits
// and runs, numbered as the files are, each with its files.
func (e *Experiment) Check() error {
	switch {
	case e.Exe == "":
		return errors.New("experiment: no executable (exe)")
	case e.Stage != "ground" && e.Stage != "plan":
		return fmt.Errorf("experiment: stage %q is not ground or plan", e.Stage)
	case e.MemMB <= 0:
		return fmt.Errorf("experiment: memory limit (mem_mb) %d is not positive", e.MemMB)
	case len(e.Runs) == 0:
		return errors.New("experiment: no runs")
	}
	if d, err := time.ParseDuration(e.Timeout); err != nil || d <= 0 {
		return fmt.Errorf("experiment: time limit (timeout) %q is not a positive duration", e.Timeout)
	}
	for i, r := range e.Runs {
		switch {
		case r.ID != i:
			return fmt.Errorf("experiment: run %d has id %d", i, r.ID)
		case r.DomainFile == "" || r.ProblemFile == "":
			return fmt.Errorf("experiment: run %d has no domain or problem file", i)
		case (e.Stage == "plan") != (r.Engine != ""):
			return fmt.Errorf("experiment: run %d: engine %q for stage %s", i, r.Engine, e.Stage)
		}
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
		Runs: len(e.Runs), Version: e.Version,
		RunTime: timeout + 5*time.Second, // runOne's grace
		MemMB:   e.MemMB + 256,           // a run's hard limit and the harness
		Exe:     e.Exe, Subcommand: "ipc",
	}
	return slurm.Submit(ctx, dir, job, so)
}

// RunTask runs this array task's slice of submission n of the experiment
// in dir, each run as a local run does, each row written as soon as the
// run ends. A run cut short because the task itself is being stopped
// (Slurm's SIGTERM before a kill) writes no row: its begun marker tells
// Collect to ask Slurm.
func RunTask(ctx context.Context, dir string, n, per int) error {
	e, err := LoadExperiment(dir)
	if err != nil {
		return err
	}
	return slurm.RunSlice(ctx, dir, n, per, len(e.Runs), func(id int) (any, error) {
		r := e.Runs[id]
		opts, err := e.options(r.Engine)
		if err != nil {
			return nil, err
		}
		res := runOne(ctx, r.Instance, opts)
		return taskRow{Status: res.Status, Seconds: res.Seconds, MaxRSSMB: res.MaxRSSMB, Message: res.Message, Report: res.Report}, nil
	})
}

// taskRow is a run's Result as its row file holds it.
type taskRow struct {
	Status   string         `json:"status"`
	Seconds  float64        `json:"seconds"`
	MaxRSSMB float64        `json:"max_rss_mb"`
	Message  string         `json:"message,omitempty"`
	Report   map[string]any `json:"report,omitempty"` // the child's JSON report
}

// Collected is what the rows of an experiment say.
type Collected struct {
	Experiment *Experiment
	// Results per engine ("" for the ground stage), in the order of the
	// experiment's runs; a run never begun is not there
	Results map[string][]Result
	Stopped []int // runs Slurm stopped (their rows say why)
	Missing []int // runs never begun
}

// Collect reads the rows of the experiment in dir; a run that Slurm
// stopped gets the row slurm.Collect makes of it.
func Collect(ctx context.Context, dir string) (*Collected, error) {
	e, err := LoadExperiment(dir)
	if err != nil {
		return nil, err
	}
	sc, err := slurm.Collect(ctx, dir, len(e.Runs))
	if err != nil {
		return nil, err
	}
	c := &Collected{Experiment: e, Results: map[string][]Result{}, Missing: sc.Missing}
	for _, r := range e.Runs {
		res := Result{Instance: r.Instance}
		if b, ok := sc.Rows[r.ID]; ok {
			var tr taskRow
			if err := json.Unmarshal(b, &tr); err != nil {
				return nil, fmt.Errorf("%s: run %d: %w", dir, r.ID, err)
			}
			if !plan.Status(tr.Status).Known() {
				return nil, fmt.Errorf("%s: run %d: its row's status %q is not one htnsat writes", dir, r.ID, tr.Status)
			}
			res.Status, res.Seconds, res.MaxRSSMB, res.Message, res.Report = tr.Status, tr.Seconds, tr.MaxRSSMB, tr.Message, tr.Report
		} else if s, ok := sc.Stopped[r.ID]; ok {
			res.Status, res.Message, res.Seconds = string(s.Status), s.Message, s.Seconds
			c.Stopped = append(c.Stopped, r.ID)
		} else {
			continue
		}
		c.Results[r.Engine] = append(c.Results[r.Engine], res)
	}
	return c, nil
}

// Engines lists the engines of the experiment in the order of its runs
// ("" for the ground stage).
func (c *Collected) Engines() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range c.Experiment.Runs {
		if !seen[r.Engine] {
			seen[r.Engine] = true
			out = append(out, r.Engine)
		}
	}
	return out
}

// CSVName is the file the rows of an engine go to: ipc-ENGINE.csv, or
// ipc-ground.csv for the ground stage.
func CSVName(engine string) string {
	if engine == "" {
		engine = "ground"
	}
	return "ipc-" + engine + ".csv"
}

// List writes the runs of ids, a line each, at most max.
func (c *Collected) List(w io.Writer, ids []int, max int) {
	sorted := append([]int(nil), ids...)
	sort.Ints(sorted)
	for i, id := range sorted {
		if i == max {
			fmt.Fprintf(w, "  ... and %d more\n", len(sorted)-max)
			return
		}
		r := c.Experiment.Runs[id]
		eng := ""
		if r.Engine != "" {
			eng = " (" + r.Engine + ")"
		}
		fmt.Fprintf(w, "  run %d: %s%s\n", id, r.Instance.Name(), eng)
	}
}
