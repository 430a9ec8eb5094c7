package input

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadAll(t *testing.T) {
	ctx := context.Background()
	b, err := ReadAll(ctx, strings.NewReader("12345"), "x", 5)
	if err != nil || string(b) != "12345" {
		t.Errorf("%q %v", b, err)
	}
	_, err = ReadAll(ctx, strings.NewReader("123456"), "x", 5)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "x: file too large: more than 5 bytes") {
		t.Errorf("one byte too many: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ReadAll(cctx, strings.NewReader("abc"), "x", 5); !errors.Is(err, context.Canceled) {
		t.Errorf("after the context ended: %v", err)
	}
}

func TestTrimBOM(t *testing.T) {
	if got := string(TrimBOM([]byte("\uFEFFabc"))); got != "abc" {
		t.Errorf("%q", got)
	}
	if got := string(TrimBOM([]byte("ab"))); got != "ab" {
		t.Errorf("%q", got)
	}
	b, _ := io.ReadAll(BOMReader(strings.NewReader("\uFEFF==>")))
	if string(b) != "==>" {
		t.Errorf("BOMReader: %q", b)
	}
}

// TestFIFO: opening a FIFO without a writer, and reading one whose writer
// says nothing, both end with the context.
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Open(ctx, fifo); err == nil || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("open without a writer: %v after %v", err, time.Since(start))
	}
	// a writer that opens and stays silent
	w := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w <- f
		}
	}()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	start = time.Now()
	_, err := ReadFile(ctx2, fifo, 1<<20)
	if f := <-w; f != nil {
		f.Close()
	}
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("a silent writer: %v after %v", err, time.Since(start))
	}
}
