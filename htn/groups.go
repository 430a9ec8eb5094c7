package htn

import (
	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
)

// groupState tracks, during the depth-first search, the choice groups of
// the task (see ground.ChoiceGroup): for every group and value, how many
// live methods of undecided tasks of the group bind it. A value that no
// task can take any more is a dead end; a value that one task alone can
// still take forces that task's method.
type groupState struct {
	pairMeths [][]int32 // pair (group, value) -> search methods binding it
	methPairs [][]int32 // search method -> the pairs it binds
	cnt       []int32
	used      []int32           // decided tasks taking the value (more than one is a dead end ahead)
	zero      int               // pairs neither used nor takeable
	forced    sets.Index[int32] // pairs with one taker
	decided   []bool            // per TaskID
	node      []int32           // per TaskID: a choice task's network node, or -1
	// takenBy counts, per method, the values it binds that a decided
	// task already takes (see taken); liveTaken counts, per compound
	// task (TaskID-nA), its live methods with such a value: the task has
	// count-liveTaken methods left that can lead to a plan
	takenBy   []int32
	liveTaken []int32
	onZero    func(p int32) // called when a pair loses its last taker
	match     *matcher      // nil with Options.NoMatching
	lock      *locker       // nil with Options.NoLocked
	filters   []groupFilter // lock and match, those not nil, in this order
}

// addFilters sets up the filters that Options leave on.
func (gs *groupState) addFilters(s *dfs, groups []ground.ChoiceGroup) {
	if !s.opt.NoLocked {
		gs.lock = newLocker(gs)
		gs.filters = append(gs.filters, gs.lock)
	}
	if !s.opt.NoMatching {
		gs.match = newMatcher(gs, s, groups)
		gs.filters = append(gs.filters, gs.match)
	}
}

// newGroupState sets the counters from the methods alive at the start.
// Groups are used when their exclusions hold in the search's semantics:
// in a totally ordered initial network, or for atomic groups in eager mode.
func newGroupState(s *dfs, groups []ground.ChoiceGroup) *groupState {
	t := s.v.t
	gs := &groupState{methPairs: make([][]int32, len(s.v.meths)), decided: make([]bool, t.NumTasks()), node: make([]int32, t.NumTasks()),
		takenBy: make([]int32, len(s.v.meths)), liveTaken: make([]int32, len(t.Compounds))}
	for i := range gs.node {
		gs.node[i] = -1
	}
	for i, id := range t.Initial {
		gs.node[id] = int32(i)
	}
	// a first pass counts the pairs and each method's pairs, so that the
	// lists are cut from one array each rather than grown one by one
	var nPairs, nEdges int
	count := make([]int32, len(s.v.meths))
	for _, g := range groups {
		if !t.InitialTotal && !g.Atomic {
			continue
		}
		nPairs += len(g.ByValue)
		for _, ms := range g.ByValue {
			nEdges += len(ms)
			for _, m := range ms {
				count[m]++
			}
		}
	}
	byPair, byMeth := make([]int32, 0, nEdges), make([]int32, nEdges)
	off := int32(0)
	for m, c := range count {
		gs.methPairs[m] = byMeth[off:off:(off + c)]
		off += c
	}
	gs.pairMeths = make([][]int32, 0, nPairs)
	for _, g := range groups {
		if !t.InitialTotal && !g.Atomic {
			continue
		}
		for _, ms := range g.ByValue {
			p := int32(len(gs.pairMeths))
			from := len(byPair)
			for _, m := range ms {
				sm := int32(m) // choice methods keep their index in the view
				byPair = append(byPair, sm)
				gs.methPairs[sm] = append(gs.methPairs[sm], p)
			}
			gs.pairMeths = append(gs.pairMeths, byPair[from:len(byPair):len(byPair)])
		}
	}
	if len(gs.pairMeths) == 0 {
		return nil
	}
	n := len(gs.pairMeths)
	gs.cnt = make([]int32, n)
	gs.used = make([]int32, n)
	gs.forced.Grow(n)
	for p, ms := range gs.pairMeths {
		for _, m := range ms {
			if !s.methDead[m] {
				gs.cnt[p]++
			}
		}
		switch gs.cnt[p] {
		case 0:
			gs.zero++
		case 1:
			gs.addForced(int32(p))
		}
	}
	return gs
}

func (gs *groupState) addForced(p int32) { gs.forced.Add(p) }

func (gs *groupState) removeForced(p int32) { gs.forced.Remove(p) }

func (gs *groupState) dec(p int32) {
	gs.cnt[p]--
	if gs.match != nil {
		gs.match.touch(gs.match.pairGroup[p])
	}
	if gs.lock != nil {
		gs.lock.touch(p)
	}
	if gs.used[p] > 0 {
		return
	}
	switch gs.cnt[p] {
	case 1:
		gs.addForced(p)
	case 0:
		gs.removeForced(p)
		gs.zero++
		if gs.onZero != nil {
			gs.onZero(p)
		}
	}
}

func (gs *groupState) inc(p int32) {
	gs.cnt[p]++
	if gs.used[p] > 0 {
		return
	}
	switch gs.cnt[p] {
	case 1:
		gs.zero--
		gs.addForced(p)
	case 2:
		gs.removeForced(p)
	}
}

func (gs *groupState) setUsed(s *dfs, p int32, on bool) {
	if on {
		gs.used[p]++
		if gs.used[p] > 1 {
			return
		}
		switch gs.cnt[p] {
		case 0:
			gs.zero--
		case 1:
			gs.removeForced(p)
		}
		gs.markTaken(s, p, 1)
		return
	}
	if gs.used[p] == 1 {
		gs.markTaken(s, p, -1) // while p is used, so that its count alone changes
	}
	gs.used[p]--
	if gs.used[p] > 0 {
		return
	}
	switch gs.cnt[p] {
	case 0:
		gs.zero++
	case 1:
		gs.addForced(p)
	}
}

// markTaken follows pair p, just taken (d=1) or freed (d=-1), into the
// methods binding it: a taken method leaves the counters of its pairs as
// a dead one does (so a value whose takers are all taken elsewhere is a
// dead end, and one left to a single task forces it), and its task's
// liveTaken counts it.
func (gs *groupState) markTaken(s *dfs, p int32, d int32) {
	for _, m := range gs.pairMeths[p] {
		gs.takenBy[m] += d
		if d > 0 && gs.takenBy[m] != 1 || d < 0 && gs.takenBy[m] != 0 || s.methDead[m] {
			continue
		}
		if gs.match != nil {
			gs.match.edges(m, -d)
		}
		task := s.v.meths[m].Task
		gs.liveTaken[int(task)-s.v.nA] += d
		if gs.decided[task] {
			continue
		}
		for _, q := range gs.methPairs[m] {
			if d > 0 {
				gs.dec(q)
			} else {
				gs.inc(q)
			}
		}
	}
}

// taken reports whether a method binds a value that a decided task of one
// of its groups already takes: it can only lead to a dead end, and it is
// not in the counters of its pairs.
func (gs *groupState) taken(m int32) bool { return gs.takenBy[m] > 0 }

// killed and revived follow the liveness of a method.
func (gs *groupState) killed(s *dfs, m int32) {
	if gs.taken(m) { // out of the counters already
		gs.liveTaken[int(s.v.meths[m].Task)-s.v.nA]--
		return
	}
	if gs.match != nil {
		gs.match.edges(m, -1)
	}
	if ps := gs.methPairs[m]; len(ps) > 0 && !gs.decided[s.v.meths[m].Task] {
		for _, p := range ps {
			gs.dec(p)
		}
	}
}

func (gs *groupState) revived(s *dfs, m int32) {
	if gs.taken(m) { // out of the counters already
		gs.liveTaken[int(s.v.meths[m].Task)-s.v.nA]++
		return
	}
	if gs.match != nil {
		gs.match.edges(m, 1)
	}
	if ps := gs.methPairs[m]; len(ps) > 0 && !gs.decided[s.v.meths[m].Task] {
		for _, p := range ps {
			gs.inc(p)
		}
	}
}

// decide records that a choice task takes method m (on=true), or undoes
// it. The counters keep, for each pair, the live methods of undecided
// tasks that bind it and are not taken.
func (gs *groupState) decide(s *dfs, m int32, on bool) {
	task := s.v.meths[m].Task
	if gs.node[task] < 0 || len(gs.methPairs[m]) == 0 {
		return
	}
	c := int(task) - s.v.nA
	if on {
		for _, o := range s.v.taskMeths[c] {
			if !s.methDead[o] && !gs.taken(o) {
				for _, p := range gs.methPairs[o] {
					gs.dec(p)
				}
			}
		}
		gs.decided[task] = true
		for _, p := range gs.methPairs[m] {
			gs.setUsed(s, p, true)
		}
		return
	}
	for _, p := range gs.methPairs[m] {
		gs.setUsed(s, p, false)
	}
	gs.decided[task] = false
	for _, o := range s.v.taskMeths[c] {
		if !s.methDead[o] && !gs.taken(o) {
			for _, p := range gs.methPairs[o] {
				gs.inc(p)
			}
		}
	}
}

// filter applies the rules that look beyond the counters, where the search
// is about to branch: locked values across groups (locker), then matching
// within each group (matcher), until neither kills more. It reports false
// at a dead end, and whether it killed anything.
func (gs *groupState) filter(s *dfs) (ok, killed bool) {
	for {
		before := s.stats.Locked + s.stats.Matched
		for _, f := range gs.filters {
			if f.pending() && !f.propagate(s) {
				gs.clearQueues()
				return false, true
			}
		}
		if s.stats.Locked+s.stats.Matched == before {
			return true, killed
		}
		killed = true
	}
}

// A groupFilter kills what the counters of the choice groups cannot see
// (locker, matcher), counting its kills in Stats: propagate works through
// what is pending and reports false at a dead end; clear forgets what is
// pending.
type groupFilter interface {
	pending() bool
	propagate(s *dfs) bool
	clear()
}

// clearQueues forgets what the filters had still to look at: the node is
// a dead end, and its parent was filtered before it branched.
func (gs *groupState) clearQueues() {
	for _, f := range gs.filters {
		f.clear()
	}
}

// forcedMove returns a choice node in the frontier (or anywhere, when the
// search decomposes ahead) and the method it is forced to take, if any.
func (gs *groupState) forcedMove(s *dfs) (int32, int32, bool) {
	bestP := int32(-1)
	for _, p := range gs.forced.Members {
		if bestP < 0 || p < bestP {
			for _, m := range gs.pairMeths[p] {
				task := s.v.meths[m].Task
				if s.methDead[m] || gs.decided[task] || gs.taken(m) {
					continue
				}
				n := gs.node[task]
				if s.nodes[n].alive && s.nodes[n].kind == nodeTask && (s.nodes[n].preds == 0 || s.ahead && s.v.settled[int(task)-s.v.nA]) {
					bestP = p
				}
			}
		}
	}
	if bestP < 0 {
		return 0, 0, false
	}
	for _, m := range gs.pairMeths[bestP] {
		task := s.v.meths[m].Task
		if !s.methDead[m] && !gs.decided[task] && !gs.taken(m) {
			return gs.node[task], m, true
		}
	}
	return 0, 0, false
}

// valueChoice returns the pair (group, value) that the fewest live methods
// of undecided tasks can still take, if fewer than below, with every such
// method's task waiting in the frontier (no earlier than frame), or -1.
// Every plan gives each value of a group to exactly one of its tasks, so
// the methods taking the pair are as complete a choice as a task's
// methods are, and no two of them can both be taken: branching on where
// a value goes (the dual view, "where does 7 go in this row") is the
// smaller choice when a value has fewer takers than the task MRV found
// has methods.
func (gs *groupState) valueChoice(s *dfs, frame, below int32) int32 {
	best, bestC := int32(-1), below
	if below <= 2 {
		return best // a value has two takers at least
	}
	for p, c := range gs.cnt {
		if c < 2 || c >= bestC || gs.used[p] > 0 {
			continue
		}
		ok := true
		for _, m := range gs.pairMeths[p] {
			if !counted(s, m) {
				continue
			}
			task := s.v.meths[m].Task
			n := gs.node[task]
			if n < 0 {
				ok = false
				break
			}
			if nd := &s.nodes[n]; !nd.alive || nd.kind != nodeTask || nd.batch < frame || nd.preds > 0 && !(s.ahead && s.v.settled[int(task)-s.v.nA]) {
				ok = false
				break
			}
		}
		if ok {
			best, bestC = int32(p), c
			if c == 2 {
				break // none has fewer
			}
		}
	}
	return best
}
