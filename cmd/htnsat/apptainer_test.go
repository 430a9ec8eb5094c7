//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/verify"
)

// TestApptainerRunscript: each Apptainer definition of apptainer/ carries
// the labels the IPC 2023 HTN track asked for, and its %runscript, run as
// the competition runs it (DOMAIN PROBLEM PLANFILE, here natively by sh
// with this test binary as htnsat, on one CPU where taskset is there),
// writes a plan the verifier accepts, for a totally and a partially
// ordered problem.
func TestApptainerRunscript(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := filepath.Glob(filepath.Join(root, "apptainer", "*.def"))
	if len(defs) < 2 {
		t.Fatalf("apptainer/ has %d definitions", len(defs))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	shim := "#!/bin/sh\nHTNSAT_TEST_MAIN=1 exec " + shellWord(exe) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "htnsat"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	problems := [][2]string{
		{"testdata/costs/domain.hddl", "testdata/costs/problem.hddl"},
		{"testdata/transport/domain.hddl", "testdata/transport/problem.hddl"},
	}
	for _, def := range defs {
		b, err := os.ReadFile(def)
		if err != nil {
			t.Fatal(err)
		}
		sections := defSections(string(b))
		for _, label := range []string{"Name", "SupportsRecursion", "SupportsPartialOrder", "SupportsOptimalPlanning",
			"Track-TO-agile", "Track-TO-satisficing", "Track-TO-optimal", "Track-PO-agile", "Track-PO-satisficing", "Track-PO-optimal"} {
			if !strings.Contains(sections["labels"], "\n"+label+" ") {
				t.Errorf("%s: no label %s", filepath.Base(def), label)
			}
		}
		script := filepath.Join(t.TempDir(), "runscript")
		if err := os.WriteFile(script, []byte(sections["runscript"]), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, pr := range problems {
			planFile := filepath.Join(t.TempDir(), "plan.txt")
			args := []string{"sh", script, filepath.Join(root, pr[0]), filepath.Join(root, pr[1]), planFile}
			if _, err := exec.LookPath("taskset"); err == nil {
				args = append([]string{"taskset", "-c", "0"}, args...)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			cmd := exec.CommandContext(ctx, args[0], args[1:]...)
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HTNSAT_TIMEOUT=2s")
			out, err := cmd.CombinedOutput()
			cancel()
			if err != nil {
				t.Errorf("%s on %s: %v\n%s", filepath.Base(def), pr[1], err, excerptOf(string(out)))
				continue
			}
			f, err := os.Open(planFile)
			if err != nil {
				t.Errorf("%s on %s: no plan file: %v", filepath.Base(def), pr[1], err)
				continue
			}
			pl, err := plan.Read(f)
			f.Close()
			if err != nil {
				t.Errorf("%s on %s: %v", filepath.Base(def), pr[1], err)
				continue
			}
			_, p, err := hddl.Load(filepath.Join(root, pr[0]), filepath.Join(root, pr[1]))
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.Verify(context.Background(), p, pl); err != nil {
				t.Errorf("%s on %s: the plan does not verify: %v", filepath.Base(def), pr[1], err)
			}
		}
	}
}

// defSections splits an Apptainer definition into its %sections.
func defSections(def string) map[string]string {
	out := map[string]string{}
	name := ""
	for _, l := range strings.SplitAfter(def, "\n") {
		if rest, ok := strings.CutPrefix(l, "%"); ok {
			name = strings.TrimSpace(rest)
			out[name] = "\n"
			continue
		}
		if name != "" {
			out[name] += strings.TrimPrefix(l, "\t")
		}
	}
	return out
}

func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
