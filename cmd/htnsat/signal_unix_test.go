//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignals: Ctrl-C (SIGINT) or SIGTERM to a running htnsat (the test
// binary standing in for it) ends its work as a timeout does: the
// summary of the runs done so far, the message "interrupted" and exit
// code 3, promptly. The handler is installed by the command that runs, so
// the signal is sent once the command has printed its first line.
func TestSignals(t *testing.T) {
	dir := t.TempDir()
	puzzles := filepath.Join(dir, "p.txt")
	line := "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
	if err := os.WriteFile(puzzles, []byte(strings.Repeat(line, 5000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(os.Args[0], "compare", "-f", puzzles, "--engines", "progression")
		cmd.Env = append(os.Environ(), "HTNSAT_TEST_MAIN=1")
		var errOut strings.Builder
		cmd.Stderr = &errOut
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(out)
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatalf("%v: no first line: %v", sig, err)
		}
		time.Sleep(100 * time.Millisecond)
		sent := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		rest, _ := r.ReadString(0)
		err = cmd.Wait()
		took := time.Since(sent)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitTimeout {
			t.Errorf("%v: %v, want exit code %d; stderr %s", sig, err, exitTimeout, errOut.String())
		}
		if !strings.Contains(errOut.String(), "interrupted after") || !strings.Contains(rest, "progression") {
			t.Errorf("%v: stderr %q; summary %q", sig, errOut.String(), rest)
		}
		if took > 5*time.Second {
			t.Errorf("%v: exited %v after the signal", sig, took)
		}
	}
}
