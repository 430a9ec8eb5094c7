package memguard

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/htnsat/htnsat/plan"
)

// TestStart: work that keeps allocating past the limit sees its context
// end, with a cause that plan.StatusOf reads as the memory status.
func TestStart(t *testing.T) {
	ctx, stop := Start(context.Background(), 64<<20)
	defer stop()
	var keep [][]byte
	deadline := time.Now().Add(10 * time.Second)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		keep = append(keep, make([]byte, 1<<20))
		time.Sleep(time.Millisecond)
	}
	if ctx.Err() == nil {
		t.Fatalf("the guard let the heap grow to %d MiB", len(keep))
	}
	err := plan.WithCause(ctx, ctx.Err())
	if !errors.Is(err, plan.ErrMemory) || plan.StatusOf(err) != plan.Memory {
		t.Fatalf("cause %v, status %s", err, plan.StatusOf(err))
	}
	if len(keep) > 96 {
		t.Errorf("stopped only at %d MiB for a 64 MiB limit", len(keep))
	}
}

// TestNoLimit: a limit of 0 guards nothing.
func TestNoLimit(t *testing.T) {
	ctx, stop := Start(context.Background(), 0)
	defer stop()
	if ctx != context.Background() {
		t.Error("a zero limit made a new context")
	}
}
