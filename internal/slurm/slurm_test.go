package slurm

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/plan"
)

// TestSubmitSliceCollect: a submission's script asks for what the job
// needs; tasks get disjoint slices; rows, stopped runs (told from the
// task's log) and missing runs are collected; submitting again asks for
// the runs without a row, and only those.
func TestSubmitSliceCollect(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	job := Job{Runs: 7, Version: "test", RunTime: 25 * time.Second, MemMB: 1000,
		Exe: "/bin/htnsat", Subcommand: "it's"}
	s, err := Submit(ctx, dir, job, Options{RunsPerTask: 3, Throttle: 2, Partition: "short", NoSubmit: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 0 || s.Runs != 7 || s.Tasks != 3 || s.JobID != "" {
		t.Fatalf("%+v", s)
	}
	sh, _ := os.ReadFile(s.Script)
	for _, want := range []string{"#SBATCH --array=0-2%2", "#SBATCH --time=00:02:30", "#SBATCH --mem=1000M", `#SBATCH --partition="short"`,
		`#SBATCH --output="` + filepath.Join(dir, "logs", "%A_%a.out") + `"`, `exec '/bin/htnsat' 'it'\''s' '--slurm-task' '` + dir + `' '--submission' '0' '--task-runs' '`} {
		if !strings.Contains(string(sh), want) {
			t.Errorf("the script lacks %q:\n%s", want, sh)
		}
	}
	var all []int
	for task := range 3 {
		ids, err := Slice(dir, 0, task, 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ids...)
	}
	if len(all) != 7 || all[0] != 0 || all[6] != 6 {
		t.Errorf("slices %v", all)
	}
	if _, err := Slice(dir, 0, 3, 3, 7); err == nil {
		t.Error("a fourth task had a slice")
	}
	// runs 0-3 finish; 4 and 5 are stopped by Slurm (memory, cancelled);
	// 6 never begins
	t.Setenv("SLURM_JOB_ID", "101")
	t.Setenv("SLURM_ARRAY_JOB_ID", "100")
	for id := range 6 {
		t.Setenv("SLURM_ARRAY_TASK_ID", []string{"0", "0", "0", "1", "1", "2"}[id])
		if err := Begin(ctx, dir, id); err != nil {
			t.Fatal(err)
		}
		if id < 4 {
			if err := Finish(ctx, dir, id, map[string]string{"status": "solved"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	os.WriteFile(filepath.Join(dir, "logs", "100_1.out"), []byte("slurmstepd: error: StepId=101.batch exceeded memory limit (436248576 > 104857600), being killed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "logs", "100_2.out"), []byte("slurmstepd: error: *** JOB 102 ON vm CANCELLED AT 2026-11-24T22:56:20 ***\n"), 0o644)
	c, err := Collect(ctx, dir, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 4 || c.Stopped[4].Status != plan.Memory || c.Stopped[5].Status != plan.Failed || !strings.Contains(c.Stopped[5].Message, "cancelled") ||
		len(c.Missing) != 1 || c.Missing[0] != 6 {
		t.Errorf("collected: %d rows, stopped %+v, missing %v", len(c.Rows), c.Stopped, c.Missing)
	}
	if _, err := os.Stat(startedFile(dir, 0)); err == nil {
		t.Error("a finished run kept its begun marker")
	}
	s, err = Submit(ctx, dir, job, Options{NoSubmit: true})
	if err != nil {
		t.Fatal(err)
	}
	runs, _ := os.ReadFile(filepath.Join(dir, "submissions", "1.runs"))
	if s.N != 1 || s.Runs != 3 || strings.Fields(string(runs))[0] != "4" || len(strings.Fields(string(runs))) != 3 {
		t.Errorf("again: %+v, runs %q", s, runs)
	}
	if _, err := os.Stat(startedFile(dir, 4)); err == nil {
		t.Error("a stopped run kept its marker when submitted again")
	}
}

func TestFromLog(t *testing.T) {
	for log, want := range map[string]plan.Status{
		"slurmstepd: error: *** JOB 7 ON n1 CANCELLED AT 2026-01-01T00:00:00 DUE TO TIME LIMIT ***":   plan.Timeout,
		"slurmstepd: error: Detected 1 oom-kill event(s) in StepId=7.batch":                           plan.Memory,
		"slurmstepd: error: *** JOB 7 ON n1 CANCELLED AT 2026-01-01T00:00:00 DUE TO NODE FAILURE ***": plan.Failed,
		"some output of the run": "",
	} {
		if got, _ := fromLog(log); got != want {
			t.Errorf("%q: %q, want %q", log, got, want)
		}
	}
}

// TestScriptQuoting: a folder, partition or version that a shell or sbatch
// would read as more than a value is refused (control characters, a
// backslash in the folder) or quoted: running the script runs the task's
// command with the folder as one word and nothing else, and its #SBATCH
// lines, read as sbatch reads them, give back each value whole.
func TestScriptQuoting(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []struct {
		dir, partition string
	}{
		{"exp\ntouch X\n#", ""}, {"exp", "short\ntouch X\n#"}, {"exp\rX", ""}, {`exp\%A`, ""},
	} {
		dir := filepath.Join(t.TempDir(), bad.dir)
		if _, err := Submit(ctx, dir, Job{Runs: 1, Exe: "/bin/true", Subcommand: "ipc"}, Options{Partition: bad.partition, NoSubmit: true}); err == nil {
			t.Errorf("folder %q, partition %q: a script was written", bad.dir, bad.partition)
		}
	}
	root := t.TempDir()
	dir := filepath.Join(root, `a b'c"d $(touch X) %j #e`)
	args := filepath.Join(root, "args")
	exe := filepath.Join(root, "exe it")
	os.WriteFile(exe, []byte("#!/bin/sh\nfor a; do echo \"$a\"; done >"+shellQuote(args)+"\n"), 0o755)
	partition := `p "q" \ 'r' #s`
	s, err := Submit(ctx, dir, Job{Runs: 1, Version: "v'1\" $(x)", RunTime: time.Second, MemMB: 10, Exe: exe, Subcommand: "ipc"},
		Options{Partition: partition, NoSubmit: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(s.Script)
	got := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "#SBATCH "); ok {
			k, v, _ := strings.Cut(sbatchArgument(t, rest), "=")
			got[k] = v
		}
	}
	wantOut := strings.ReplaceAll(filepath.Join(dir, "logs"), "%", "%%") + "/%A_%a.out"
	if got["--partition"] != partition || got["--output"] != wantOut || got["--job-name"] != "htnsat-"+filepath.Base(dir) {
		t.Errorf("sbatch reads %q; want partition %q, output %q", got, partition, wantOut)
	}
	cmd := exec.Command("sh", s.Script)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	a, _ := os.ReadFile(args)
	if want := "ipc\n--slurm-task\n" + dir + "\n--submission\n0\n--task-runs\n1\n"; string(a) != want {
		t.Errorf("the task got %q, want %q", a, want)
	}
	if _, err := os.Stat(filepath.Join(root, "X")); err == nil {
		t.Error("running the script ran a command of the folder's name")
	}
}

// sbatchArgument reads the first argument of a #SBATCH line as sbatch
// does (src/sbatch/opt.c, _get_argument): quotes group, a backslash
// escapes the next character, an unquoted # ends the line.
func sbatchArgument(t *testing.T, line string) string {
	var out strings.Builder
	var q rune
	escape := false
	for _, r := range strings.TrimLeft(line, " \t") {
		switch {
		case escape:
			escape = false
		case r == '\\':
			escape = true
			continue
		case q != 0:
			if r == q {
				q = 0
				continue
			}
		case r == '"' || r == '\'':
			q = r
			continue
		case r == '#' || r == ' ' || r == '\t':
			return out.String()
		}
		out.WriteRune(r)
	}
	if q != 0 {
		t.Errorf("an unclosed quote in %q", line)
	}
	return out.String()
}
