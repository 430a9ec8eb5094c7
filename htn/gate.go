package htn

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// A Gate holds a search from outside (Options.Gate): while it is shut,
// the search waits where it looks at its context, keeping its whole
// state, until the gate opens again or the context ends. Auto on one core
// shuts it while the SAT engine has the core, and opens it again when that
// engine ends without an answer: progression then goes on where it
// stopped instead of losing the rest of the time (IPC 2023 Colouring
// pfile13: the SAT engine reports in a second that the linearised problem
// has no plan, and the run ended there, 14 s before its limit). The zero
// Gate and a nil one are open.
type Gate struct {
	mu sync.Mutex
	// shut, while the gate is shut, is a channel closed when it opens
	shut atomic.Pointer[chan struct{}]
}

// Shut makes the searches behind g wait at their next look at their
// context.
func (g *Gate) Shut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut.Load() == nil {
		ch := make(chan struct{})
		g.shut.Store(&ch)
	}
}

// Open lets the searches behind g go on.
func (g *Gate) Open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ch := g.shut.Load(); ch != nil {
		g.shut.Store(nil)
		close(*ch)
	}
}

// wait returns at once while g is open (a nil g is), and otherwise when
// it opens or ctx ends (ctx's error). A portfolio member's slice (p, nil
// outside the portfolio) is moved on by the time held: the member's clock
// stops while the gate is shut, so the turn it had when the gate shut is
// not lost (a late turn of the portfolio lasts seconds, and the SAT
// engine's turn on one core 15 s, longer than any of them).
func (g *Gate) wait(ctx context.Context, p *pauser) error {
	if g == nil {
		return nil
	}
	ch := g.shut.Load()
	if ch == nil {
		return nil
	}
	start := time.Now()
	select {
	case <-*ch:
		p.extend(time.Since(start))
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
