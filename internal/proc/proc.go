// Package proc runs child processes so that they can be stopped whole:
// on Unix each child leads a process group of its own, and cancelling its
// command kills the group (a solver's helpers included); elsewhere the
// child alone is killed.
package proc

import "os/exec"

// Isolate prepares cmd, before it starts, to be killed with everything it
// starts when its context ends.
func Isolate(cmd *exec.Cmd) { isolate(cmd) }
