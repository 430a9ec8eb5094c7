// Package ipc is the IPC 2020 benchmark harness: it runs one htnsat
// command per problem, each in its own process under a time and memory
// limit, a few at a time; keeps one CSV row per problem, written as soon
// as the problem is done so that an interrupted run can be resumed; and
// tabulates the rows per domain.
package ipc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/htnsat/htnsat/internal/atomicfile"
	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/htnsat/htnsat/internal/proc"
	"github.com/htnsat/htnsat/plan"
)

// Options configure a run over the benchmark set.
type Options struct {
	Exe     string // the htnsat binary that runs each problem
	Stage   string // ground or plan
	Engine  string // for Stage plan
	Timeout time.Duration
	Jobs    int      // problems run at once (default 1)
	MemMB   int      // memory limit per problem
	Extra   []string // more arguments for each run
	CSV     string   // the CSV file of rows ("" for none); see Journal
	Resume  bool     // keep the rows of an earlier run and run only the other problems
	// Pin runs each problem on one CPU of its own, as the competitions
	// do (taskset -c): the runs at once take the process's CPUs in turn
	Pin bool
	cpu int // the CPU of this run, with Pin
	// Progress, if set, is called after each problem with the number done.
	Progress func(done, total int, in corpus.Instance)
}

// Result is one problem's outcome.
type Result struct {
	Instance corpus.Instance
	Status   string // a plan.Status, or "ok" for a finished ground stage
	Seconds  float64
	MaxRSSMB float64
	Report   map[string]any // the child's JSON report
	Message  string
}

// Solved reports whether the problem was done: grounded, or solved with a
// verified plan.
func (r Result) Solved() bool { return r.Status == string(plan.OK) || r.Status == string(plan.Solved) }

// Select lists the problems of ins whose name contains filter, at most
// first of each domain (0: all).
func Select(ins []corpus.Instance, filter string, first int) []corpus.Instance {
	var sel []corpus.Instance
	taken := map[string]int{}
	for _, in := range ins {
		if filter != "" && !strings.Contains(in.Name(), filter) {
			continue
		}
		key := in.Track + "/" + in.Domain
		if first > 0 && taken[key] >= first {
			continue
		}
		taken[key]++
		sel = append(sel, in)
	}
	return sel
}

// Every keeps every k-th problem of each domain of sel, from its first
// (k <= 1: all): a sample that keeps every domain and its range of sizes.
func Every(sel []corpus.Instance, k int) []corpus.Instance {
	if k <= 1 {
		return sel
	}
	var out []corpus.Instance
	seen := map[string]int{}
	for _, in := range sel {
		key := in.Track + "/" + in.Domain
		if seen[key]%k == 0 {
			out = append(out, in)
		}
		seen[key]++
	}
	return out
}

// Pick says which rows of an earlier run (ReadCSV) to run again: those
// whose status is one of Statuses (any status when empty) and that took
// longer than Over.
type Pick struct {
	Statuses []string
	Over     time.Duration
}

// SelectFrom keeps the problems of sel that have a row in rows matching
// pick, in sel's order. It fails when a status is not one of plan's or
// when nothing is left, so that a typo does not run an empty table.
func SelectFrom(sel []corpus.Instance, rows map[string]Result, pick Pick) ([]corpus.Instance, error) {
	for _, s := range pick.Statuses {
		if !plan.Status(s).Known() {
			return nil, fmt.Errorf("unknown status %q (want one of %v)", s, plan.Statuses)
		}
	}
	var out []corpus.Instance
	for _, in := range sel {
		r, ok := rows[Key(in)]
		if !ok || len(pick.Statuses) > 0 && !slices.Contains(pick.Statuses, r.Status) {
			continue
		}
		if time.Duration(r.Seconds*float64(time.Second)) <= pick.Over {
			continue
		}
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no problem of the selection has a matching row")
	}
	return out, nil
}

// Run runs every problem of sel and returns the results in sel's order.
// With Resume, the rows already in the CSV file count as done.
func Run(ctx context.Context, sel []corpus.Instance, opts Options) ([]Result, error) {
	if opts.Stage != "ground" && opts.Stage != "plan" {
		return nil, fmt.Errorf("the stage must be ground or plan, not %q", opts.Stage)
	}
	if opts.Resume && opts.CSV == "" {
		return nil, fmt.Errorf("resuming needs a CSV file")
	}
	results := make([]Result, len(sel))
	var prev map[string]Result
	if !opts.Resume && opts.CSV != "" {
		if _, err := os.Stat(Journal(opts.CSV)); err == nil {
			return nil, fmt.Errorf("%s exists: a run with --csv %s was interrupted; --resume continues it (or remove the file to start again)", Journal(opts.CSV), opts.CSV)
		}
	}
	if opts.Resume {
		// an interrupted run's journal, else the last complete table
		var err error
		if prev, err = readCSV(Journal(opts.CSV), true); os.IsNotExist(err) {
			prev, err = ReadCSV(opts.CSV)
		}
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	var todo []int
	for i, in := range sel {
		if r, ok := prev[Key(in)]; ok {
			r.Instance = in
			results[i] = r
		} else {
			todo = append(todo, i)
		}
	}
	// rows go to the journal as problems finish, so that an interrupted
	// run keeps what it did; the CSV file is written, in order, at the end
	var rows *csvRows
	if opts.CSV != "" {
		var err error
		if rows, err = openCSV(ctx, Journal(opts.CSV), results, todo); err != nil {
			return nil, err
		}
		defer rows.close()
	}
	var mu sync.Mutex
	done := len(sel) - len(todo)
	var cpus []int
	if opts.Pin {
		var err error
		if cpus, err = proc.AllowedCPUs(); err != nil {
			return nil, err
		}
		if opts.Jobs > len(cpus) {
			return nil, fmt.Errorf("%d runs at once, each on a CPU of its own, need %d CPUs: this process may use %d", opts.Jobs, opts.Jobs, len(cpus))
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(opts.Jobs, 1); w++ {
		wg.Add(1)
		wopts := opts
		if opts.Pin {
			wopts.cpu = cpus[w]
		}
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := runOne(ctx, sel[i], wopts)
				mu.Lock()
				results[i] = r
				done++
				if rows != nil && ctx.Err() == nil {
					rows.add(r)
				}
				if opts.Progress != nil {
					opts.Progress(done, len(sel), sel[i])
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if rows != nil {
		if err := rows.close(); err != nil {
			return nil, err
		}
		if err := atomicfile.Write(ctx, opts.CSV, func(w io.Writer) error { return WriteCSV(w, results) }); err != nil {
			return nil, err
		}
		os.Remove(Journal(opts.CSV))
	}
	return results, nil
}

// runOne runs the stage on one problem in a process of its own.
func runOne(ctx context.Context, in corpus.Instance, opts Options) Result {
	args := []string{opts.Stage, "--json", "--timeout", opts.Timeout.String()}
	if opts.MemMB > 0 {
		// the child stops itself, with status memory, below the hard limit
		args = append(args, "--max-memory", strconv.Itoa(opts.MemMB*3/4))
	}
	if opts.Stage == "plan" {
		args = append(args, "--engine", opts.Engine)
	}
	args = append(args, opts.Extra...)
	args = append(args, in.DomainFile, in.ProblemFile)
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(cctx, opts.Exe, args...)
	if opts.Pin {
		// taskset execs the run: the child keeps its pid
		cmd = exec.CommandContext(cctx, "taskset", append([]string{"-c", strconv.Itoa(opts.cpu), opts.Exe}, args...)...)
	}
	proc.Isolate(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	var killedForMemory atomic.Bool
	err := cmd.Start()
	if err == nil {
		stop := make(chan struct{})
		if opts.MemMB > 0 {
			go func() {
				// the hard limit: the child's resident memory, looked at
				// every 20 ms
				tick := time.NewTicker(20 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
						if rss, ok := proc.RSS(cmd.Process.Pid); ok && rss > int64(opts.MemMB)<<20 {
							killedForMemory.Store(true)
							cancel()
							return
						}
					}
				}
			}()
		}
		err = cmd.Wait()
		close(stop)
	}
	r := Result{Instance: in, Seconds: time.Since(start).Seconds()}
	if cmd.ProcessState != nil {
		r.MaxRSSMB = proc.MaxRSSMB(cmd.ProcessState)
	}
	msg := strings.TrimSpace(stderr.String())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	r.Message = strings.TrimPrefix(msg, "htnsat: ")
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	rep := map[string]any{}
	hasReport := json.Unmarshal(stdout.Bytes(), &rep) == nil
	if hasReport {
		r.Report = rep
		// a number in the CSV file: 1 for a plan proven optimal
		if o, ok := rep["optimal"].(bool); ok {
			rep["optimal"] = float64(map[bool]int{true: 1}[o])
		}
		// the child's own peak, when it says: rusage's counts the parent's
		if v, ok := rep["peak_rss_mb"].(float64); ok && v > 0 {
			r.MaxRSSMB = v
		}
	}
	// the child's report says how it ended; without one (it was killed,
	// or crashed), the exit code and the harness's own limits do
	switch st, _ := rep["status"].(string); {
	case killedForMemory.Load():
		r.Status = string(plan.Memory)
		r.Message = fmt.Sprintf("killed: resident memory above %d MiB", opts.MemMB)
	case hasReport && st != "":
		r.Status = st
	case cctx.Err() != nil || code == plan.ExitTimeout:
		r.Status = string(plan.Timeout)
	case err == nil:
		r.Status = string(plan.OK)
	default:
		r.Status = string(plan.Failed)
	}
	return r
}

// num reads a number of a report.
func num(r map[string]any, key string) float64 {
	if r == nil {
		return 0
	}
	if v, ok := r[key].(float64); ok {
		return v
	}
	return 0
}
