package htn

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/plan"
)

// spinner is a portfolio member that never ends by itself: it counts
// nodes and checks in, as a search does, until the portfolio stops it.
func spinner(name string, weight int, turns *int) *member {
	return &member{name: name, weight: weight, run: func(p *pauser, st *Stats) (*ground.Solution, error) {
		last := time.Time{}
		for {
			st.Nodes++
			if err := p.check(); err != nil {
				return nil, err
			}
			if p.deadline != last {
				last = p.deadline
				*turns++
			}
		}
	}}
}

// finisher ends after its search has run for d in all (across turns) with
// the solution or error given.
func finisher(name string, d time.Duration, sol *ground.Solution, err error) *member {
	return &member{name: name, weight: 1, run: func(p *pauser, st *Stats) (*ground.Solution, error) {
		var ran time.Duration
		for ran < d {
			t0 := time.Now()
			time.Sleep(time.Millisecond)
			st.Nodes++
			ran += time.Since(t0)
			if err := p.check(); err != nil {
				return nil, err
			}
		}
		return sol, err
	}}
}

// testSlice keeps the turns short, so that the members alternate within
// the test's node counts and times.
const testSlice = 5 * time.Millisecond

var errDepth = fmt.Errorf("%w (test)", plan.ErrDepthLimit)

// TestPortfolio runs members that stand for searches: one that never ends
// must not keep another from answering, the turns must alternate, an
// exhausted member leaves the rotation unless its exhaustion is a proof,
// the node limit counts every member, the context stops them all, and no
// goroutine outlives the call.
func TestPortfolio(t *testing.T) {
	ctx := context.Background()
	before := runtime.NumGoroutine()
	want := &ground.Solution{}

	spins := 0
	st := &Stats{}
	sol, err := portfolio(ctx, []*member{spinner("spin", 2, &spins), finisher("find", 300*time.Millisecond, want, nil)}, 0, testSlice, false, 0, st)
	if err != nil || sol != want {
		t.Fatalf("got %v, %v; want the finisher's plan", sol, err)
	}
	if st.Search != "portfolio: find" || spins < 2 {
		t.Errorf("search %q after %d turns of the spinner; want the finisher named, and turns alternating", st.Search, spins)
	}

	// an eager search's exhaustion is not a proof: the other answers
	sol, err = portfolio(ctx, []*member{finisher("empty", 0, nil, ErrNoPlan), finisher("find", 120*time.Millisecond, want, nil)}, 0, testSlice, false, 0, &Stats{})
	if err != nil || sol != want {
		t.Errorf("exhausted member, not a proof: got %v, %v; want the other's plan", sol, err)
	}
	// in an exhaustive setting it is
	spins = 0
	_, err = portfolio(ctx, []*member{spinner("spin", 1, &spins), finisher("empty", 120*time.Millisecond, nil, ErrNoPlan)}, 0, testSlice, true, 0, &Stats{})
	if !errors.Is(err, ErrNoPlan) {
		t.Errorf("exhausted member, a proof: %v, want ErrNoPlan", err)
	}
	// in an exhaustive setting, all exhausted but none of them complete
	// (the weights left only incomplete ones): no proof, and no plan
	inc := []*member{finisher("serial-a", 0, nil, ErrNoPlan), finisher("serial-b", 20*time.Millisecond, nil, ErrNoPlan)}
	for _, m := range inc {
		m.incomplete = true
	}
	_, err = portfolio(ctx, inc, 0, testSlice, true, 0, &Stats{})
	if !errors.Is(err, plan.ErrInconclusive) || errors.Is(err, plan.ErrUnsolvable) {
		t.Errorf("incomplete members exhausted: %v, want inconclusive", err)
	}
	// all exhausted, one of them having given up: not a proof either way
	_, err = portfolio(ctx, []*member{finisher("deep", 0, nil, errDepth), finisher("empty", 0, nil, ErrNoPlan)}, 0, testSlice, false, 0, &Stats{})
	if !errors.Is(err, errDepth) {
		t.Errorf("members exhausted after one gave up: %v, want its error", err)
	}

	// the node limit is the members' together
	st = &Stats{}
	a, b := 0, 0
	_, err = portfolio(ctx, []*member{spinner("a", 1, &a), spinner("b", 1, &b)}, 0, testSlice, false, 1_000_000, st)
	if !errors.Is(err, ErrNodeLimit) || st.Nodes > 1_000_000+2 || a == 0 || b == 0 {
		t.Errorf("node limit: %v after %d nodes (turns %d and %d); want ErrNodeLimit at 1,000,000 nodes over both", err, st.Nodes, a, b)
	}

	// the context stops every member, promptly
	c, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err = portfolio(c, []*member{spinner("a", 1, &a), spinner("b", 3, &b)}, 0, testSlice, false, 0, &Stats{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(t0) > 2*time.Second {
		t.Errorf("context: %v after %v; want the deadline within 2 s", err, time.Since(t0))
	}

	time.Sleep(10 * time.Millisecond)
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the portfolios, %d before", n, before)
	}
}

// TestPortfolioOnlyIncomplete: a partial-order problem whose plan needs
// its tasks interleaved, searched by a portfolio whose weights leave only
// the serial members (which carry each begun task through): they find no
// plan in the eager run nor in the complete one, and that is reported as
// inconclusive, not as a proof that there is no plan (the full portfolio
// finds one).
func TestPortfolioOnlyIncomplete(t *testing.T) {
	v := loadView(t, "interleave")
	if v.total {
		t.Fatal("interleave is totally ordered")
	}
	_, _, err := Solve(context.Background(), v.t, Options{})
	if err != nil {
		t.Fatalf("full portfolio: %v, want a plan", err)
	}
	serialOnly := map[string]int{"dfs": 0, "gbfs": 0, "astar": 0}
	_, _, err = Solve(context.Background(), v.t, Options{Weights: serialOnly})
	if !errors.Is(err, plan.ErrInconclusive) || errors.Is(err, plan.ErrUnsolvable) {
		t.Errorf("serial members only: %v, want inconclusive", err)
	}
}

// TestPortfolioProbe: a first round of short turns lets a member that
// answers at once do so before the first member's long turn (the spinner's
// nodes before the answer: a 200 ms turn's, against a 4 ms one's).
func TestPortfolioProbe(t *testing.T) {
	want := &ground.Solution{}
	nodes := map[time.Duration]int64{}
	for _, probe := range []time.Duration{0, 2 * time.Millisecond} {
		spins := 0
		st := &Stats{}
		sol, err := portfolio(context.Background(), []*member{spinner("spin", 2, &spins), finisher("find", 0, want, nil)}, probe, 100*time.Millisecond, false, 0, st)
		if err != nil || sol != want {
			t.Fatalf("probe %v: %v, %v", probe, sol, err)
		}
		nodes[probe] = st.Nodes
	}
	if nodes[2*time.Millisecond]*5 > nodes[0] {
		t.Errorf("spinner nodes before the answer: %d with the probe, %d without", nodes[2*time.Millisecond], nodes[0])
	}
}
