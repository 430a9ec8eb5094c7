package htn

import "slices"

// Targets: what a recursive task is for.
//
// A task of a cycle of the task graph that one of its methods ends at once
// (a method without subtasks) is done when that method's preconditions
// hold: they are its targets (IPC Logistics-Learned: (ACHIEVE-AT0 p l)
// ends when (AT p l) holds, and recurs by loading p into any vehicle or
// unloading it anywhere). Depth-first search tries first the methods whose
// subtasks outside the cycle may add a target (unloading p at l), and so
// does a task waiting right before such a task, for the choices it makes
// on its behalf (the variables a ground method leaves to a choice task,
// shared by every task of the cycle: Factories' (goto l) moves by a choice
// of any road). Without targets, the domain's order sends the parcel or
// the truck wherever it lists first, round and round, until it happens to
// arrive: a plan of 34,476 actions for Logistics-Learned 40-1.
//
// The reach of a task is kept as a mask over the facts that are targets,
// per component of the task graph (bottom-up: a component's tasks reach
// what their actions and the components below add).

// targetWork bounds the words the targets' reach masks take and the
// words the pass that fills them ORs: a task whose targets would cost
// more goes without.
const targetWork = 1 << 26

// targetIndex fills the view's targets and their reach masks.
func (v *view) targetIndex() {
	if v.comp == nil {
		return
	}
	t := v.t
	v.tIdx = make([]int32, v.nFacts)
	for f := range v.tIdx {
		v.tIdx[f] = -1
	}
	n := 0
	targets := make([][]int32, len(v.taskMeths))
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
				if v.tIdx[f] < 0 {
					v.tIdx[f] = int32(n)
					n++
				}
				if i := v.tIdx[f]; !slices.Contains(targets[c], i) {
					targets[c] = append(targets[c], i)
					some = true
				}
			}
		}
	}
	if !some {
		v.tIdx = nil
		return
	}
	w := (n + 63) / 64
	entries := 0
	for m := range v.meths {
		entries += len(v.meths[m].Subtasks)
	}
	if v.nComp*w > targetWork || entries*w > targetWork {
		v.tIdx = nil
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
							if i := v.tIdx[f]; i >= 0 {
								mk[i>>6] |= 1 << (i & 63)
							}
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
	v.targets = targets
}

// tells reports whether a subtask of method m outside component comp may
// add one of the targets fs (indexes of view.tIdx).
func (v *view) tells(m int32, fs []int32, comp int32) bool {
	for _, st := range v.meths[m].Subtasks {
		if int(st) < v.nA {
			for _, f := range v.t.Actions[st].Add {
				if i := v.tIdx[f]; i >= 0 && slices.Contains(fs, i) {
					return true
				}
			}
			continue
		}
		sc := v.comp[int(st)-v.nA]
		if sc == comp {
			continue
		}
		mk := v.tMask[int(sc)*v.tW : int(sc+1)*v.tW]
		for _, i := range fs {
			if mk[i>>6]&(1<<(i&63)) != 0 {
				return true
			}
		}
	}
	return false
}

// targetsOf returns the targets that order the methods of network node n:
// its task's own, or else those of a task right after it, with the
// component they belong to.
func (s *dfs) targetsOf(n int32) ([]int32, int32) {
	v := s.v
	if c := int(s.nodes[n].id) - v.nA; v.targets[c] != nil {
		return v.targets[c], v.comp[c]
	}
	for _, y := range s.nodes[n].succ {
		nd := &s.nodes[y]
		if nd.kind == nodeTask && int(nd.id) >= v.nA {
			if c := int(nd.id) - v.nA; v.targets[c] != nil {
				return v.targets[c], v.comp[c]
			}
		}
	}
	return nil, 0
}

// targetOrder returns the methods ms (from the one at off on, round) with
// those that end the task at once or may add one of the targets fs first,
// ties in the order given; in a slice the caller hands back to s.orders
// when done. It returns nil when no method tells, or all do.
func (s *dfs) targetOrder(ms []int32, off int, fs []int32, comp int32) []int32 {
	keys := s.keys[:0]
	told := 0
	for i := range ms {
		m := ms[(i+off)%len(ms)]
		var k int64 = 1
		if len(s.v.meths[m].Subtasks) == 0 || s.v.tells(m, fs, comp) {
			k = 0
			told++
		}
		keys = append(keys, k<<32|int64(i))
	}
	s.keys = keys
	if told == 0 || told == len(ms) {
		return nil
	}
	return s.sorted(ms, off, keys)
}
