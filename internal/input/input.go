// Package input reads the files named on a command line under a context:
// opening a FIFO that has no writer yet, or reading from one that stalls,
// ends when the context does (a plain open or read would wait in the
// kernel, deaf to Ctrl-C and --timeout), and every read of a long file
// looks at the context first, so a reader that parses as it reads stops
// within one buffer of the deadline.
package input

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// ErrTooLarge is wrapped by the error of ReadFile on a file larger than
// its limit (or an endless one, such as /dev/zero).
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading. A FIFO is opened in the background, so
// that the wait for its writer ends with ctx.
func Open(ctx context.Context, path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			// the writer may still come: close what it opens
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, fmt.Errorf("%s: no writer opened the pipe: %w", path, context.Cause(ctx))
	}
}

// Reader returns r reading under ctx: once ctx ends, Read fails with its
// cause. When r is a file that can wait (a pipe, a terminal, a socket),
// a Read already waiting is woken.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r
	}
	if f, ok := r.(*os.File); ok {
		// a pollable file's read wakes at its deadline; others ignore it
		context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, context.Cause(c.ctx)
	}
	n, err := c.r.Read(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && c.ctx.Err() != nil {
		err = context.Cause(c.ctx)
	}
	return n, err
}

// ReadAll reads r under ctx, at most limit bytes: more is an error
// wrapping ErrTooLarge that names what (a file name, "the standard
// input") and the limit.
func ReadAll(ctx context.Context, r io.Reader, what string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(Reader(ctx, r), limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w: more than %s", what, ErrTooLarge, sizeOf(limit))
	}
	return b, nil
}

// ReadFile opens and reads path under ctx, at most limit bytes.
func ReadFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(ctx, f, path, limit)
}

// sizeOf writes a limit in MiB or KiB.
func sizeOf(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// bom is the UTF-8 byte order mark some editors put at the start of a
// text file.
const bom = "\uFEFF"

// TrimBOM drops a UTF-8 byte order mark from the start of b.
func TrimBOM(b []byte) []byte {
	if len(b) >= len(bom) && string(b[:len(bom)]) == bom {
		return b[len(bom):]
	}
	return b
}

// BOMReader drops a UTF-8 byte order mark from the start of r.
func BOMReader(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(bom)); err == nil && string(b) == bom {
		br.Discard(len(bom))
	}
	return br
}
