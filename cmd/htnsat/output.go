package main

import (
	"context"
	"io"
	"time"

	"github.com/htnsat/htnsat/internal/atomicfile"
)

// afterEnd is how long the files of a run that was interrupted or timed
// out may still take to write (a FIFO's reader, say): what was done is
// kept, but nothing waits forever.
const afterEnd = 5 * time.Second

// writeFile writes an output file named on the command line: "" and "-"
// are the standard output; a regular file is replaced atomically, a
// device, a FIFO or a link's target written through (atomicfile).
func writeFile(ctx context.Context, ios *ioStreams, path string, fn func(io.Writer) error) error {
	if path == "" || path == "-" {
		return fn(ios.Out)
	}
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), afterEnd)
		defer cancel()
	}
	return atomicfile.Write(ctx, path, fn)
}
