// Package memguard stops work whose memory grows past a limit: it polls the
// Go heap and, where the system says, the resident memory of the process
// (which counts what a linked C solver allocates), and cancels a context with an error wrapping plan.ErrMemory, which
// every stage already honours as it honours a timeout. It also sets the
// garbage collector's soft limit to the same size, so that the collector
// works harder before the guard has to stop anything.
package memguard

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/htnsat/htnsat/internal/proc"
	"github.com/htnsat/htnsat/plan"
)

// Interval is how often the heap is looked at.
const Interval = 10 * time.Millisecond

// heapMetric is the memory held by heap objects, live or not yet swept.
const heapMetric = "/memory/classes/heap/objects:bytes"

// usage reads the Go heap (0 if the runtime does not say) and the
// resident memory of this process (ok false where the system does not
// say), the two things the guard watches.
func usage() (heap, rss int64, ok bool) {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		heap = int64(s[0].Value.Uint64())
	}
	rss, ok = proc.RSS(os.Getpid())
	return heap, rss, ok
}

// Used is the memory this process uses: the larger of the Go heap and
// the resident memory.
func Used() int64 {
	heap, rss, _ := usage()
	return max(heap, rss)
}

// Start returns a context that is cancelled, with an error wrapping
// plan.ErrMemory as its cause, when the heap or the resident memory passes
// limit bytes, and that carries a plan.MemoryGauge of the two (Used)
// against limit; and a function that stops the guard. A limit of 0 or less guards nothing.
func Start(ctx context.Context, limit int64) (context.Context, func()) {
	if limit <= 0 {
		return ctx, func() {}
	}
	prev := debug.SetMemoryLimit(limit)
	ctx = plan.WithMemoryGauge(ctx, func() (int64, int64) { return Used(), limit })
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(Interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				heap, rss, ok := usage()
				if heap > limit {
					cancel(fmt.Errorf("%w: the heap passed %d MiB", plan.ErrMemory, limit>>20))
					return
				}
				if ok && rss > limit {
					cancel(fmt.Errorf("%w: the resident memory passed %d MiB", plan.ErrMemory, limit>>20))
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
		debug.SetMemoryLimit(prev)
	}
}
