package htn

import (
	"context"
	"sync"
	"sync/atomic"
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
// it opens or ctx ends (ctx's error).
func (g *Gate) wait(ctx context.Context) error {
	if g == nil {
		return nil
	}
	ch := g.shut.Load()
	if ch == nil {
		return nil
	}
	select {
	case <-*ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
