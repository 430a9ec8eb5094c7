package progress

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTracker: a nil tracker takes every report; a tracker's line and
// out-of-time message carry the stage, the limit and each counter that
// was reported (nodes added up across goroutines).
func TestTracker(t *testing.T) {
	var none *Tracker
	none.Stage("x")
	none.AddNodes(1)
	none.SAT(1, 1)
	none.Best(1)
	none.SetLimit(time.Second)
	if From(context.Background()) != nil || none.OutOfTime() != "out of time" {
		t.Error("a context without a tracker")
	}
	tr := New()
	ctx := With(context.Background(), tr)
	if !strings.HasSuffix(From(ctx).Line(), "s, starting") {
		t.Errorf("a fresh tracker: %q", tr.Line())
	}
	From(ctx).SetLimit(1500 * time.Millisecond)
	From(ctx).Stage("search")
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				From(ctx).AddNodes(16)
			}
		}()
	}
	wg.Wait()
	From(ctx).SAT(12, 4_500_000)
	From(ctx).Best(28)
	got := tr.OutOfTime()
	for _, want := range []string{"out of time (--timeout 1.5s) after ", " s, in search: 64,000 nodes, SAT depth 12, 4,500,000 clauses, best cost 28"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}

// TestShow: the line is drawn over itself and cleared at the end, and
// nothing is written by a run shorter than the interval.
func TestShow(t *testing.T) {
	tr := New()
	tr.Stage("ground")
	var b syncBuffer
	stop := tr.Show(&b, time.Hour)
	stop()
	if b.String() != "" {
		t.Errorf("a short run wrote %q", b.String())
	}
	stop = tr.Show(&b, 10*time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	stop()
	out := b.String()
	if !strings.HasPrefix(out, "\r") || !strings.Contains(out, "s, ground\x1b[K") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("the progress line: %q", out)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
