package slurm

import (
	"context"
	"os"
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
	for _, want := range []string{"#SBATCH --array=0-2%2", "#SBATCH --time=00:02:30", "#SBATCH --mem=1000M", "#SBATCH --partition=short",
		"#SBATCH --output=" + filepath.Join(dir, "logs", "%A_%a.out"), `exec '/bin/htnsat' 'it'\''s' '--slurm-task' '` + dir + `' '--submission' '0' '--task-runs' '`} {
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
