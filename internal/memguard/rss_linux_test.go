//go:build linux

package memguard

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/htnsat/htnsat/plan"
)

// TestResident: memory outside the Go heap (here mapped and touched by
// hand, as a linked C solver's would be) counts against the limit too.
func TestResident(t *testing.T) {
	ctx, stop := Start(context.Background(), 256<<20)
	defer stop()
	var maps [][]byte
	defer func() {
		for _, m := range maps {
			syscall.Munmap(m)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for ctx.Err() == nil && time.Now().Before(deadline) && len(maps) < 1024 {
		m, err := syscall.Mmap(-1, 0, 1<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(m); i += 4096 {
			m[i] = 1
		}
		maps = append(maps, m)
		time.Sleep(time.Millisecond)
	}
	if ctx.Err() == nil {
		t.Fatalf("the guard let %d MiB outside the heap pass a 256 MiB limit", len(maps))
	}
	if err := plan.WithCause(ctx, ctx.Err()); !errors.Is(err, plan.ErrMemory) {
		t.Fatalf("cause %v", err)
	}
	if len(maps) > 300 {
		t.Errorf("stopped only at %d MiB outside the heap for a 256 MiB limit", len(maps))
	}
}
