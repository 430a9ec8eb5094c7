package htn

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/plan"
)

// Search is the search algorithm of the progression planner.
type Search int

const (
	// Auto is the portfolio (portfolio.go): depth-first search, greedy
	// best-first search and A* in turn, under doubling slices of time.
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

// Heuristic is the estimate that guides the best-first searches.
type Heuristic int

const (
	// HeurAuto is RC for greedy best-first search on ground tasks of
	// moderate size (rcAutoLimit), and on growing tasks while what their
	// search has met grounds within that size (rcGrow), TDG otherwise.
	HeurAuto Heuristic = iota
	// HeurTDG is the least number of actions the network's tasks
	// decompose into, whatever the state: admissible, so A* finds
	// shortest plans with it.
	HeurTDG
	// HeurRC is the additive cost of the relaxed composition of the
	// hierarchy from the node's state (see rc.go): informed by the state,
	// not admissible; a network it finds unreachable is a dead end (over
	// a growing task it goes last instead).
	HeurRC
)

var heuristicNames = map[Heuristic]string{HeurAuto: "auto", HeurTDG: "tdg", HeurRC: "rc"}

func (h Heuristic) String() string { return heuristicNames[h] }

// ParseHeuristic reads auto, tdg or rc.
func ParseHeuristic(s string) (Heuristic, error) {
	for k, v := range heuristicNames {
		if v == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown heuristic %q (want auto, tdg or rc)", s)
}

// Options configure the progression planner. The zero value is the
// default: automatic search and heuristic, every acceleration on. Each
// acceleration can be switched off to measure what it is worth.
type Options struct {
	Search    Search
	Heuristic Heuristic // for GBFS and A*
	// NoMRV decomposes, among the unconstrained compound tasks of a
	// partially ordered network, the last one instead of the one with the
	// fewest live methods (the most constrained).
	NoMRV bool
	// NoFocus turns off Focus, which decomposes, in a partially ordered
	// network, the compound tasks of the latest decomposition before older
	// ones (MRV choosing among them), so that the search carries a method
	// through before it interleaves it with another task's; tasks left
	// with one method are still decomposed first wherever they are.
	NoFocus bool
	// NoLookahead keeps the depth-first search of a totally ordered
	// network without recursion to the task whose turn it is. By default
	// a compound task further on is decomposed first when it has fewer
	// live methods (per conflict weight) than the task at hand, or when a
	// choice group's value is left to it alone: its method's precondition
	// is still checked where its subtasks begin, so the plans are the
	// same, and the search chooses where the network is most constrained
	// (on the paper's ordered Sudoku network, the cell with the fewest
	// digits left instead of the next cell). Such searches restart too.
	NoLookahead bool
	// NoConflicts turns off the conflict weights, which weigh MRV by the
	// dead ends each task took part in: the task with the fewest live
	// methods per conflict goes first, so the search turns early to the
	// parts of the problem where it failed.
	NoConflicts bool
	// NoDeadEnds turns off the tracking of methods and actions whose
	// preconditions can never hold again (a fact no action deletes is
	// true, or one no action adds is false), which backtracks as soon as a
	// task of the network is left without a live method.
	NoDeadEnds bool
	// NoClose: over a task grounded on demand, do not first try to serve
	// every task in any state (ground.Grow.Close) and search the closed
	// task as a full grounding
	NoClose bool
	// NoReach turns off, in the depth-first search, the tracking of the
	// facts the network's tasks can still add (a fact false now that no
	// action reachable from the network adds kills what needs it, and a
	// goal it is ends the branch).
	NoReach bool
	// NoProtect turns off, in the depth-first search of a totally
	// ordered network, the check that a step deletes no fact a later
	// step needs unless a task in between can add it again (protect.go).
	NoProtect bool
	// NoDuplicates makes the depth-first search of an acyclic network
	// forget the nodes it has searched to the end: by default a node met
	// again with the same state and network, on another path or after a
	// restart, is not searched again (a recursive network's nodes are
	// recorded as they are met in any case).
	NoDuplicates bool
	// NoLandmarks makes the depth-first search ignore the landmarks of a
	// problem with a goal state: facts every plan makes true at some
	// point (found by backchaining from the goal). By default a network
	// that has not made one true yet and whose tasks cannot add it is a
	// dead end, and the goal order counts them with the goal facts.
	NoLandmarks bool
	// NoGroups ignores the choice groups of the task (ground.ChoiceGroup):
	// a value that no task of a group can take any more is a dead end, and
	// a value that one task alone can take decides that task. Groups need
	// the dead-end tracking and are off in complete mode.
	NoGroups bool
	// NoMatching turns off the filtering of choice groups by matching:
	// the undecided tasks of a group must still take its free values one
	// to one, so a method whose value no such assignment gives its task
	// is killed (generalised arc consistency for all-different; the
	// counters of NoGroups see only a value left to one task or to none).
	NoMatching bool
	// NoLocked turns off the rule of locked values across choice groups:
	// when every method left to take a value of one group also binds a
	// value of another, the other methods binding that second value are
	// killed (in a Sudoku, "locked candidates").
	NoLocked bool
	// NoValueBranch makes the depth-first search branch on tasks alone.
	// By default, where a value of a choice group has fewer methods left
	// to take it than the task it would decompose has methods (per
	// conflict weight, see NoConflicts), it branches on which task takes
	// that value instead ("where does 7 go in this row", the dual view of
	// a CSP), once no decomposition is under way (see NoFocus).
	NoValueBranch bool
	// NoChain makes the greedy best-first search queue every successor.
	// By default it follows each node it takes from the open list through
	// its forced steps (nodes with a single successor) without estimating
	// them, estimates the first node with a choice, and expands it at once
	// if that estimate is still the best open (see bfs.forward).
	NoChain bool
	// NoLastConflict turns off last-conflict reasoning in the depth-first
	// search: after a task has failed with every method, the next
	// branching decomposes that task first, if it is still to be done and
	// waits for nothing, so that the search finds out at once whether the
	// choice it went back to changed anything for it.
	NoLastConflict bool
	// NoValueOrder makes the depth-first search try a task's methods in
	// the domain's order (or from a random one after a restart). By
	// default, in a task with choice groups, the method the task took
	// last goes first (phase saving, kept across restarts), then those
	// that bind choice-group values fewest live methods can still take:
	// the scarce value, which other tasks can hardly take, and the choice
	// that takes the fewest options from them (least constraining value,
	// in CSP terms). Without choice groups, in a problem with a goal
	// state, the methods whose subtasks may reach the most goal facts not
	// met now go first (the goal order): a task binding a variable the
	// goal fixes tries the goal's value first. Otherwise, in a recursive
	// network, the methods of a recursive task, or of the task right
	// before it, go by how near its targets (the preconditions of its
	// method without subtasks) they take the state, nearest first (the
	// target order, target.go).
	NoValueOrder bool
	// Serial makes the search of a partially ordered network carry each
	// decomposition through before it touches a task outside it: a
	// method's subtasks may still run in any order their ordering allows,
	// but one that is begun (decomposed) is finished, actions and all,
	// before its siblings are. Top-level tasks that share a resource (the
	// trucks of IPC Transport, the rovers of Rover) are then done one
	// after another instead of in every interleaving, as in a totally
	// ordered network. Plans that need two subtasks interleaved are out of
	// its reach, so its exhaustion proves nothing: a search on its own
	// then runs again without it, and the portfolio's serial members leave
	// the rotation.
	Serial bool
	// CompletePO also tries, in partially ordered networks, decomposing a
	// compound task before the applicable primitive ones (complete but
	// slower). By default primitive tasks that can run, run first.
	CompletePO bool
	// RecursionBound makes the depth-first search of a recursive network
	// bound how deep a task may recur within its component of the task
	// graph (ground.Task.Components): at the bound only the task's
	// methods that do not recur are tried, and the bound doubles, from 1,
	// each time the search is exhausted with a cut (iterative deepening).
	// Where a recursive method binds a free variable at each level, as
	// the moves of the learnt Elevator and Logistics domains do (a
	// vehicle to any place, then the same task again), a search without
	// it wanders through thousands of steps before it comes back to the
	// goal; where plans need deep recursion (stacking hundreds of
	// blocks), it searches the shallow levels again and again. The
	// portfolio runs both on recursive networks.
	RecursionBound bool
	// NoRestarts turns off restarts, which make the depth-first search of
	// a partially ordered problem start over, with ties broken at random,
	// each time it has spent a growing node budget: a wrong early choice
	// then costs one budget instead of its whole subtree (the heavy tail
	// of backtracking search), and the conflict weights learnt so far
	// steer the next run. The first run keeps the plain order and the
	// budgets grow geometrically, so the search stays complete and
	// deterministic (the random sequence is fixed by Seed).
	NoRestarts bool
	Seed       uint64
	// RestartBudget is the node budget of the first depth-first run
	// before a restart (0: 2,000); each next run gets budgetGrowth times
	// more.
	RestartBudget int64
	// MaxNodes bounds the search nodes (0: no bound).
	MaxNodes int64
	// Gate, when not nil, holds the search while it is shut (see Gate).
	Gate *Gate
	// Weights overrides the portfolio's weights by member name
	// (PortfolioMembers); weight 0 leaves a member out. A member's turns
	// last its weight times the round's slice.
	Weights map[string]int
}

// PortfolioMembers names the members the portfolio (Search Auto) may
// run, for Options.Weights: in total order dfs, dfs-rec (depth-first with
// RecursionBound, on recursive networks), gbfs, gbfs-rc (greedy
// best-first search with HeurRC where HeurAuto picks TDG) and astar; in
// partial order the serial ones too.
var PortfolioMembers = []string{"dfs", "dfs-rec", "gbfs", "gbfs-rc", "astar", "dfs-serial", "dfs-serial-rec", "gbfs-serial"}

// Stats describe a search.
type Stats struct {
	Search     string
	Nodes      int64 // search nodes expanded
	DeadEnds   int64 // nodes cut by dead-end detection
	Duplicates int64 // nodes cut by duplicate detection
	Forced     int64 // decompositions forced by a choice group
	Matched    int64 // methods killed by matching in choice groups
	Locked     int64 // methods killed by locked values across choice groups
	// ValueBranches counts branchings on where a choice-group value goes
	// (see Options.NoValueBranch)
	ValueBranches int64
	Lost          int64 // facts found false for good, no action left in reach adding them
	// LastConflict counts branchings that decomposed the task that
	// failed last (see Options.NoLastConflict)
	LastConflict int64
	Ahead        int64 // decompositions of a task before its turn (see Options.NoLookahead)
	Restarts     int64 // depth-first runs started over
	// Complete is set when the eager search of a partially ordered problem
	// found nothing and the complete search ran after it.
	Complete bool
	// Improved counts the plans Optimize found after its first one.
	Improved int64
	Duration time.Duration
}

var (
	// ErrNoPlan is returned when the search space holds no plan: the
	// search is complete, so it wraps plan.ErrUnsolvable.
	ErrNoPlan = fmt.Errorf("%w: the search space is exhausted", plan.ErrUnsolvable)
	// ErrNodeLimit is returned when the search hits Options.MaxNodes (it
	// is plan.ErrNodeLimit).
	ErrNodeLimit = plan.ErrNodeLimit
)

// Solve searches for a plan of t by progression.
func Solve(ctx context.Context, t *ground.Task, opt Options) (*ground.Solution, *Stats, error) {
	start := time.Now()
	v, err := newView(ctx, t)
	if err != nil {
		return nil, &Stats{}, err
	}
	stats := &Stats{Search: opt.Search.String()}
	defer func() { stats.Duration = time.Since(start) }()
	sol, err := solve(ctx, v, opt, stats)
	return sol, stats, err
}

// searcher runs the searches of solve over one view.
type searcher struct {
	ctx context.Context
	v   *view
}

// runner is one search of the portfolio, or a search run alone (p nil).
type runner func(opt Options, p *pauser, stats *Stats) (*ground.Solution, error)

// depthFirst runs the depth-first search.
func (r searcher) depthFirst(opt Options, p *pauser, stats *Stats) (*ground.Solution, error) {
	var groups []ground.ChoiceGroup
	if !opt.NoGroups && !opt.NoDeadEnds && !opt.CompletePO {
		var err error
		if groups, err = r.v.t.ChoiceGroups(r.ctx); err != nil {
			return nil, err
		}
	}
	s := newDFS(r.ctx, r.v, opt, stats, groups)
	s.pause = p
	ok, err := s.run()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNoPlan
	}
	return solutionFromPath(len(r.v.t.Initial), s.nodes, s.path), nil
}

// bestFirstBy is the best-first search with search's evaluation (greedy or A*).
func (r searcher) bestFirstBy(search Search) runner {
	return func(opt Options, p *pauser, stats *Stats) (*ground.Solution, error) {
		sol, _, err := bestFirst(r.ctx, r.v, opt, search, stats, p)
		return sol, err
	}
}

// alone runs the search opt.Search names (not Auto) by itself.
func (r searcher) alone(opt Options, stats *Stats) (*ground.Solution, error) {
	single := r.depthFirst
	if opt.Search != DFS {
		single = r.bestFirstBy(opt.Search)
	}
	sol, err := single(opt, nil, stats)
	if errors.Is(err, ErrNoPlan) && opt.Serial && !r.v.total {
		// a serial search's exhaustion proves nothing: again
		// with every interleaving
		opt.Serial = false
		sol, err = single(opt, nil, stats)
	}
	return sol, err
}

// config is a member of the portfolio before it runs.
type config struct {
	name       string
	weight     int
	opt        Options
	incomplete bool
	run        runner
}

// configs returns the portfolio's members for the task and options: in a
// partially ordered network half of depth-first search's and of greedy
// best-first search's turns are serial (Options.Serial), and the other
// halves and A* cover the interleavings they leave out.
func (r searcher) configs(opt Options) []config {
	v := r.v
	configs := []config{{"dfs", 2, opt, false, r.depthFirst}, {"gbfs", 2, opt, false, r.bestFirstBy(GBFS)}, {"astar", 1, opt, false, r.bestFirstBy(AStar)}}
	if v.total && opt.Heuristic == HeurAuto && rcSize(v) > rcAutoLimit {
		// A large task, where greedy search's estimate is TDG
		// (HeurAuto): half of its turns go to greedy search with
		// RC, which sees the state. Where the search comes back to
		// the states it met, RC's cache makes its nodes cheap
		// (IPC Freecell-Learned: probfreecell-03-2 solved in 3.9 s
		// by greedy search with RC, not in 60 s with TDG); where
		// it does not, the TDG half keeps what it solved (Towers
		// pfile_19, proved to have no plan in 6 s).
		//
		// A* (TDG) had its turn too: on the 201 total-order IPC 2020
		// problems of such size that the table solves (outside
		// Monroe), it answered one (Towers pfile_11, 1.0 s), while
		// greedy search with RC alone solves Freecell problems that
		// the portfolio did not within 60 s (probfreecell-04-3 in
		// 8.6 s, 05-5 in 16.5 s, 06-1 to 06-5 in 25-47 s). So A*'s
		// turn goes to it: the members before it keep their times.
		// The table gains Freecell 04-3 and 05-5 and loses
		// Monroe-Partially-Observable pfile19, which A* answered in
		// 37 s (docs/results.md).
		rc := configs[1]
		rc.name, rc.weight, rc.opt.Heuristic = "gbfs-rc", 2, HeurRC
		configs[1].weight = 1
		configs[2].weight = 0
		configs = slices.Insert(configs, 2, rc)
	}
	if !v.total {
		// Depth-first search has a serial and a full member. The
		// serial one carries a begun task through before its
		// siblings; where tasks must interleave, it wanders. The
		// full one, alone, solves problems the serial one does not
		// (IPC 2023 Colouring pfile10, --search dfs: 3.8 s; the
		// portfolio with the serial member alone: no plan in 20 s,
		// with both: 7.8 s). It weighs 1 against the serial
		// member's 2 (in a recursive network, against the two
		// serial members' 1 and 2): with even weights IPC 2020
		// Woodworking (partial order), which the serial member
		// solves, took twice the time (pfile30 23 s against 14 s).
		serial, full := opt, opt
		serial.Serial, full.Serial = true, false
		configs = []config{{"dfs-serial", 2, serial, true, r.depthFirst}, {"dfs", 1, full, false, r.depthFirst}, {"gbfs-serial", 1, serial, true, r.bestFirstBy(GBFS)}, {"gbfs", 1, full, false, r.bestFirstBy(GBFS)}, {"astar", 1, full, false, r.bestFirstBy(AStar)}}
	}
	if v.recursive && !opt.RecursionBound {
		// A recursive network: depth-first search also with the
		// recursion bound (Options.RecursionBound), each winning
		// where the other wanders. In total order the two share
		// depth-first search's turn, so the best-first searches'
		// times stay as they were (IPC 2020 problems they solve
		// in 57-58 s); in partial order see below.
		bounded := configs[0]
		bounded.name += "-rec"
		bounded.opt.RecursionBound = true
		// The bounded member also goes without the reach, so that
		// the two differ in cost per node as well: on a large
		// recursive task graph the reach's bookkeeping makes each
		// node several times slower where it finds few dead ends
		// (IPC Monroe-Partially-Observable, total order, --search
		// dfs --recursion-bound, 20 s: pfile09, pfile14 and
		// pfile17 in 4.4-8.2 s without it, timeouts with it),
		// while where it pays (Woodworking, Multiarm-Blocksworld,
		// Hiking) the other member keeps it.
		bounded.opt.NoReach = true
		bounded.weight = 1
		if v.total {
			configs[0].weight = 1
		} else {
			// In partial order the bounded search never starts
			// over, and has the larger turn. Its restarts cost more
			// than they found: the runs between the shuffled ones
			// keep the domain's order and replay the same first
			// nodes, so a plan found at the end of a long run is
			// found again only once the budget exceeds that run
			// (IPC Monroe-Partially-Observable, partial order,
			// pfile06, --search dfs --serial --recursion-bound
			// --no-reach: 19.9 M nodes and 20 restarts, 6.6 M
			// nodes with --no-restarts). With this member at
			// weight 2 and the other serial one at 1, pfile06 and
			// pfile23 are solved in 28-30 s (timeouts before) and
			// pfile07, 10, 12, 25, Transport pfile39-40 and
			// Woodworking 26-30 still are (Woodworking 29 and 30
			// in 33 and 40 s against 22 and 28 s; two runs side by
			// side).
			bounded.opt.NoRestarts = true
			bounded.weight, configs[0].weight = 2, 1
		}
		configs = slices.Insert(configs, 1, bounded)
	}
	return configs
}

// portfolio runs the members of configs in turn (portfolio.go), each
// under the node limit of all together.
func (r searcher) portfolio(opt Options, stats *Stats) (*ground.Solution, error) {
	limit := opt.MaxNodes
	opt.MaxNodes = 0
	configs := r.configs(opt)
	probe := portfolioProbe
	if !opt.NoGroups && !opt.NoDeadEnds && !opt.CompletePO {
		// Choice groups (computed once; the depth-first search needs
		// them anyway) are reasoned over by depth-first search alone:
		// its counters, matching and locked values prune what the
		// best-first searches must enumerate, so it gets four times
		// its share (ten 36x36 Sudokus with 40 % given, 20 s: 5
		// solved, against 3 with the even shares)
		if groups, err := r.v.t.ChoiceGroups(r.ctx); err != nil {
			return nil, err
		} else if len(groups) > 0 {
			probe = 0
			for i := range configs {
				if strings.HasPrefix(configs[i].name, "dfs") {
					configs[i].weight *= 4
				}
			}
		}
	}
	var members []*member
	for _, c := range configs {
		if w, ok := opt.Weights[c.name]; ok {
			c.weight = w
		}
		if c.weight <= 0 {
			continue
		}
		members = append(members, &member{name: c.name, weight: c.weight, incomplete: c.incomplete, run: func(p *pauser, st *Stats) (*ground.Solution, error) {
			return c.run(c.opt, p, st)
		}})
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("the portfolio has no member: every weight is 0")
	}
	return portfolio(r.ctx, members, probe, portfolioSlice, r.v.total || opt.CompletePO, limit, stats)
}

// solve is Solve on a view, counting into stats.
func solve(ctx context.Context, v *view, opt Options, stats *Stats) (*ground.Solution, error) {
	r := searcher{ctx, v}
	run := func(opt Options) (*ground.Solution, error) {
		if opt.Search != Auto {
			return r.alone(opt, stats)
		}
		return r.portfolio(opt, stats)
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
	return sol, err
}

// Depth caps of the search of a recursive network (see dfs.depthCap):
// the first run cuts paths at firstDepthCap steps, each next one at twice
// as many, up to maxDepthCap (the goroutine's stack grows with the path).
const (
	firstDepthCap = 1 << 13
	maxDepthCap   = 1 << 20
	// deepenBudget: a run that cut a path at the depth cap searches at
	// most this many times the nodes it took to get there before the cap
	// is doubled (dfs.deepenAt)
	deepenBudget = 4
	// firstRepCap is the first bound on a task's recurrences in its own
	// decomposition without a state change (see dfs.repeats); it doubles
	// with the depth cap
	firstRepCap = 1
	// firstNetCap is the first bound on a growing task's network beyond
	// twice the initial network's size (see dfs.netCap); it doubles with
	// the depth cap
	firstNetCap = 16
	maxNetCap   = 1 << 20
	// firstRecCap is the first bound on how deep a task recurs at all
	// (see dfs.recCap); it doubles with the depth cap
	firstRecCap = 1
)

// run runs the depth-first search, again with a doubled depth cap as long
// as an exhausted search cut a path at the cap.
func (s *dfs) run() (bool, error) {
	s.resume.restore(s)
	for {
		s.runStart, s.deepenAt = s.stats.Nodes, 0
		ok, err := s.runWithRestarts()
		if err == errDeepen {
			for len(s.path) > 0 {
				s.undo()
			}
			ok, err, s.cut = false, nil, true
		}
		if ok || err != nil || !s.cut {
			return ok, err
		}
		if !s.canDeepen() {
			if s.netCap > 0 {
				return false, fmt.Errorf("%w (networks of %d tasks)", plan.ErrDepthLimit, s.netCap)
			}
			return false, fmt.Errorf("%w (%d search steps)", plan.ErrDepthLimit, s.depthCap)
		}
		if s.visited != nil && !s.failed {
			s.visited.reset()
		}
		if s.bnb != nil {
			s.bnb.forget()
		}
		s.depthCap = min(2*s.depthCap, maxDepthCap)
		if s.netCap > 0 {
			s.netCap *= 2
		}
		s.repCap *= 2
		s.recCap *= 2
	}
}

// canDeepen reports whether the caps of the search can be raised: the
// depth cap below maxDepthCap, or the network bound, over a growing task,
// below maxNetCap.
func (s *dfs) canDeepen() bool {
	return s.depthCap < maxDepthCap || s.netCap > 0 && s.netCap < maxNetCap
}

// Restart budgets: the first run gets Options.RestartBudget nodes
// (defaultBudget if zero), each next one budgetGrowth times more.
const (
	defaultBudget = 2000
	budgetGrowth  = 1.5
	seedIncrement = 0x9E3779B97F4A7C15
	// growBudget is the first budget of the search over a growing task,
	// which runs with the domain's order of methods and with its reverse
	// in turn, the budget doubling after each pair (in many domains the
	// methods that end a recursion come first, which a depth-first search
	// takes too early, and the reverse order finds the plan in a few
	// thousand nodes: IPC Blocksworld-GTOHP, Hiking, Satellite)
	growBudget = 20_000
)

// runWithRestarts runs the depth-first search, starting over after each
// budget when Options.Restarts is set and the problem has partial orders,
// or the task grows (see growBudget).
// In a totally ordered problem the order of the tasks is fixed and a
// restart could only change the order of the methods, which loses more
// work than it saves (measured on Sudoku with the paper's ordered
// network: the median time doubles).
func (s *dfs) runWithRestarts() (bool, error) {
	s.cut = false
	grow := s.v.grow != nil
	if s.opt.NoRestarts || s.v.total && !s.ahead && !grow {
		return s.search()
	}
	budget := float64(defaultBudget)
	if grow {
		budget = growBudget
	}
	if s.opt.RestartBudget > 0 {
		budget = float64(s.opt.RestartBudget)
	}
	if r := s.resume; r != nil && r.broken {
		// the run the IDs' move broke off begins again, on the grown
		// task
		budget, r.broken = r.budget, false
	}
	seed := s.opt.Seed
	for {
		s.limit = s.stats.Nodes + int64(budget)
		s.resume.save(s, budget)
		ok, err := s.search()
		if err != errRestart {
			return ok, err
		}
		for len(s.path) > 0 {
			s.undo()
		}
		if s.visited != nil && !s.failed {
			s.visited.reset()
		}
		if s.bnb != nil {
			s.bnb.forget()
		}
		s.cut = false
		if s.hooks.restart != nil {
			s.hooks.restart(s)
		}
		s.stats.Restarts++
		seed += seedIncrement
		s.rng = rand.New(rand.NewPCG(seed, seed^0xDA3E39CB94B95BDB))
		if grow {
			// the domain's order and its reverse in turn, with the
			// same budget
			s.reverse = !s.reverse
			if !s.reverse {
				budget *= 2
			}
			continue
		}
		s.shuffle = s.stats.Restarts%2 == 0
		budget *= budgetGrowth
	}
}
