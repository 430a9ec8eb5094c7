package main

import (
	"context"
	"testing"
	"time"

	"github.com/htnsat/htnsat/plan"
)

// TestWithTimeout: the context of --timeout ends within its limit (the
// exit reserve only brings the end earlier), and its end reads as a
// timeout wherever the error is classified.
func TestWithTimeout(t *testing.T) {
	start := time.Now()
	ctx, cancel := withTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if took := time.Since(start); took > time.Second {
		t.Errorf("a 200 ms limit ended after %v", took)
	}
	if s := plan.StatusOf(plan.WithCause(ctx, ctx.Err())); s != plan.Timeout {
		t.Errorf("status %s, want %s", s, plan.Timeout)
	}
}

// TestDeadlineByClock: a context from withTimeout reports its deadline
// as passed from the clock, not only once the runtime has run its timer.
func TestDeadlineByClock(t *testing.T) {
	c := deadlineCtx{context.Background(), time.Now().Add(-time.Millisecond)}
	if c.Err() != context.DeadlineExceeded {
		t.Errorf("past deadline: Err = %v", c.Err())
	}
	ctx, cancel := withTimeout(context.Background(), time.Hour)
	if ctx.Err() != nil {
		t.Errorf("an hour ahead: Err = %v", ctx.Err())
	}
	cancel()
	if ctx.Err() != context.Canceled {
		t.Errorf("cancelled: Err = %v", ctx.Err())
	}
}
