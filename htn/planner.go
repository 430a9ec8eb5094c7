package htn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/htnsat/htnsat/ground"
)

// Search is the search algorithm of the progression planner.
type Search int

const (
	// Auto is depth-first search for problems without recursion and greedy
	// best-first search otherwise.
	Auto Search = iota
	DFS
	GBFS
	AStar
)

var searchNames = map[Search]string{Auto: "auto", DFS: "dfs", GBFS: "gbfs", AStar: "astar"}

func (s Search) String() string { return searchNames[s] }

// ParseSearch reads dfs, gbfs, astar or auto.
func ParseSearch(s string) (Search, error) {
	for k, v := range searchNames {
		if v == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown search %q (want auto, dfs, gbfs or astar)", s)
}

// Options configure the progression planner. The accelerations can be
// switched off one by one to measure what each is worth.
type Options struct {
	Search Search
	// Fold folds pure tests (compound tasks whose only method has no
	// subtasks) into the preconditions of the methods that use them.
	Fold bool
	// MRV decomposes, among the unconstrained compound tasks of a
	// partially ordered network, the one with the fewest live methods.
	MRV bool
	// DeadEnds tracks methods and actions whose preconditions can never
	// hold again (a fact no action deletes is true, or one no action adds
	// is false) and backtracks as soon as a task of the network is left
	// without a live method.
	DeadEnds bool
	// Groups uses the choice groups of the task (ground.ChoiceGroup): a
	// value that no task of a group can take any more is a dead end, and a
	// value that one task alone can take decides that task. It needs
	// DeadEnds and is off in complete mode.
	Groups bool
	// CompletePO also tries, in partially ordered networks, decomposing a
	// compound task before the applicable primitive ones (complete but
	// slower). By default primitive tasks that can run, run first.
	CompletePO bool
	// MaxNodes bounds the search nodes (0: no bound).
	MaxNodes int64
}

// DefaultOptions has every acceleration on.
func DefaultOptions() Options {
	return Options{Search: Auto, Fold: true, MRV: true, DeadEnds: true, Groups: true}
}

// Stats describe a search.
type Stats struct {
	Search     string
	Nodes      int64 // search nodes expanded
	DeadEnds   int64 // nodes cut by dead-end detection
	Duplicates int64 // nodes cut by duplicate detection
	Forced     int64 // decompositions forced by a choice group
	// Complete is set when the eager search of a partially ordered problem
	// found nothing and the complete search ran after it.
	Complete bool
	Duration time.Duration
}

var (
	// ErrNoPlan is returned when the search space holds no plan.
	ErrNoPlan = errors.New("no plan: the search space is exhausted")
	// ErrNodeLimit is returned when the search hits Options.MaxNodes.
	ErrNodeLimit = errors.New("node limit reached")
)

// Solve searches for a plan of t by progression.
func Solve(ctx context.Context, t *ground.Task, opt Options) (*Solution, *Stats, error) {
	start := time.Now()
	v := newView(t, opt.Fold)
	search := opt.Search
	if search == Auto {
		search = DFS
		if v.recursive {
			search = GBFS
		}
	}
	stats := &Stats{Search: search.String()}
	defer func() { stats.Duration = time.Since(start) }()
	run := func(opt Options) (*Solution, error) {
		if search != DFS {
			sol, _, err := bestFirst(ctx, v, opt, search, stats)
			return sol, err
		}
		s := newDFS(ctx, v, opt, stats)
		ok, err := s.search()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrNoPlan
		}
		return solutionFromPath(v, len(t.Initial), s.nodes, s.path), nil
	}
	sol, err := run(opt)
	if errors.Is(err, ErrNoPlan) && !v.total && !opt.CompletePO {
		// The eager search runs a method's actions as soon as it can and
		// so misses plans that need other tasks in between: before saying
		// there is no plan, search completely.
		stats.Complete = true
		opt.CompletePO = true
		sol, err = run(opt)
	}
	return sol, stats, err
}
