//go:build slurm

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSlurm runs experiments through a real Slurm cluster (make e2e-slurm;
// scripts/slurm-local.sh starts a one-node one here): the runs of a small
// corpus go through sbatch as a job array and come back as the rows a
// local ipc run makes; a run whose task goes over its --mem, and one whose
// task is cancelled mid-run, come back as rows with status memory and
// error; submitting again runs exactly those two.
func TestSlurm(t *testing.T) {
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Skip("no sbatch: scripts/slurm-local.sh sets up a one-node cluster")
	}
	if out, err := exec.Command("sinfo", "-h", "-o", "%T").Output(); err != nil || !strings.ContainsAny(string(out), "ilm") {
		t.Skipf("no Slurm node is up (sinfo: %q, %v): scripts/slurm-local.sh starts one", out, err)
	}
	// the binary the tasks run, where the nodes (this machine) find it
	dir := t.TempDir()
	exe := filepath.Join(dir, "htnsat")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	htnsat := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		cmd := exec.Command(exe, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String() + errb.String(), err
	}
	// a corpus: two problems solved at once, and a Sudoku with no
	// solution, which the progression search works on until --timeout
	corpus := filepath.Join(dir, "corpus")
	for _, d := range []string{"total-order/split", "total-order/sudoku", "partial-order"} {
		os.MkdirAll(filepath.Join(corpus, d), 0o755)
	}
	copyTo := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(to, b, 0o644)
	}
	copyTo("../../testdata/split/domain.hddl", filepath.Join(corpus, "total-order/split/domain.hddl"))
	copyTo("../../testdata/split/problem.hddl", filepath.Join(corpus, "total-order/split/p1.hddl"))
	copyTo("../../testdata/split/problem.hddl", filepath.Join(corpus, "total-order/split/p2.hddl"))
	sd := filepath.Join(corpus, "total-order/sudoku")
	unsat := "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
	if out, err := htnsat("sudoku", "domain", "--size", "9", "-o", filepath.Join(sd, "domain.hddl")); err != nil {
		t.Fatal(err, out)
	}
	if out, err := htnsat("sudoku", "hddl", "--style", "unordered", "-o", filepath.Join(sd, "unsat.hddl"), unsat); err != nil {
		t.Fatal(err, out)
	}
	wait := func(exp string) {
		deadline := time.Now().Add(3 * time.Minute)
		for time.Now().Before(deadline) {
			out, _ := exec.Command("squeue", "-h", "-n", "htnsat-"+filepath.Base(exp)).Output()
			if strings.TrimSpace(string(out)) == "" {
				return
			}
			time.Sleep(time.Second)
		}
		t.Fatalf("%s: still queued after 3 minutes", exp)
	}
	collect := func(exp string) string {
		out, err := htnsat("ipc", "--collect", exp)
		if err != nil {
			t.Fatalf("collect %s: %v\n%s", exp, err, out)
		}
		csv, err := os.ReadFile(filepath.Join(exp, "ipc-progression.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(csv)
	}
	status := func(csv, problem string) string {
		for _, l := range strings.Split(csv, "\n") {
			if f := strings.Split(l, ","); len(f) > 3 && f[2] == problem {
				return f[3]
			}
		}
		return ""
	}

	// A: the tasks' memory is 40 MiB; the Sudoku's search grows past it
	expA := filepath.Join(dir, "exp-memory")
	if out, err := htnsat("ipc", corpus, "--stage", "plan", "--engine", "progression", "--timeout", "20s",
		"--slurm", expA, "--runs-per-task", "1", "--slurm-mem", "40"); err != nil || !strings.Contains(out, "3 runs in 3 array tasks") {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	wait(expA)
	csv := collect(expA)
	if status(csv, "p1.hddl") != "solved" || status(csv, "p2.hddl") != "solved" || status(csv, "unsat.hddl") != "memory" {
		t.Errorf("over --mem: rows\n%s", csv)
	}

	// B: the Sudoku's task is cancelled while it runs
	expB := filepath.Join(dir, "exp-cancel")
	out, err := htnsat("ipc", corpus, "--stage", "plan", "--engine", "progression", "--timeout", "20s", "--slurm", expB, "--runs-per-task", "1")
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	job, _ := os.ReadFile(filepath.Join(expB, "submissions", "0.job"))
	// run 2 is the Sudoku (problems in corpus order): cancel its task
	// once it has begun
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(expB, "results", "2.started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Sudoku's run did not begin within a minute")
		}
	}
	time.Sleep(time.Second)
	if out, err := exec.Command("scancel", strings.TrimSpace(string(job))+"_2").CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v %s", err, out)
	}
	wait(expB)
	csv = collect(expB)
	if status(csv, "p1.hddl") != "solved" || status(csv, "unsat.hddl") != "error" || !strings.Contains(csv, "killed by Slurm") {
		t.Errorf("cancelled: rows\n%s", csv)
	}

	// puzzles: compare --process through Slurm gives the rows of a local
	// --process run
	puzzles := filepath.Join(dir, "p.txt")
	os.WriteFile(puzzles, []byte("...3..4114..3...\n1..4..1..3..4..3\n"), 0o644)
	expC := filepath.Join(dir, "exp-compare")
	if out, err := htnsat("compare", "-f", puzzles, "--process", "--slurm", expC); err != nil || !strings.Contains(out, "4 runs in 4 array tasks") {
		t.Fatalf("compare --slurm: %v\n%s", err, out)
	}
	wait(expC)
	out, err = htnsat("compare", "--collect", expC)
	solved := func(engine string) bool {
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 2 && f[1] == engine && f[2] == "2/2" {
				return true
			}
		}
		return false
	}
	if err != nil || !solved("progression") || !solved("htn-sat") {
		t.Errorf("compare --collect: %v\n%s", err, out)
	}

	// an optimising experiment: --collect adds the quality table of the
	// engines and their first plans
	expD := filepath.Join(dir, "exp-optimize")
	if out, err := htnsat("ipc", corpus, "--stage", "plan", "--engine", "progression,htn-sat", "--optimize", "--filter", "split", "--timeout", "10s", "--slurm", expD); err != nil {
		t.Fatalf("ipc --optimize --slurm: %v\n%s", err, out)
	}
	wait(expD)
	if out, err := htnsat("ipc", "--collect", expD); err != nil || !strings.Contains(out, "progression (first plans): solved") || !strings.Contains(out, "| total-order | split | 2 | 2 | 2.00 | 2 |") {
		t.Errorf("ipc --collect of an optimising experiment: %v\n%s", err, out)
	}

	// a folder whose name a shell and sbatch would split or expand (a
	// space, quotes, a $, a % of Slurm's filename patterns): its tasks
	// run, their logs land in its logs folder, and --collect reads them
	expE := filepath.Join(dir, `exp 'E' "$HOME" %j`)
	if out, err := htnsat("ipc", corpus, "--stage", "plan", "--engine", "progression", "--filter", "split", "--timeout", "10s", "--slurm", expE); err != nil {
		t.Fatalf("ipc --slurm to an odd folder: %v\n%s", err, out)
	}
	wait(expE)
	if csv := collect(expE); status(csv, "p1.hddl") != "solved" || status(csv, "p2.hddl") != "solved" {
		t.Errorf("an odd folder's rows:\n%s", csv)
	}
	if logs, _ := filepath.Glob(filepath.Join(expE, "logs", "*_*.out")); len(logs) == 0 {
		t.Errorf("no task log in %s/logs", expE)
	}

	// submitting again runs exactly the runs Slurm stopped
	for _, exp := range []string{expA, expB} {
		out, err := htnsat("ipc", "--slurm", exp, "--no-submit")
		if err != nil || !strings.Contains(out, "submission 1, 1 runs") {
			t.Errorf("%s again: %v\n%s", exp, err, out)
		}
		runs, _ := os.ReadFile(filepath.Join(exp, "submissions", "1.runs"))
		if strings.TrimSpace(string(runs)) != "2" {
			t.Errorf("%s again runs %q, want only run 2", exp, runs)
		}
	}
}
