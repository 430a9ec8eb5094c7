package htn

import (
	"math/bits"
	"slices"

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
	// slots lists, per search method, the edges it makes: its group, task
	// and value (see edges)
	slots [][]edgeSlot
}

// edgeSlot is an edge of a matchGroup: task i takes value j.
type edgeSlot struct{ group, i, j int32 }

// matchGroup is one choice group as the matcher sees it.
type matchGroup struct {
	tasks []ground.TaskID
	base  int32         // its first pair in groupState
	edges [][]matchEdge // per task: the values its methods bind, in order
	// the live edges, kept as the search goes (setLive): per task i and
	// value j, nLive[i*nv+j] counts the live methods of i that take j,
	// and bit j of words [i*w, (i+1)*w) of liveBits is set when there is
	// one (a method is live when not dead and not taken); nil for a
	// sparse group (see dense), whose edges are asked one by one
	nv, w    int32
	nLive    []int32
	liveBits []uint64
	matchT   []int32 // per task: its value in the last matching, or -1
	matchV   []int32 // per value: its task, or -1
}

type matchEdge struct{ value, method int32 }

func newMatcher(gs *groupState, s *dfs, groups []ground.ChoiceGroup) *matcher {
	mt := &matcher{pairGroup: make([]int32, len(gs.pairMeths)), current: -1}
	p := int32(0)
	most := 0
	// a first pass counts each task's edges and each method's slots, so
	// that both are cut from one array each rather than grown (the
	// set-up of a 9x9 Sudoku's search made 800 small slices here)
	type prep struct {
		local map[ground.TaskID]int32
		edges []matchEdge
		count []int32
		dense bool
	}
	preps := make([]prep, len(groups))
	var slotCount []int32
	nSlots := 0
	for k, g := range groups {
		if !s.v.t.InitialTotal && !g.Atomic {
			continue
		}
		pr := prep{local: make(map[ground.TaskID]int32, len(g.Tasks)), count: make([]int32, len(g.Tasks)), dense: dense(g)}
		for i, t := range g.Tasks {
			pr.local[t] = int32(i)
		}
		n := 0
		for _, ms := range g.ByValue {
			for _, m := range ms {
				if i, ok := pr.local[s.v.meths[m].Task]; ok {
					pr.count[i]++
					n++
					if pr.dense {
						if slotCount == nil {
							slotCount = make([]int32, len(s.v.meths))
						}
						slotCount[m]++
						nSlots++
					}
				}
			}
		}
		pr.edges = make([]matchEdge, n)
		preps[k] = pr
	}
	var slotArr []edgeSlot
	if nSlots > 0 {
		mt.slots = make([][]edgeSlot, len(s.v.meths))
		slotArr = make([]edgeSlot, nSlots)
		off := 0
		for m := range mt.slots {
			if c := int(slotCount[m]); c > 0 {
				mt.slots[m] = slotArr[off : off : off+c]
				off += c
			}
		}
	}
	for k, g := range groups {
		if !s.v.t.InitialTotal && !g.Atomic {
			continue // as newGroupState
		}
		nv, w := int32(len(g.Values)), int32((len(g.Values)+63)/64)
		mg := matchGroup{tasks: g.Tasks, base: p, edges: make([][]matchEdge, len(g.Tasks)),
			matchT: make([]int32, len(g.Tasks)), matchV: make([]int32, len(g.Values)), nv: nv, w: w}
		pr := preps[k]
		if pr.dense {
			mg.nLive, mg.liveBits = make([]int32, int(nv)*len(g.Tasks)), make([]uint64, int(w)*len(g.Tasks))
		}
		local := pr.local
		off := int32(0)
		for i := range g.Tasks {
			mg.matchT[i] = -1
			mg.edges[i] = pr.edges[off:off:(off + pr.count[i])]
			off += pr.count[i]
		}
		for j, ms := range g.ByValue {
			mg.matchV[j] = -1
			for _, m := range ms {
				i, ok := local[s.v.meths[m].Task]
				if !ok {
					continue
				}
				e := matchEdge{value: int32(j), method: int32(m)}
				mg.edges[i] = append(mg.edges[i], e)
				if mg.nLive == nil {
					continue
				}
				mt.slots[m] = append(mt.slots[m], edgeSlot{int32(len(mt.groups)), i, int32(j)})
				if live(s, e) {
					mg.setLive(i, int32(j), 1)
				}
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

// dense reports whether group g has methods for at least an eighth of
// its pairs of task and value (or is small): only then
// are its live edges kept per pair (matchGroup.nLive), whose size is that
// of the grid of pairs (a group of a thousand tasks with a few methods
// each would need a million counters for some thousands of edges).
func dense(g ground.ChoiceGroup) bool {
	edges := 0
	for _, ms := range g.ByValue {
		edges += len(ms)
	}
	return keepDense && int64(len(g.Tasks))*int64(len(g.Values)) <= 8*int64(edges)+4096
}

// keepDense is false in a test that runs the sparse form everywhere.
var keepDense = true

// setLive adds d (1 or -1) to the live methods of task i taking value j.
func (mg *matchGroup) setLive(i, j, d int32) {
	k := i*mg.nv + j
	mg.nLive[k] += d
	if n := mg.nLive[k]; n == 0 || n == 1 && d > 0 {
		mg.liveBits[i*mg.w+j>>6] ^= 1 << (j & 63)
	}
}

// edges follows method m, which became live (d=1) or not (d=-1), into
// the edges it makes.
func (mt *matcher) edges(m int32, d int32) {
	if mt.slots == nil {
		return
	}
	for _, sl := range mt.slots[m] {
		mt.groups[sl.group].setLive(sl.i, sl.j, d)
	}
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
		if mg.nLive == nil {
			for _, e := range mg.edges[i] {
				if live(s, e) {
					mt.adj = append(mt.adj, e.value)
				}
			}
			continue
		}
		for k, word := range mg.liveBits[int32(i)*mg.w : int32(i+1)*mg.w] {
			for ; word != 0; word &= word - 1 {
				mt.adj = append(mt.adj, int32(k<<6+bits.TrailingZeros64(word)))
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
		own, c := mg.matchT[i], mt.comp[k]
		for _, v := range mt.adj[mt.adjOff[k]:mt.adjOff[k+1]] {
			if v == own || c == mt.comp[mg.matchV[v]] {
				continue
			}
			// the task's live methods that take v
			es := mg.edges[i]
			x, _ := slices.BinarySearchFunc(es, v, func(e matchEdge, v int32) int { return int(e.value - v) })
			for ; x < len(es) && es[x].value == v; x++ {
				if live(s, es[x]) {
					mt.killList = append(mt.killList, es[x].method)
				}
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
