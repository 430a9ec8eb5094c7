package memguard

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// churn allocates n bytes of garbage in 64 KiB pieces and returns how many
// collections ran meanwhile.
func churn(n int) uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.NumGC
	var sink []byte
	for i := 0; i < n>>16; i++ {
		sink = make([]byte, 64<<10)
		sink[0] = byte(i)
	}
	_ = sink
	runtime.ReadMemStats(&ms)
	return ms.NumGC - before
}

// TestFloor: under a 64 MiB floor, 48 MiB of garbage on a small live heap
// takes at most one collection where the runtime's default pacing takes
// several; stopping the floor restores GOGC.
func TestFloor(t *testing.T) {
	base := debug.SetGCPercent(100)
	defer debug.SetGCPercent(base)
	runtime.GC()
	without := churn(48 << 20)

	stop := Floor(64 << 20)
	runtime.GC() // the floor reads the live heap after each cycle,
	// in a finalizer, which runs after the cycle on its own goroutine
	deadline := time.Now().Add(5 * time.Second)
	for gogc() <= 100 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	with := churn(48 << 20)
	if got := gogc(); got <= 100 {
		t.Errorf("GOGC under the floor = %d; want above 100 for a small live heap", got)
	}
	stop()
	if got := gogc(); got != 100 {
		t.Errorf("GOGC after stop = %d, want 100", got)
	}
	// without the floor the goal is twice the live heap (4 MiB at
	// least), so 48 MiB of garbage takes at least two collections
	// unless the live heap is above 24 MiB; under the floor, at most one
	if with > 1 || without < 2 {
		t.Errorf("collections for 48 MiB of garbage: %d under a 64 MiB floor, %d without; want at most 1 and at least 2", with, without)
	}
}

// TestFloorLargeHeap: once the live heap is larger than the floor, GOGC is
// back at its starting value, so a big run is paced as before.
func TestFloorLargeHeap(t *testing.T) {
	base := debug.SetGCPercent(100)
	defer debug.SetGCPercent(base)
	stop := Floor(8 << 20)
	defer stop()
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.GC()
	// the floor adjusts in a finalizer, which runs after the cycle on
	// the finalizer goroutine
	deadline := time.Now().Add(5 * time.Second)
	for gogc() != 100 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := gogc(); got != 100 {
		t.Errorf("GOGC with %d MiB live under an 8 MiB floor = %d, want 100", len(keep), got)
	}
	runtime.KeepAlive(keep)
}

// TestFloorOff: with the collector off, the floor leaves it off.
func TestFloorOff(t *testing.T) {
	base := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(base)
	stop := Floor(32 << 20)
	if got := gogc(); got != -1 {
		t.Errorf("GOGC = %d under a floor with the collector off", got)
	}
	stop()
	if got := gogc(); got != -1 {
		t.Errorf("GOGC = %d after stop with the collector off", got)
	}
}

// TestFloorPercent: the percent puts the next goal at live+floor, never
// below the base, and never lets the runtime's minimum heap pass it.
func TestFloorPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, floor int64
		base, want  int
	}{
		{32 * mib, 32 * mib, 100, 100},   // live = floor: the base
		{64 * mib, 32 * mib, 100, 100},   // above: the base
		{16 * mib, 32 * mib, 100, 200},   // goal 48 MiB
		{8 * mib, 32 * mib, 100, 400},    // goal 40 MiB
		{2 * mib, 32 * mib, 100, 850},    // the minimum heap (4 MiB × 8.5 = 34 MiB) binds
		{16 * mib, 32 * mib, 300, 300},   // a larger base wins
		{0, 32 * mib, 100, 800},          // before the first cycle: 32 MiB
		{1 * mib, 1 * mib / 2, 100, 100}, // floor below the default goal
	} {
		if got := floorPercent(c.live, c.floor, c.base); got != c.want {
			t.Errorf("floorPercent(%d MiB, %d MiB, %d) = %d, want %d", c.live/mib, c.floor/mib, c.base, got, c.want)
		}
	}
}
