package htn

import (
	"slices"

	"github.com/htnsat/htnsat/ground"
)

// Protection: a fact a later step of the network needs.
//
// In a totally ordered network every step left has its place: an action
// (or a method's precondition check) waiting further on needs its
// preconditions where it stands, and only the tasks before it can still
// make them true. So when a step deletes a fact that a waiting action or
// check needs, and no task between the two can add it again (no action
// among those before, and no live method of a compound task before it
// leads to an action that adds it), the node is a dead end now, not where
// the search would meet the waiting step after everything in between
// (a causal link, as a partial-order planner protects them, read off
// the network). IPC Factories: a resource brought to a site to be fused
// there is taken away by the next delivery, which picks up the nearest
// copy; the fuse fails only once the other resource has been made and
// brought, hundreds of steps later, and the search had to undo them all
// first.
//
// Over a growing task (htn.SolveGrow), whose compound tasks may not
// have all their methods made yet, what a compound task in between may
// add is what the lifted domain's effects carried up through the
// methods may add (ground.Grow.MayAdd), an over-approximation that keeps
// every kill sound.
//
// The reach (reach.go) sees what the network as a whole can still add,
// per component of the task graph; this check sees the order, and what
// each task before the waiting step reaches through the methods still
// live. Its walk over the task graph is bounded (protectBudget): past the
// bound the fact counts as addable, which keeps every kill sound.

// protectBudget bounds the tasks and methods one check visits.
const protectBudget = 1 << 13

// protect holds the check's scratch space.
type protect struct {
	// need[f] counts the alive action and check nodes that need f
	need []int32
	// rem is the walk's count of pending predecessors per node, valid
	// where remAt equals gen
	rem   []int32
	remAt []uint32
	// seen marks the tasks the walk over the task graph visited (equal
	// to gen)
	seen []uint32
	gen  uint32
	// stack holds the compound tasks the task graph walk is to visit
	stack []int32
	// tries, kills and work count the checks made, the dead ends found
	// and the steps walked in the present window (protectPays), which
	// began at search node from
	tries, kills, work, from int64
}

// The check is looked at in windows of protectPays checks or protectWork
// steps of its walks, whichever ends first: it stops after a window in
// which it found no dead end and walked more than protectRatio steps per
// search node. A dead end it finds can save hundreds of thousands of
// nodes (IPC Factories pfile10: 748 in 98,689 checks, 333,574 nodes in
// all, against no plan in 3 million without), and a long plan found
// without a wrong turn checks much and finds nothing for long stretches
// (Factories pfile17), so only the cost stops it.
const (
	protectPays  = 1 << 14
	protectWork  = 1 << 22
	protectRatio = 32
)

func newProtect(v *view) *protect {
	return &protect{need: make([]int32, v.nFacts), seen: make([]uint32, v.t.NumTasks())}
}

// pre is what network node nd needs where it stands: its action's
// preconditions or its method's, nil for a compound task.
func (s *dfs) pre(nd *netNode) []ground.FactID {
	if nd.kind == nodeCheck {
		return s.v.meths[nd.id].Pre
	}
	if int(nd.id) < s.v.nA {
		return s.v.t.Actions[nd.id].Pre
	}
	return nil
}

// needs adds d to the counts of the facts node n needs.
func (s *dfs) needs(n int32, d int32) {
	if s.prot == nil {
		return
	}
	for _, f := range s.pre(&s.nodes[n]) {
		s.prot.need[f] += d
	}
}

// threatened tells whether the last step of the path breaks a fact a
// later step needs: an action it applied deleted a fact needed further
// on, or an action its decomposition put into the network will, with
// nothing in between that can add it again.
func (s *dfs) threatened() bool {
	p := s.prot
	st := &s.path[len(s.path)-1]
	dead := false
	if st.method < 0 {
		for _, f := range st.changed {
			if !s.has(f) && p.need[f] > 0 && !s.addable(f, -1) {
				dead = true
				break
			}
		}
	} else {
	scan:
		for n := st.first; n < st.first+st.count; n++ {
			nd := &s.nodes[n]
			if nd.kind != nodeTask || int(nd.id) >= s.v.nA {
				continue
			}
			a := &s.v.t.Actions[nd.id]
			for _, f := range a.Del {
				if p.need[f] > 0 && !slices.Contains(a.Add, f) && !s.addable(f, n) {
					dead = true
					break scan
				}
			}
		}
	}
	if p.tries >= protectPays || p.work >= protectWork {
		if p.kills == 0 && p.work > protectRatio*(s.stats.Nodes-p.from) {
			s.prot = nil
		}
		p.tries, p.kills, p.work, p.from = 0, 0, 0, s.stats.Nodes
	}
	return dead
}

// addable tells whether the steps between node a (which deletes f; -1:
// the front, after a step deleted it) and the first alive node after it
// that needs f can add f, or whether the walks could not tell. The
// network walk pushes the compound tasks it passes; the task graph walk
// below them runs once the node that needs f is found (there is none:
// nothing is threatened).
func (s *dfs) addable(f ground.FactID, a int32) bool {
	p := s.prot
	if len(s.front.Members) != 1 {
		return true
	}
	p.tries++
	p.gen++
	if p.gen == 0 {
		clear(p.seen)
		clear(p.remAt)
		p.gen = 1
	}
	if len(p.rem) < len(s.nodes) {
		p.rem = make([]int32, len(s.nodes)+len(s.nodes)/2)
		p.remAt = make([]uint32, len(p.rem))
	}
	p.stack = p.stack[:0]
	// adds reports whether task id is a live action that adds f, and
	// queues it for the task graph walk if it is a compound task not met;
	// over a growing task, whose methods may not all be made yet, the
	// lifted domain tells what a compound task may add
	adds := func(id ground.TaskID) bool {
		if p.seen[id] == p.gen {
			return false
		}
		p.seen[id] = p.gen
		if int(id) < s.v.nA {
			return !s.actDead[id] && slices.Contains(s.v.t.Actions[id].Add, f)
		}
		if s.v.grow != nil {
			return s.v.grow.MayAdd(id, f)
		}
		p.stack = append(p.stack, int32(id))
		return false
	}
	passed := a < 0
	x := s.front.Members[0]
	steps := 0
	for ; ; steps++ {
		if steps > protectBudget {
			p.work += int64(steps)
			return true
		}
		nd := &s.nodes[x]
		if x == a {
			passed = true
		} else if passed {
			if slices.Contains(s.pre(nd), f) {
				break
			}
			if nd.kind == nodeTask && adds(ground.TaskID(nd.id)) {
				p.work += int64(steps)
				return true
			}
		}
		next := int32(-1)
		for _, y := range nd.succ {
			if !s.nodes[y].alive {
				continue
			}
			if p.remAt[y] != p.gen {
				p.remAt[y], p.rem[y] = p.gen, s.nodes[y].preds
			}
			if p.rem[y]--; p.rem[y] == 0 {
				if next >= 0 {
					p.work += int64(steps)
					return true // not a chain
				}
				next = y
			}
		}
		if next < 0 {
			p.work += int64(steps)
			return true // nothing after needs f
		}
		x = next
	}
	// what the compound tasks before can add, through their live methods
	work := 0
	defer func() { p.work += int64(steps + work) }()
	for len(p.stack) > 0 {
		id := p.stack[len(p.stack)-1]
		p.stack = p.stack[:len(p.stack)-1]
		for _, m := range s.v.taskMeths[int(id)-s.v.nA] {
			if work++; work > protectBudget {
				return true
			}
			if s.methDead[m] {
				continue
			}
			for _, st := range s.v.meths[m].Subtasks {
				if adds(st) {
					return true
				}
			}
		}
	}
	p.kills++
	return false
}
