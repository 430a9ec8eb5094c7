package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/htnsat/htnsat/internal/corpus"
	"github.com/spf13/cobra"
)

type ipcOptions struct {
	io      *ioStreams
	dir     string
	stage   string
	engine  string
	timeout time.Duration
	jobs    int
	filter  string
	csvFile string
	memMB   int
	extra   []string
	first   int
	resume  bool
}

func newCmdIPC(ios *ioStreams) *cobra.Command {
	opts := &ipcOptions{io: ios}
	cmd := &cobra.Command{
		Use:   "ipc [DIR]",
		Short: "Run a stage over the IPC 2020 HTN benchmark set and tabulate the results per domain",
		Long: `Run "htnsat ground" or "htnsat plan" on every problem of the IPC 2020 set
(default: ../shared/data/ipc2020), each in its own process with a time and memory
limit, and print a per-domain table of the problems done, the time taken and the
size of the ground task. Each problem is one row of --csv, written as soon as
it is done; --resume keeps the rows of an earlier, interrupted run with the
same --csv file and runs only the problems it lacks.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.dir = args[0]
			} else {
				shared, err := corpus.SharedDir()
				if err != nil {
					return err
				}
				opts.dir = filepath.Join(shared, "data", "ipc2020")
			}
			return runIPC(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.stage, "stage", "ground", "what to run: ground or plan")
	cmd.Flags().StringVar(&opts.engine, "engine", "progression", "planning engine for --stage plan: progression or sat")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 60*time.Second, "time limit per problem")
	cmd.Flags().IntVar(&opts.jobs, "jobs", 1, "problems run in parallel")
	cmd.Flags().StringVar(&opts.filter, "filter", "", "only problems whose track/domain/name contains this")
	cmd.Flags().StringVar(&opts.csvFile, "csv", "", "write one row per problem to this CSV file")
	cmd.Flags().IntVar(&opts.memMB, "mem", 8192, "memory limit per problem in MiB")
	cmd.Flags().StringSliceVar(&opts.extra, "arg", nil, "extra argument passed to each run (repeatable)")
	cmd.Flags().IntVar(&opts.first, "first", 0, "only the first N problems of each domain (0: all)")
	cmd.Flags().BoolVar(&opts.resume, "resume", false, "keep the rows already in --csv and run only the other problems")
	return cmd
}

// ipcResult is one problem's outcome.
type ipcResult struct {
	Instance corpus.Instance
	Status   string // ok, timeout, too-large, unsolvable, depth-limit, error
	Seconds  float64
	MaxRSSMB float64
	Report   map[string]any
	Message  string
}

func runIPC(ctx context.Context, opts *ipcOptions) error {
	ins, err := corpus.IPC(opts.dir)
	if err != nil {
		return err
	}
	var sel []corpus.Instance
	taken := map[string]int{}
	for _, in := range ins {
		if opts.filter != "" && !strings.Contains(in.Name(), opts.filter) {
			continue
		}
		key := in.Track + "/" + in.Domain
		if opts.first > 0 && taken[key] >= opts.first {
			continue
		}
		taken[key]++
		sel = append(sel, in)
	}
	if opts.stage != "ground" && opts.stage != "plan" {
		return &usageError{fmt.Errorf("--stage must be ground or plan")}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if opts.resume && opts.csvFile == "" {
		return &usageError{fmt.Errorf("--resume needs --csv")}
	}
	results := make([]ipcResult, len(sel))
	var todo []int
	var prev map[string]ipcResult
	if opts.resume {
		if prev, err = readIPCCSV(opts.csvFile); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	for i, in := range sel {
		if r, ok := prev[ipcKey(in)]; ok {
			r.Instance = in
			results[i] = r
		} else {
			todo = append(todo, i)
		}
	}
	// rows are appended as problems finish, so that an interrupted run
	// keeps what it did; the file is rewritten in order at the end
	var rows *ipcCSV
	if opts.csvFile != "" {
		if rows, err = openIPCCSV(opts.csvFile, results, todo); err != nil {
			return err
		}
		defer rows.close()
	}
	var mu sync.Mutex
	done := len(sel) - len(todo)
	jobs := make(chan int)
	var wg sync.WaitGroup
	tty := isTerminal(opts.io.Err)
	for w := 0; w < max(opts.jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := runIPCOne(ctx, exe, sel[i], opts)
				mu.Lock()
				results[i] = r
				done++
				if rows != nil && ctx.Err() == nil {
					rows.add(r)
				}
				if tty {
					fmt.Fprintf(opts.io.Err, "\r%d/%d %-60s", done, len(sel), sel[i].Name())
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
	if tty {
		fmt.Fprintf(opts.io.Err, "\r%80s\r", "")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if rows != nil {
		if err := rows.close(); err != nil {
			return err
		}
		if err := writeIPCCSV(opts.csvFile, results); err != nil {
			return err
		}
	}
	printIPCTable(opts.io.Out, results, opts)
	return nil
}

func runIPCOne(ctx context.Context, exe string, in corpus.Instance, opts *ipcOptions) ipcResult {
	args := []string{opts.stage, "--json", "--timeout", opts.timeout.String()}
	if opts.stage == "plan" {
		args = append(args, "--engine", opts.engine)
	}
	args = append(args, opts.extra...)
	args = append(args, in.DomainFile, in.ProblemFile)
	cctx, cancel := context.WithTimeout(ctx, opts.timeout+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(cctx, exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Env = append(os.Environ(), fmt.Sprintf("GOMEMLIMIT=%dMiB", opts.memMB*3/4))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := ipcResult{Instance: in, Seconds: time.Since(start).Seconds()}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSSMB = float64(ru.Maxrss) / 1024
		}
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
	switch {
	case cctx.Err() != nil || code == exitTimeout:
		r.Status = "timeout"
	case err == nil:
		r.Status = "ok"
		rep := map[string]any{}
		if json.Unmarshal(stdout.Bytes(), &rep) == nil {
			r.Report = rep
			if s, ok := rep["status"].(string); ok && s != "" {
				r.Status = s
			}
		}
	case strings.Contains(r.Message, "too large"):
		r.Status = "too-large"
	case strings.Contains(r.Message, "unsolvable"):
		r.Status = "unsolvable"
	default:
		r.Status = "error"
	}
	return r
}

func num(r map[string]any, key string) float64 {
	if r == nil {
		return 0
	}
	if v, ok := r[key].(float64); ok {
		return v
	}
	return 0
}

var ipcHeader = []string{"track", "domain", "problem", "status", "seconds", "max_rss_mb", "facts", "actions", "methods", "plan_length", "nodes", "message"}

// ipcReportFields are the report fields a CSV row keeps, in column order
// after max_rss_mb.
var ipcReportFields = []string{"facts", "actions", "methods", "plan_length", "nodes"}

func ipcKey(in corpus.Instance) string {
	return in.Track + "/" + in.Domain + "/" + filepath.Base(in.ProblemFile)
}

func ipcRow(r ipcResult) []string {
	row := []string{r.Instance.Track, r.Instance.Domain, filepath.Base(r.Instance.ProblemFile), r.Status,
		strconv.FormatFloat(r.Seconds, 'f', 3, 64), strconv.FormatFloat(r.MaxRSSMB, 'f', 1, 64)}
	for _, k := range ipcReportFields {
		row = append(row, strconv.Itoa(int(num(r.Report, k))))
	}
	return append(row, r.Message)
}

func writeIPCCSV(file string, results []ipcResult) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write(ipcHeader)
	for _, r := range results {
		w.Write(ipcRow(r))
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readIPCCSV reads the rows of an earlier run, by ipcKey.
func readIPCCSV(file string) (map[string]ipcResult, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	out := map[string]ipcResult{}
	for i, rec := range recs {
		if i == 0 && len(rec) > 0 && rec[0] == ipcHeader[0] {
			continue
		}
		if len(rec) != len(ipcHeader) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", file, i+1, len(rec), len(ipcHeader))
		}
		r := ipcResult{Status: rec[3], Message: rec[len(rec)-1], Report: map[string]any{}}
		var errs [2]error
		r.Seconds, errs[0] = strconv.ParseFloat(rec[4], 64)
		r.MaxRSSMB, errs[1] = strconv.ParseFloat(rec[5], 64)
		for _, e := range errs {
			if e != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, i+1, e)
			}
		}
		for j, k := range ipcReportFields {
			v, err := strconv.ParseFloat(rec[6+j], 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", file, i+1, k, err)
			}
			r.Report[k] = v
		}
		out[rec[0]+"/"+rec[1]+"/"+rec[2]] = r
	}
	return out, nil
}

// ipcCSV appends rows to the CSV file of a run as problems finish.
type ipcCSV struct {
	f *os.File
	w *csv.Writer
}

// openIPCCSV starts the file with the rows already known (results of the
// indices not in todo).
func openIPCCSV(file string, results []ipcResult, todo []int) (*ipcCSV, error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	c := &ipcCSV{f: f, w: csv.NewWriter(f)}
	c.w.Write(ipcHeader)
	pending := map[int]bool{}
	for _, i := range todo {
		pending[i] = true
	}
	for i, r := range results {
		if !pending[i] {
			c.w.Write(ipcRow(r))
		}
	}
	c.w.Flush()
	return c, c.w.Error()
}

func (c *ipcCSV) add(r ipcResult) {
	c.w.Write(ipcRow(r))
	c.w.Flush()
}

func (c *ipcCSV) close() error {
	if c.f == nil {
		return nil
	}
	c.w.Flush()
	err := c.w.Error()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	return err
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// printIPCTable prints a Markdown table with one row per domain and a
// total per track.
func printIPCTable(w io.Writer, results []ipcResult, opts *ipcOptions) {
	type agg struct {
		total, ok                int
		secs, facts, acts, meths []float64
		reasons                  map[string]int
	}
	by := map[string]*agg{}
	var keys []string
	tracks := map[string]*agg{}
	for _, r := range results {
		for _, k := range []string{r.Instance.Track + "|" + r.Instance.Domain, r.Instance.Track + "|"} {
			a := by[k]
			if a == nil {
				a = &agg{reasons: map[string]int{}}
				by[k] = a
				if !strings.HasSuffix(k, "|") {
					keys = append(keys, k)
				} else {
					tracks[r.Instance.Track] = a
				}
			}
			a.total++
			if r.Status == "ok" || r.Status == "solved" {
				a.ok++
				a.secs = append(a.secs, r.Seconds)
				a.facts = append(a.facts, num(r.Report, "facts"))
				a.acts = append(a.acts, num(r.Report, "actions"))
				a.meths = append(a.meths, num(r.Report, "methods"))
			} else {
				a.reasons[r.Status]++
			}
		}
	}
	verb := "grounded"
	if opts.stage == "plan" {
		verb = "solved (" + opts.engine + ")"
	}
	fmt.Fprintf(w, "| track | domain | %s | median s | max s | facts | actions | methods | not done |\n", verb)
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|\n")
	row := func(track, dom string, a *agg) {
		maxS := 0.0
		for _, s := range a.secs {
			maxS = max(maxS, s)
		}
		var rs []string
		for k, v := range a.reasons {
			rs = append(rs, fmt.Sprintf("%d %s", v, k))
		}
		sort.Strings(rs)
		fmt.Fprintf(w, "| %s | %s | %d/%d | %.2f | %.2f | %.0f | %.0f | %.0f | %s |\n",
			track, dom, a.ok, a.total, median(a.secs), maxS, median(a.facts), median(a.acts), median(a.meths), strings.Join(rs, ", "))
	}
	for _, k := range keys {
		parts := strings.SplitN(k, "|", 2)
		row(parts[0], parts[1], by[k])
	}
	for _, t := range []string{"total-order", "partial-order"} {
		if a := tracks[t]; a != nil {
			row(t, fmt.Sprintf("**all (%.1f%%)**", 100*float64(a.ok)/float64(max(a.total, 1))), a)
		}
	}
}
