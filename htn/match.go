package htn

import (
	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
)

// matcher filters the choice groups by matching. In a group every value
// is taken by exactly one task and every task takes one value, so the
// undecided tasks of a group must still be able to take its free values
// one to one: a perfect matching in the bipartite graph whose edges are
// their live, untaken methods. With none the node is a dead end; a method
// whose task and value lie in no perfect matching can be part of no plan
// below the node and is killed (Régin's filtering for all-different:
// generalised arc consistency, where the counters of groupState see only
// values left to one task or to none). A kill may leave a task one method
// (decided by MRV next) and frees other groups' counters, so the groups
// touched are filtered again until nothing changes.
//
// The matchings are kept from node to node as the start of the next
// search, which then augments only the tasks whose value was lost.
type matcher struct {
	groups []matchGroup
	// pairGroup maps a pair of groupState to its group
	pairGroup []int32
	queue     sets.Index[int32] // groups to filter
	current   int32             // the group being filtered (its own kills do not queue it)

	// scratch, sized for the largest group
	tasks  []int32 // local task indices of the undecided tasks
	adjOff []int32 // per compact task: its edges in adj
	adj    []int32 // values (local indices)
	visit  []int32 // per value: stamp of the augmenting search
	stamp  int32
	// Tarjan's strongly connected components over compact tasks
	index, low, comp []int32
	stack            []int32
	onStack          []bool
	counter, ncomp   int32
	killList         []int32
}

// matchGroup is one choice group as the matcher sees it.
type matchGroup struct {
	tasks  []ground.TaskID
	base   int32         // its first pair in groupState
	edges  [][]matchEdge // per task: the values its methods bind
	matchT []int32       // per task: its value in the last matching, or -1
	matchV []int32       // per value: its task, or -1
}

type matchEdge struct{ value, method int32 }

func newMatcher(gs *groupState, s *dfs, groups []ground.ChoiceGroup) *matcher {
	mt := &matcher{pairGroup: make([]int32, len(gs.pairMeths)), current: -1}
	p := int32(0)
	most := 0
	for _, g := range groups {
		if !s.v.t.InitialTotal && !g.Atomic {
			continue // as newGroupState
		}
		mg := matchGroup{tasks: g.Tasks, base: p, edges: make([][]matchEdge, len(g.Tasks)),
			matchT: make([]int32, len(g.Tasks)), matchV: make([]int32, len(g.Values))}
		local := make(map[ground.TaskID]int32, len(g.Tasks))
		for i, t := range g.Tasks {
			local[t] = int32(i)
			mg.matchT[i] = -1
		}
		for j, ms := range g.ByValue {
			mg.matchV[j] = -1
			for _, m := range ms {
				i, ok := local[s.v.meths[m].Task]
				if !ok {
					continue
				}
				mg.edges[i] = append(mg.edges[i], matchEdge{value: int32(j), method: int32(m)})
			}
			mt.pairGroup[p+int32(j)] = int32(len(mt.groups))
		}
		p += int32(len(g.ByValue))
		most = max(most, len(g.Tasks), len(g.Values))
		mt.groups = append(mt.groups, mg)
	}
	mt.queue.Grow(len(mt.groups))
	for g := range mt.groups {
		mt.touch(int32(g))
	}
	mt.tasks = make([]int32, 0, most)
	mt.adjOff = make([]int32, most+1)
	mt.visit = make([]int32, most)
	mt.index = make([]int32, most)
	mt.low = make([]int32, most)
	mt.comp = make([]int32, most)
	mt.onStack = make([]bool, most)
	return mt
}

// touch queues group g to be filtered.
func (mt *matcher) touch(g int32) {
	if g != mt.current && !mt.queue.Has(g) {
		mt.queue.Add(g)
	}
}

func (mt *matcher) pending() bool { return len(mt.queue.Members) > 0 }
func (mt *matcher) clear()        { mt.queue.Clear() }

// propagate filters the queued groups until none is left, and reports
// false at a dead end (what is left queued then is for the caller to
// clear: see groupState.filter).
func (mt *matcher) propagate(s *dfs) bool {
	gs := s.groups
	for len(mt.queue.Members) > 0 {
		if s.deadEnd > 0 || gs.zero > 0 {
			return false
		}
		if !mt.filter(s, mt.queue.Pop()) {
			return false
		}
	}
	return s.deadEnd == 0 && gs.zero == 0
}

// live reports whether edge e can still be part of a plan.
func live(s *dfs, e matchEdge) bool {
	return !s.methDead[e.method] && s.groups.takenBy[e.method] == 0
}

// filter matches group g and kills the methods no perfect matching uses.
func (mt *matcher) filter(s *dfs, g int32) bool {
	gs := s.groups
	mg := &mt.groups[g]
	// the undecided tasks, their live edges and the free values
	mt.tasks = mt.tasks[:0]
	mt.adj = mt.adj[:0]
	for i, t := range mg.tasks {
		if gs.decided[t] {
			continue
		}
		mt.adjOff[len(mt.tasks)] = int32(len(mt.adj))
		mt.tasks = append(mt.tasks, int32(i))
		for _, e := range mg.edges[i] {
			if live(s, e) {
				mt.adj = append(mt.adj, e.value)
			}
		}
	}
	n := len(mt.tasks)
	mt.adjOff[n] = int32(len(mt.adj))
	free := 0
	for j := range mg.matchV {
		mg.matchV[j] = -1
		if gs.used[mg.base+int32(j)] == 0 {
			free++
		}
	}
	if free != n {
		return true // a value taken twice: the counters see the dead end
	}
	// keep what is left of the last matching, then augment
	for k, i := range mt.tasks {
		j := mg.matchT[i]
		mg.matchT[i] = -1
		if j < 0 || mg.matchV[j] >= 0 {
			continue
		}
		for _, v := range mt.adj[mt.adjOff[k]:mt.adjOff[k+1]] {
			if v == j {
				mg.matchT[i], mg.matchV[j] = j, int32(k)
				break
			}
		}
	}
	for k, i := range mt.tasks {
		if mg.matchT[i] >= 0 {
			continue
		}
		mt.stamp++
		if !mt.augment(mg, int32(k)) {
			// no value left for this task (Hall's condition fails)
			if s.weight != nil {
				s.weight[int(mg.tasks[i])-s.v.nA]++
			}
			return false
		}
	}
	// an edge outside the matching lies in some perfect matching iff it
	// closes an alternating cycle: task k and the task matched to its
	// value are in one strongly connected component of the graph k ->
	// matchV[v] over k's other values v
	mt.counter, mt.ncomp = 0, 0
	for k := range n {
		mt.index[k] = -1
	}
	for k := range n {
		if mt.index[k] < 0 {
			mt.strong(mg, int32(k))
		}
	}
	if mt.ncomp == 1 {
		return true
	}
	mt.killList = mt.killList[:0]
	for k, i := range mt.tasks {
		for _, e := range mg.edges[i] {
			if e.value != mg.matchT[i] && live(s, e) && mt.comp[k] != mt.comp[mg.matchV[e.value]] {
				mt.killList = append(mt.killList, e.method)
			}
		}
	}
	mt.current = g
	for _, m := range mt.killList {
		s.killMethod(m)
	}
	mt.current = -1
	s.stats.Matched += int64(len(mt.killList))
	return true
}

// augment looks for an alternating path from compact task k to a free
// value (Kuhn's algorithm) and flips it.
func (mt *matcher) augment(mg *matchGroup, k int32) bool {
	for _, v := range mt.adj[mt.adjOff[k]:mt.adjOff[k+1]] {
		if mt.visit[v] == mt.stamp {
			continue
		}
		mt.visit[v] = mt.stamp
		if o := mg.matchV[v]; o < 0 || mt.augment(mg, o) {
			mg.matchT[mt.tasks[k]], mg.matchV[v] = v, k
			return true
		}
	}
	return false
}

// strong is Tarjan's algorithm from compact task k.
func (mt *matcher) strong(mg *matchGroup, k int32) {
	mt.index[k], mt.low[k] = mt.counter, mt.counter
	mt.counter++
	mt.stack = append(mt.stack, k)
	mt.onStack[k] = true
	own := mg.matchT[mt.tasks[k]]
	for _, v := range mt.adj[mt.adjOff[k]:mt.adjOff[k+1]] {
		if v == own {
			continue
		}
		o := mg.matchV[v]
		if mt.index[o] < 0 {
			mt.strong(mg, o)
			mt.low[k] = min(mt.low[k], mt.low[o])
		} else if mt.onStack[o] {
			mt.low[k] = min(mt.low[k], mt.index[o])
		}
	}
	if mt.low[k] == mt.index[k] {
		for {
			o := mt.stack[len(mt.stack)-1]
			mt.stack = mt.stack[:len(mt.stack)-1]
			mt.onStack[o] = false
			mt.comp[o] = mt.ncomp
			if o == k {
				break
			}
		}
		mt.ncomp++
	}
}
