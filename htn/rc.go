package htn

import (
	"math"
	"math/bits"

	"github.com/htnsat/htnsat/internal/heap"
	"github.com/htnsat/htnsat/internal/sets"
)

// The relaxed composition heuristic (Höller, Bercher, Behnke, Biundo:
// "On Guiding Search in HTN Planning with Classical Planning Heuristics",
// IJCAI 2019) turns the hierarchy into a delete-free classical problem:
// an action makes its add effects true and marks its own task reached; a
// method, once its precondition holds and each of its subtasks has been
// reached, marks its task reached. Orderings, negative preconditions and
// deletes are ignored. From a search node's state, the additive cost
// (h_add) of reaching every task of its network and every goal fact
// estimates the actions still to come; a task that cannot be reached at
// all is a dead end for certain, because every real decomposition is also
// a relaxed one. Unlike the least number of actions a task needs, which
// ignores the state, this sees that a task is far from done when the facts
// its methods need are many actions away (the connection chains of IPC
// AssemblyHierarchical, the moves of Blocksworld).

const rcInf = math.MaxInt32

type rcHeuristic struct {
	v  *view
	nF int // facts are nodes 0..nF-1, task id is node nF+id
	// over a growing task (rcGrow), the task as it was when the
	// heuristic was made: actions below nA, the compound tasks' IDs from
	// nA on, their nodes gap lower (the room for actions not made yet
	// has none), nT the end of those IDs and nM the methods made; facts,
	// tasks and methods made since are left out (needed)
	nA, gap, nT, nM int32
	// per operator (actions, then search methods): the nodes it
	// reaches are effs[effAt[op]:effAt[op+1]] (one flat array: a
	// firing reads two adjacent offsets, not a slice header), and
	// opsInit its counter before an exploration (the number of nodes
	// it needs, with repeats)
	effAt   []int32
	effs    []int32
	opsInit []rcOp
	opBase  []int32 // 1 for an action, 0 for a method
	// the operators that need node n (once per occurrence) are
	// users[userAt[n]:userAt[n+1]], one flat array as effs
	userAt []int32
	users  []int32
	free   []int32 // operators that need nothing

	// per evaluation: ops[op] counts the preconditions of op not yet
	// reached and sums their costs (one entry, so that the inner loop
	// touches one cache line per operator)
	cost   []int32
	ops    []rcOp
	target []bool
	pq     heap.Radix
	bound  int32 // the cost of the last node taken

	// The cost of every node depends on the state alone: the network
	// only picks which costs are summed. So the costs found from a state
	// are kept (cache, by the state's hash in index; the oldest entry
	// goes first) and a node whose state was met before costs a sum:
	// the successors a decomposition makes share their parent's state,
	// and the search comes back to a few states by many paths (IPC
	// Freecell-Learned probfreecell-02-1: 202 states in 22,000
	// evaluations).
	cache []rcEntry
	index map[[2]uint64]int32
	next  int32
	// hits, misses and again count the evaluations of a state met
	// before, of a new one and of one explored again; resumed those of
	// the again that went on from where the last exploration stopped
	// (for tests)
	hits, misses, again, resumed int
	scratch                      []int32
	// last is the entry the working arrays (cost, ops, pq) explored
	// last, lastKey its state, -1 when there is none: the successors of
	// a node share its state, so the network that needs more of a
	// state's costs most often comes right after the one whose
	// exploration stopped short, and the exploration goes on from there
	last    int32
	lastKey [2]uint64
}

// An rcEntry holds the costs found from one state. The exploration that
// found them stopped once the network at hand had its costs: those up to
// bound are final, the others may be too high (rcInf once it ran to the
// end, when all are final).
type rcEntry struct {
	key   [2]uint64
	cost  []int32
	bound int32
}

// rcCacheBytes bounds the memory of the cache, rcCacheMax its entries.
const (
	rcCacheBytes = 128 << 20
	rcCacheMax   = 8192
)

// rcOp is an operator's counter in an exploration: cnt preconditions not
// yet reached, acc the sum of the costs of those reached, saturated at
// rcInf-1 (a cost so high is as good as none; eight bytes an operator
// rather than sixteen halve what the inner loop and the reset at each
// exploration move).
type rcOp struct {
	acc uint32
	cnt int32
}

// rcAutoLimit is the largest relaxed problem (operators plus
// precondition entries) for which HeurAuto picks RC: each evaluation
// walks much of it, and on ground tasks with tens of thousands of methods
// the time per node outweighs the nodes saved (measured on IPC Rover and
// Satellite), so the state-blind TDG estimate is used there.
const rcAutoLimit = 40_000

// rcSize is the size of the relaxed problem of v.
func rcSize(v *view) int {
	n := len(v.meths) + v.nA
	for a := 0; a < v.nA; a++ {
		n += len(v.t.Actions[a].Pre)
	}
	for i := range v.meths {
		n += len(v.meths[i].Pre) + len(v.meths[i].Subtasks)
	}
	return n
}

func newRC(v *view) *rcHeuristic { return newRCServed(v, 0) }

// newRCServed is newRC over a growing task whose first served compound
// tasks were served in any state (rcGrow).
func newRCServed(v *view, served int) *rcHeuristic {
	t := v.t
	nA := v.nA
	if v.grow != nil {
		nA = v.acts
	}
	nC := len(v.taskMeths)
	r := &rcHeuristic{v: v, nF: v.nFacts, effAt: []int32{0}, nA: int32(v.nA), gap: int32(v.nA - nA), nT: int32(v.nA + nC), nM: int32(len(v.meths))}
	nodes := r.nF + nA + nC
	users := make([][]int32, nodes)
	add := func(pre, eff []int32, base int32) {
		op := int32(len(r.opsInit))
		r.opsInit = append(r.opsInit, rcOp{cnt: int32(len(pre))})
		r.effs = append(r.effs, eff...)
		r.effAt = append(r.effAt, int32(len(r.effs)))
		r.opBase = append(r.opBase, base)
		if len(pre) == 0 {
			r.free = append(r.free, op)
		}
		for _, n := range pre {
			users[n] = append(users[n], op)
		}
	}
	for a := 0; a < nA; a++ {
		act := &t.Actions[a]
		pre := make([]int32, 0, len(act.Pre))
		for _, f := range act.Pre {
			pre = append(pre, int32(f))
		}
		eff := make([]int32, 0, len(act.Add)+1)
		for _, f := range act.Add {
			eff = append(eff, int32(f))
		}
		add(pre, append(eff, r.node(int32(a))), 1)
	}
	for i := range v.meths {
		sm := &v.meths[i]
		pre := make([]int32, 0, len(sm.Pre)+len(sm.Subtasks))
		for _, f := range sm.Pre {
			pre = append(pre, int32(f))
		}
		for _, s := range sm.Subtasks {
			pre = append(pre, r.node(int32(s)))
		}
		add(pre, []int32{r.node(int32(sm.Task))}, 0)
	}
	if v.grow != nil {
		r.stopGaps(served, add)
	}
	r.userAt = make([]int32, 1, nodes+1)
	for _, us := range users {
		r.users = append(r.users, us...)
		r.userAt = append(r.userAt, int32(len(r.users)))
	}
	r.cost = make([]int32, nodes)
	r.ops = make([]rcOp, len(r.opsInit))
	r.target = make([]bool, nodes)
	r.cache = make([]rcEntry, max(1, min(rcCacheMax, rcCacheBytes/(4*nodes))))
	r.index = make(map[[2]uint64]int32, len(r.cache))
	r.last = -1
	return r
}

// eval returns the relaxed cost of the network's tasks and checks and of
// the goal from state, or rcInf when one of them cannot be reached.
func (r *rcHeuristic) eval(state sets.Bits, net *bnet) int32 {
	key := stateKey(state)
	i, ok := r.index[key]
	if !ok {
		i = r.next
		r.next = (r.next + 1) % int32(len(r.cache))
		if e := &r.cache[i]; e.cost != nil {
			delete(r.index, e.key)
		}
		r.index[key] = i
		r.start(state)
		r.run(net, &r.cache[i])
		r.cache[i].key = key
		r.last, r.lastKey = i, key
		r.misses++
	} else {
		r.hits++
	}
	e := &r.cache[i]
	h, final := r.sum(e, net)
	if !final {
		// a cost this network needs lies beyond where the exploration
		// that found the entry stopped: go on with that exploration if
		// it is the last one, else explore the state to the end
		if r.last == i && r.lastKey == key {
			r.run(net, e)
			r.resumed++
		} else {
			r.start(state)
			r.run(nil, e)
			r.last, r.lastKey = i, key
		}
		h, _ = r.sum(e, net)
		r.again++
	}
	return h
}

// sum adds up the costs of entry e that net needs; final reports that
// they were all final.
func (r *rcHeuristic) sum(e *rcEntry, net *bnet) (h int32, final bool) {
	var sum int64
	inf := false
	for _, n := range r.needed(net) {
		c := e.cost[n]
		if c > e.bound {
			return 0, false
		}
		inf = inf || c == rcInf
		sum += int64(c)
	}
	if inf {
		return rcInf, true
	}
	return int32(min(sum, rcInf-1)), true
}

// start begins an exploration from state: every cost unknown but the
// state's facts', every counter full, the operators that need nothing
// fired.
func (r *rcHeuristic) start(state sets.Bits) {
	for i := range r.cost {
		r.cost[i] = rcInf
	}
	copy(r.ops, r.opsInit)
	r.pq.Reset()
	r.bound = 0
	for w, word := range state {
		for word != 0 {
			b := word & -word
			f := w*64 + bits.TrailingZeros64(b)
			word &^= b
			if f >= r.nF {
				break // a growing task's fact made since (rcGrow)
			}
			r.cost[f] = 0
			r.pq.Push(heap.Item{Node: int32(f)})
		}
	}
	for _, op := range r.free {
		r.fire(op, r.opBase[op])
	}
}

// run goes on with the exploration until the costs net's estimate sums
// are final, or with net nil to the end, and copies the costs into e.
func (r *rcHeuristic) run(net *bnet, e *rcEntry) {
	// the nodes whose cost is wanted and not yet final (with net nil,
	// none: the exploration runs to the end)
	left := 0
	if net != nil {
		for _, n := range r.needed(net) {
			if r.cost[n] > r.bound && !r.target[n] {
				r.target[n] = true
				left++
			}
		}
	}
	for (net == nil || left > 0) && r.pq.Len() > 0 {
		it := r.pq.Pop()
		if it.Cost != r.cost[it.Node] {
			continue
		}
		// every node up to the cost of the last one taken has its
		// final cost (Dijkstra's order), so an exploration stopped
		// early keeps them
		r.bound = it.Cost
		if r.target[it.Node] {
			r.target[it.Node] = false
			left--
		}
		for _, op := range r.users[r.userAt[it.Node]:r.userAt[it.Node+1]] {
			o := &r.ops[op]
			// both below rcInf: the sum fits in 32 bits unsigned
			o.acc = min(o.acc+uint32(it.Cost), rcInf-1)
			if o.cnt--; o.cnt == 0 {
				r.fire(op, r.opBase[op]+int32(o.acc))
			}
		}
	}
	if r.pq.Len() == 0 {
		// ran to the end: every cost is final, rcInf the unreachable;
		// no target is left (each is final)
		r.bound = rcInf
		if left > 0 {
			for _, n := range r.needed(net) {
				r.target[n] = false
			}
		}
	}
	e.cost = append(e.cost[:0], r.cost...)
	e.bound = r.bound
}

// needed returns the nodes whose costs net's estimate sums (its tasks,
// its checks' preconditions and the goal facts), in a scratch slice
// valid until the next call.
func (r *rcHeuristic) needed(net *bnet) []int32 {
	ns := r.scratch[:0]
	for _, x := range net.ents {
		if x.kind == nodeTask {
			if x.id < r.nT {
				ns = append(ns, r.node(x.id))
			}
			continue
		}
		if x.id >= r.nM {
			continue
		}
		for _, p := range r.v.meths[x.id].Pre {
			ns = append(ns, int32(p))
		}
	}
	for _, g := range r.v.t.Goal {
		ns = append(ns, int32(g))
	}
	r.scratch = ns
	return ns
}

// node is the node of task id (below nT).
func (r *rcHeuristic) node(id int32) int32 {
	if id >= r.nA {
		id -= r.gap
	}
	return int32(r.nF) + id
}

// stateKey is a 128-bit hash of a state, mixed by mix64 as the
// depth-first search's node hashes are (its words are few: seenSet's
// maphash would need them as bytes).
func stateKey(s sets.Bits) [2]uint64 {
	a, b := uint64(0x9E3779B97F4A7C15), uint64(0xC2B2AE3D27D4EB4F)
	for _, w := range s {
		a = mix64(a ^ w)
		b = mix64(b + w*0xFF51AFD7ED558CCD)
	}
	return [2]uint64{a, b}
}

// fire reaches op's effects at cost c, at most rcInf-1: an effect
// reached is never taken for unreachable.
func (r *rcHeuristic) fire(op int32, c int32) {
	c = min(c, rcInf-1)
	for _, n := range r.effs[r.effAt[op]:r.effAt[op+1]] {
		if c < r.cost[n] {
			r.cost[n] = c
			r.pq.Push(heap.Item{Node: n, Cost: c})
		}
	}
}

// stopGaps adds, over a growing task, the operators that stand for what
// has not been made yet (see rcGrow), when only the first served
// compound tasks were served in any state: each later one with no
// method so far is reached at its least cost in the lifted domain, and
// a fact no action made so far adds at the cost of one action.
func (r *rcHeuristic) stopGaps(served int, add func(pre, eff []int32, base int32)) {
	v := r.v
	if served >= len(v.taskMeths) {
		return // all made: no gap
	}
	for c := served; c < len(v.taskMeths); c++ {
		id := int32(v.nA + c)
		if len(v.taskMeths[c]) > 0 || v.cost[id] == costInf {
			continue
		}
		add(nil, []int32{r.node(id)}, int32(min(v.cost[id], rcInf-1)))
	}
	added := make([]bool, r.nF)
	for a := 0; a < int(r.nA-r.gap); a++ {
		for _, f := range v.t.Actions[a].Add {
			added[f] = true
		}
	}
	for f, ok := range added {
		if !ok {
			add(nil, []int32{int32(f)}, 1)
		}
	}
}
