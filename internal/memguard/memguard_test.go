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

// TestGauge: the guarded context carries a gauge of the memory in use
// against the limit; an unguarded one carries none.
func TestGauge(t *testing.T) {
	ctx, stop := Start(context.Background(), 1<<40)
	defer stop()
	g := plan.MemoryGaugeOf(ctx)
	if g == nil {
		t.Fatal("no gauge in the guarded context")
	}
	if used, limit := g(); used <= 0 || limit != 1<<40 {
		t.Errorf("gauge = %d, %d; want some memory in use against %d", used, limit, int64(1)<<40)
	}
	ctx, stop2 := Start(context.Background(), 0)
	defer stop2()
	if plan.MemoryGaugeOf(ctx) != nil {
		t.Error("a gauge without a limit")
	}
}
