//go:build unix

package atomicfile

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestWriteNewMode: a new file gets 0666 less the umask.
func TestWriteNewMode(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "new.txt")
	if err := WriteBytes(context.Background(), path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("new file: %v %v, want -rw-r-----", st.Mode(), err)
	}
}

// TestWriteFIFO: a named pipe is written through, stays a pipe, and a
// pipe nobody reads does not hold the writer past its context.
func TestWriteFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteBytes(context.Background(), fifo, []byte("through")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through" {
		t.Errorf("the reader got %q", s)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", st.Mode(), err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := WriteBytes(ctx, fifo, []byte("nobody"))
	if err == nil || time.Since(start) > 2*time.Second {
		t.Errorf("a pipe without a reader: %v after %v", err, time.Since(start))
	}
}

// TestWriteProcFD: a name the kernel resolves but a path does not
// (/proc/self/fd/N of a pipe) is written through.
func TestWriteProcFD(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	name := "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))
	if _, err := os.Stat(name); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { done <- WriteBytes(context.Background(), name, []byte("fd")); w.Close() }()
	b, _ := io.ReadAll(r)
	if err := <-done; err != nil || string(b) != "fd" {
		t.Errorf("%v, read %q", err, b)
	}
}

// TestWriteProcFDRegular: a regular file named through an open
// descriptor (/proc/self/fd/N, /dev/fd/N, as "-o /proc/self/fd/1 >
// out.plan" gives it) is written in place, each time: the descriptor's
// holder sees the last content, not the first (a replaced file left it
// behind).
func TestWriteProcFDRegular(t *testing.T) {
	for _, dir := range []string{"/proc/self/fd/", "/dev/fd/"} {
		path := filepath.Join(t.TempDir(), "out.plan")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		name := dir + strconv.Itoa(int(f.Fd()))
		if _, err := os.Stat(name); err != nil {
			f.Close()
			t.Skip(err)
		}
		for _, text := range []string{"the first, longer plan", "the best"} {
			if err := WriteBytes(context.Background(), name, []byte(text)); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := os.ReadFile(path)
		if string(b) != "the best" {
			t.Errorf("%s: the file holds %q, want the last content", dir, b)
		}
		f.Close()
	}
}
