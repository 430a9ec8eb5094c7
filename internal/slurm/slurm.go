// Package slurm runs the runs of an experiment as a Slurm job array, with
// nothing of its own to schedule: Slurm queues the tasks, enforces their
// time and memory and accounts for them; this package writes the job
// (Submit), gives a task its slice of runs (Slice), keeps a row per
// finished run (Begin, Finish) and reads the rows back (Collect).
//
// An experiment is a folder; its runs are numbered from 0 and described by
// the caller (ipc, compare), which also writes its own description there.
// This package's files:
//
//	submissions/N.runs    the runs of submission N, one number a line
//	submissions/N.sh      its sbatch job-array script
//	submissions/N.job     the array job's id, as sbatch said
//	results/ID.json       a finished run's row (written atomically)
//	results/ID.started    a run begun and not finished: the Slurm job and
//	                      task running it, and when it began
//	logs/JOB_TASK.out     each array task's output
//
// A run that Slurm stopped (its task's time or memory, scancel, a node
// lost) has a begun marker and no row: Collect says why, from the task's
// log (slurmstepd writes there why it killed a task), sacct, or scontrol
// (which remembers finished jobs for MinJobAge). Submitting again runs
// every run without a row, and only those.
package slurm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/htnsat/htnsat/internal/atomicfile"
	"github.com/htnsat/htnsat/plan"
)

// ExperimentFile is the caller's description of its experiment, in its
// folder.
const ExperimentFile = "experiment.json"

// Description is a caller's description of its experiment, which can
// tell whether it is whole.
type Description interface{ Check() error }

// Describe returns the description of the experiment in dir (its
// ExperimentFile, read into a new T, then checked), or, when there is
// none, writes fresh as its description and returns it: an experiment
// keeps the runs it was made with, whatever a later submission asks.
func Describe[T any, PT interface {
	*T
	Description
}](ctx context.Context, dir string, fresh PT) (PT, error) {
	file := filepath.Join(dir, ExperimentFile)
	b, err := os.ReadFile(file)
	switch {
	case err == nil:
		e := PT(new(T))
		if err := json.Unmarshal(b, e); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if err := e.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return e, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case fresh == nil:
		return nil, fmt.Errorf("%s holds no experiment", dir)
	}
	if err := fresh.Check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	b, err = json.Marshal(fresh)
	if err != nil {
		return nil, err
	}
	return fresh, atomicfile.WriteBytes(ctx, file, append(b, '\n'))
}

// Options are the cluster's side of a submission.
type Options struct {
	Partition   string // "" for the cluster's default
	RunsPerTask int    // runs one array task does in turn (0: as few tasks as 1,000 allow)
	Throttle    int    // most tasks at once (--array ...%N; 0: no limit)
	TaskMemMB   int    // --mem of a task (0: the job's own)
	NoSubmit    bool   // write the script, do not call sbatch
}

// Job is what the caller says of its experiment.
type Job struct {
	Runs    int           // the experiment's runs, numbered 0..Runs-1
	Version string        // of the binary the tasks run
	RunTime time.Duration // the most one run may take (its limit and its grace)
	MemMB   int           // what one task needs (its runs' limit and the harness)
	// Exe and Subcommand start the task's command line: Exe Subcommand
	// --slurm-task DIR --submission N --task-runs PER (the experiment's
	// absolute folder, the submission, the runs a task does); the task
	// reads $SLURM_ARRAY_TASK_ID for its slice (RunSlice).
	Exe, Subcommand string
}

// Submission is what Submit did.
type Submission struct {
	N       int    // its number in the experiment
	Runs    int    // runs it asks for (0: every run has its row)
	Tasks   int    // array tasks
	Script  string // the sbatch script
	Command string // the command that submits it
	JobID   string // the array job's id, when sbatch was called
}

// Submit writes a submission of every run of the experiment in dir that
// has no row yet (all the first time; then those never begun or stopped
// by Slurm) as one job array, and submits it with sbatch unless NoSubmit
// or sbatch is not on the PATH (Command then says how).
func Submit(ctx context.Context, dir string, job Job, so Options) (*Submission, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := checkScriptValues(abs, job, so); err != nil {
		return nil, err
	}
	for _, sub := range []string{"submissions", "results", "logs"} {
		if err := os.MkdirAll(filepath.Join(abs, sub), 0o755); err != nil {
			return nil, err
		}
	}
	var todo []int
	for id := range job.Runs {
		if _, err := os.Stat(resultFile(abs, id)); err != nil {
			todo = append(todo, id)
			os.Remove(startedFile(abs, id)) // a stopped run starts over
		}
	}
	if len(todo) == 0 {
		return &Submission{}, nil
	}
	n := 0
	for ; ; n++ {
		if _, err := os.Stat(filepath.Join(abs, "submissions", strconv.Itoa(n)+".runs")); err != nil {
			break
		}
	}
	per := so.RunsPerTask
	if per <= 0 {
		per = (len(todo) + 999) / 1000
	}
	tasks := (len(todo) + per - 1) / per
	mem := so.TaskMemMB
	if mem <= 0 {
		mem = job.MemMB
	}
	// a task does its runs in turn, each within its time and a few
	// seconds to start and write its row
	limit := time.Duration(per)*(job.RunTime+5*time.Second) + time.Minute
	array := fmt.Sprintf("0-%d", tasks-1)
	if so.Throttle > 0 {
		array += fmt.Sprintf("%%%d", so.Throttle)
	}
	var ids strings.Builder
	for _, id := range todo {
		fmt.Fprintln(&ids, id)
	}
	if err := atomicfile.WriteBytes(ctx, filepath.Join(abs, "submissions", strconv.Itoa(n)+".runs"), []byte(ids.String())); err != nil {
		return nil, err
	}
	sh := script(abs, n, len(todo), per, array, limit, mem, job, so)
	file := filepath.Join(abs, "submissions", strconv.Itoa(n)+".sh")
	if err := atomicfile.WriteBytes(ctx, file, []byte(sh)); err != nil {
		return nil, err
	}
	os.Chmod(file, 0o755)
	s := &Submission{N: n, Runs: len(todo), Tasks: tasks, Script: file, Command: "sbatch " + shellQuote(file)}
	if _, err := exec.LookPath("sbatch"); err != nil || so.NoSubmit {
		return s, nil
	}
	out, err := exec.CommandContext(ctx, "sbatch", "--parsable", file).CombinedOutput()
	if err != nil {
		return s, fmt.Errorf("sbatch: %v: %s", err, strings.TrimSpace(string(out)))
	}
	s.JobID = strings.TrimSpace(strings.Split(strings.TrimSpace(string(out)), ";")[0])
	if err := atomicfile.WriteBytes(ctx, filepath.Join(abs, "submissions", strconv.Itoa(n)+".job"), []byte(s.JobID+"\n")); err != nil {
		return s, err
	}
	return s, nil
}

// script is the sbatch script of submission n: its #SBATCH lines, each
// value quoted as sbatch reads them (sbatchQuote), and the task's command
// line, each word quoted for sh (shellQuote). The values were checked by
// checkScriptValues.
func script(abs string, n, runs, per int, array string, limit time.Duration, mem int, job Job, so Options) string {
	var sh strings.Builder
	fmt.Fprintf(&sh, "#!/bin/sh\n# experiment %s, submission %d: %d runs, %d a task (written by htnsat %s)\n",
		shellQuote(abs), n, runs, per, shellQuote(job.Version))
	fmt.Fprintf(&sh, "#SBATCH --job-name=%s\n", sbatchQuote("htnsat-"+filepath.Base(abs)))
	fmt.Fprintf(&sh, "#SBATCH --array=%s\n", array)
	fmt.Fprintf(&sh, "#SBATCH --time=%s\n", slurmTime(limit))
	fmt.Fprintf(&sh, "#SBATCH --mem=%dM\n", mem)
	fmt.Fprintf(&sh, "#SBATCH --cpus-per-task=1\n")
	// the log's path is a Slurm filename pattern: a '%' of the folder's
	// own is written %%
	logs := strings.ReplaceAll(filepath.Join(abs, "logs"), "%", "%%")
	fmt.Fprintf(&sh, "#SBATCH --output=%s\n", sbatchQuote(logs+"/%A_%a.out"))
	if so.Partition != "" {
		fmt.Fprintf(&sh, "#SBATCH --partition=%s\n", sbatchQuote(so.Partition))
	}
	var cmd []string
	for _, a := range []string{job.Exe, job.Subcommand, "--slurm-task", abs, "--submission", strconv.Itoa(n), "--task-runs", strconv.Itoa(per)} {
		cmd = append(cmd, shellQuote(a))
	}
	fmt.Fprintf(&sh, "exec %s\n", strings.Join(cmd, " "))
	return sh.String()
}

// Check refuses an experiment folder or options that a job script cannot
// carry (see checkScriptValues), before anything is written.
func Check(dir string, so Options) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	return checkScriptValues(abs, Job{}, so)
}

// checkScriptValues refuses the values a script cannot carry safely: a
// control character (a newline would end a #SBATCH line or a comment and
// start a command of the job) anywhere, and a backslash in the
// experiment's folder (Slurm reads the log's path as a filename pattern,
// and a backslash there turns its %A_%a off, so the logs could not be
// found again). Everything else is quoted.
func checkScriptValues(abs string, job Job, so Options) error {
	for _, v := range []struct{ what, s string }{
		{"the experiment folder", abs}, {"--partition", so.Partition}, {"the executable", job.Exe},
		{"the subcommand", job.Subcommand}, {"the version", job.Version},
	} {
		if i := strings.IndexFunc(v.s, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
			return fmt.Errorf("%s %q holds a control character (%q): it cannot go into a job script", v.what, v.s, v.s[i])
		}
	}
	if strings.Contains(abs, `\`) {
		return fmt.Errorf("the experiment folder %q holds a backslash, which Slurm's log file pattern does not allow: choose another folder", abs)
	}
	return nil
}

// sbatchQuote quotes s as sbatch reads the value of a #SBATCH option:
// double quotes, with a backslash before each backslash and double quote
// in s (s holds no control character).
func sbatchQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// slurmTime writes a duration as Slurm's [D-]HH:MM:SS.
func slurmTime(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	days, s := s/86400, s%86400
	out := fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	if days > 0 {
		out = fmt.Sprintf("%d-%s", days, out)
	}
	return out
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func resultFile(dir string, id int) string {
	return filepath.Join(dir, "results", strconv.Itoa(id)+".json")
}

func startedFile(dir string, id int) string {
	return filepath.Join(dir, "results", strconv.Itoa(id)+".started")
}

// TaskID is this array task's index ($SLURM_ARRAY_TASK_ID).
func TaskID() (int, error) {
	t, err := strconv.Atoi(os.Getenv("SLURM_ARRAY_TASK_ID"))
	if err != nil {
		return 0, fmt.Errorf("not inside a Slurm array task: no SLURM_ARRAY_TASK_ID")
	}
	return t, nil
}

// Slice lists the runs task does of submission n, per a task, leaving
// out those that have their row already (a task run again).
func Slice(dir string, n, task, per, runs int) ([]int, error) {
	b, err := os.ReadFile(filepath.Join(dir, "submissions", strconv.Itoa(n)+".runs"))
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, f := range strings.Fields(string(b)) {
		id, err := strconv.Atoi(f)
		if err != nil || id < 0 || id >= runs {
			return nil, fmt.Errorf("submission %d: run %q is not one of the experiment's", n, f)
		}
		ids = append(ids, id)
	}
	if per <= 0 || task < 0 || task*per >= len(ids) {
		return nil, fmt.Errorf("task %d of submission %d: no such slice (%d runs, %d a task)", task, n, len(ids), per)
	}
	var out []int
	for _, id := range ids[task*per : min(len(ids), (task+1)*per)] {
		if _, err := os.Stat(resultFile(dir, id)); err != nil {
			out = append(out, id)
		}
	}
	return out, nil
}

// RunSlice runs this array task's slice of submission n of the
// experiment in dir (per runs a task, of runs in all): for each run its
// begun marker, run(id) for its row, then the row. A run cut short
// because the task itself is being stopped (Slurm's SIGTERM before a
// kill) writes no row: its marker tells Collect to ask Slurm.
func RunSlice(ctx context.Context, dir string, n, per, runs int, run func(id int) (row any, err error)) error {
	task, err := TaskID()
	if err != nil {
		return err
	}
	ids, err := Slice(dir, n, task, per, runs)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := Begin(ctx, dir, id); err != nil {
			return err
		}
		row, err := run(id)
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
		if err := Finish(ctx, dir, id, row); err != nil {
			return err
		}
	}
	return nil
}

// marker is what a begun marker says: where the run's task ran.
type marker struct {
	JobID     string `json:"job_id"`       // SLURM_JOB_ID
	ArrayJob  string `json:"array_job_id"` // SLURM_ARRAY_JOB_ID
	ArrayTask string `json:"array_task_id"`
	At        string `json:"at"`
}

// Begin marks run id as begun by this task.
func Begin(ctx context.Context, dir string, id int) error {
	m := marker{JobID: os.Getenv("SLURM_JOB_ID"), ArrayJob: os.Getenv("SLURM_ARRAY_JOB_ID"), ArrayTask: os.Getenv("SLURM_ARRAY_TASK_ID"),
		At: time.Now().UTC().Format(time.RFC3339Nano)}
	b, _ := json.Marshal(m)
	return atomicfile.WriteBytes(ctx, startedFile(dir, id), b)
}

// Finish writes run id's row (as JSON) and drops its begun marker.
func Finish(ctx context.Context, dir string, id int, row any) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(ctx, resultFile(dir, id), append(b, '\n')); err != nil {
		return err
	}
	os.Remove(startedFile(dir, id))
	return nil
}

// Stopped is a run Slurm stopped: the status its row takes (timeout,
// memory, error), why, and how long it had run.
type Stopped struct {
	Status  plan.Status
	Message string
	Seconds float64
}

// Collected is what the rows of an experiment say.
type Collected struct {
	Rows    map[int][]byte  // finished runs: their rows
	Stopped map[int]Stopped // runs Slurm stopped
	Missing []int           // runs never begun
}

// Collect reads the rows of the experiment in dir and says what happened
// to the runs without one.
func Collect(ctx context.Context, dir string, runs int) (*Collected, error) {
	c := &Collected{Rows: map[int][]byte{}, Stopped: map[int]Stopped{}}
	for id := range runs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if b, err := os.ReadFile(resultFile(dir, id)); err == nil {
			c.Rows[id] = b
			continue
		}
		b, err := os.ReadFile(startedFile(dir, id))
		if err != nil {
			c.Missing = append(c.Missing, id)
			continue
		}
		var m marker
		json.Unmarshal(b, &m)
		st, msg := stoppedWhy(ctx, dir, m)
		s := Stopped{Status: st, Message: msg}
		log := filepath.Join(dir, "logs", m.ArrayJob+"_"+m.ArrayTask+".out")
		if t, err := time.Parse(time.RFC3339Nano, m.At); err == nil {
			if fi, err := os.Stat(log); err == nil && fi.ModTime().After(t) {
				s.Seconds = fi.ModTime().Sub(t).Seconds()
			}
		}
		c.Stopped[id] = s
	}
	return c, nil
}

// stoppedWhy says why Slurm stopped the task of a begun run.
func stoppedWhy(ctx context.Context, dir string, m marker) (plan.Status, string) {
	task := m.JobID
	if m.ArrayJob != "" && m.ArrayTask != "" {
		task = m.ArrayJob + "_" + m.ArrayTask
	}
	// Slurm's own words in the task's log
	if b, err := os.ReadFile(filepath.Join(dir, "logs", m.ArrayJob+"_"+m.ArrayTask+".out")); err == nil {
		if st, why := fromLog(string(b)); st != "" {
			return st, fmt.Sprintf("killed by Slurm: %s (task %s)", why, task)
		}
	}
	// the accounting, else the controller's memory of the job
	state := ""
	if out, err := exec.CommandContext(ctx, "sacct", "-n", "-X", "-P", "-o", "State", "-j", task).Output(); err == nil {
		state = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	if state == "" && m.JobID != "" {
		if out, err := exec.CommandContext(ctx, "scontrol", "show", "job", m.JobID).Output(); err == nil {
			for _, f := range strings.Fields(string(out)) {
				if v, ok := strings.CutPrefix(f, "JobState="); ok {
					state = v
				}
			}
		}
	}
	state = strings.Fields(state + " ")[0] // "CANCELLED by 0" -> CANCELLED
	switch state {
	case "TIMEOUT", "DEADLINE":
		return plan.Timeout, fmt.Sprintf("killed by Slurm: the task's time limit (task %s)", task)
	case "OUT_OF_MEMORY":
		return plan.Memory, fmt.Sprintf("killed by Slurm: the task's memory limit (task %s)", task)
	case "", "RUNNING", "PENDING", "COMPLETING":
		return plan.Failed, fmt.Sprintf("begun, not finished; Slurm says %q (task %s)", strings.ToLower(state), task)
	}
	return plan.Failed, fmt.Sprintf("killed by Slurm: %s (task %s)", strings.ToLower(state), task)
}

// fromLog reads why Slurm stopped a task from the lines slurmstepd writes
// to its log.
func fromLog(log string) (plan.Status, string) {
	sc := bufio.NewScanner(strings.NewReader(log))
	var st plan.Status
	why := ""
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.Contains(l, "exceeded memory limit"), strings.Contains(l, "oom-kill"), strings.Contains(l, "Exceeded job memory limit"):
			return plan.Memory, "the task's memory limit"
		case strings.Contains(l, "DUE TO TIME LIMIT"):
			st, why = plan.Timeout, "the task's time limit"
		case strings.Contains(l, "DUE TO NODE FAILURE"):
			st, why = plan.Failed, "node failure"
		case strings.Contains(l, "CANCELLED AT") && st == "":
			st, why = plan.Failed, "cancelled"
		}
	}
	return st, why
}
