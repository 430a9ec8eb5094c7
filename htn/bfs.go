package htn

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"slices"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/internal/sets"
)

// The best-first searches (greedy and A*) keep every open node, so nodes
// are immutable: each holds its own state and task network, and a parent
// pointer with the decision that made it, from which the plan is rebuilt.
//
// The heuristic is the relaxed composition estimate (rc.go) or the least
// number of actions the tasks of the network decompose into, ignoring
// preconditions (admissible for A* on plan length; see Heuristic); g is the
// cost of the actions applied so far (their number in a domain without
// costs).

type bent struct {
	uid  int32
	kind uint8
	id   int32
	// batch is the first uid of the decomposition that made the entry (0
	// in the initial network)
	batch int32
}

type bnet struct {
	ents  []bent
	edges [][2]int32 // uids: before, after
}

type bnode struct {
	parent *bnode
	// the decision that made this node: an entry applied, or decomposed
	// by method into the entries with uids [first, first+count)
	uid          int32
	method       int32
	first, count int32
	state        sets.Bits
	net          *bnet
	// g is exact: action costs are below 2^31 (hddl.MaxCost), so no
	// sum of them along a path overflows, and A* compares true costs
	g       int64
	h       int64 // costInf: a dead end; else at most costMax
	nextUID int32
	depth   int32 // steps from the root
	index   int   // heap index
	// more, when set, makes the node stand for decompositions still to
	// be made (see bmore): not a search node of its own
	more *bmore
	// chained: the node is the end of a forced chain (see forward)
	chained bool
}

type bheap struct {
	nodes []*bnode
	astar bool
	// wq is the weight of h in A*'s f = g + w·h, in quarters (0: 4, plain
	// A*)
	wq int64
}

// f is the order of the open list: h in greedy search, g + w·h in A*
// (times 4).
func (h *bheap) f(n *bnode) int64 {
	if !h.astar {
		return n.h
	}
	w := h.wq
	if w == 0 {
		w = 4
	}
	// g < 2^55 (hddl.MaxCost times 2^24 actions), h <= costMax = 2^56, w
	// at most 20 quarters: no overflow
	return 4*n.g + w*n.h
}

func (h *bheap) Len() int { return len(h.nodes) }
func (h *bheap) Less(i, j int) bool {
	a, b := h.nodes[i], h.nodes[j]
	if fa, fb := h.f(a), h.f(b); fa != fb {
		return fa < fb
	}
	if a.g != b.g || !h.astar {
		return a.g > b.g // further along first among equals
	}
	// then, in A*, the shallower: among nodes of equal f and g (a
	// zero-cost recursion estimated at 0 has infinitely many) the search
	// goes breadth first, so that it reaches each of them in time and an
	// exhausted search below a bound is a proof
	return a.depth < b.depth
}
func (h *bheap) Swap(i, j int) {
	h.nodes[i], h.nodes[j] = h.nodes[j], h.nodes[i]
	h.nodes[i].index, h.nodes[j].index = i, j
}
func (h *bheap) Push(x any) { n := x.(*bnode); n.index = len(h.nodes); h.nodes = append(h.nodes, n) }
func (h *bheap) Pop() any {
	n := h.nodes[len(h.nodes)-1]
	h.nodes = h.nodes[:len(h.nodes)-1]
	return n
}

type bfs struct {
	v       *view
	opt     Options
	visited *seenSet
	key     []byte
	// mark and stamp flag uids in successors and keyOf without a map
	// per node: uid u is flagged when mark[u] == stamp, and pos holds
	// each flagged uid's position in keyOf's order
	mark  []uint32
	pos   []int32
	stamp uint32
	rc    *rcHeuristic // nil: the TDG estimate v.cost
	rcg   *rcGrow      // over a growing task, in rc's place
	// relaid is the growing task's count of ID moves when the search
	// began (see errRelaid)
	relaid int
	stats  *Stats
	pause  *pauser // nil outside the portfolio
	// known is Anytime.Known in Optimize's branch and bound
	known func() int64
	// chain: the greedy search follows forced chains (see forward)
	chain bool
	// deferH leaves the estimate of the nodes apply and decompose make
	// unknown (hUnknown), for forward to evaluate only where it stops
	deferH bool
	// keyed is the scratch of a task's methods whose keys hold
	// (keyed.go), keyedKeys that of their order
	keyed     []int32
	keyedKeys []int64
}

// hUnknown marks a node whose estimate is not evaluated yet (see forward).
const hUnknown = -1

// forwardMax bounds the steps forward takes from one node: a forced
// chain can cycle (a recursive task with one method that changes
// nothing), and the node it stops at is queued, then met again as a
// duplicate.
const forwardMax = 1 << 12

// holdsIn reports whether pre holds in state s and neg does not (s has
// room for every fact: over a growing task, see bfs.fit).
func holdsIn(s sets.Bits, pre, neg []ground.FactID) bool {
	for _, f := range pre {
		if !s.Has(int(f)) {
			return false
		}
	}
	for _, f := range neg {
		if s.Has(int(f)) {
			return false
		}
	}
	return true
}

func bestFirst(ctx context.Context, v *view, opt Options, search Search, stats *Stats, pause *pauser) (*ground.Solution, *Stats, error) {
	b := &bfs{v: v, opt: opt, visited: newSeenSet(), stats: stats, pause: pause, chain: search == GBFS && !opt.NoChain}
	switch rc := opt.Heuristic == HeurRC || opt.Heuristic == HeurAuto && search == GBFS; {
	case rc && v.grow != nil:
		b.rcg = &rcGrow{goOn: func() error { return b.mayGoOn(ctx) }, auto: opt.Heuristic == HeurAuto}
	case rc && (opt.Heuristic == HeurRC || rcSize(v) <= rcAutoLimit):
		b.rc = newRC(v)
	}
	if v.grow != nil {
		b.relaid = v.grow.Relaid
	}
	root := b.root()
	if root.h == costInf {
		return nil, stats, ErrNoPlan
	}
	open := &bheap{astar: search == AStar}
	heap.Push(open, root)
	reported := stats.Nodes
	for open.Len() > 0 {
		n := heap.Pop(open).(*bnode)
		stats.Nodes++
		if d := stats.Nodes - reported; d >= 64 {
			// forward counts the nodes it passes too
			progress.From(ctx).AddNodes(d)
			reported = stats.Nodes
		}
		// A node can cost tens of milliseconds (the relaxed composition
		// heuristic of a large network is evaluated for every successor),
		// so the context is checked at every one.
		if err := b.mayGoOn(ctx); err != nil {
			return nil, stats, err
		}
		if opt.MaxNodes > 0 && stats.Nodes > opt.MaxNodes {
			return nil, stats, ErrNodeLimit
		}
		// next: n's successors, estimates still to come, when forward
		// made them
		var next []*bnode
		if b.chain && !n.chained && n.more == nil && len(n.net.ents) > 0 {
			var err error
			if n, next, err = b.chainEnd(ctx, open, n); err != nil {
				return nil, stats, err
			}
			if n == nil {
				continue
			}
		}
		var succ []*bnode
		var err error
		switch {
		case n.more != nil:
			succ, err = b.served(n.more.of, n.more, nil)
		case len(n.net.ents) == 0:
			if b.goalHolds(n.state) {
				return b.solution(n), stats, nil
			}
			continue
		case next != nil:
			succ = next
			for _, c := range succ {
				if c.h == hUnknown {
					c.h = b.h(c.state, c.net)
				}
			}
		default:
			succ, err = b.successors(n)
		}
		if err != nil {
			return nil, stats, err
		}
		for _, c := range succ {
			if c.h == costInf {
				stats.DeadEnds++
				continue
			}
			if c.more == nil && b.seen(c) {
				stats.Duplicates++
				continue
			}
			heap.Push(open, c)
		}
	}
	return nil, stats, ErrNoPlan
}

// mayGoOn is checked before each node: the portfolio's turn (pause), the
// gate of auto on one core, the context, and errRelaid where another
// member of a portfolio moved a growing task's IDs.
func (b *bfs) mayGoOn(ctx context.Context) error {
	if err := b.pause.check(); err != nil {
		return err
	}
	if err := b.opt.Gate.wait(ctx, b.pause); err != nil {
		return err
	}
	if b.v.grow != nil && b.v.grow.Relaid != b.relaid {
		return errRelaid
	}
	if b.rcg != nil && b.rcg.err != nil {
		return b.rcg.err
	}
	return ctx.Err()
}

// chainEnd takes popped node n to the end of its forced chain (see
// forward) and returns the node to expand now with its successors (nil
// if forward made none), or nil where there is nothing to expand: the end
// is dead, met before, or put back in the open list. It is expanded now
// if its estimate is better than every open node's; on a tie the open
// list's order picks among them, as it did among the steps of chains
// queued one by one (going on with the chain at once instead made the
// greedy search's plans on IPC 2023 AssemblyHierarchical many times
// longer; docs/how-it-works.md).
func (b *bfs) chainEnd(ctx context.Context, open *bheap, n *bnode) (*bnode, []*bnode, error) {
	e, next, err := b.forward(ctx, n)
	if err != nil {
		return nil, nil, err
	}
	e.chained = true
	if e.h == costInf {
		b.stats.DeadEnds++
		return nil, nil, nil
	}
	if e != n {
		if b.seen(e) {
			b.stats.Duplicates++
			return nil, nil, nil
		}
		if open.Len() > 0 && open.f(open.nodes[0]) <= open.f(e) {
			heap.Push(open, e)
			return nil, nil, nil
		}
	}
	return e, next, nil
}

// forward carries node c along its forced chain: while c has exactly one
// successor (an action that is the only next step, a check that holds, a
// task with one method that applies), that successor takes its place. It
// stops at end, the first node with a choice (or with none: end.h is
// then costInf; or with an empty network), and estimates only end; next
// holds end's successors, made without their estimates, where it has a
// choice. The greedy search calls it on each node it takes from the open
// list, which is thus ordered by the estimates of the nodes' first steps,
// and puts the chain's end back unless its estimate is the best: in a
// domain whose every turn is one choice followed by a long deterministic
// decomposition (IPC 2023 Lamps: a click, then the flips it
// propagates), the search then compares turns by the states they lead to,
// where the first step of each leaves the state as it was. No plan is
// lost: a plan through c goes through its only successor. The nodes
// passed count as expanded, and keep only what the plan is rebuilt from
// (their decisions and parents).
func (b *bfs) forward(ctx context.Context, c *bnode) (end *bnode, next []*bnode, err error) {
	if c.more != nil || c.h == costInf {
		return c, nil, nil
	}
	for step := 0; step < forwardMax && len(c.net.ents) > 0; step++ {
		if err := b.mayGoOn(ctx); err != nil {
			return nil, nil, err
		}
		b.deferH = true
		succ, err := b.successors(c)
		b.deferH = false
		if err != nil {
			return nil, nil, err
		}
		if len(succ) == 0 {
			c.h = costInf
			return c, nil, nil
		}
		if len(succ) > 1 || succ[0].more != nil {
			next = succ
			break
		}
		b.stats.Nodes++
		// a node passed is only a link of the plan's path now
		c.net, c.state = nil, nil
		c = succ[0]
	}
	if c.h == hUnknown {
		c.h = b.h(c.state, c.net)
	}
	return c, next, nil
}

// goalHolds reports whether a state meets the goal.
func (b *bfs) goalHolds(state sets.Bits) bool {
	if g := b.v.grow; g != nil && g.LiftedGoal() {
		return g.GoalHolds(b.fit(state))
	}
	return holdsIn(b.fit(state), b.v.t.Goal, b.v.t.GoalNeg)
}

// fit returns state with room for every fact of the task (a copy if it
// has to grow: a growing task's facts outgrow older nodes' states; the
// same set, so a node may keep the copy).
func (b *bfs) fit(state sets.Bits) sets.Bits {
	if w := (b.v.nFacts + 63) / 64; len(state) < w {
		return append(slices.Clone(state), make(sets.Bits, w-len(state))...)
	}
	return state
}

// root is the search's first node: the initial state and task network,
// with its estimate.
func (b *bfs) root() *bnode {
	t := b.v.t
	root := &bnode{method: -1, net: &bnet{}}
	root.state = sets.NewBits(b.v.nFacts)
	for _, f := range t.Init {
		root.state.Add(int(f))
	}
	for i, id := range t.Initial {
		root.net.ents = append(root.net.ents, bent{uid: int32(i), kind: nodeTask, id: int32(id)})
	}
	for _, o := range t.InitialOrder {
		root.net.edges = append(root.net.edges, [2]int32{o.Before, o.After})
	}
	root.nextUID = int32(len(t.Initial))
	root.h = b.h(root.state, root.net)
	return root
}

// h estimates the cost of the actions a node still needs (the relaxed
// composition estimate, or the sum of its tasks' least costs); costInf
// marks a dead end.
func (b *bfs) h(state sets.Bits, net *bnet) int64 {
	if b.rcg != nil {
		return b.rcg.eval(b.v, state, net)
	}
	if b.rc != nil {
		h := b.rc.eval(state, net)
		if h == rcInf {
			return costInf
		}
		return int64(h)
	}
	var s int64
	for _, e := range net.ents {
		if e.kind == nodeTask {
			c := b.v.cost[e.id]
			if c == costInf {
				return costInf
			}
			s = addCost(s, c)
		}
	}
	return s
}

// seen records a node's state and network and reports duplicates.
func (b *bfs) seen(n *bnode) bool { return b.visited.add(b.keyOf(n)) }

// keyOf encodes a node's state and network. The network is written in a
// canonical order (entries sorted by task, edges by the tasks they join),
// which identifies equal networks.
func (b *bfs) keyOf(n *bnode) []byte {
	k := b.key[:0]
	st := n.state
	if b.v.grow != nil {
		// a growing task's states differ in length
		for len(st) > 0 && st[len(st)-1] == 0 {
			st = st[:len(st)-1]
		}
		k = binary.AppendUvarint(k, uint64(len(st)))
	}
	for _, w := range st {
		k = binary.LittleEndian.AppendUint64(k, w)
	}
	ents := n.net.ents
	if b.v.total {
		for _, e := range ents {
			k = binary.AppendUvarint(k, uint64(e.kind)<<32|uint64(uint32(e.id)))
		}
		b.key = k
		return k
	}
	order := make([]int, len(ents))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		a, c := ents[i], ents[j]
		if a.kind != c.kind {
			return int(a.kind) - int(c.kind)
		}
		return cmp.Compare(a.id, c.id)
	})
	b.flag(n)
	for i, o := range order {
		b.pos[ents[o].uid] = int32(i)
		k = binary.AppendUvarint(k, uint64(ents[o].kind)<<32|uint64(uint32(ents[o].id)))
	}
	pairs := make([][2]int32, 0, len(n.net.edges))
	for _, e := range n.net.edges {
		pairs = append(pairs, [2]int32{b.pos[e[0]], b.pos[e[1]]})
	}
	slices.SortFunc(pairs, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	for _, p := range pairs {
		k = binary.AppendUvarint(k, uint64(p[0]))
		k = binary.AppendUvarint(k, uint64(p[1]))
	}
	b.key = k
	return k
}

// flag starts a new round of marks for n's uids (all below n.nextUID).
func (b *bfs) flag(n *bnode) {
	if int(n.nextUID) > len(b.mark) {
		size := max(int(n.nextUID), 2*len(b.mark))
		b.mark = make([]uint32, size)
		b.pos = make([]int32, size)
		b.stamp = 0
	}
	b.stamp++
	if b.stamp == 0 {
		clear(b.mark)
		b.stamp = 1
	}
}

// successors follow the same rules as the depth-first search: a check
// that holds runs at once; applicable actions are tried; the most
// constrained compound task is decomposed (in eager mode only when no
// action applies).
func (b *bfs) successors(n *bnode) ([]*bnode, error) {
	v := b.v
	if v.grow != nil {
		n.state = b.fit(n.state)
	}
	net := n.net
	b.flag(n)
	for _, e := range net.edges {
		b.mark[e[1]] = b.stamp
	}
	hasPred := func(uid int32) bool { return b.mark[uid] == b.stamp }
	// serial (Options.Serial): only the latest open decomposition acts
	frame := int32(-1)
	if b.opt.Serial && !v.total {
		for _, e := range net.ents {
			if !hasPred(e.uid) {
				frame = max(frame, e.batch)
			}
		}
	}
	var prims, comps []int
	for i, e := range net.ents {
		if hasPred(e.uid) || e.batch < frame {
			continue
		}
		if e.kind == nodeCheck || int(e.id) < v.nA {
			prims = append(prims, i)
		} else {
			comps = append(comps, i)
		}
	}
	for _, i := range prims {
		e := net.ents[i]
		if e.kind != nodeCheck {
			continue
		}
		sm := &v.meths[e.id]
		if holdsIn(n.state, sm.Pre, sm.NegPre) {
			return []*bnode{b.apply(n, i)}, nil
		}
		if !b.opt.CompletePO {
			return nil, nil
		}
	}
	var out []*bnode
	for _, i := range prims {
		e := net.ents[i]
		if e.kind == nodeCheck {
			continue
		}
		a := &v.t.Actions[e.id]
		if holdsIn(n.state, a.Pre, a.NegPre) {
			out = append(out, b.apply(n, i))
		}
	}
	if len(comps) == 0 || (len(out) > 0 && !b.opt.CompletePO) {
		return out, nil
	}
	// the compound task to decompose, chosen as in the depth-first search
	// (by method counts, not live ones): with Focus, of two tasks that
	// both have a choice, the one of the later decomposition; then with
	// MRV the one with the fewest methods, else the last one
	nm := func(i int) int {
		c := int(net.ents[i].id) - v.nA
		if v.grow != nil {
			return int(growCount(v, c))
		}
		return len(v.taskMeths[c])
	}
	best := comps[0]
	for _, i := range comps[1:] {
		ci, cb := nm(i), nm(best)
		bi, bb := net.ents[i].batch, net.ents[best].batch
		switch {
		case !b.opt.NoFocus && ci > 1 && cb > 1 && bi != bb:
			if bi > bb {
				best = i
			}
		case b.opt.NoMRV || ci < cb:
			best = i
		}
	}
	// the task alone in the front: a method's first action is the next
	// step (see dfs.search)
	alone := !b.opt.CompletePO && len(prims) == 0 && len(comps) == 1
	if v.grow != nil {
		return b.served(n, &bmore{of: n, ent: best, alone: alone, limit: growBatch}, out)
	}
	c := int(net.ents[best].id) - v.nA
	ms := v.taskMeths[c]
	if k := v.keyedOf(c); k != nil && !b.opt.CompletePO {
		// in eager mode, only the methods whose keys hold (keyed.go)
		b.keyed = k.candidates(n.state, b.keyed[:0])
		b.keyedKeys = v.inOrder(b.keyed, c, 0, nil, b.keyedKeys)
		ms = b.keyed
	}
	return b.decompositions(n, best, alone, ms, out), nil
}

// decompositions appends to out node n's successors that decompose its
// entry i by each of methods ms (in eager mode, those that hold now; for
// the task alone in the front, those whose first action applies).
func (b *bfs) decompositions(n *bnode, i int, alone bool, ms []int32, out []*bnode) []*bnode {
	v := b.v
	for _, m := range ms {
		// in eager mode its check would fail at once (see dfs.search)
		if sm := &v.meths[m]; !b.opt.CompletePO && (!v.keyHolds(n.state, m) || !holdsIn(n.state, sm.Pre, sm.NegPre)) {
			continue
		}
		if a := v.first[m]; alone && a >= 0 && !holdsIn(n.state, v.t.Actions[a].Pre, v.t.Actions[a].NegPre) {
			continue
		}
		out = append(out, b.decompose(n, i, m))
	}
	return out
}

// bmore is a batch of decompositions still to be made: a growing task
// is asked for a task's methods a batch at a time, as in the depth-first
// search (growBatch, then twice as many), and the rest waits in the open
// list as a node of its own, at its parent's estimate (a task with
// thousands of instances in a state, IPC Childsnack's top task, took
// the greedy search's whole turn to enumerate, and the depth-first
// search's plan came seconds late).
type bmore struct {
	of          *bnode // the node whose entry ent is decomposed
	ent         int
	alone       bool
	skip, limit int
}

// served appends to out node n's successors by the next batch of methods
// of the growing task, and the node that stands for the batches after
// it, if any.
func (b *bfs) served(n *bnode, more *bmore, out []*bnode) ([]*bnode, error) {
	v := b.v
	anyState := !v.total && b.opt.CompletePO
	got, rest, relaid, err := v.grow.Serve(ground.TaskID(n.net.ents[more.ent].id), n.state, anyState, false, more.skip, more.limit)
	if err != nil {
		return nil, err
	}
	if relaid {
		return nil, errRelaid
	}
	v.grown()
	n.state = b.fit(n.state) // the methods may need facts made just now
	ms := make([]int32, len(got))
	for i, m := range got {
		ms[i] = int32(m)
	}
	out = b.decompositions(n, more.ent, more.alone, ms, out)
	if rest {
		next := *more
		next.skip, next.limit = more.skip+len(got), 2*more.limit
		c := *n
		c.more = &next
		out = append(out, &c)
	}
	return out, nil
}

func (b *bfs) apply(n *bnode, i int) *bnode {
	e := n.net.ents[i]
	c := &bnode{parent: n, uid: e.uid, method: -1, g: n.g, nextUID: n.nextUID, depth: n.depth + 1}
	c.state = n.state
	if e.kind == nodeTask {
		a := &b.v.t.Actions[e.id]
		c.state = slices.Clone(n.state)
		for _, f := range a.Del {
			c.state.Remove(int(f))
		}
		for _, f := range a.Add {
			c.state.Add(int(f))
		}
		c.g += b.v.acost[e.id]
	}
	net := &bnet{ents: make([]bent, 0, len(n.net.ents)-1), edges: make([][2]int32, 0, len(n.net.edges))}
	net.ents = append(append(net.ents, n.net.ents[:i]...), n.net.ents[i+1:]...)
	for _, ed := range n.net.edges {
		if ed[0] != e.uid {
			net.edges = append(net.edges, ed)
		}
	}
	c.net = net
	c.h = hUnknown
	if !b.deferH {
		c.h = b.h(c.state, net)
	}
	return c
}

func (b *bfs) decompose(n *bnode, i int, m int32) *bnode {
	e := n.net.ents[i]
	sm := &b.v.meths[m]
	c := &bnode{parent: n, uid: e.uid, method: m, g: n.g, state: n.state, depth: n.depth + 1}
	uid := n.nextUID
	c.first = uid
	k := int32(len(sm.Subtasks))
	// edges: the old ones, the method's, and at most those from its check
	// and from its last subtasks to the task's successors
	net := &bnet{ents: make([]bent, 0, len(n.net.ents)+int(k)), edges: make([][2]int32, 0, len(n.net.edges)+len(sm.Ordering)+int(k)+4)}
	net.ents = append(append(net.ents, n.net.ents[:i]...), n.net.ents[i+1:]...)
	check := int32(-1)
	if len(sm.Pre)+len(sm.NegPre) > 0 {
		check = uid
		net.ents = append(net.ents, bent{uid: uid, kind: nodeCheck, id: m, batch: c.first})
		uid++
	}
	base := uid
	for _, s := range sm.Subtasks {
		net.ents = append(net.ents, bent{uid: uid, kind: nodeTask, id: int32(s), batch: c.first})
		uid++
	}
	hasSucc := make([]bool, k)
	for _, o := range sm.Ordering {
		net.edges = append(net.edges, [2]int32{base + o.Before, base + o.After})
		hasSucc[o.Before] = true
	}
	var succ []int32
	for _, ed := range n.net.edges {
		if ed[0] == e.uid {
			succ = append(succ, ed[1])
		} else {
			net.edges = append(net.edges, ed)
		}
	}
	if check >= 0 {
		for j := int32(0); j < k; j++ {
			net.edges = append(net.edges, [2]int32{check, base + j})
		}
		if k == 0 {
			for _, x := range succ {
				net.edges = append(net.edges, [2]int32{check, x})
			}
		}
	}
	for j := int32(0); j < k; j++ {
		if !hasSucc[j] {
			for _, x := range succ {
				net.edges = append(net.edges, [2]int32{base + j, x})
			}
		}
	}
	c.count = uid - c.first
	c.nextUID = uid
	c.net = net
	c.h = hUnknown
	if !b.deferH {
		c.h = b.h(c.state, net)
	}
	return c
}

// solution rebuilds the plan from the parent pointers of a goal node.
func (b *bfs) solution(goal *bnode) *ground.Solution {
	var path []*bnode
	for n := goal; n.parent != nil; n = n.parent {
		path = append(path, n)
	}
	sol := &ground.Solution{}
	tree := map[int32]int32{} // uid -> tree node
	kinds := map[int32]bent{}
	for i, id := range b.v.t.Initial {
		tree[int32(i)] = int32(len(sol.Nodes))
		sol.Nodes = append(sol.Nodes, ground.SolNode{Task: id, Method: -1})
		sol.Roots = append(sol.Roots, tree[int32(i)])
		kinds[int32(i)] = bent{kind: nodeTask}
	}
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if n.method < 0 {
			if k, ok := kinds[n.uid]; ok && k.kind == nodeTask {
				sol.Order = append(sol.Order, tree[n.uid])
			}
			continue
		}
		sm := &b.v.meths[n.method]
		uid := n.first
		if len(sm.Pre)+len(sm.NegPre) > 0 {
			kinds[uid] = bent{kind: nodeCheck}
			uid++
		}
		var kids []int32
		for _, s := range sm.Subtasks {
			tree[uid] = int32(len(sol.Nodes))
			sol.Nodes = append(sol.Nodes, ground.SolNode{Task: s, Method: -1})
			kinds[uid] = bent{kind: nodeTask}
			kids = append(kids, tree[uid])
			uid++
		}
		attach(sol, tree[n.uid], n.method, kids)
	}
	return sol
}
