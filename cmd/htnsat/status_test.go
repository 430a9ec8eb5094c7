package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
)

// TestStatusOf: a run stopped early for its exit's reserve is out of
// time, though the contexts derived from the stopped one say cancelled
// (auto on two cores reported such runs as interrupted in its JSON and in
// ipc's tables); a cancellation without that mark stays an interruption.
func TestStatusOf(t *testing.T) {
	cancelled := fmt.Errorf("in SAT: %w", context.Canceled)
	if got := statusOf(progress.New(), cancelled); got != plan.Interrupted {
		t.Errorf("a cancelled run: %s, want %s", got, plan.Interrupted)
	}
	tr := progress.New()
	tr.OutOfTimeNow()
	if got := statusOf(tr, cancelled); got != plan.Timeout {
		t.Errorf("a run stopped for its exit's reserve: %s, want %s", got, plan.Timeout)
	}
	if got := statusOf(tr, plan.ErrUnsolvable); got != plan.Unsolvable {
		t.Errorf("an unsolvable run: %s, want %s", got, plan.Unsolvable)
	}
	if got := statusOf(nil, context.DeadlineExceeded); got != plan.Timeout {
		t.Errorf("a deadline without a tracker: %s, want %s", got, plan.Timeout)
	}
}
