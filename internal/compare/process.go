package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/htnsat/htnsat/internal/excerpt"
	"github.com/htnsat/htnsat/internal/proc"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku"
)

// Process runs the HTN engines as processes of their own, the way planners
// that read HDDL are run: for each puzzle the size's domain and the
// puzzle's problem are written to files first, then "Exe plan --engine
// progression|htn-sat --json -o PLAN DOMAIN PROBLEM" runs once per engine. A
// run's time is the process's wall time from its start to its exit
// (start-up, reading and parsing the files, grounding, planning and
// verifying the plan included); its stages are what the process reports,
// its peak the process's peak resident memory. The plan file is read back
// and its grid checked against the puzzle, as in a run in process.
type Process struct {
	Exe  string   // the htnsat executable
	Args []string // more arguments to every "plan" (engine flags)
	Dir  string   // where the HDDL and plan files go

	mu      sync.Mutex
	domains map[int]string // domain file per grid size
}

// grace is how long a process may outlive its --timeout (to report and
// exit) before it is killed.
const grace = 2 * time.Second

// files writes, once each, the domain of p's size and p's problem (file
// number i) and returns their paths.
func (pr *Process) files(i int, p sudoku.Puzzle, style sudoku.Style) (domain, problem string, err error) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.domains == nil {
		pr.domains = map[int]string{}
	}
	n := p.Size()
	domain, ok := pr.domains[n]
	if !ok {
		text, _, err := sudoku.DomainText(p.Box)
		if err != nil {
			return "", "", err
		}
		domain = filepath.Join(pr.Dir, fmt.Sprintf("domain-%d.hddl", n))
		if err := os.WriteFile(domain, text, 0o644); err != nil {
			return "", "", err
		}
		pr.domains[n] = domain
	}
	problem = filepath.Join(pr.Dir, fmt.Sprintf("problem-%d.hddl", i))
	if _, err := os.Stat(problem); err == nil {
		return domain, problem, nil
	}
	text, err := sudoku.ProblemText(p.Grid, style, fmt.Sprintf("p%d", i))
	if err != nil {
		return "", "", err
	}
	return domain, problem, os.WriteFile(problem, text, 0o644)
}

// processReport is what "htnsat plan --json" prints that a run records.
type processReport struct {
	Status       plan.Status        `json:"status"`
	Message      string             `json:"message"`
	PlanLength   int                `json:"plan_length"`
	Verified     bool               `json:"verified"`
	Nodes        int64              `json:"nodes"`
	Variables    int                `json:"variables"`
	Clauses      int                `json:"clauses"`
	Depth        int                `json:"depth"`
	StageSeconds map[string]float64 `json:"stage_seconds"`
	PeakRSSMB    float64            `json:"peak_rss_mb"`
}

// Run solves puzzle number i of a batch with engine e in a process of its
// own, under timeout (0: none). Failures are recorded in the Run.
func (pr *Process) Run(ctx context.Context, i int, p sudoku.Puzzle, e Engine, opt Options, timeout time.Duration) (r Run) {
	r = Run{Puzzle: p.Name, Size: p.Size(), Givens: p.Givens(), Engine: e, Style: opt.Style, Stages: map[string]time.Duration{}}
	err := pr.run(ctx, i, p, e, opt, timeout, &r)
	err = plan.WithCause(ctx, err)
	if r.Status == "" || err != nil && r.Status == plan.Solved {
		r.Status = plan.StatusOf(err)
	}
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

func (pr *Process) run(ctx context.Context, i int, p sudoku.Puzzle, e Engine, opt Options, timeout time.Duration, r *Run) error {
	if e != Progression && e != HTNSAT && e != Auto && e != Lazy {
		return fmt.Errorf("engine %s does not plan from HDDL files: only progression, htn-sat, auto and lazy run as processes", e)
	}
	// the engine as "htnsat plan --engine" names it
	engine := string(opt.pipelineConfig(e).Engine)
	if opt.Variant != nil {
		return errors.New("variant puzzles do not run as processes")
	}
	domain, problem, err := pr.files(i, p, opt.Style)
	if err != nil {
		return err
	}
	planFile := filepath.Join(pr.Dir, fmt.Sprintf("plan-%d-%s.txt", i, e))
	args := []string{"plan", "--engine", engine, "--json", "-o", planFile}
	pctx := ctx
	if timeout > 0 {
		args = append(args, "--timeout", timeout.String())
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, timeout+grace)
		defer cancel()
	}
	args = append(append(args, pr.Args...), domain, problem)
	cmd := exec.CommandContext(pctx, pr.Exe, args...)
	proc.Isolate(cmd)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	runErr := cmd.Run()
	r.Total = time.Since(start)
	if cmd.ProcessState != nil {
		r.PeakHeap = uint64(proc.MaxRSSMB(cmd.ProcessState) * (1 << 20))
	}
	if err := pctx.Err(); err != nil {
		return err
	}
	var rep processReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		if runErr == nil {
			runErr = err
		}
		return fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), runErr, excerpt.Message(strings.TrimSpace(errOut.String())))
	}
	if rep.PeakRSSMB > 0 {
		// the process's own peak: its rusage counts this one's (see
		// proc.SelfPeakRSSMB)
		r.PeakHeap = uint64(rep.PeakRSSMB * (1 << 20))
	}
	r.Status = rep.Status
	r.PlanLength, r.Nodes, r.Vars, r.Clauses, r.Depth = rep.PlanLength, rep.Nodes, rep.Variables, rep.Clauses, rep.Depth
	for s, sec := range rep.StageSeconds {
		r.Stages.Add(s, time.Duration(sec*float64(time.Second)))
	}
	if rep.Status != plan.Solved {
		if rep.Message != "" {
			r.Error = rep.Message
		}
		return nil
	}
	if !rep.Verified {
		return errors.New("the process's plan is not verified")
	}
	f, err := os.Open(planFile)
	if err != nil {
		return err
	}
	pl, err := plan.Read(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("the process's plan: %w", err)
	}
	g, err := sudoku.GridFromPlan(pl, p.Grid)
	if err == nil {
		err = solves(g, p, opt)
	}
	r.Solution = g
	if err != nil {
		return fmt.Errorf("the plan is valid but its grid is not a solution: %w", err)
	}
	r.Verified = true
	return nil
}
