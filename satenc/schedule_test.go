package satenc

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// TestSchedule runs the horizon schedule against an oracle: depths below
// 5 are refuted at once, depth 5 is never decided, depth 6 needs three
// slices to be found satisfiable. Horizons open in order up to the width,
// an unsatisfiable one closes every shallower one, the deeper horizon 6
// gets time although 5 never ends, and shallower horizons get more time
// than deeper ones.
func TestSchedule(t *testing.T) {
	w, g := horizonWidth, horizonGamma
	defer func() { horizonWidth, horizonGamma = w, g }()
	horizonWidth, horizonGamma = 3, 0.5
	sc := newSchedule(2, 40)
	count := map[int]int{}
	spent := map[int]time.Duration{}
	var opened []int
	for round := 0; round < 1000; round++ {
		for d, ok := sc.opening(); ok; d, ok = sc.opening() {
			opened = append(opened, d)
			sc.add(d, 0, 0)
		}
		d, slice, ok := sc.pick()
		if !ok {
			t.Fatal("no horizon left before a plan")
		}
		if slice <= 0 {
			t.Fatalf("depth %d has no time limit while others are open", d)
		}
		count[d]++
		switch {
		case d < 5:
			sc.done(d, time.Millisecond, true)
			continue
		case d == 6 && count[d] == 3:
			// found: horizon 6 is satisfiable
			if count[5] < count[6] {
				t.Errorf("depth 5 had %d slices, depth 6 %d: the shallower should have more", count[5], count[6])
			}
			if want := []int{2, 3, 4, 5, 6, 7}; len(opened) < len(want) || !slices.Equal(opened[:len(want)], want) {
				t.Errorf("opened %v, want %v first", opened, want)
			}
			return
		}
		spent[d] += slice
		sc.done(d, slice, false)
	}
	t.Fatalf("depth 6 never had three slices: %v", count)
}

// TestScheduleLast: with one horizon left and none to open, it runs
// without a limit; when every horizon is refuted, nothing is left.
func TestScheduleLast(t *testing.T) {
	sc := newSchedule(3, 3)
	d, ok := sc.opening()
	if !ok || d != 3 {
		t.Fatalf("opening = %d, %v", d, ok)
	}
	sc.add(d, 0, 0)
	if _, ok := sc.opening(); ok {
		t.Fatal("a horizon beyond the last depth opened")
	}
	if d, slice, ok := sc.pick(); !ok || d != 3 || slice != 0 {
		t.Fatalf("pick = %d, %v, %v; want 3 without a limit", d, slice, ok)
	}
	sc.done(3, time.Second, true)
	if _, _, ok := sc.pick(); ok {
		t.Fatal("a horizon left after the last was refuted")
	}
}

// TestScheduleEncodingBalance: a deeper horizon opens only once the
// search since the last one opened has lasted as long as its encoding.
func TestScheduleEncodingBalance(t *testing.T) {
	sc := newSchedule(2, 40)
	d, ok := sc.opening()
	if !ok || d != 2 {
		t.Fatalf("opening = %d, %v; want 2", d, ok)
	}
	sc.add(d, time.Second, 0) // its layers took a second to encode
	for i := range 3 {
		if d, ok := sc.opening(); ok {
			t.Fatalf("horizon %d opened after %d ms of search, encoding took 1 s", d, 300*i)
		}
		h, _, _ := sc.pick()
		sc.done(h, 300*time.Millisecond, false)
	}
	h, _, _ := sc.pick()
	sc.done(h, 100*time.Millisecond, false)
	if d, ok := sc.opening(); !ok || d != 3 {
		t.Fatalf("opening = %d, %v after 1 s of search; want 3", d, ok)
	}
	// a refuted horizon leaves none open: the next opens at once
	sc.add(3, time.Hour, 0)
	sc.done(3, time.Millisecond, true)
	if d, ok := sc.opening(); !ok || d != 4 {
		t.Fatalf("opening = %d, %v with no horizon open; want 4", d, ok)
	}
}

// TestScheduleSolo: until the solo time one horizon is open at a time,
// and its slice ends at the solo time; after it, horizons open as before.
func TestScheduleSolo(t *testing.T) {
	sc := newSchedule(2, 40)
	sc.solo = time.Now().Add(time.Hour)
	d, ok := sc.opening()
	if !ok || d != 2 {
		t.Fatalf("opening = %d, %v; want 2", d, ok)
	}
	sc.add(d, 0, 0)
	h, slice, _ := sc.pick()
	if h != 2 || slice < 59*time.Minute || slice > time.Hour {
		t.Fatalf("pick = %d, %v; want 2 until the solo time, an hour", h, slice)
	}
	sc.done(2, time.Minute, false)
	if d, ok := sc.opening(); ok {
		t.Fatalf("horizon %d opened beside another before the solo time", d)
	}
	sc.done(2, time.Second, true) // refuted: the next depth opens alone
	if d, ok := sc.opening(); !ok || d != 3 {
		t.Fatalf("opening = %d, %v with none open; want 3", d, ok)
	}
	sc.add(3, 0, 0)
	sc.done(3, time.Minute, false)
	sc.solo = time.Now().Add(-time.Second) // the solo time has passed
	if d, ok := sc.opening(); !ok || d != 4 {
		t.Fatalf("opening = %d, %v after the solo time; want 4", d, ok)
	}
}

// TestScheduleMemory: under a memory limit, no deeper horizon opens while
// one is open and the memory in use, with twice what the last opening
// took, would pass three quarters of the limit; with none open, one opens
// whatever the memory.
func TestScheduleMemory(t *testing.T) {
	var used int64
	sc := newSchedule(2, 40)
	sc.gauge = func() (int64, int64) { return used, 1000 }
	used = 100
	d, ok := sc.opening()
	if !ok || d != 2 {
		t.Fatalf("opening = %d, %v; want 2", d, ok)
	}
	used = 400 // the layers to depth 2 took 300
	sc.add(d, 0, 300)
	h, _, _ := sc.pick()
	sc.done(h, time.Millisecond, false)
	if d, ok := sc.opening(); ok {
		t.Fatalf("horizon %d opened with 400 of 1000 in use and 300 taken by the last", d)
	}
	used = 140 // the collector freed some: 140 + 2*300 <= 750
	if d, ok := sc.opening(); !ok || d != 3 {
		t.Fatalf("opening = %d, %v at 140 of 1000; want 3", d, ok)
	}
	sc.add(3, 0, 0)
	used = 900
	sc.done(3, time.Millisecond, true) // refutes 2 and 3: none open
	if d, ok := sc.opening(); !ok || d != 4 {
		t.Fatalf("opening = %d, %v with no horizon open; want 4 whatever the memory", d, ok)
	}
}

// TestScheduleOverrun: in a turn, a horizon whose encoding, grown as the
// last two grew, would end past the turn is not opened; outside a turn,
// or while the encodings are too short to say, it is.
func TestScheduleOverrun(t *testing.T) {
	sc := newSchedule(2, 40)
	sc.deadline = time.Now().Add(10 * time.Second)
	d, ok := sc.opening()
	if !ok || d != 2 {
		t.Fatalf("first opening: %d, %v", d, ok)
	}
	sc.add(d, time.Second, 0)
	sc.done(d, time.Millisecond, true)
	// 1 s, no growth known: 1 s predicted, 10 s left
	if d, ok = sc.opening(); !ok || d != 3 {
		t.Fatalf("second opening: %d, %v", d, ok)
	}
	sc.add(d, 4*time.Second, 0)
	sc.done(d, time.Millisecond, true)
	// grown 4 times: 16 s predicted, under 10 s left
	if p := sc.predicted(); p != 16*time.Second {
		t.Errorf("predicted %s, want 16s", p)
	}
	if !sc.overruns() {
		t.Error("a 16 s encoding in a 10 s turn does not overrun")
	}
	if d, ok = sc.opening(); ok {
		t.Errorf("depth %d opened past the turn's end", d)
	}
	if _, _, ok := sc.pick(); ok {
		t.Error("a horizon to pick with none open")
	}
	sc.deadline = time.Time{}
	if d, ok = sc.opening(); !ok || d != 4 {
		t.Errorf("outside a turn: %d, %v", d, ok)
	}
	short := newSchedule(2, 40)
	short.deadline = time.Now().Add(time.Millisecond)
	short.add(2, overrunFloor/2, 0)
	short.done(2, time.Millisecond, true)
	if short.overruns() {
		t.Error("an encoding under the floor predicts an overrun")
	}
	// the turn's early end is its end of time: auto hands the core back
	// to progression as after a cut turn
	if !errors.Is(errOverrun, context.DeadlineExceeded) {
		t.Error("errOverrun is not a context.DeadlineExceeded")
	}
}
