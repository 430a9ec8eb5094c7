// Package atomicfile writes output files the way careful tools do (go
// build -o, install): a regular file is never seen half written, and
// anything else is written through.
//
//   - A regular file (or a new one) gets its content in a temporary file
//     beside it, which replaces it only once everything was written,
//     synced and closed; a write that fails (a full disk, an error of the
//     producer, an interrupted run) leaves the target as it was and
//     removes the temporary file. The replacement keeps the old file's
//     permissions (and, for root, its owner); a new file gets 0666 less
//     the umask, as the shell's redirection gives.
//   - A symbolic link is followed: the file it names is written (or
//     created), the link stays.
//   - A device, a FIFO or a socket (/dev/null, /dev/stdout, a named pipe)
//     is opened and written in place, never replaced; opening a FIFO that
//     has no reader waits for one, until the context ends. So is a file
//     named through an open descriptor (/proc/self/fd/1, /dev/fd/3),
//     truncated first: the descriptor's holder (a shell's redirection)
//     must see what is written.
//   - A directory is an error.
package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxLinks bounds the symbolic links followed, as the kernel's ELOOP does.
const maxLinks = 40

// Write calls fn with a buffered writer to path (see the package comment
// for what that means for each kind of file) and reports the first error
// of fn, the writes, the sync, the close or the replacement.
func Write(ctx context.Context, path string, fn func(w io.Writer) error) error {
	target, st, err := resolve(path)
	switch {
	case err != nil:
		err = sysErr(err)
	case st != nil && st.IsDir():
		err = sysErr(syscall.EISDIR)
	case target == "":
		err = through(ctx, path, st, fn)
	default:
		err = replace(target, st, fn)
		var we *writeError
		if errors.As(err, &we) && we.noTemp && st != nil && isDirDenied(we.err) && writable(target) {
			// a file we may write in a folder we may not: in place
			err = through(ctx, target, st, fn)
		}
	}
	var we *writeError
	if errors.As(err, &we) {
		return fmt.Errorf("writing %s: %w", path, we.err)
	}
	return err
}

// WriteBytes writes data to path (see Write).
func WriteBytes(ctx context.Context, path string, data []byte) error {
	return Write(ctx, path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// descriptorLink reports whether path names a file through an open
// file descriptor (Linux's /proc/PID/fd/N and /dev/fd/N). Writing there
// must reach that descriptor's file: the shell that redirected a
// command's output holds it, and a file renamed over the name the link
// shows would be one the shell never sees (plan --optimize -o
// /proc/self/fd/1 > out.plan kept the first plan, not the best).
func descriptorLink(path string) bool {
	p := filepath.Clean(path)
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		_, fd, ok := strings.Cut(rest, "/")
		return ok && strings.HasPrefix(fd, "fd/")
	}
	return strings.HasPrefix(p, "/dev/fd/")
}

// resolve stats the file path names and, when it is a regular file or
// none yet, follows symbolic links to the name the new file takes:
// target is where to rename to, "" to write in place (a name whose links
// the kernel follows but a path does not name, or a file descriptor's
// link such as /proc/self/fd/1).
func resolve(path string) (target string, st os.FileInfo, err error) {
	st, err = os.Stat(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", nil, err
	}
	if st != nil && !st.Mode().IsRegular() {
		return "", st, nil
	}
	target = path
	for i := 0; ; i++ {
		if descriptorLink(target) {
			// /proc/self/fd/1, /dev/fd/3: the name of an open file,
			// whose holder a replaced file would leave behind
			return "", st, nil
		}
		lst, err := os.Lstat(target)
		if errors.Is(err, fs.ErrNotExist) {
			break // a new file, or a dangling link's target
		}
		if err != nil {
			return "", nil, err
		}
		if lst.Mode()&fs.ModeSymlink == 0 {
			break
		}
		if i == maxLinks {
			return "", nil, syscall.ELOOP
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
	if st != nil {
		if tst, err := os.Stat(target); err != nil || !os.SameFile(st, tst) {
			return "", st, nil
		}
	}
	return target, st, nil
}

// writeError is a failure of the file system (not of the caller's fn),
// its path stripped: Write names the file the user gave, never a
// temporary one or a link's target.
type writeError struct {
	err    error
	noTemp bool // the temporary file could not be made (fn was not called)
}

func (e *writeError) Error() string { return e.err.Error() }

// sysErr wraps a file system error as a writeError.
func sysErr(err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return &writeError{err: err}
}

// replace writes a regular file through a temporary file and a rename.
func replace(path string, old os.FileInfo, fn func(io.Writer) error) (err error) {
	f, tmp, err := createTemp(path)
	if err != nil {
		we := sysErr(err).(*writeError)
		we.noTemp = true
		return we
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
		temps.Delete(tmp)
	}()
	fw := &fileWriter{f: f}
	b := bufio.NewWriterSize(fw, 1<<16)
	if err = fn(b); err != nil {
		return fw.blame(err)
	}
	if err = b.Flush(); err != nil {
		return fw.blame(err)
	}
	if old != nil {
		if err = f.Chmod(old.Mode().Perm()); err != nil {
			return sysErr(err)
		}
		keepOwner(f, old)
	}
	if err = f.Sync(); err != nil {
		return sysErr(err)
	}
	if err = f.Close(); err != nil {
		return sysErr(err)
	}
	return sysErr(os.Rename(tmp, path))
}

// temps are the temporary files being written, for RemoveTemps.
var temps sync.Map

// RemoveTemps removes every temporary file a Write is writing now: for a
// process that must exit at once (a stage that ignored its deadline).
func RemoveTemps() {
	temps.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}

// createTemp creates a new file beside path with the permissions a new
// file gets (0666 less the umask).
func createTemp(path string) (*os.File, string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	for i := 0; ; i++ {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(uint64(time.Now().UnixNano())+uint64(i)*7919, 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		temps.Store(name, true)
		return f, name, nil
	}
}

// isDirDenied reports whether err says the folder cannot take a new file.
func isDirDenied(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// writable reports whether the file at path can be opened for writing.
func writable(path string) bool {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// through writes into an existing file in place: a device, a FIFO, a
// socket, or a regular file in a folder we cannot write.
func through(ctx context.Context, path string, st os.FileInfo, fn func(io.Writer) error) error {
	flags := os.O_WRONLY
	if st.Mode().IsRegular() {
		flags |= os.O_TRUNC
	}
	f, err := openWrite(ctx, path, flags, st.Mode()&fs.ModeNamedPipe != 0)
	if err != nil {
		return sysErr(err)
	}
	defer f.Close()
	// a reader that stops reading must not hold the run past its end
	stop := context.AfterFunc(ctx, func() { f.SetWriteDeadline(time.Now()) })
	defer stop()
	fw := &fileWriter{f: f, ctx: ctx}
	b := bufio.NewWriterSize(fw, 1<<16)
	if err := fn(b); err != nil {
		return fw.blame(err)
	}
	if err := b.Flush(); err != nil {
		return fw.blame(err)
	}
	return sysErr(f.Close())
}

// openWrite opens path for writing. A FIFO is opened without blocking,
// again every 20 ms until a reader is there or the context ends (opening
// it plainly would wait in the kernel, deaf to the context).
func openWrite(ctx context.Context, path string, flags int, fifo bool) (*os.File, error) {
	if !fifo {
		return os.OpenFile(path, flags, 0)
	}
	for {
		f, err := os.OpenFile(path, flags|syscall.O_NONBLOCK, 0)
		if err == nil || !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no reader opened the pipe: %w", context.Cause(ctx))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// fileWriter remembers the first error of its file, so that an error fn
// returns because a write failed is told as the file's (a full disk).
type fileWriter struct {
	f   *os.File
	ctx context.Context // through: the deadline that stops a write
	err error
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// blame returns the file's error if there was one, else fn's err.
func (w *fileWriter) blame(err error) error {
	switch {
	case w.err == nil:
		return err
	case w.ctx != nil && w.ctx.Err() != nil && errors.Is(w.err, os.ErrDeadlineExceeded):
		return &writeError{err: context.Cause(w.ctx)}
	}
	return sysErr(w.err)
}
