package htn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/plan"
)

// The portfolio (Search Auto) interleaves depth-first search, greedy
// best-first search and A* on one core. No single configuration wins
// everywhere: depth-first search with its dead-end, choice-group and
// lookahead reasoning solves most problems fastest, greedy best-first
// search finds plans where depth-first search is lost in a wrong early
// choice, and A* where the greedy estimate misleads.
//
// Each member is a search that keeps its whole state between its turns:
// it runs on its own goroutine, but only one runs at a time. A member
// runs until its slice of time is over, then hands the turn on and waits
// for its next one, so no work is thrown away (unlike restarting each
// search with a doubled budget). The slices double every round, and
// depth-first search goes first with twice the share of the others: a
// problem it solves within the first slice costs nothing more than
// before. On a recursive network that share is split between depth-first
// search with and without the recursion bound (Options.RecursionBound). A member whose search space is exhausted leaves the rotation;
// the others go on (an eager search's exhaustion proves nothing), and when
// all are exhausted there is no plan in the space they share.
//
// The doubling favours the member that goes first in a round (depth-first
// search): when it answers, the others have had only the rounds before,
// not their turns of the round it answers in, so to its own time its
// answer adds between half and all of the others' time in proportion
// (their weights / its weight), where an even rotation adds all. Holding
// the slices at 1 s once they reach it was measured against it on the 60
// IPC 2023 problems some run had solved in over 15 s
// (results/ipc2023-slices-problems.csv), with progression alone, the two
// binaries side by side, one CPU each (htnsat ipc ../shared/data/ipc2023
// --stage plan --engine progression --pin --jobs 1 --timeout 60s --from
// that file; results/ipc2023-slices-doubling.csv and -capped.csv, aef533a
// and 8cbdcbb): 48 solved against 45 at 60 s (Freecell probfreecell-06-1,
// 06-3 and 07-5, where greedy best-first search with the relaxed
// composition estimate answers from third place in the round), but,
// counted from the two files' seconds, 25 against 29 within 30 s and 40
// against 41 within 45 s, the median time 1.09 times as long. Auto on one
// core gives progression about 45 s: the slices still double.
//
// Slices are measured in time, not nodes, because the members' nodes cost
// very different amounts (a node of greedy best-first search with the
// relaxed composition heuristic costs a thousand of depth-first search's),
// so which member answers first can vary from run to run; the plan is
// verified all the same. What the members learn is not shared: the
// conflict weights belong to the depth-first search, and the best-first
// searches' duplicate detection to each open list.

// portfolioSlice is the first full round's slice of a member of weight 1:
// the depth-first search runs alone for its first 0.5 s, which covers the
// problems it solves at once (a 25x25 Sudoku takes it 0.1-0.25 s), before
// the other searches take their turns.
const portfolioSlice = 250 * time.Millisecond

// portfolioProbe is the turn of a member of weight 1 in a first round
// before the others: a problem one member solves at once and another
// wanders on is answered at once (IPC AssemblyHierarchical depth04: greedy
// best-first search's plan takes it 421 nodes, 7 ms, while depth-first
// search is lost for more than 10 s), for a few milliseconds a member where
// none does. Not where depth-first search reasons over choice groups
// (Sudoku), where it alone answers and the probes would only add their
// set-up (a 25x25 puzzle 0.246 s a run, 1.10 times that with them).
const portfolioProbe = 5 * time.Millisecond

// pauser is a member's side of the portfolio: the searches call check
// where they look at their context.
type pauser struct {
	ctx      context.Context
	deadline time.Time
	turn     chan time.Time
	yield    chan struct{}
	// nodes, set by the portfolio, counts every member's nodes for
	// Options.MaxNodes
	nodes    func() int64
	maxNodes int64
}

// check returns at once while the member's slice lasts; after it, it
// hands the turn back and waits for the next. It returns ErrNodeLimit when
// the members together passed MaxNodes, or the context's error if it ends
// while the member waits (the searches look at their context themselves).
func (p *pauser) check() error {
	if p == nil {
		return nil
	}
	if p.maxNodes > 0 && p.nodes() > p.maxNodes {
		return ErrNodeLimit
	}
	if time.Now().Before(p.deadline) {
		return nil
	}
	p.yield <- struct{}{}
	select {
	case d := <-p.turn:
		p.deadline = d
		return nil
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// extend moves the end of the member's slice on by d (a nil p is outside
// the portfolio: nothing to move).
func (p *pauser) extend(d time.Duration) {
	if p != nil {
		p.deadline = p.deadline.Add(d)
	}
}

// errIncomplete ends a portfolio whose members were all exhausted where
// none of their search spaces holds every plan.
var errIncomplete = fmt.Errorf("%w: every search of the portfolio leaves plans out (see --portfolio)", plan.ErrInconclusive)

// member is one search of the portfolio.
type member struct {
	name   string
	weight int
	run    func(p *pauser, stats *Stats) (*ground.Solution, error)
	// incomplete marks a member whose search space may miss plans: its
	// exhaustion is never a proof
	incomplete bool
	stats      Stats
	p          *pauser
	done       chan error
	sol        *ground.Solution
	out        bool // exhausted
}

// portfolio runs the members in turn, slice being the first full round's
// turn of a member of weight 1 (after a round of turns of probe, unless
// probe is 0), until one finds a plan, a member not marked
// incomplete is exhausted when exhaustive is set (the members' search
// spaces hold every plan: a totally ordered network, or the complete
// mode), all are exhausted
// (ErrNoPlan), or one fails otherwise (the context, the node limit, an
// error of the task). It waits for every member's goroutine before it
// returns, and adds their counts to stats; stats.Search names the member
// that answered.
func portfolio(ctx context.Context, members []*member, probe, slice time.Duration, exhaustive bool, maxNodes int64, stats *Stats) (*ground.Solution, error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	total := func() int64 {
		var n int64
		for _, m := range members {
			n += m.stats.Nodes
		}
		return n
	}
	for _, m := range members {
		m.p = &pauser{ctx: ctx, turn: make(chan time.Time, 1), yield: make(chan struct{}, 1), nodes: total, maxNodes: maxNodes}
		m.done = make(chan error, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case d := <-m.p.turn:
				m.p.deadline = d
			case <-ctx.Done():
				m.done <- ctx.Err()
				return
			}
			sol, err := m.run(m.p, &m.stats)
			m.sol = sol
			m.done <- err
		}()
	}
	finish := func(winner *member, err error) (*ground.Solution, error) {
		cancel()
		wg.Wait()
		names := ""
		for _, m := range members {
			stats.Nodes += m.stats.Nodes
			stats.DeadEnds += m.stats.DeadEnds
			stats.Duplicates += m.stats.Duplicates
			stats.Forced += m.stats.Forced
			stats.Matched += m.stats.Matched
			stats.Locked += m.stats.Locked
			stats.ValueBranches += m.stats.ValueBranches
			stats.Lost += m.stats.Lost
			stats.LastConflict += m.stats.LastConflict
			stats.Ahead += m.stats.Ahead
			stats.Restarts += m.stats.Restarts
			if names != "" {
				names += "+"
			}
			names += m.name
		}
		stats.Search = "portfolio (" + names + ")"
		if winner != nil {
			stats.Search = "portfolio: " + winner.name
			return winner.sol, nil
		}
		return nil, err
	}
	var gaveUp error
	turn := slice
	if probe > 0 {
		turn = min(probe, slice)
	}
	for {
		live := 0
		for _, m := range members {
			if m.out {
				continue
			}
			live++
			m.p.turn <- time.Now().Add(turn * time.Duration(m.weight))
			select {
			case <-m.p.yield:
			case err := <-m.done:
				switch {
				case err == nil:
					return finish(m, nil)
				case errors.Is(err, ErrNoPlan) && exhaustive && !m.incomplete:
					return finish(nil, err)
				case errors.Is(err, ErrNoPlan):
					m.out = true
				case errors.Is(err, plan.ErrDepthLimit):
					// gave up: the others go on, but their exhaustion
					// is no longer a proof
					m.out = true
					gaveUp = err
				default:
					return finish(nil, err)
				}
			}
		}
		if live == 0 && gaveUp != nil {
			return finish(nil, gaveUp)
		}
		if live == 0 && exhaustive {
			// a member whose exhaustion is a proof would have ended
			// the run: every one was incomplete (the weights can leave
			// only those), so no plan was found and none is ruled out
			return finish(nil, errIncomplete)
		}
		if live == 0 {
			return finish(nil, ErrNoPlan)
		}
		if err := ctx.Err(); err != nil {
			return finish(nil, err)
		}
		if turn < slice {
			turn = slice
		} else {
			slice *= 2
			turn = slice
		}
	}
}
