// Command htnsat parses, grounds and solves HDDL planning problems, by
// progression search or through SAT, and shows it all off on Sudoku.
//
// Run "htnsat --help" for the commands.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(runMain())
}

// runMain runs the command line of the process, Ctrl-C and SIGTERM
// ending its work as a timeout does (exit code 3).
func runMain() int {
	catchSignals = true
	return run(context.Background(), os.Args[1:], &ioStreams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
}
