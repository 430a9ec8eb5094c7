package htn

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/htnsat/htnsat/internal/testutil"
)

// TestGate: a nil or zero Gate is open; a shut one holds wait until it
// opens or the context ends.
func TestGate(t *testing.T) {
	ctx := context.Background()
	var nilGate *Gate
	if err := nilGate.wait(ctx, nil); err != nil {
		t.Fatal(err)
	}
	g := &Gate{}
	if err := g.wait(ctx, nil); err != nil {
		t.Fatal(err)
	}
	g.Shut()
	g.Shut() // twice: still one channel to open
	done := make(chan error, 1)
	go func() { done <- g.wait(ctx, nil) }()
	select {
	case err := <-done:
		t.Fatalf("a shut gate let wait return (%v)", err)
	case <-time.After(20 * time.Millisecond):
	}
	g.Open()
	g.Open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	g.Shut()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := g.wait(cctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("wait on a shut gate with an ended context: %v", err)
	}
}

// TestGateHoldsSearch: a search behind a shut gate makes no progress
// (testdata/blocksworld-gtohp takes the portfolio a few hundred nodes),
// ends with its context, and finds its plan once the gate opens.
func TestGateHoldsSearch(t *testing.T) {
	_, task := testutil.LoadTask(t, "../testdata/blocksworld-gtohp/domain.hddl", "../testdata/blocksworld-gtohp/problem.hddl")
	g := &Gate{}
	g.Shut()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	sol, st, err := Solve(ctx, task, Options{Gate: g})
	if sol != nil || !errors.Is(err, context.DeadlineExceeded) || st.Nodes > 64 {
		t.Fatalf("held: plan %v, %v, %d nodes", sol != nil, err, st.Nodes)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		g.Open()
	}()
	sol, st, err = Solve(context.Background(), task, Options{Gate: g})
	if err != nil || sol == nil {
		t.Fatalf("opened: %v (%d nodes)", err, st.Nodes)
	}
}

// TestGateKeepsTurn: the time a portfolio member waits behind a shut gate
// is not taken from its slice.
func TestGateKeepsTurn(t *testing.T) {
	g := &Gate{}
	g.Shut()
	p := &pauser{deadline: time.Now().Add(30 * time.Millisecond)}
	go func() {
		time.Sleep(80 * time.Millisecond)
		g.Open()
	}()
	if err := g.wait(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if left := time.Until(p.deadline); left <= 0 {
		t.Fatalf("after the gate opened the member's slice was over (%v left)", left)
	}
}
