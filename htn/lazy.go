package htn

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/plan"
)

// SolveLazy searches for a plan of a totally ordered problem grounded on
// demand (ground.Lazy), for problems whose full grounding is too large:
// memory follows the part of the problem the search visits. The search is
// depth-first progression: the first task of the network is applied (an
// action) or decomposed by each method instance that holds in the current
// state. A node met before (the same state and the same network) is not
// searched again, and the networks are bounded in length, so that
// recursive methods cannot lead the search astray for ever.
//
// Without a heuristic, the order in which methods are tried decides
// much: in many domains the methods that end a recursion come first,
// which a depth-first search takes too early (a plan that stops short of
// the goal). So the search is a portfolio of two orders, the domain's and
// its reverse, run in turn with a node budget that doubles each round
// (the network bound doubles too when it cut the search). A run under a
// bound that cut nothing ends the search: without a plan, there is none
// (ErrNoPlan).
func SolveLazy(ctx context.Context, lz *ground.Lazy, opt Options) (*plan.Plan, *Stats, error) {
	var first *plan.Plan
	_, st, err := lazyPortfolio(ctx, lz, opt, nil, &first)
	return first, st, err
}

// OptimizeLazy is SolveLazy going on after the first plan: branch and
// bound on the cost of the actions applied so far plus those of the
// actions still in the network (an admissible estimate), each cheaper
// plan told to found as it is met, until the time is up or a run that
// nothing cut ends, which proves the last plan optimal (true). A node met
// again is searched again when it is reached more cheaply. found's error
// ends the search.
func OptimizeLazy(ctx context.Context, lz *ground.Lazy, opt Options, found func(*plan.Plan) error) (bool, *Stats, error) {
	return lazyPortfolio(ctx, lz, opt, found, nil)
}

// lazyPortfolio runs the portfolio of SolveLazy: the first plan into
// *first when found is nil, every cheaper plan to found otherwise.
func lazyPortfolio(ctx context.Context, lz *ground.Lazy, opt Options, found func(*plan.Plan) error, first **plan.Plan) (bool, *Stats, error) {
	start := time.Now()
	stats := &Stats{Search: "lazy depth-first"}
	defer func() { stats.Duration = time.Since(start) }()
	initial := lz.Initial()
	bound := int32(2*len(initial) + 16)
	budget := int64(lazyBudget)
	best := int64(math.MaxInt64)
	for {
		cut := false
		for _, reverse := range []bool{false, true} {
			s := &lazySearch{ctx: ctx, lz: lz, opt: opt, stats: stats, reverse: reverse, bound: bound, budget: stats.Nodes + budget, found: found, best: best}
			done, err := s.run(initial)
			best = s.best
			if err != nil {
				return false, stats, err
			}
			if done {
				*first = s.plan()
				return false, stats, nil
			}
			if !s.cut && !s.stopped {
				if best < math.MaxInt64 {
					return true, stats, nil
				}
				return false, stats, ErrNoPlan
			}
			cut = cut || s.cut
			stats.Restarts++
		}
		if cut {
			if bound >= maxLazyBound {
				return false, stats, fmt.Errorf("%w: no plan with networks of up to %d tasks", plan.ErrTooLarge, bound)
			}
			bound *= 2
		}
		budget *= 2
	}
}

// lazyBudget is the node budget of the lazy search's first runs.
const lazyBudget = 20_000

// maxLazyBound is the longest network the lazy search considers.
const maxLazyBound = 1 << 20

// maxLazySeen bounds the table of nodes met: beyond it, nodes are no
// longer recorded (the search stays correct, it may repeat work).
const maxLazySeen = 1 << 24

// lcell is a network of the lazy search: a list of tasks, first task
// first, shared between the networks that end alike. A task is a ground
// task of the Lazy, or -1-k for task k of the initial network while its
// variables are still open.
type lcell struct {
	task int32
	node int32 // tree node
	next *lcell
	hash uint64
	n    int32 // tasks from here on
	lb   int64 // the costs of the actions from here on
}

type lnode struct {
	task   int32
	method int32
	kids   []int32
}

type ltrail struct {
	fact ground.FactID
	was  bool
}

// lframe is a node of the search with its alternatives: an action to
// apply, method instances (asked for a batch at a time), or the bindings
// of an open task of the initial network (instances or action arguments).
type lframe struct {
	net    *lcell
	g      int64 // the cost of the actions applied before it
	trail  int
	subs   int
	nodes  int
	order  int
	action bool
	insts  []ground.LazyMethod
	acts   [][]int32 // an open action: its possible arguments
	next   int
	more   bool // the task has instances beyond insts
	taken  int  // instances asked for so far
}

func (f *lframe) alternatives() int {
	switch {
	case f.acts != nil:
		return len(f.acts)
	case f.action:
		return 1
	}
	return len(f.insts)
}

// lazyBatch is the number of method instances the lazy search asks for
// at first; each further batch is twice as large.
const lazyBatch = 8

type lazySearch struct {
	ctx     context.Context
	lz      *ground.Lazy
	opt     Options
	stats   *Stats
	reverse bool  // methods in the reverse of the domain's order
	budget  int64 // stop at this many nodes (Stats.Nodes)
	stopped bool  // stopped by the budget
	// found, when set, is told of each plan cheaper than best, and the
	// search goes on; g is the cost of the actions applied on the path
	found func(*plan.Plan) error
	best  int64
	g     int64

	initial []ground.OpenTask
	sub     []int32 // the initial network's variables: their values, -1 while open
	subHash uint64
	subLog  []int32 // variables bound, in order
	state   *ground.State
	trail   []ltrail
	nodes   []lnode
	order   []int32
	stack   []lframe
	seen    map[[2]uint64]int64 // the least g each node was met with
	bound   int32
	cut     bool
}

// newNode adds a tree node for task.
func (s *lazySearch) newNode(task int32) int32 {
	s.nodes = append(s.nodes, lnode{task: task, method: -1})
	return int32(len(s.nodes) - 1)
}

// cons puts task, tree node node, before rest.
func (s *lazySearch) cons(task int32, node int32, rest *lcell) *lcell {
	c := &lcell{task: task, node: node, next: rest, n: 1, lb: s.actionCost(task)}
	var h uint64
	if rest != nil {
		h, c.n, c.lb = rest.hash, rest.n+1, c.lb+rest.lb
	}
	c.hash = ground.Mix64(h ^ uint64(int64(task)+1)*0x9e3779b97f4a7c15)
	return c
}

// actionCost is the cost of task when it is an action, else 0.
func (s *lazySearch) actionCost(task int32) int64 {
	if task < 0 {
		return int64(s.lz.CostOf(s.initial[-1-task].Ref))
	}
	return int64(s.lz.CostOf(s.lz.Task(task).Ref))
}

// run searches under the bound and budget; true when a plan was found
// (the tree and order then hold it).
func (s *lazySearch) run(initial []ground.OpenTask) (bool, error) {
	s.initial = initial
	s.sub = make([]int32, len(s.lz.Problem.Vars))
	for i := range s.sub {
		s.sub[i] = -1
	}
	s.state = s.lz.Init()
	s.seen = map[[2]uint64]int64{}
	for i := range initial {
		s.newNode(int32(-1 - i))
	}
	var root *lcell
	for i := len(initial) - 1; i >= 0; i-- {
		root = s.cons(int32(-1-i), int32(i), root)
	}
	if done, err := s.enter(root); done || err != nil {
		return done, err
	}
	for len(s.stack) > 0 {
		f := &s.stack[len(s.stack)-1]
		s.undo(f)
		alts := f.alternatives()
		if f.next >= alts && f.more {
			var insts []ground.LazyMethod
			var more bool
			var err error
			if t := f.net.task; t < 0 {
				insts, more, err = s.lz.OpenMethods(s.initial[-1-t], s.sub, s.state, s.reverse, f.taken, f.taken)
			} else {
				insts, more, err = s.lz.Methods(t, s.state, s.reverse, f.taken, f.taken)
			}
			if err != nil {
				return false, err
			}
			f.insts, f.more, f.next = insts, more, 0
			f.taken += len(insts)
			alts = len(insts)
		}
		if f.next >= alts {
			s.stack = s.stack[:len(s.stack)-1]
			continue
		}
		child := s.apply(f)
		f.next++
		if done, err := s.enter(child); done || err != nil {
			return done, err
		}
	}
	return false, nil
}

// enter visits a network: a plan when it is empty and the goal holds, a
// frame of alternatives pushed otherwise (none for a dead end).
func (s *lazySearch) enter(net *lcell) (bool, error) {
	s.stats.Nodes++
	if s.stats.Nodes&63 == 0 {
		// a node can take a millisecond (IPC Freecell's, each asking
		// feasibility questions): every 1,024 of them let --timeout
		// 3s end at 3.7 s
		if s.stats.Nodes&1023 == 0 {
			progress.From(s.ctx).AddNodes(1024)
		}
		if err := s.ctx.Err(); err != nil {
			return false, err
		}
	}
	if s.opt.MaxNodes > 0 && s.stats.Nodes > s.opt.MaxNodes {
		return false, ErrNodeLimit
	}
	if s.stats.Nodes > s.budget {
		s.stopped = true
		s.stack = s.stack[:0]
		return false, nil
	}
	if net == nil {
		if !s.lz.Goal(s.state) {
			return false, nil
		}
		if s.found == nil {
			return true, nil
		}
		if s.g < s.best {
			s.best = s.g
			return false, s.found(s.plan())
		}
		return false, nil
	}
	if s.found != nil && s.best < math.MaxInt64 && s.g+net.lb >= s.best {
		return false, nil // no cheaper plan below
	}
	if t := net.task; t < 0 {
		// a task of the initial network: ground once its variables are
		// bound
		if id := s.lz.Bind(s.initial[-1-t], s.sub); id >= 0 {
			net = s.cons(id, net.node, net.next)
			s.nodes[net.node].task = id
		}
	}
	key := [2]uint64{s.state.Hash, net.hash ^ s.subHash}
	if g, ok := s.seen[key]; ok && (s.found == nil || g <= s.g) {
		s.stats.Duplicates++
		return false, nil
	}
	if len(s.seen) < maxLazySeen {
		s.seen[key] = s.g
	}
	if net.n > s.bound {
		s.cut = true
		return false, nil
	}
	f := lframe{net: net, g: s.g, trail: len(s.trail), subs: len(s.subLog), nodes: len(s.nodes), order: len(s.order)}
	var err error
	switch t := net.task; {
	case t < 0 && s.initial[-1-t].Ref.Primitive:
		f.acts, err = s.lz.OpenActions(s.initial[-1-t], s.sub, s.state)
		if len(f.acts) == 0 && err == nil {
			s.stats.DeadEnds++
			return false, nil
		}
	case t < 0:
		f.insts, f.more, err = s.lz.OpenMethods(s.initial[-1-t], s.sub, s.state, s.reverse, 0, lazyBatch)
	case s.lz.Task(t).Ref.Primitive:
		if !s.lz.Applicable(t, s.state) {
			s.stats.DeadEnds++
			return false, nil
		}
		f.action = true
	default:
		f.insts, f.more, err = s.lz.Methods(t, s.state, s.reverse, 0, lazyBatch)
	}
	if err != nil {
		return false, err
	}
	if f.alternatives() == 0 {
		s.stats.DeadEnds++
		return false, nil
	}
	f.taken = len(f.insts)
	s.stack = append(s.stack, f)
	return false, nil
}

// undo brings the state, the bindings, the tree and the order back to
// where they were when frame f was entered.
func (s *lazySearch) undo(f *lframe) {
	for len(s.trail) > f.trail {
		t := s.trail[len(s.trail)-1]
		s.trail = s.trail[:len(s.trail)-1]
		s.state.Set(t.fact, t.was)
	}
	for len(s.subLog) > f.subs {
		v := s.subLog[len(s.subLog)-1]
		s.subLog = s.subLog[:len(s.subLog)-1]
		s.subHash ^= subKey(v, s.sub[v])
		s.sub[v] = -1
	}
	s.nodes, s.order = s.nodes[:f.nodes], s.order[:f.order]
	s.g = f.g
}

func subKey(v, o int32) uint64 { return ground.Mix64(uint64(v)<<32 | uint64(uint32(o)) + 0x51) }

// bindOpen binds the open variables of the initial network's task k to
// args and returns the ground task.
func (s *lazySearch) bindOpen(k int32, args []int32) int32 {
	for i, a := range s.initial[k].Args {
		if v := int32(a.Var()); a.IsVar() && s.sub[v] < 0 {
			s.sub[v] = args[i]
			s.subHash ^= subKey(v, args[i])
			s.subLog = append(s.subLog, v)
		}
	}
	return s.lz.Bind(s.initial[k], s.sub)
}

// apply takes frame f's next alternative and returns the network it
// leads to.
func (s *lazySearch) apply(f *lframe) *lcell {
	net := f.net
	task := net.task
	if task < 0 {
		var args []int32
		if f.acts != nil {
			args = f.acts[f.next]
		} else {
			args = f.insts[f.next].Args
		}
		task = s.bindOpen(-1-task, args)
		s.nodes[net.node].task = task
	}
	if f.action || f.acts != nil {
		del, add := s.lz.Effects(task)
		for _, x := range del {
			if s.state.Set(x, false) {
				s.trail = append(s.trail, ltrail{x, true})
			}
		}
		for _, x := range add {
			if s.state.Set(x, true) {
				s.trail = append(s.trail, ltrail{x, false})
			}
		}
		s.order = append(s.order, net.node)
		s.g += int64(s.lz.Cost(task))
		return net.next
	}
	inst := &f.insts[f.next]
	rest := net.next
	kids := make([]int32, len(inst.Subtasks))
	for k := len(inst.Subtasks) - 1; k >= 0; k-- {
		rest = s.cons(inst.Subtasks[k], s.newNode(inst.Subtasks[k]), rest)
		kids[k] = rest.node
	}
	n := &s.nodes[net.node]
	n.method, n.kids = int32(inst.Method), kids
	return rest
}

// plan writes the tree of the plan found in the IPC format.
func (s *lazySearch) plan() *plan.Plan {
	lz := s.lz
	p := lz.Problem
	d := p.Domain
	names := p.ObjectNames
	pl := &plan.Plan{Costed: d.Costs}
	id := make([]int, len(s.nodes))
	for i := range id {
		id[i] = -1
	}
	for i, n := range s.order {
		id[n] = i
		t := lz.Task(s.nodes[n].task)
		pl.Actions = append(pl.Actions, plan.Action{ID: i, Name: d.Actions[t.Ref.Index].Name, Args: names(t.Args)})
		pl.Cost += lz.Cost(s.nodes[n].task)
	}
	next := len(s.order)
	number := func(n int32) int {
		if id[n] < 0 {
			id[n] = next
			next++
		}
		return id[n]
	}
	var visit func(n int32)
	visit = func(n int32) {
		nd := &s.nodes[n]
		t := lz.Task(nd.task)
		if t.Ref.Primitive {
			return
		}
		dc := plan.Decomposition{ID: number(n), Task: d.Tasks[t.Ref.Index].Name, Args: names(t.Args), Method: d.Methods[nd.method].Name}
		for _, k := range nd.kids {
			dc.Subtasks = append(dc.Subtasks, number(k))
		}
		pl.Decomps = append(pl.Decomps, dc)
		for _, k := range nd.kids {
			visit(k)
		}
	}
	for i := range s.initial {
		pl.Root = append(pl.Root, number(int32(i)))
	}
	for i := range s.initial {
		visit(int32(i))
	}
	return pl
}
