package htn

import (
	"slices"

	"github.com/htnsat/htnsat/ground"
)

// Targets: what a recursive task is for, and how far a method takes it.
//
// A task of a cycle of the task graph that one of its methods ends at once
// (a method without subtasks) is done when that method's preconditions
// hold: they are its targets (IPC Logistics-Learned: (ACHIEVE-AT0 p l)
// ends when (AT p l) holds, and recurs by loading p into any vehicle or
// unloading it anywhere). Depth-first search tries the task's methods by
// how close to a target the facts their subtasks outside the cycle may add
// are, and so does a task waiting right before such a task, for the
// choices it makes on its behalf (the variables a ground method leaves to
// a choice task, shared by every task of the cycle: Factories' (goto l)
// moves by a choice of any road). Without targets, the domain's order
// sends the parcel or the truck wherever it lists first, round and round,
// until it happens to arrive: a plan of 34,476 actions for
// Logistics-Learned 40-1.
//
// How close is counted in transitions: an action that needs a fact and
// deletes it moves from that fact to each it adds ((AT p x) to (IN p t) by
// loading, (IN p t) to (AT p y) by unloading, a truck from place to
// place). A fact's distance to the targets is the fewest transitions from
// it to one of them (breadth first, backwards from the targets, at most
// targetReach facts), regardless of what else the actions need: the
// domain transition graphs of Helmert's causal graph heuristic, read off
// the ground actions. A method's distance is the least over the facts its
// subtasks may add; one that adds none comes last.
//
// The reach of a task is kept as a mask over the facts, per component of
// the task graph (bottom-up: a component's tasks reach what their actions
// and the components below add).

// targetWork bounds the words the reach masks take, the words the pass
// that fills them ORs and the transitions kept: a task that would cost
// more goes without targets.
const targetWork = 1 << 26

// targetReach bounds the facts whose distance to a task's targets is
// counted; those further count as unreached.
const targetReach = 1 << 12

// targetIndex fills the view's targets, reach masks and transitions.
func (v *view) targetIndex() {
	if v.comp == nil {
		return
	}
	t := v.t
	targets := make([][]ground.FactID, len(v.taskMeths))
	some := false
	for c, ms := range v.taskMeths {
		rec := false
		for _, m := range ms {
			rec = rec || v.recursing[m]
		}
		if !rec {
			continue
		}
		for _, m := range ms {
			if len(v.meths[m].Subtasks) > 0 {
				continue
			}
			for _, f := range v.meths[m].Pre {
				if !slices.Contains(targets[c], f) {
					targets[c] = append(targets[c], f)
					some = true
				}
			}
		}
	}
	if !some {
		return
	}
	w := (v.nFacts + 63) / 64
	entries, trans := 0, 0
	for m := range v.meths {
		entries += len(v.meths[m].Subtasks)
	}
	for a := range t.Actions {
		trans += len(t.Actions[a].Del) * len(t.Actions[a].Add)
	}
	if v.nComp*w > targetWork || entries*w > targetWork || trans > targetWork {
		return
	}
	v.tW = w
	v.tMask = make([]uint64, v.nComp*w)
	// components in increasing order: every one below is complete
	members := make([][]int32, v.nComp)
	for c := range v.taskMeths {
		members[v.comp[c]] = append(members[v.comp[c]], int32(c))
	}
	for k, cs := range members {
		mk := v.tMask[k*w : (k+1)*w]
		for _, c := range cs {
			for _, m := range v.taskMeths[c] {
				for _, st := range v.meths[m].Subtasks {
					if int(st) < v.nA {
						for _, f := range t.Actions[st].Add {
							mk[f>>6] |= 1 << (f & 63)
						}
					} else if sc := v.comp[int(st)-v.nA]; int(sc) != k {
						for j, x := range v.tMask[int(sc)*w : int(sc+1)*w] {
							mk[j] |= x
						}
					}
				}
			}
		}
	}
	v.back = make([][]ground.FactID, v.nFacts)
	for a := range t.Actions {
		act := &t.Actions[a]
		for _, g := range act.Pre {
			if slices.Contains(act.Del, g) {
				for _, f := range act.Add {
					v.back[f] = append(v.back[f], g)
				}
			}
		}
	}
	v.targets = targets
}

// distFact is a fact at a distance from a task's targets.
type distFact struct {
	f ground.FactID
	d int32
}

// distances returns the facts at most targetReach from the targets fs,
// nearest first.
func (v *view) distances(fs []ground.FactID) []distFact {
	seen := map[ground.FactID]bool{}
	var out []distFact
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			out = append(out, distFact{f, 0})
		}
	}
	for i := 0; i < len(out) && len(out) < targetReach; i++ {
		for _, g := range v.back[out[i].f] {
			if !seen[g] {
				seen[g] = true
				out = append(out, distFact{g, out[i].d + 1})
			}
		}
	}
	return out
}

// unreached is the distance of a method whose subtasks add no fact near
// the targets.
const unreached = 1 << 30

// distance returns how near to the targets whose distances are ds
// (distances) the subtasks of method m outside component comp may take
// the state: -1 for a method without subtasks, which ends the task.
func (v *view) distance(m int32, ds []distFact, comp int32) int32 {
	sts := v.meths[m].Subtasks
	if len(sts) == 0 {
		return -1
	}
	best := int32(unreached)
	for _, st := range sts {
		var mask []uint64
		if int(st) >= v.nA {
			sc := v.comp[int(st)-v.nA]
			if sc == comp {
				continue
			}
			mask = v.tMask[int(sc)*v.tW : int(sc+1)*v.tW]
		}
		for _, x := range ds {
			if x.d >= best {
				break
			}
			if mask != nil && mask[x.f>>6]&(1<<(x.f&63)) != 0 || mask == nil && slices.Contains(v.t.Actions[st].Add, x.f) {
				best = x.d
				break
			}
		}
	}
	return best
}

// targetOf returns the task (TaskID-nA) whose targets order the methods
// of network node n: its own, or else that of a task right after it; -1
// if none.
func (s *dfs) targetOf(n int32) int {
	v := s.v
	if c := int(s.nodes[n].id) - v.nA; v.targets[c] != nil {
		return c
	}
	for _, y := range s.nodes[n].succ {
		nd := &s.nodes[y]
		if nd.kind == nodeTask && int(nd.id) >= v.nA {
			if c := int(nd.id) - v.nA; v.targets[c] != nil {
				return c
			}
		}
	}
	return -1
}

// targetOrder returns the methods of network node n's task nearest the
// targets first (ties in the domain's order), or nil when its targets
// tell none of them apart or it has none. Orders and distances are kept
// per task: they depend on the tasks alone.
func (s *dfs) targetOrder(n int32) (order, rank []int32) {
	o := s.targetOf(n)
	if o < 0 {
		return nil, nil
	}
	c := int(s.nodes[n].id) - s.v.nA
	key := int64(c)<<32 | int64(o)
	if order, ok := s.tOrders[key]; ok {
		return order, s.tRanks[key]
	}
	if s.tOrders == nil {
		s.tOrders = map[int64][]int32{}
		s.tRanks = map[int64][]int32{}
		s.tDist = map[int][]distFact{}
	}
	ds, ok := s.tDist[o]
	if !ok {
		ds = s.v.distances(s.v.targets[o])
		s.tDist[o] = ds
	}
	ms := s.v.taskMeths[c]
	keys := make([]int64, len(ms))
	for i, m := range ms {
		keys[i] = int64(s.v.distance(m, ds, s.v.comp[o]))<<32 | int64(i)
	}
	slices.Sort(keys)
	if keys[0]>>32 != keys[len(keys)-1]>>32 {
		order, rank = make([]int32, len(ms)), make([]int32, len(ms))
		for i, k := range keys {
			order[i] = ms[k&0xffffffff]
			rank[k&0xffffffff] = int32(i)
		}
	}
	s.tOrders[key] = order
	s.tRanks[key] = rank
	return order, rank
}
