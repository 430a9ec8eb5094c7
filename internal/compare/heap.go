package compare

import (
	"runtime/metrics"
	"time"
)

// heapSampler polls the size of the heap while a run goes on and keeps
// its peak above the level at the start: the memory the run needed at
// once, as near as a 1 ms poll can tell. Runs in parallel (--jobs) share
// one heap, so the figure is only the run's own with one job; an external
// solver's memory is its own process's and is not counted.
type heapSampler struct {
	stop chan struct{}
	peak chan uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapNow(s []metrics.Sample) uint64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), peak: make(chan uint64, 1)}
	s := []metrics.Sample{{Name: heapMetric}}
	base := heapNow(s)
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var peak uint64
		note := func() {
			if v := heapNow(s); v > base && v-base > peak {
				peak = v - base
			}
		}
		for {
			select {
			case <-tick.C:
				note()
			case <-h.stop:
				note()
				h.peak <- peak
				return
			}
		}
	}()
	return h
}

// Stop ends the polling and returns the peak in bytes.
func (h *heapSampler) Stop() uint64 {
	close(h.stop)
	return <-h.peak
}
