package htn

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/progress"
	"github.com/htnsat/htnsat/internal/sets"
	"github.com/htnsat/htnsat/plan"
)

// The depth-first progression search works on one state and one task
// network, changed in place and restored on backtracking.
//
// A network node is a task (primitive or compound) or a precondition check
// standing for a method whose subtasks are still to come: the method's
// precondition must hold where its first subtask runs, so its check node
// precedes all of them.

const (
	nodeTask  uint8 = iota
	nodeCheck       // precondition of method id
)

type netNode struct {
	kind uint8
	id   int32 // TaskID, or search method for a check
	// task is the TaskID the node was made for (-1 for a check): a
	// compound task decomposed ahead turns into its method's check
	task  int32
	preds int32 // predecessors not yet done
	// batch is the index of the first node its decomposition created (0
	// for the initial network): nodes of a later decomposition have a
	// higher batch
	batch int32
	// parent is the node whose decomposition made this one (-1 for the
	// initial network); decAt, once the node is decomposed, is the
	// number of state changes on the path before it (dfs.changes)
	parent int32
	decAt  int32
	// rec, for a compound task of a recursive network, counts its
	// nearest ancestors in its task's component (dfs.recursion)
	rec   int32
	alive bool
	succ  []int32
}

// step is one decision on the current path, for undoing it and for
// writing the plan: a primitive applied, a check passed, or a compound
// decomposed into the nodes [first, first+count).
type step struct {
	node   int32
	method int32 // -1 unless a decomposition
	first  int32
	count  int32
	// ahead marks a decomposition of a task that still waited for
	// predecessors (see decomposeAhead); succ are then its successors
	// before
	ahead bool
	succ  []int32
	// undo data
	changed []ground.FactID // facts that flipped (primitive only)
	trail   int             // length of the liveness trail before the step
	nodes   int             // number of network nodes before the step
}

type dfs struct {
	v        *view
	opt      Options
	ctx      context.Context
	progress *progress.Tracker // the command's, told the nodes searched
	state    sets.Bits
	nodes    []netNode
	path     []step
	stats    *Stats
	// front holds the alive nodes without pending predecessors; alive
	// holds them all (in a path thousands of steps long most nodes are
	// done)
	front sets.Index[int32]
	alive sets.Index[int32]

	// liveness: methods and actions whose preconditions can never hold
	// again, and compound tasks left without a live method
	methDead []bool
	actDead  []bool
	count    []int32 // live methods per compound task
	trail    []int32
	inNet    []int32 // alive network nodes per TaskID
	checkIn  []int32 // alive check nodes per method
	deadEnd  int     // tasks or checks in the network that died
	// goalBy[i] counts the alive task nodes that may reach goal i
	// (view.goalMask)
	goalBy []int32
	// goalByU[i], over a growing task, counts those that may reach it
	// by a way that needs no one-way fact (view.goalMaskU)
	goalByU []int32
	// oneWayHash hashes the one-way facts of the state (view.oneWay),
	// and reachMasks keeps the goals each task may reach by that hash
	// (dfs.reachNow)
	oneWayHash uint64
	reachMasks map[reachNowKey]*reachMask
	lookedHash uint64 // oneWayHash at growGoalLost's last look
	lostLast   bool   // growGoalLost's last look found a goal lost
	// looked[id] == lookStamp marks task id looked at in growGoalLost's
	// present look
	looked    []uint32
	lookStamp uint32
	// served keeps the growing task's answers (dfs.serve)
	served map[servedKey]servedAnswer
	// relaid is the growing task's count of ID moves when the search
	// began (see errRelaid)
	relaid int
	// goalScratch holds two goal masks for goalOrder
	goalScratch []uint64
	// lmHit[i] counts the steps of the path that made landmark i true
	// (view.landmarks)
	lmHit []int32

	visited *seenSet
	// zobrist is the hash of the state and netHash that of the network
	// (nodeHash): the sum of nodeHashes[n] over the nodes n hashed, those
	// alive but the pending ones. content (a recursive network) hashes
	// a node by what it is rather than where (hashContent); merk is then
	// each hashed node's hash with those of its successors
	zobrist    [2]uint64
	netHash    [2]uint64
	nodeHashes [][2]uint64
	hashed     []bool
	pending    []int32
	content    bool
	merk       [][2]uint64
	groups     *groupState // nil when unused

	// restarts: the search gives up with errRestart after limit nodes
	// (0: never); rng, when set, breaks ties at random
	limit int64
	rng   *rand.Rand
	// shuffle, set on every second restart, also starts each task's
	// methods at a random one; the runs in between keep the domain's
	// order of methods, which often carries its author's knowledge
	shuffle bool
	// reverse, on every second restart of the search over a growing
	// task, asks for each task's methods in the reverse of the domain's
	// order (tryServed)
	reverse bool
	// resume, over a growing task, carries the schedule of restarts and
	// caps across the searches growDFS starts over when the IDs move
	resume *growResume
	// weight counts, per compound task, the dead ends it took part in:
	// it lost its last method while in the network, or it could take a
	// value of a choice group that no task can take any more. MRV picks
	// the task with the fewest live methods per weight (dom/wdeg in CSP
	// terms). The weights are kept across restarts.
	weight []int64
	// orders are free slices for valueOrder, keys its scratch; saved is
	// the method each choice task (TaskID-nA) took last, or -1, kept
	// across restarts (phase saving, in SAT terms)
	orders [][]int32
	keys   []int64
	saved  []int32
	// tOrders and tDist keep the target order (target.go) per task and
	// the task whose targets order it (tRanks each method's place in it,
	// by its place in the task's list), and the distances per such task
	tOrders map[int64][]int32
	tRanks  map[int64][]int32
	tDist   map[int][]distFact
	// gDist keeps, over a growing task, the distance of a method to
	// the targets of a task (nearestFirst)
	gDist map[growDistKey]int32
	// ahead lets the search decompose a compound task before its
	// predecessors are done (decomposeAhead) when it is more constrained
	// than those it could decompose now
	ahead bool
	// serial carries each decomposition of a partially ordered network
	// through before anything outside it (see Options.Serial)
	serial bool
	// pause hands the turn on in the portfolio (nil outside it)
	pause *pauser
	// depthCap bounds the path of a recursive network's search, whose
	// networks can grow without end; cut records that a node was cut
	// there, so that an exhausted search is run again deeper instead of
	// reporting that there is no plan (iterative deepening)
	depthCap int
	cut      bool
	// netCap, over a growing task (0: none), bounds the network's alive
	// nodes in the same way: without the analyses of the whole task,
	// its recursive methods could lead the search astray in ever longer
	// networks, each a new node
	netCap int
	// deepenAt, once a path was cut at the depth cap, is the node count
	// at which the run stops to go on with a doubled cap (errDeepen)
	// rather than search every path under the cap to the end: a plan
	// longer than the cap would otherwise wait for a search that grows
	// exponentially with the cap (IPC Blocksworld-GTOHP p28, whose plan
	// takes 11,000 steps, thrashed under the first cap of 8,192). The
	// budget is deepenBudget times the nodes the run took to its first
	// cut, counted from runStart; at maxDepthCap there is none.
	deepenAt, runStart int64
	// repCap bounds, in a recursive network, how often a task may recur
	// in its own decomposition without a state change in between
	// (dfs.repeats); a node cut there also sets cut, so the bound is
	// deepened like the depth cap. changes counts the steps of the path
	// that changed the state.
	repCap  int
	changes int32
	// recCap (Options.RecursionBound, else 0) bounds how deep a task
	// of a recursive network may recur at all (dfs.recursion): at the
	// bound only its methods that do not recur (view.recursing) are
	// tried, so a recursion that can end does. A cut there sets cut, and
	// the bound is deepened with the others.
	recCap int
	hooks  dfsHooks
	// g is the cost of the actions applied on the path, and bnb, when
	// set, bounds the search by it (OptimizeGrow)
	g   int64
	bnb *branchBound
	// reach tracks the facts the network can still add (reach.go); nil
	// with Options.NoReach or NoDeadEnds.
	// undoing is set while a step is undone.
	reach   *reach
	undoing bool
	// prot checks the facts later steps need (protect.go); nil with
	// Options.NoProtect, in a partially ordered network, or once it
	// stopped paying
	prot *protect
	// again is set when search looks at the same node again (after the
	// choice groups' filter killed methods): it is no duplicate of itself
	again bool
	// failed: visited records the nodes searched to the end without a
	// plan (in an acyclic network), not every node met (in a recursive
	// one, whose cuts make a node's failure provisional)
	failed bool
	// dupKeyed counts the nodes search keyed, dupSaved the nodes
	// below those it found failed before (their subtrees' sizes then)
	dupKeyed, dupSaved int64
	// lastConflict is the node (and lastTask its task) at which every
	// method failed last, or -1: the next branching decomposes it first
	// if it can (last-conflict reasoning, Lecoutre et al. 2009)
	lastConflict, lastTask int32
}

// dfsHooks, set by tests, see every search node, every undone step, the
// search after each restart and the methods of each branching on a value
// (branchValue), to check invariants.
type dfsHooks struct {
	check       func(*dfs)
	undo        func(*dfs, step)
	restart     func(*dfs)
	branchValue func(s *dfs, p int32, order []int32)
}

// maxSeen bounds the nodes the depth-first search of an acyclic
// network records as visited (about 40 bytes each).
const maxSeen = 1 << 22

// errRestart ends a depth-first run that used up its node budget.
var errRestart = errors.New("restart")

// errDeepen ends a depth-first run of a recursive network that spent its
// budget below the depth cap (see dfs.deepenAt).
var errDeepen = errors.New("deepen")

func (s *dfs) has(f ground.FactID) bool { return s.state.Has(int(f)) }

func (s *dfs) flip(f ground.FactID) {
	s.state.Flip(int(f))
	if s.failed || s.content {
		h := hashFact(f)
		s.zobrist[0] ^= h[0]
		s.zobrist[1] ^= h[1]
	}
	if s.v.oneWay != nil && s.v.oneWay[f] {
		s.oneWayHash ^= hashFact(f)[0]
	}
}

func (s *dfs) toFront(n int32) { s.front.Add(n) }

func (s *dfs) fromFront(n int32) { s.front.Remove(n) }

// incPreds and decPreds change a node's count of pending predecessors,
// keeping the frontier up to date.
func (s *dfs) incPreds(x int32) {
	nd := &s.nodes[x]
	if nd.preds == 0 && nd.alive {
		s.fromFront(x)
	}
	nd.preds++
	if s.content {
		s.reterm(x)
	}
}

func (s *dfs) decPreds(x int32) {
	nd := &s.nodes[x]
	nd.preds--
	if nd.preds == 0 && nd.alive {
		s.toFront(x)
	}
	if s.content {
		s.reterm(x)
	}
}

func (s *dfs) holds(pre, neg []ground.FactID) bool {
	for _, f := range pre {
		if !s.has(f) {
			return false
		}
	}
	for _, f := range neg {
		if s.has(f) {
			return false
		}
	}
	return true
}

// newDFS prepares a depth-first search; groups are the task's choice
// groups (nil when they are not used).
func newDFS(ctx context.Context, v *view, opt Options, stats *Stats, groups []ground.ChoiceGroup) *dfs {
	t := v.t
	s := &dfs{v: v, opt: opt, ctx: ctx, stats: stats, lastConflict: -1, progress: progress.From(ctx)}
	if !v.recursive && !opt.NoDuplicates {
		// an acyclic network: nodes are recorded once searched to the
		// end (dfs.search), for good
		s.visited = newSeenSet()
		s.visited.max = maxSeen
		s.visited.gauge = plan.MemoryGaugeOf(ctx)
		s.failed = true
	}
	// a recursive network's nodes are all recorded (search), by content
	s.content = v.recursive
	s.state = sets.NewBits(v.nFacts)
	for _, f := range t.Init {
		s.flip(f)
	}
	if v.grow != nil {
		s.relaid = v.grow.Relaid
	}
	s.methDead = make([]bool, len(v.meths))
	s.actDead = make([]bool, v.nA)
	s.count = make([]int32, len(t.Compounds))
	for c, ms := range v.taskMeths {
		s.count[c] = int32(len(ms))
		if v.grow != nil {
			s.count[c] = s.growCount(c) // see dfs.serve
		}
	}
	s.inNet = make([]int32, t.NumTasks())
	s.goalBy = make([]int32, len(v.goals))
	if v.goalMaskU != nil {
		s.goalByU = make([]int32, len(v.goals))
	}
	s.goalScratch = make([]uint64, 2*v.goalW)
	s.lmHit = make([]int32, v.lmTo-v.lmFrom)
	s.checkIn = make([]int32, len(v.meths))
	if !opt.NoDeadEnds && !opt.NoReach {
		s.reach = newReach(v)
	}
	if !opt.NoProtect && v.total && (!opt.NoDeadEnds || v.grow != nil) {
		// over a growing task too: what the tasks in between may add
		// is told by the lifted domain (protect.go)
		s.prot = newProtect(v)
	}
	// the initial network
	for _, id := range t.Initial {
		s.addNode(nodeTask, int32(id))
	}
	for _, o := range t.InitialOrder {
		s.nodes[o.Before].succ = append(s.nodes[o.Before].succ, o.After)
		s.incPreds(o.After)
	}
	// what the initial state already rules out
	if !opt.NoDeadEnds {
		for f := 0; f < v.nFacts; f++ {
			fid := ground.FactID(f)
			switch {
			case s.has(fid):
				s.killAll(v.killOnTrue[f])
			case v.neverAdd[f]:
				s.killAll(v.preUsers[f])
			case s.reachLost(fid):
				s.lose(fid)
			}
		}
	}
	s.trail = s.trail[:0] // the initial kills are never undone
	if !opt.NoGroups && !opt.NoDeadEnds && !opt.CompletePO {
		s.groups = newGroupState(s, groups)
		if s.groups != nil {
			s.groups.addFilters(s, groups)
			if !opt.NoValueOrder {
				s.saved = make([]int32, len(t.Compounds))
				for i := range s.saved {
					s.saved[i] = -1
				}
			}
		}
	}
	if v.recursive {
		s.visited = newSeenSet()
		s.visited.gauge = plan.MemoryGaugeOf(ctx)
		s.depthCap = firstDepthCap
		s.repCap = firstRepCap
		if v.grow != nil {
			// the network bound cuts, and the path is bounded only by
			// the stack
			s.netCap = 2*len(t.Initial) + firstNetCap
			s.depthCap = maxDepthCap
		}
		if opt.RecursionBound {
			s.recCap = firstRecCap
		}
	}
	s.serial = opt.Serial && !v.total
	s.ahead = !opt.NoLookahead && !opt.NoMRV && !opt.CompletePO && v.total && !v.recursive && slices.Contains(v.settled, true)
	if !opt.NoMRV && !opt.NoConflicts {
		s.weight = make([]int64, len(t.Compounds))
		if s.groups != nil {
			s.groups.onZero = func(p int32) {
				for _, m := range s.groups.pairMeths[p] {
					s.weight[int(s.v.meths[m].Task)-s.v.nA]++
				}
			}
		}
	}
	return s
}

func (s *dfs) addNode(kind uint8, id int32) int32 {
	n := int32(len(s.nodes))
	task := id
	if kind == nodeCheck {
		task = -1
	}
	s.nodes = append(s.nodes, netNode{kind: kind, id: id, task: task, parent: -1, alive: true})
	s.front.Grow(len(s.nodes))
	s.alive.Grow(len(s.nodes))
	s.alive.Add(n)
	s.toFront(n)
	s.nodeCame(n)
	s.needs(n, 1)
	if kind == nodeTask {
		s.inNet[id]++
		if s.reach != nil {
			s.incRef(id)
		}
		s.countGoals(id, 1)
		if s.taskDead(ground.TaskID(id)) {
			s.deadEnd++
		}
	} else {
		s.checkIn[id]++
		if s.methDead[id] {
			s.deadEnd++
		}
	}
	return n
}

func (s *dfs) removeNode(n int32) {
	nd := &s.nodes[n]
	if nd.preds == 0 {
		s.fromFront(n)
	}
	nd.alive = false
	s.alive.Remove(n)
	s.nodeWent(n)
	s.needs(n, -1)
	if nd.kind == nodeTask {
		s.inNet[nd.id]--
		if s.reach != nil {
			s.decRef(nd.id)
		}
		s.countGoals(nd.id, -1)
		if s.taskDead(ground.TaskID(nd.id)) {
			s.deadEnd--
		}
	} else {
		s.checkIn[nd.id]--
		if s.methDead[nd.id] {
			s.deadEnd--
		}
	}
}

func (s *dfs) restoreNode(n int32) {
	nd := &s.nodes[n]
	nd.alive = true
	s.alive.Add(n)
	s.nodeCame(n)
	s.needs(n, 1)
	if nd.preds == 0 {
		s.toFront(n)
	}
	if nd.kind == nodeTask {
		s.inNet[nd.id]++
		if s.reach != nil {
			s.incRef(nd.id)
		}
		s.countGoals(nd.id, 1)
		if s.taskDead(ground.TaskID(nd.id)) {
			s.deadEnd++
		}
	} else {
		s.checkIn[nd.id]++
		if s.methDead[nd.id] {
			s.deadEnd++
		}
	}
}

// countGoals adds d to the count of every goal task id may reach.
func (s *dfs) countGoals(id int32, d int32) {
	if s.v.goalMask == nil {
		return
	}
	for k, w := range s.v.reachable(id) {
		for ; w != 0; w &= w - 1 {
			s.goalBy[k<<6+bits.TrailingZeros64(w)] += d
		}
	}
	if s.goalByU != nil {
		for k, w := range s.v.reachableU(id) {
			for ; w != 0; w &= w - 1 {
				s.goalByU[k<<6+bits.TrailingZeros64(w)] += d
			}
		}
	}
}

// goalLost reports whether a goal is not met and no task of the network
// can meet it any more: the end state would miss it whatever comes.
func (s *dfs) goalLost() bool {
	// the positive goals: one not met that no task of the network may
	// reach, or that no action in reach adds (a loop run at every node,
	// over up to maxGoals goals, so kept tight)
	pos := s.v.goals[:s.v.goalsPos]
	goalBy := s.goalBy[:len(pos)]
	var addCnt []int32
	if s.reach != nil {
		addCnt = s.reach.addCnt
	}
	for i, g := range pos {
		if (goalBy[i] == 0 || addCnt != nil && addCnt[g] == 0) && !s.has(g) && !s.lmMet(i) {
			return true
		}
	}
	for i, g := range s.v.goals[s.v.goalsPos:] {
		if s.goalBy[s.v.goalsPos+i] == 0 && s.has(g) {
			return true
		}
	}
	return s.v.watch != nil && s.growGoalLost()
}

// lmMet reports whether goal index i is a landmark made true on the path.
// With Options.NoLandmarks every landmark counts as met.
func (s *dfs) lmMet(i int) bool {
	return i >= s.v.lmFrom && i < s.v.lmTo && (s.opt.NoLandmarks || s.lmHit[i-s.v.lmFrom] > 0)
}

// lmCount counts (d = 1) or uncounts the landmarks among facts fs that
// are true.
func (s *dfs) lmCount(fs []ground.FactID, d int32) {
	if s.v.lmOf == nil {
		return
	}
	for _, f := range fs {
		if i := s.v.lmOf[f]; i >= 0 && s.has(f) {
			s.lmHit[i] += d
		}
	}
}

// score is what MRV compares for compound task ci (TaskID-nA): its live
// methods c and weight w, the task with the least c/w going first; a task
// with at most one live method has no choice and always goes first.
func (s *dfs) score(ci int) (c int32, w int64) {
	c, w = s.live(ci), 1
	switch {
	case c <= 1:
		w = 1 << 40
	case s.weight != nil:
		w += s.weight[ci]
	}
	return c, w
}

// conflict weighs compound node n's task for a dead end it caused.
func (s *dfs) conflict(n int32) {
	if s.weight != nil {
		s.weight[int(s.nodes[n].id)-s.v.nA]++
	}
}

// live is the number of methods of compound task ci (TaskID-nA) that can
// still lead to a plan: alive, and binding no value of a choice group
// that another task takes.
func (s *dfs) live(ci int) int32 {
	if s.groups != nil {
		return s.count[ci] - s.groups.liveTaken[ci]
	}
	return s.count[ci]
}

func (s *dfs) taskDead(id ground.TaskID) bool {
	if int(id) < s.v.nA {
		return s.actDead[id]
	}
	return s.count[int(id)-s.v.nA] == 0
}

// ---------------------------------------------------------------- liveness

func (s *dfs) killAll(refs []int32) {
	for _, r := range refs {
		if s.reach != nil && !s.inReach(r) {
			continue
		}
		if r >= 0 {
			s.killMethod(r)
		} else {
			s.killAction(-1 - r)
		}
	}
}

func (s *dfs) killMethod(m int32) {
	if s.methDead[m] {
		return
	}
	s.methDead[m] = true
	s.trail = append(s.trail, m)
	if s.reach != nil {
		s.reachKilled(m)
	}
	if s.groups != nil {
		s.groups.killed(s, m)
	}
	s.deadEnd += int(s.checkIn[m])
	c := int(s.v.meths[m].Task) - s.v.nA
	s.count[c]--
	if s.count[c] == 0 {
		s.taskDied(s.v.meths[m].Task)
	}
}

func (s *dfs) killAction(a int32) {
	if s.actDead[a] {
		return
	}
	s.actDead[a] = true
	s.trail = append(s.trail, -1-a)
	if s.reach != nil {
		s.reachKilled(-1 - a)
	}
	s.taskDied(ground.TaskID(a))
}

func (s *dfs) taskDied(id ground.TaskID) {
	s.deadEnd += int(s.inNet[id])
	if s.weight != nil && s.inNet[id] > 0 && int(id) >= s.v.nA {
		s.weight[int(id)-s.v.nA]++
	}
	for _, u := range s.v.users[id] {
		if s.reach == nil || s.inReach(u) {
			s.killMethod(u)
		}
	}
}

// undoTrail revives what was killed after the trail had length n.
func (s *dfs) undoTrail(n int) {
	for len(s.trail) > n {
		r := s.trail[len(s.trail)-1]
		s.trail = s.trail[:len(s.trail)-1]
		if r >= 0 {
			c := int(s.v.meths[r].Task) - s.v.nA
			if s.count[c] == 0 {
				s.deadEnd -= int(s.inNet[s.v.meths[r].Task])
			}
			s.count[c]++
			s.methDead[r] = false
			s.deadEnd -= int(s.checkIn[r])
			if s.reach != nil {
				s.reachRevived(r)
			}
			if s.groups != nil {
				s.groups.revived(s, r)
			}
		} else {
			a := -1 - r
			s.actDead[a] = false
			s.deadEnd -= int(s.inNet[a])
			if s.reach != nil {
				s.reachRevived(r)
			}
		}
	}
}

// ---------------------------------------------------------------- moves

// apply executes primitive or check node n.
func (s *dfs) apply(n int32) {
	nd := &s.nodes[n]
	st := step{node: n, method: -1, trail: len(s.trail), nodes: len(s.nodes)}
	if nd.kind == nodeTask {
		s.g += s.v.acost[nd.id]
		a := &s.v.t.Actions[nd.id]
		for _, f := range a.Del {
			if s.has(f) {
				s.flip(f)
				st.changed = append(st.changed, f)
			}
		}
		for _, f := range a.Add {
			if !s.has(f) {
				s.flip(f)
				st.changed = append(st.changed, f)
			}
		}
		if !s.opt.NoDeadEnds {
			for _, f := range st.changed {
				if s.has(f) {
					if s.v.neverDel[f] {
						s.killAll(s.v.killOnTrue[f])
					}
				} else if s.v.neverAdd[f] {
					s.killAll(s.v.preUsers[f])
				} else if s.reachLost(f) {
					s.lose(f)
				}
			}
		}
	}
	if len(st.changed) > 0 {
		s.changes++
		s.lmCount(st.changed, 1)
	}
	s.removeNode(n)
	for _, x := range nd.succ {
		s.decPreds(x)
	}
	s.path = append(s.path, st)
}

// decompose replaces compound node n by the subtasks of search method m,
// preceded by a check node if m has a precondition.
func (s *dfs) decompose(n int32, m int32) {
	sm := &s.v.meths[m]
	st := step{node: n, method: m, trail: len(s.trail), nodes: len(s.nodes)}
	if s.groups != nil {
		s.groups.decide(s, m, true)
	}
	succ := s.nodes[n].succ
	s.hold(m, true)
	s.removeNode(n)
	first := int32(len(s.nodes))
	check := int32(-1)
	if len(sm.Pre)+len(sm.NegPre) > 0 {
		check = s.addNode(nodeCheck, m)
		s.nodes[check].batch = first
	}
	base := s.addSubtasks(sm, first, succ)
	s.hold(m, false)
	if check >= 0 {
		s.precede(check, base, succ, int32(len(sm.Subtasks)))
	}
	for _, x := range succ {
		s.decPreds(x)
	}
	s.adopt(n, first)
	st.first, st.count = first, int32(len(s.nodes))-first
	s.path = append(s.path, st)
}

// addSubtasks adds the subtasks of sm as new nodes of the given batch,
// with the method's order among them, and puts those that precede no
// other subtask before the nodes succ. It returns the first new node.
func (s *dfs) addSubtasks(sm *ground.Method, batch int32, succ []int32) int32 {
	base := int32(len(s.nodes))
	for _, t := range sm.Subtasks {
		s.nodes[s.addNode(nodeTask, int32(t))].batch = batch
	}
	k := int32(len(sm.Subtasks))
	hasSucc := make([]bool, k)
	for _, o := range sm.Ordering {
		s.nodes[base+o.Before].succ = append(s.nodes[base+o.Before].succ, base+o.After)
		s.incPreds(base + o.After)
		hasSucc[o.Before] = true
	}
	for i := int32(0); i < k; i++ {
		if !hasSucc[i] {
			s.nodes[base+i].succ = append(s.nodes[base+i].succ, succ...)
			for _, x := range succ {
				s.incPreds(x)
			}
		}
	}
	return base
}

// precede puts check node c before the k subtasks from base, or, for a
// method without subtasks, in their place before succ.
func (s *dfs) precede(c, base int32, succ []int32, k int32) {
	for i := int32(0); i < k; i++ {
		s.nodes[c].succ = append(s.nodes[c].succ, base+i)
		s.incPreds(base + i)
	}
	if k == 0 {
		s.nodes[c].succ = append(s.nodes[c].succ, succ...)
		for _, x := range succ {
			s.incPreds(x)
		}
	}
}

// decomposeAhead decomposes compound node n, which still waits for
// predecessors, by search method m. Node n turns into m's check, keeping
// its place in the order, and m's subtasks follow it: the method's
// precondition is still checked where its first subtask will run, so the
// plans are those of decomposing n when its turn comes, and the choice
// can be made where it is most constrained (a task ahead with one live
// method left, or a choice group's value it alone can take).
func (s *dfs) decomposeAhead(n int32, m int32) {
	sm := &s.v.meths[m]
	nd := &s.nodes[n]
	st := step{node: n, method: m, ahead: true, succ: nd.succ, trail: len(s.trail), nodes: len(s.nodes)}
	if s.groups != nil {
		s.groups.decide(s, m, true)
	}
	succ := nd.succ
	s.hold(m, true)
	s.removeNode(n)
	nd.kind, nd.id, nd.succ = nodeCheck, m, nil
	s.restoreNode(n)
	first := s.addSubtasks(sm, int32(len(s.nodes)), succ)
	s.hold(m, false)
	s.precede(n, first, succ, int32(len(sm.Subtasks)))
	for _, x := range succ {
		s.decPreds(x)
	}
	s.adopt(n, first)
	st.first, st.count = first, int32(len(sm.Subtasks))
	s.path = append(s.path, st)
}

// adopt records that compound node n was decomposed into the nodes from
// first on, at the present number of state changes.
func (s *dfs) adopt(n, first int32) {
	s.nodes[n].decAt = s.changes
	var c, rec int32
	bound := s.recCap > 0
	if bound {
		c, rec = s.v.comp[s.nodes[n].task-int32(s.v.nA)], s.nodes[n].rec+1
	}
	for i := first; i < int32(len(s.nodes)); i++ {
		nd := &s.nodes[i]
		nd.parent = n
		if bound && nd.kind == nodeTask && int(nd.id) >= s.v.nA && s.v.comp[int(nd.id)-s.v.nA] == c {
			nd.rec = rec
		}
	}
}

// repeats counts the ancestors of compound node n made for the same task
// and decomposed since the last state change: a task that recurs in its
// own decomposition in the same state, as the left-recursive get-to of
// IPC Transport (get-to(v, l) by get-to(v, l2) then drive(v, l2, l)),
// grows the network without end unless such cycles are bounded.
func (s *dfs) repeats(n int32) int {
	r := 0
	task := s.nodes[n].task
	for a := s.nodes[n].parent; a >= 0 && s.nodes[a].decAt == s.changes; a = s.nodes[a].parent {
		if s.nodes[a].task == task {
			r++
		}
	}
	return r
}

// recursion is the number of ancestors of compound node n in the
// component of n's task (view.comp), counted when n was made (adopt).
// They are its nearest ones: the tasks between an ancestor in the
// component and n lie in it too, as each is reached from the first and
// reaches n.
func (s *dfs) recursion(n int32) int { return int(s.nodes[n].rec) }

// recursionCut reports whether method m may not be tried for compound
// node n, being a recursive method of a task that recurs recCap deep
// already, and records the cut.
func (s *dfs) recursionCut(n, m int32) bool {
	if s.recCap == 0 || !s.v.recursing[m] || s.recursion(n) < s.recCap {
		return false
	}
	s.cut = true
	s.stats.DeadEnds++
	return true
}

// repeatCut reports whether compound node n recurs too often to be
// decomposed (see dfs.repCap) and records the cut.
func (s *dfs) repeatCut(n int32) bool {
	if s.repCap == 0 || s.repeats(n) < s.repCap {
		return false
	}
	s.cut = true
	s.stats.DeadEnds++
	return true
}

// decomposeNode decomposes compound node n by search method m, ahead if
// n still waits for predecessors.
func (s *dfs) decomposeNode(n, m int32) {
	if s.nodes[n].preds > 0 {
		s.decomposeAhead(n, m)
		return
	}
	s.decompose(n, m)
}

// aheadChoice returns the settled (see view.settled) compound task node
// still waiting for predecessors with the fewest live methods per weight (the earliest
// among equals, or one at random after a restart), its count and weight,
// or -1; a node with no live method is returned at once.
func (s *dfs) aheadChoice() (int32, int32, int64) {
	best, bestN, bestW, ties := int32(-1), int32(0), int64(1), 0
	for i := range s.nodes {
		nd := &s.nodes[i]
		if !nd.alive || nd.preds == 0 || nd.kind != nodeTask || int(nd.id) < s.v.nA || !s.v.settled[int(nd.id)-s.v.nA] {
			continue
		}
		c, w := s.score(int(nd.id) - s.v.nA)
		if c == 0 {
			return int32(i), 0, 1
		}
		lhs, rhs := int64(c)*bestW, int64(bestN)*w
		switch {
		case best < 0, lhs < rhs:
			best, bestN, bestW, ties = int32(i), c, w, 1
		case lhs == rhs && s.rng != nil:
			ties++
			if s.rng.IntN(ties) == 0 {
				best = int32(i)
			}
		}
	}
	return best, bestN, bestW
}

// undo reverts the last step.
func (s *dfs) undo() {
	s.undoing = true
	defer func() { s.undoing = false }()
	st := s.path[len(s.path)-1]
	s.path = s.path[:len(s.path)-1]
	n := st.node
	nd := &s.nodes[n]
	if st.method < 0 {
		if nd.kind == nodeTask {
			s.g -= s.v.acost[nd.id]
		}
		for _, x := range nd.succ {
			s.incPreds(x)
		}
		s.restoreNode(n)
		s.lmCount(st.changed, -1)
		for _, f := range st.changed {
			s.flip(f)
		}
		if len(st.changed) > 0 {
			s.changes--
		}
		s.undoTrail(st.trail)
		if s.hooks.undo != nil {
			s.hooks.undo(s, st)
		}
		return
	}
	// n's task keeps its reach while its subtasks go (without the pin a
	// task whose subtasks alone kept it in reach, as a recursive one's
	// do, would leave it with all it reaches and come back at once)
	if s.reach != nil {
		s.incRef(nd.task)
	}
	// drop the new nodes and their edges to n's successors
	for i := int32(len(s.nodes)) - 1; i >= st.first; i-- {
		c := &s.nodes[i]
		if c.alive {
			s.removeNode(i)
		}
		for _, x := range c.succ {
			if x < st.first {
				s.decPreds(x)
			}
		}
	}
	s.nodes = s.nodes[:st.first]
	s.front.Truncate(int(st.first))
	s.alive.Truncate(int(st.first))
	nd = &s.nodes[n]
	if st.ahead {
		// n turns back into its task; its edges to its successors were
		// handed to the subtasks, unless there were none
		s.removeNode(n)
		nd.kind, nd.id, nd.succ = nodeTask, nd.task, st.succ
		if st.count > 0 {
			for _, x := range nd.succ {
				s.incPreds(x)
			}
		}
	} else {
		for _, x := range nd.succ {
			s.incPreds(x)
		}
	}
	s.restoreNode(n)
	if s.reach != nil {
		s.decRef(nd.task)
	}
	s.undoTrail(st.trail)
	if s.groups != nil {
		s.groups.decide(s, st.method, false)
	}
	if s.hooks.undo != nil {
		s.hooks.undo(s, st)
	}
}

// ---------------------------------------------------------------- search

func (s *dfs) goalHolds() bool {
	if g := s.v.grow; g != nil && g.LiftedGoal() {
		return g.GoalHolds(s.state)
	}
	t := s.v.t
	return s.holds(t.Goal, t.GoalNeg)
}

// frame returns the batch of the decomposition the serial search is
// carrying through: the latest one with a node in the front. Under the
// serial discipline the open decompositions nest, each inside the one
// before, so the latest still has a node without pending predecessors
// (those outside it were done before it began), and the nodes of older
// ones wait until it is done.
func (s *dfs) frame() int32 {
	f := int32(0)
	for _, n := range s.front.Members {
		f = max(f, s.nodes[n].batch)
	}
	return f
}

// nodeHash is the current node's entry in the visited set (search): a
// 128-bit hash of its state (kept as facts flip, Zobrist's way) and of
// its network, the sum of a hash of each alive node (in an acyclic
// network its place, kind, task or method, and the places of its
// successors, which keep theirs when they change; in a recursive one its
// content, hashContent), kept
// as nodes come and go: a node is hashed once, at the first search node
// after it came, so that the cost is that of the nodes made, not of a
// network of thousands. (In an acyclic network a node's place is a
// function of the path's steps, and the same network is met again with
// its nodes in the same places.)
func (s *dfs) nodeHash() [2]uint64 {
	for _, i := range s.pending {
		if int(i) >= len(s.nodes) || !s.nodes[i].alive || s.hashed[i] {
			continue
		}
		if s.content {
			s.hashContent(i)
			continue
		}
		h := s.hashNode(i)
		s.hashed[i], s.nodeHashes[i] = true, h
		s.netHash[0] += h[0]
		s.netHash[1] += h[1]
	}
	s.pending = s.pending[:0]
	return [2]uint64{s.zobrist[0] + s.netHash[0], s.zobrist[1] + s.netHash[1]}
}

// hashNode is node i's part of nodeHash.
func (s *dfs) hashNode(i int32) [2]uint64 {
	nd := &s.nodes[i]
	x := mix64(uint64(uint32(i))<<32 | uint64(uint32(nd.id)))
	x = mix64(x ^ uint64(nd.kind)<<56 ^ uint64(len(nd.succ)))
	for _, y := range nd.succ {
		x = mix64(x ^ uint64(uint32(y)))
	}
	return [2]uint64{x, mix64(x ^ 0x9E3779B97F4A7C15)}
}

// hashContent hashes node i of a recursive network, and first its
// successors not hashed yet, by content rather than place, so that a
// network met again deeper in a cycle, its nodes made anew, is the same
// (the cycles of recursive methods are what the set is for there). A
// node's content is its kind, task or method and recursion (dfs.adopt:
// a network cut at the recursion bound may be met again with room to go
// on), and its successors' contents (merk, a Merkle hash: successors,
// once made, never change in a recursive network, whose tasks are only
// decomposed in the front); its part of the sum also counts its
// predecessors (reterm), so that two nodes of one content that share a
// successor differ from two that do not.
func (s *dfs) hashContent(i int32) {
	nd := &s.nodes[i]
	x := mix64(uint64(nd.rec)<<40 | uint64(nd.kind)<<32 | uint64(uint32(nd.id)))
	sum := [2]uint64{uint64(len(nd.succ)), 0}
	for _, y := range nd.succ {
		if !s.hashed[y] {
			s.hashContent(y)
		}
		sum[0] += s.merk[y][0]
		sum[1] += s.merk[y][1]
	}
	s.merk[i] = [2]uint64{mix64(x ^ mix64(sum[0])), mix64(x ^ 0x9E3779B97F4A7C15 ^ mix64(sum[1]))}
	s.hashed[i] = true
	s.nodeHashes[i] = [2]uint64{}
	s.reterm(i)
}

// reterm puts hashed node x's part of a recursive network's hash
// (hashContent) in line with its count of predecessors.
func (s *dfs) reterm(x int32) {
	if int(x) >= len(s.hashed) || !s.hashed[x] {
		return
	}
	p := uint64(s.nodes[x].preds) + 1
	m := s.merk[x]
	t := [2]uint64{mix64(m[0] + p*0x9E3779B97F4A7C15), mix64(m[1] ^ p*0xD1B54A32D192ED03)}
	old := s.nodeHashes[x]
	s.netHash[0] += t[0] - old[0]
	s.netHash[1] += t[1] - old[1]
	s.nodeHashes[x] = t
}

// hashFact is fact f's part of the state's hash (zobrist).
func hashFact(f ground.FactID) [2]uint64 {
	x := mix64(uint64(f) + 1)
	return [2]uint64{x, mix64(x ^ 0xD1B54A32D192ED03)}
}

// nodeCame and nodeWent keep nodeHash's sum as node n comes (is made or
// restored) and goes.
func (s *dfs) nodeCame(n int32) {
	if s.failed || s.content {
		if len(s.hashed) <= int(n) {
			s.hashed = append(s.hashed, make([]bool, int(n)+1-len(s.hashed))...)
			s.nodeHashes = append(s.nodeHashes, make([][2]uint64, int(n)+1-len(s.nodeHashes))...)
			if s.content {
				s.merk = append(s.merk, make([][2]uint64, int(n)+1-len(s.merk))...)
			}
		}
		s.pending = append(s.pending, n)
	}
}

func (s *dfs) nodeWent(n int32) {
	if int(n) < len(s.hashed) && s.hashed[n] {
		s.hashed[n] = false
		s.netHash[0] -= s.nodeHashes[n][0]
		s.netHash[1] -= s.nodeHashes[n][1]
	}
}

// mix64 is SplitMix64's finalizer, a bijection of 64 bits that mixes
// every input bit into every output bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	return x ^ x>>31
}

func (s *dfs) search() (bool, error) {
	if s.hooks.check != nil {
		s.hooks.check(s)
	}
	s.stats.Nodes++
	again := s.again
	s.again = false
	if s.limit > 0 && s.stats.Nodes >= s.limit {
		return false, errRestart
	}
	// a node of a large network can cost a millisecond, so the context is
	// looked at often
	if s.stats.Nodes&15 == 0 {
		s.progress.AddNodes(16)
		if err := s.ctx.Err(); err != nil {
			return false, err
		}
		if err := s.pause.check(); err != nil {
			return false, err
		}
		if err := s.opt.Gate.wait(s.ctx, s.pause); err != nil {
			return false, err
		}
		if s.v.grow != nil && s.v.grow.Relaid != s.relaid {
			// another member of a portfolio moved the IDs
			return false, errRelaid
		}
		if s.opt.MaxNodes > 0 && s.stats.Nodes > s.opt.MaxNodes {
			return false, ErrNodeLimit
		}
		if s.deepenAt > 0 && s.stats.Nodes >= s.deepenAt {
			return false, errDeepen
		}
	}
	return s.visit(again)
}

// visit is search past the node's count and limits: the dead-end tests,
// the caps, the bound, the duplicates, then expand. again tells that the
// node is looked at again (dfs.again). A check taken within its node
// (scanFront) is visited without a count of its own.
func (s *dfs) visit(again bool) (bool, error) {
	if s.deadEnd > 0 || s.groups != nil && s.groups.zero > 0 || s.goalLost() || s.prot != nil && !again && len(s.path) > 0 && s.threatened() {
		s.stats.DeadEnds++
		return false, nil
	}
	if s.depthCap > 0 && len(s.path) >= s.depthCap || s.netCap > 0 && len(s.alive.Members) > s.netCap {
		s.cut = true
		if s.deepenAt == 0 && s.canDeepen() {
			s.deepenAt = s.stats.Nodes + deepenBudget*(s.stats.Nodes-s.runStart)
		}
		return false, nil
	}
	if s.bnb != nil {
		if !s.bnb.open(s) {
			return false, nil
		}
		return s.expand()
	}
	if s.failed && !again {
		// an acyclic network: a node whose state and network were
		// searched to the end before, on another path or before a
		// restart, fails at once; the node is recorded once searched to
		// the end. Recording costs a hash per node, so it stops when it
		// has saved less than a quarter of the nodes since it began.
		h := s.nodeHash()
		if size, ok := s.visited.get(h); ok {
			s.stats.Duplicates++
			s.dupSaved += int64(size)
			return false, nil
		}
		if s.dupKeyed++; s.dupKeyed%dupPays == 0 && s.dupSaved*4 < s.dupKeyed {
			s.failed, s.visited = false, nil
			return s.expand()
		}
		before := s.stats.Nodes
		ok, err := s.expand()
		if !ok && err == nil && s.visited != nil {
			s.visited.put(h, int32(min(s.stats.Nodes-before, math.MaxInt32)))
		}
		return ok, err
	}
	if s.visited != nil && !s.failed && !again && s.visited.addHash(s.nodeHash()) {
		s.stats.Duplicates++
		return false, nil
	}
	return s.expand()
}

// dupPays is how often (in nodes keyed) search asks whether recording
// the failed nodes of an acyclic network pays.
const dupPays = 1 << 16

// expand searches below the current node, once search has found it
// neither a dead end nor visited: a check that holds, or else each
// applicable action, is taken first (scanFront, tryActions); then a
// compound task is chosen (chooseTask), forced or filtered by the choice
// groups (forcedMove, filterGroups), refined by look-ahead and the last
// conflict (refineChoice), branched on by value (valueBranch) or
// decomposed by each of its methods in turn (tryMethods).
func (s *dfs) expand() (bool, error) {
	if len(s.front.Members) == 0 {
		if s.bnb != nil && s.goalHolds() {
			return false, s.bnb.plan(s)
		}
		return s.goalHolds(), nil
	}
	frame := int32(-1)
	if s.serial {
		frame = s.frame()
	}
	prims, compound, done, ok, err := s.scanFront(frame)
	if done {
		return ok, err
	}
	applied, ok, err := s.tryActions(prims)
	if ok || err != nil {
		return ok, err
	}
	if !compound || (applied && !s.opt.CompletePO) {
		return false, nil
	}
	best, bestN, bestW, dead := s.chooseTask(frame)
	if dead || best < 0 {
		return false, nil
	}
	if s.groups != nil {
		if done, ok, err := s.forcedMove(frame); done {
			return ok, err
		}
		if done, ok, err := s.filterGroups(); done {
			return ok, err
		}
	}
	if best, dead = s.refineChoice(best, bestN, bestW, frame); dead {
		return false, nil
	}
	if s.groups != nil && !s.opt.NoValueBranch {
		if done, ok, err := s.valueBranch(best, frame); done {
			return ok, err
		}
	}
	if s.repeatCut(best) {
		return false, nil
	}
	return s.tryMethods(best)
}

// scanFront looks at the tasks the front offers (those of the serial
// frame and after): a check that holds now is taken at once, within the
// node (it changes nothing and only frees its successors; as a node of
// its own, a third of the nodes of a long plan were checks, and the
// restarts' node budgets over a growing task bought a third less
// search); in eager mode a check that does
// not hold ends the node, as a method's precondition must hold when it is
// chosen (SHOP2), while the complete mode lets it wait for other tasks to
// make it true; a compound task left without a live method (its choice
// group values taken elsewhere) is a dead end. It returns the primitive
// tasks, whether there is a compound one, and, when done, the node's
// answer.
func (s *dfs) scanFront(frame int32) (prims []int32, compound, done, ok bool, err error) {
	for _, n := range s.front.Members {
		nd := &s.nodes[n]
		switch {
		case nd.batch < frame:
			continue
		case nd.kind == nodeCheck:
			sm := &s.v.meths[nd.id]
			if s.holds(sm.Pre, sm.NegPre) {
				s.apply(n)
				if ok, err := s.visit(false); ok || err != nil {
					return nil, false, true, ok, err
				}
				s.undo()
				return nil, false, true, false, nil
			}
			if !s.opt.CompletePO {
				return nil, false, true, false, nil
			}
		case int(nd.id) < s.v.nA:
			prims = append(prims, n)
		default:
			compound = true
			// with choice groups a task can lose its last method with no
			// fact changed (its values taken elsewhere): a dead end now,
			// as a task whose methods died is (s.deadEnd)
			if s.groups != nil && s.live(int(nd.id)-s.v.nA) == 0 {
				s.conflict(n)
				s.stats.DeadEnds++
				return nil, false, true, false, nil
			}
		}
	}
	return prims, compound, false, false, nil
}

// tryActions tries each applicable primitive task of prims as the next
// step. Actions go first: in eager mode (as in SHOP2) a compound task is
// decomposed only when no primitive task can be applied, so a method's
// actions run as soon as they can; the complete mode also tries the
// decompositions after the actions. The compound tasks are scored only
// then: a node that applies an action (most nodes of a long plan) does
// not look at them, and a task left without a method is found at the next
// node that does.
func (s *dfs) tryActions(prims []int32) (applied, ok bool, err error) {
	slices.Sort(prims)
	for _, n := range prims {
		nd := &s.nodes[n]
		if s.actDead[nd.id] {
			continue
		}
		a := &s.v.t.Actions[nd.id]
		if !s.holds(a.Pre, a.NegPre) {
			continue
		}
		applied = true
		s.apply(n)
		if ok, err := s.search(); ok || err != nil {
			return applied, ok, err
		}
		s.undo()
	}
	return applied, false, nil
}

// chooseTask picks the compound task to decompose: a task with at most
// one live method first; with Focus, one of the latest decomposition's
// tasks, so that it is carried on before another is begun; among those,
// with MRV, the one with the fewest live methods per weight (the earliest
// among equals, or one at random after a restart), else the one added
// last. A task without a live method is a dead end (dead).
func (s *dfs) chooseTask(frame int32) (best, bestN int32, bestW int64, dead bool) {
	best, bestN, bestW = -1, 0, 1
	ties := 0
	for _, n := range s.front.Members {
		nd := &s.nodes[n]
		if nd.batch < frame || nd.kind == nodeCheck || int(nd.id) < s.v.nA {
			continue
		}
		c, w := s.score(int(nd.id) - s.v.nA)
		if c == 0 {
			s.conflict(n)
			s.stats.DeadEnds++
			return -1, 0, 1, true
		}
		if best >= 0 && !s.opt.NoFocus && c > 1 && bestN > 1 && nd.batch != s.nodes[best].batch {
			// both have a choice: the later decomposition goes first
			if nd.batch > s.nodes[best].batch {
				best, bestN, bestW, ties = n, c, w, 1
			}
			continue
		}
		// compare c/w with bestN/bestW
		lhs, rhs := int64(c)*bestW, int64(bestN)*w
		switch {
		case best < 0, !s.opt.NoMRV && lhs < rhs:
			best, bestN, bestW, ties = n, c, w, 1
		case !s.opt.NoMRV && lhs == rhs && s.rng != nil:
			ties++
			if s.rng.IntN(ties) == 0 {
				best = n
			}
		case !s.opt.NoMRV && lhs == rhs && n < best:
			best = n
		case s.opt.NoMRV && n > best:
			best = n
		}
	}
	return best, bestN, bestW, false
}

// forcedMove makes the move a value only one task of a group can still
// take: no choice (done tells that it answered the node).
func (s *dfs) forcedMove(frame int32) (done, ok bool, err error) {
	n, m, forced := s.groups.forcedMove(s)
	if !forced || s.nodes[n].batch < frame {
		return false, false, nil
	}
	if s.repeatCut(n) || s.recursionCut(n, m) {
		return true, false, nil
	}
	s.stats.Forced++
	s.decomposeNode(n, m)
	if ok, err := s.search(); ok || err != nil {
		return true, ok, err
	}
	s.undo()
	return true, false, nil
}

// filterGroups filters the choice groups as the search is about to
// branch (a node with a move it must make anyway, a holding check, an
// action, a forced or lone method, is not filtered: the filtering is the
// costly part of a node, and what it would kill is killed at the next
// branching). A dead end, or kills that may leave a task one method or
// force a value (the node is then looked at again: the same node, not a
// new one), answer the node (done).
func (s *dfs) filterGroups() (done, ok bool, err error) {
	alive, killed := s.groups.filter(s)
	if !alive {
		s.stats.DeadEnds++
		return true, false, nil
	}
	if killed {
		s.stats.Nodes--
		s.again = true
		ok, err := s.search()
		return true, ok, err
	}
	return false, false, nil
}

// refineChoice may trade the chosen task for a more constrained one: a
// task further on with fewer live methods (per weight; look-ahead, with
// one with none a dead end, as with choice groups a task's live methods
// can run out without a fact changing), or the task whose every method
// failed last, while it waits in the front (no older than the focus's
// choice): what changed since then decides at once whether it can go on.
func (s *dfs) refineChoice(best, bestN int32, bestW int64, frame int32) (int32, bool) {
	if s.ahead && (bestN > 1 || s.groups != nil) {
		n, c, w := s.aheadChoice()
		if n >= 0 && c == 0 {
			s.conflict(n)
			s.stats.DeadEnds++
			return best, true
		}
		if n >= 0 && int64(c)*bestW < int64(bestN)*w {
			best = n
			s.stats.Ahead++
		}
	}
	if s.lastConflict >= 0 {
		if n := s.lastConflict; int(n) < len(s.nodes) && n != best {
			nd := &s.nodes[n]
			if nd.alive && nd.kind == nodeTask && nd.task == s.lastTask && nd.preds == 0 && nd.batch >= frame &&
				int(nd.id) >= s.v.nA && s.live(int(nd.id)-s.v.nA) > 0 && (s.opt.NoFocus || nd.batch >= s.nodes[best].batch) {
				best = n
				s.stats.LastConflict++
			}
		}
		s.lastConflict = -1
	}
	return best, false
}

// valueBranch branches on which task of a choice group takes a value
// fewer methods can take than the chosen task has (done when it does).
// As with Focus, a decomposition under way is carried on first: the
// takers must be no older than the task chosen.
func (s *dfs) valueBranch(best, frame int32) (done, ok bool, err error) {
	focus := frame
	if !s.opt.NoFocus {
		focus = max(focus, s.nodes[best].batch)
	}
	c, w := s.score(int(s.nodes[best].id) - s.v.nA)
	if p := s.groups.valueChoice(s, focus, int32((int64(c)+w-1)/w)); p >= 0 {
		ok, err := s.branchValue(p)
		return true, ok, err
	}
	return false, false, nil
}

// tryMethods decomposes task node best by each of its methods in turn,
// in the value order (choice groups), the goal order (a goal state) or
// the target order (recursion), and leaves the task as the last conflict
// when all fail.
func (s *dfs) tryMethods(best int32) (bool, error) {
	if s.v.grow != nil {
		return s.tryServed(best)
	}
	c := int(s.nodes[best].id) - s.v.nA
	ms, off, order, rank := s.methodOrder(best, c)
	now, alone := s.eager(best)
	save := -1 // phase saving (see valueOrder)
	if order != nil && s.saved != nil {
		save = c
	}
	var keyed []int32 // the candidates by key (keyed.go), handed back
	if k := s.v.keyedOf(c); now && k != nil && order == nil {
		keyed = s.keyedOrder(k, c, off, rank)
		ms, off = keyed, 0
	}
	for i := range ms {
		if ok, err := s.tryMethod(best, ms[(i+off)%len(ms)], now, alone, save); ok || err != nil {
			return ok, err
		}
	}
	if order != nil {
		s.orders = append(s.orders, order[:0])
	}
	if keyed != nil {
		s.orders = append(s.orders, keyed[:0])
	}
	s.failedAll(best)
	return false, nil
}

// keyedOrder returns the methods of choice task c whose keys hold now
// (k indexes them), in the order tryMethods would meet them in its list
// (from off on, or by rank), in a slice to hand back to s.orders.
func (s *dfs) keyedOrder(k *keyedMethods, c, off int, rank []int32) []int32 {
	var cs []int32
	if n := len(s.orders); n > 0 {
		cs, s.orders = s.orders[n-1], s.orders[:n-1]
	}
	cs = k.candidates(s.state, cs)
	s.keys = s.v.inOrder(cs, c, off, rank, s.keys)
	if cs == nil {
		cs = []int32{}
	}
	return cs
}

// eager tells how tryMethods filters the methods of task node best: now,
// in eager mode a method of a task whose turn it is must hold now: its
// check would be in the front and fail at once, so it is not tried
// (tasks with hundreds of methods, one per binding of a free variable,
// as Elevator's moves, would cost a search node each); alone, when the
// task is all the front holds, the action a method begins with is the
// next step and must apply now too (a method per binding of a variable
// only its action uses, as Towers' moves, would cost a search node
// each).
func (s *dfs) eager(best int32) (now, alone bool) {
	now = s.nodes[best].preds == 0 && !s.opt.CompletePO
	return now, now && len(s.front.Members) == 1
}

// mayTry reports whether method m of task node best is worth a search
// node (see eager), and records a cut by the recursion bound.
func (s *dfs) mayTry(best, m int32, now, alone bool) bool {
	if s.methDead[m] || s.groups != nil && s.groups.taken(m) {
		return false
	}
	if now && (!s.v.keyHolds(s.state, m) || !s.holds(s.v.meths[m].Pre, s.v.meths[m].NegPre)) {
		return false
	}
	if a := s.v.first[m]; alone && a >= 0 && (s.actDead[a] || !s.holds(s.v.t.Actions[a].Pre, s.v.t.Actions[a].NegPre)) {
		return false
	}
	return !s.recursionCut(best, m)
}

// tryMethod decomposes task node best by method m, if it may be tried,
// and searches below; save >= 0 records m as the last method of
// compound task save tried (s.saved).
func (s *dfs) tryMethod(best, m int32, now, alone bool, save int) (bool, error) {
	if !s.mayTry(best, m, now, alone) {
		return false, nil
	}
	if save >= 0 {
		s.saved[save] = m
	}
	s.decomposeNode(best, m)
	if ok, err := s.search(); ok || err != nil {
		return ok, err
	}
	s.undo()
	return false, nil
}

// failedAll leaves task node best as the last conflict: every method
// failed.
func (s *dfs) failedAll(best int32) {
	if !s.opt.NoLastConflict {
		s.lastConflict, s.lastTask = best, s.nodes[best].task
	}
}

// methodOrder is the order to try the methods of task node best (choice
// task c) in: from off on, round, through ms; order is the slice to hand
// back to s.orders when done (nil when ms is the task's own list or a
// target order, whose ranks rank gives by place in the task's list).
func (s *dfs) methodOrder(best int32, c int) (ms []int32, off int, order, rank []int32) {
	ms = s.v.taskMeths[c]
	if s.shuffle && len(ms) > 1 {
		off = s.rng.IntN(len(ms))
	}
	switch {
	case s.groups != nil && len(ms) > 1 && !s.opt.NoValueOrder:
		order = s.valueOrder(c, ms, off)
		return order, 0, order, nil
	case s.v.goalMask != nil && len(ms) > 1 && s.v.goalTells[c] && !s.opt.NoValueOrder:
		order = s.goalOrder(ms, off)
		return order, 0, order, nil
	case s.v.targets != nil && len(ms) > 1 && !s.opt.NoValueOrder:
		// a fixed order per task (a restart's random start does not
		// apply), kept by targetOrder, not handed back to s.orders
		if to, rank := s.targetOrder(best); to != nil {
			return to, 0, nil, rank
		}
	}
	return ms, off, nil, nil
}

// valueOrder returns the methods ms of choice task c (from the one at off
// on, round) in the value order (Options.NoValueOrder): the method c took
// last (saved), then those binding choice-group values fewest live methods
// can still take; in a slice the caller hands back to s.orders when done.
func (s *dfs) valueOrder(c int, ms []int32, off int) []int32 {
	keys := s.keys[:0]
	for i := range ms {
		m := ms[(i+off)%len(ms)]
		var score int64
		for _, p := range s.groups.methPairs[m] {
			score += int64(s.groups.cnt[p])
		}
		keys = append(keys, score<<32|int64(i))
	}
	order := s.sorted(ms, off, keys)
	if sv := s.saved[c]; sv >= 0 {
		if i := slices.Index(order, sv); i > 0 {
			copy(order[1:i+1], order[:i])
			order[0] = sv
		}
	}
	return order
}

// goalOrder returns the methods ms (from the one at off on, round) in the
// goal order (Options.NoValueOrder): those whose subtasks may reach the
// most goals not met now go first, ties in the order given; in a slice
// the caller hands back to s.orders when done. A task binding a variable
// the goal fixes (a part's colour, say) tries the goal's value first.
func (s *dfs) goalOrder(ms []int32, off int) []int32 {
	w := s.v.goalW
	open := s.goalScratch[:w]
	clear(open)
	for i, g := range s.v.goals {
		if s.has(g) == (i >= s.v.goalsPos) && !s.lmMet(i) {
			open[i>>6] |= 1 << (i & 63)
		}
	}
	reach := s.goalScratch[w : 2*w]
	keys := s.keys[:0]
	for i := range ms {
		s.v.methodGoals(ms[(i+off)%len(ms)], reach)
		n := 0
		for k, x := range reach {
			n += bits.OnesCount64(x & open[k])
		}
		keys = append(keys, int64(maxGoals-n)<<32|int64(i))
	}
	return s.sorted(ms, off, keys)
}

// sorted sorts keys, each a score above the position (from off) of a
// method of ms in its low 32 bits, and returns the methods in that order,
// in a slice from s.orders.
func (s *dfs) sorted(ms []int32, off int, keys []int64) []int32 {
	slices.Sort(keys)
	s.keys = keys
	var order []int32
	if n := len(s.orders); n > 0 {
		order, s.orders = s.orders[n-1], s.orders[:n-1]
	}
	for _, k := range keys {
		order = append(order, ms[(int(k&0xffffffff)+off)%len(ms)])
	}
	return order
}

// branchValue tries each live method of an undecided task that takes
// choice-group pair p (see groupState.valueChoice): the method the task
// took last first (phase saving), then those of tasks with the fewest
// live methods, to which the value most likely goes.
func (s *dfs) branchValue(p int32) (bool, error) {
	s.stats.ValueBranches++
	gs := s.groups
	keys := s.keys[:0]
	ms := gs.pairMeths[p]
	off := 0
	if s.shuffle && len(ms) > 1 {
		off = s.rng.IntN(len(ms))
	}
	for i := range ms {
		m := ms[(i+off)%len(ms)]
		if !counted(s, m) {
			continue
		}
		c := int(s.v.meths[m].Task) - s.v.nA
		score := int64(s.live(c))
		if !s.opt.NoValueOrder && s.saved != nil && s.saved[c] == m {
			score = 0
		}
		keys = append(keys, score<<32|int64(i))
	}
	order := s.sorted(ms, off, keys)
	defer func() { s.orders = append(s.orders, order[:0]) }()
	if s.hooks.branchValue != nil {
		s.hooks.branchValue(s, p, order)
	}
	// order holds the takers counted now; each child is undone before
	// the next, so they all still are
	for _, m := range order {
		task := s.v.meths[m].Task
		n := gs.node[task]
		if s.recursionCut(n, m) {
			continue
		}
		if s.nodes[n].preds == 0 && !s.opt.CompletePO && !s.holds(s.v.meths[m].Pre, s.v.meths[m].NegPre) {
			continue
		}
		if s.saved != nil {
			s.saved[int(task)-s.v.nA] = m
		}
		s.decomposeNode(n, m)
		if ok, err := s.search(); ok || err != nil {
			return ok, err
		}
		s.undo()
	}
	return false, nil
}
