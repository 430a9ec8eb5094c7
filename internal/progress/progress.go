// Package progress keeps what a running command is doing: the stage it is
// in, how long it has run, and the counters its stages report (search
// nodes, the SAT encoding's depth and clauses, the best plan's cost). A
// terminal shows it as one line that keeps being rewritten (Show), and a
// run that runs out of time says from it where it was (OutOfTime).
//
// A Tracker travels in the context; every method works on a nil Tracker
// (a context without one), doing nothing, so the stages report without
// asking whether anyone listens. The counters are atomic: the portfolio's
// members and the engines of auto report from their own goroutines.
package progress

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Tracker is the progress of one command.
type Tracker struct {
	start time.Time
	limit atomic.Int64 // the time limit, in nanoseconds (0: none)
	mu    sync.Mutex
	stage string
	// the counters: nodes added up over the searches; the SAT
	// encoding's last depth and its clauses; the best plan's cost
	// (-1: none yet)
	nodes, depth, clauses, best atomic.Int64
	// outOfTime: the command's time was declared up before its deadline
	// (the time kept for a large process's exit)
	outOfTime atomic.Bool
}

// New starts a tracker now.
func New() *Tracker {
	t := &Tracker{start: time.Now()}
	t.best.Store(-1)
	return t
}

type key struct{}

// With returns ctx carrying t.
func With(ctx context.Context, t *Tracker) context.Context { return context.WithValue(ctx, key{}, t) }

// From returns the tracker of ctx, or nil.
func From(ctx context.Context) *Tracker {
	t, _ := ctx.Value(key{}).(*Tracker)
	return t
}

// SetLimit records the command's time limit, for OutOfTime.
func (t *Tracker) SetLimit(d time.Duration) {
	if t != nil {
		t.limit.Store(int64(d))
	}
}

// OutOfTimeNow records that the command's time is up, ahead of its
// deadline: a context cancelled now means out of time.
func (t *Tracker) OutOfTimeNow() {
	if t != nil {
		t.outOfTime.Store(true)
	}
}

// RanOutOfTime reports whether OutOfTimeNow was called.
func (t *Tracker) RanOutOfTime() bool { return t != nil && t.outOfTime.Load() }

// Stage records the stage the command enters (parse, ground, search,
// encode, verify, ...).
func (t *Tracker) Stage(s string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.stage = s
	t.mu.Unlock()
}

// AddNodes adds n search nodes.
func (t *Tracker) AddNodes(n int64) {
	if t != nil {
		t.nodes.Add(n)
	}
}

// SAT records the depth the SAT encoding reached and its clauses.
func (t *Tracker) SAT(depth int, clauses int64) {
	if t != nil {
		t.depth.Store(int64(depth))
		t.clauses.Store(clauses)
	}
}

// Best records the cost of the best plan so far.
func (t *Tracker) Best(cost int64) {
	if t != nil {
		t.best.Store(cost)
	}
}

// status is the stage and the counters, as "search: 12,345 nodes, best
// cost 28".
func (t *Tracker) status() string {
	t.mu.Lock()
	stage := t.stage
	t.mu.Unlock()
	var parts []string
	if n := t.nodes.Load(); n > 0 {
		parts = append(parts, group(n)+" nodes")
	}
	if d := t.depth.Load(); d > 0 {
		parts = append(parts, fmt.Sprintf("SAT depth %d, %s clauses", d, group(t.clauses.Load())))
	}
	if b := t.best.Load(); b >= 0 {
		parts = append(parts, "best cost "+group(b))
	}
	if stage == "" {
		stage = "starting"
	}
	if len(parts) == 0 {
		return stage
	}
	return stage + ": " + strings.Join(parts, ", ")
}

// Line is the line a terminal shows: the elapsed time, the stage and the
// counters.
func (t *Tracker) Line() string {
	return fmt.Sprintf("%.1f s, %s", time.Since(t.start).Seconds(), t.status())
}

// OutOfTime is the message of a run that ran out of time: the limit,
// when it ran out and where the run was.
func (t *Tracker) OutOfTime() string {
	if t == nil {
		return "out of time"
	}
	limit := ""
	if d := time.Duration(t.limit.Load()); d > 0 {
		limit = " (--timeout " + d.String() + ")"
	}
	return fmt.Sprintf("out of time%s after %.2f s, in %s", limit, time.Since(t.start).Seconds(), t.status())
}

// Show rewrites the tracker's line on w (a terminal) every interval,
// from the first interval on, until the returned function is called,
// which clears the line.
func (t *Tracker) Show(w io.Writer, interval time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	shown := false
	go func() {
		defer wg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				line := t.Line()
				if len(line) > 100 {
					line = line[:100]
				}
				fmt.Fprintf(w, "\r%s\x1b[K", line)
				shown = true
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		if shown {
			fmt.Fprint(w, "\r\x1b[K")
		}
	}
}

// group writes n with thousands separated by commas.
func group(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
