package memguard

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// DefaultFloor is the heap floor the htnsat command runs under: the heap
// may grow by 32 MiB between two collections, or by what GOGC says when
// that is more.
const DefaultFloor = 32 << 20

// Floor sets a floor under the collector's heap goal: after each
// collection the heap may grow by floor bytes before the next one, or by
// live×GOGC/100 when that is more (GOGC as the process started, 100 by
// default). A process that solves many small problems one after the
// other keeps a live heap of a few MiB and, at the runtime's defaults,
// collects every 4 MiB of allocation, several times per problem: each
// cycle's fixed cost (waking the mark workers, the two pauses, sweeping)
// then dominates. Under a floor it collects once per floor bytes; a large
// live heap is paced by GOGC as before, so the peak of a big run does not
// change. The Go compiler does the same for small compilations
// (cmd/compile's AdjustStartingHeap).
//
// The floor is kept by re-reading the live heap after every collection
// (a finalizer on a sentinel object) and setting GOGC to
// 100×floor/live, never below the starting GOGC. With GOGC=off the
// floor does nothing. The memory limit (Start) still bounds the heap.
// The returned function restores the starting GOGC. Floors do not nest:
// at most one is in effect at a time.
func Floor(floor int64) (stop func()) {
	base := gogc()
	if floor <= 0 || base < 0 {
		return func() {}
	}
	f := &floorState{floor: floor, base: base, cur: base}
	f.adjust()
	f.arm()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.stopped = true
		debug.SetGCPercent(f.base)
	}
}

type floorState struct {
	floor int64
	base  int // GOGC at the start
	mu    sync.Mutex
	// stopped is set by stop; a finalizer then neither adjusts nor re-arms.
	stopped bool
	cur     int // GOGC as last set
}

// sentinel is the object whose finalizer runs once per collection. It
// holds a pointer and is larger than the tiny-object size, so it has a
// heap block of its own and is freed by the first cycle after it became
// unreachable.
type sentinel struct {
	f *floorState
	_ [16]byte
}

func (f *floorState) arm() {
	s := &sentinel{f: f}
	runtime.SetFinalizer(s, func(s *sentinel) {
		if s.f.adjust() {
			s.f.arm()
		}
	})
}

// adjust sets GOGC for the live heap the last collection left; it
// reports false once the floor is stopped.
func (f *floorState) adjust() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return false
	}
	pct := floorPercent(liveHeap(), f.floor, f.base)
	// Small changes are not worth a call into the runtime.
	if pct != f.cur && (pct > f.cur+f.cur/16 || pct < f.cur-f.cur/16 || pct == f.base) {
		debug.SetGCPercent(pct)
		f.cur = pct
	}
	return true
}

// floorPercent is the GOGC that puts the next heap goal at live+floor,
// never below base. The runtime's goal is the larger of live×(1+GOGC/100)
// and its minimum heap, 4 MiB×GOGC/100, so the percent is held where
// neither passes live+floor.
func floorPercent(live, floor int64, base int) int {
	live = max(live, 1)
	pct := float64(floor) * 100 / float64(live)
	pct = min(pct, float64(live+floor)*100/(4<<20))
	if pct <= float64(base) {
		return base
	}
	return int(min(pct, math.MaxInt32/2))
}

// liveHeap is the heap the last collection marked live (0 before the
// first).
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// gogc is the current GOGC (-1 for off).
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		// Not said: read it by setting it (and setting it back).
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	v := s[0].Value.Uint64()
	if v > math.MaxInt32 {
		return -1
	}
	return int(v)
}
