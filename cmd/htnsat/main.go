// Command htnsat parses, grounds and solves HDDL planning problems, by
// progression search or through SAT, and shows it all off on Sudoku.
//
// Run "htnsat --help" for the commands.
package main

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/htnsat/htnsat/internal/proc"
)

func main() {
	os.Exit(runMain())
}

// runMain runs the command line of the process, Ctrl-C and SIGTERM
// ending its work as a timeout does (exit code 3).
func runMain() int {
	catchSignals = true
	var out io.Writer = os.Stdout
	if proc.DevNullStdout() {
		// the standard output was closed: what is printed is lost
		out = closedWriter{}
	}
	return run(context.Background(), os.Args[1:], &ioStreams{In: os.Stdin, Out: out, Err: os.Stderr})
}

// closedWriter stands for a standard output that was closed when the
// process started: every write fails, as it would in C.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) {
	return 0, errors.New("the standard output is closed")
}
