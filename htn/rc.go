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
	v      *view
	nF     int       // facts are nodes 0..nF-1, task id is node nF+id
	opPre  [][]int32 // per operator (actions, then search methods): nodes needed, with repeats
	opEff  [][]int32 // nodes it reaches
	opBase []int32   // 1 for an action, 0 for a method
	users  [][]int32 // per node: operators that need it (once per occurrence)
	free   []int32   // operators that need nothing

	// per evaluation: ops[op] counts the preconditions of op not yet
	// reached and sums their costs (one entry, so that the inner loop
	// touches one cache line per operator)
	cost   []int32
	ops    []rcOp
	target []bool
	pq     heap.Radix
}

type rcOp struct {
	acc int64
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

func newRC(v *view) *rcHeuristic {
	t := v.t
	nT := v.nA + len(t.Compounds)
	r := &rcHeuristic{v: v, nF: v.nFacts}
	nodes := r.nF + nT
	r.users = make([][]int32, nodes)
	add := func(pre, eff []int32, base int32) {
		op := int32(len(r.opPre))
		r.opPre = append(r.opPre, pre)
		r.opEff = append(r.opEff, eff)
		r.opBase = append(r.opBase, base)
		if len(pre) == 0 {
			r.free = append(r.free, op)
		}
		for _, n := range pre {
			r.users[n] = append(r.users[n], op)
		}
	}
	for a := 0; a < v.nA; a++ {
		act := &t.Actions[a]
		pre := make([]int32, 0, len(act.Pre))
		for _, f := range act.Pre {
			pre = append(pre, int32(f))
		}
		eff := make([]int32, 0, len(act.Add)+1)
		for _, f := range act.Add {
			eff = append(eff, int32(f))
		}
		add(pre, append(eff, int32(r.nF+a)), 1)
	}
	for i := range v.meths {
		sm := &v.meths[i]
		pre := make([]int32, 0, len(sm.Pre)+len(sm.Subtasks))
		for _, f := range sm.Pre {
			pre = append(pre, int32(f))
		}
		for _, s := range sm.Subtasks {
			pre = append(pre, int32(r.nF+int(s)))
		}
		add(pre, []int32{int32(r.nF + int(sm.Task))}, 0)
	}
	r.cost = make([]int32, nodes)
	r.ops = make([]rcOp, len(r.opPre))
	r.target = make([]bool, nodes)
	return r
}

// eval returns the relaxed cost of the network's tasks and checks and of
// the goal from state, or rcInf when one of them cannot be reached.
func (r *rcHeuristic) eval(state sets.Bits, net *bnet) int32 {
	for i := range r.cost {
		r.cost[i] = rcInf
		r.target[i] = false
	}
	for op, pre := range r.opPre {
		r.ops[op] = rcOp{cnt: int32(len(pre))}
	}
	// the nodes whose cost is wanted
	left := 0
	mark := func(n int32) {
		if !r.target[n] {
			r.target[n] = true
			left++
		}
	}
	for _, e := range net.ents {
		if e.kind == nodeTask {
			mark(int32(r.nF) + e.id)
		} else {
			for _, f := range r.v.meths[e.id].Pre {
				mark(int32(f))
			}
		}
	}
	for _, f := range r.v.t.Goal {
		mark(int32(f))
	}
	r.pq.Reset()
	for w, word := range state {
		for word != 0 {
			b := word & -word
			f := w*64 + bits.TrailingZeros64(b)
			word &^= b
			r.cost[f] = 0
			r.pq.Push(heap.Item{Node: int32(f)})
		}
	}
	for _, op := range r.free {
		r.fire(op, int64(r.opBase[op]))
	}
	for left > 0 && r.pq.Len() > 0 {
		it := r.pq.Pop()
		if it.Cost != r.cost[it.Node] {
			continue
		}
		if r.target[it.Node] {
			r.target[it.Node] = false
			left--
		}
		for _, op := range r.users[it.Node] {
			o := &r.ops[op]
			o.acc += int64(it.Cost)
			if o.cnt--; o.cnt == 0 {
				r.fire(op, int64(r.opBase[op])+o.acc)
			}
		}
	}
	if left > 0 {
		return rcInf
	}
	var h int64
	for _, e := range net.ents {
		if e.kind == nodeTask {
			h += int64(r.cost[int32(r.nF)+e.id])
		} else {
			for _, f := range r.v.meths[e.id].Pre {
				h += int64(r.cost[f])
			}
		}
	}
	for _, f := range r.v.t.Goal {
		h += int64(r.cost[f])
	}
	return int32(min(h, rcInf-1))
}

func (r *rcHeuristic) fire(op int32, c int64) {
	c = min(c, rcInf-1)
	for _, n := range r.opEff[op] {
		if int32(c) < r.cost[n] {
			r.cost[n] = int32(c)
			r.pq.Push(heap.Item{Node: n, Cost: int32(c)})
		}
	}
}
