package ground

import (
	"context"
	"encoding/binary"
	"slices"

	"github.com/htnsat/htnsat/internal/sets"
)

// A ChoiceGroup is a set of choice tasks (each binds one free variable of
// the initial task network) such that any two of their methods binding the
// same value exclude each other in every plan, and that together offer
// exactly as many values as there are tasks. By the pigeonhole principle
// each value is then taken by exactly one task of the group: a constraint
// that no single method states, which the planners can use (as a "hidden
// single" in the search, as an at-least-once clause in SAT).
//
// Two methods exclude each other when each adds, in every decomposition,
// a fact that no action deletes and that the other requires to be false,
// in every decomposition: whichever of the two runs second fails. This
// holds when the two subtrees do not interleave, that is in a totally
// ordered network; Atomic says that it also holds in a partially ordered
// one as the progression search runs it (eagerly), because every choice of
// the group leads to exactly one action through single-method tasks.
type ChoiceGroup struct {
	Tasks   []TaskID
	Values  []int        // objects, sorted
	ByValue [][]MethodID // per value: the methods of the group's tasks that bind it
	Atomic  bool
}

// maxGroupWork bounds the search for groups (maximal cliques of pairwise
// exclusive choice tasks): it stops after about this many steps and keeps
// what it found.
const maxGroupWork = 1_000_000

// ChoiceGroups returns the choice groups of t. They are computed once per
// task (the engines share them); a call whose context ends first returns
// its error and leaves the groups to be computed by the next call.
func (t *Task) ChoiceGroups(ctx context.Context) ([]ChoiceGroup, error) {
	if t.memo != nil {
		if g := t.memo.groups.Load(); g != nil {
			return *g, nil
		}
	}
	groups, err := choiceGroups(ctx, t, maxGroupWork)
	if err != nil {
		return nil, err
	}
	if t.memo != nil {
		t.memo.groups.Store(&groups)
	}
	return groups, nil
}

// choiceGroups finds the choice groups of t in five steps: the choice
// tasks and their values; the pairs of tasks that exclude each other; the
// graph of those exclusions; its maximal cliques; and the cliques merged
// into groups that offer as many values as they have tasks.
func choiceGroups(ctx context.Context, t *Task, maxWork int) ([]ChoiceGroup, error) {
	a := newGroupAnalysis(ctx, t, maxWork)
	if !a.findChoiceTasks() {
		return nil, nil
	}
	mutual := a.mutualExclusions()
	if a.err != nil {
		return nil, a.err
	}
	a.exclusionGraph(mutual)
	sets := a.mergeCliques(a.cliques())
	if a.err != nil {
		return nil, a.err
	}
	var groups []ChoiceGroup
	for _, m := range sets {
		if g, ok := a.group(m); ok {
			groups = append(groups, g)
		}
	}
	return groups, nil
}

type groupAnalysis struct {
	ctx        context.Context
	err        error // the context's, once it ended
	t          *Task
	neverDel   []bool
	adds, negs [][]FactID // per task, once computed
	state      []int8     // per task: 0 new, 1 being computed, 2 done

	work, maxWork int
	polls         int         // calls of stopped
	tasks         []TaskID    // the choice tasks
	valueOf       []int       // per method of a choice task: its value, else -1
	offers        []sets.Bits // per choice task: its values
	nOffers       []int       // per choice task: how many
	methAdds      [][]FactID  // per method of a choice task
	methNegs      [][]FactID
	adj           []sets.Bits // exclusion graph over tasks' indices
	// anyAdds, anyNegs: the facts some choice method adds for good, or
	// requires false (the facts exclusions rest on), once computed
	anyAdds, anyNegs sets.Bits
}

func newGroupAnalysis(ctx context.Context, t *Task, maxWork int) *groupAnalysis {
	nt := t.NumTasks()
	a := &groupAnalysis{ctx: ctx, t: t, maxWork: maxWork, adds: make([][]FactID, nt), negs: make([][]FactID, nt), state: make([]int8, nt)}
	_, a.neverDel = t.Permanence()
	return a
}

// stopped looks at the context every 256 calls, without counting work,
// in loops that tick does not pace, and reports whether it ended.
func (a *groupAnalysis) stopped() bool {
	a.polls++
	if a.polls&255 == 0 && a.err == nil {
		a.err = a.ctx.Err()
	}
	return a.err != nil
}

// tick counts work and reports whether to stop: the budget is spent or
// the context ended.
func (a *groupAnalysis) tick() bool {
	a.work++
	if a.work&1023 == 0 && a.err == nil {
		a.err = a.ctx.Err()
	}
	return a.work > a.maxWork || a.err != nil
}

// findChoiceTasks collects the choice tasks of the initial network whose
// methods each bind one value; it reports whether there are two or more.
func (a *groupAnalysis) findChoiceTasks() bool {
	t := a.t
	a.valueOf = make([]int, len(t.Methods))
	for i := range a.valueOf {
		a.valueOf[i] = -1
	}
	for _, id := range t.Initial {
		if t.IsPrimitive(id) || !t.Compound(id).Synthetic() {
			continue
		}
		ok := true
		for _, m := range t.Compound(id).Methods {
			if len(t.Methods[m].Args) != 1 {
				ok = false
			}
		}
		if !ok {
			continue
		}
		a.tasks = append(a.tasks, id)
	}
	maxValue := 0
	for _, id := range a.tasks {
		for _, m := range t.Compound(id).Methods {
			a.valueOf[m] = t.Methods[m].Args[0]
			maxValue = max(maxValue, a.valueOf[m])
		}
	}
	for _, id := range a.tasks {
		offers := sets.NewBits(maxValue + 1)
		for _, m := range t.Compound(id).Methods {
			offers.Add(a.valueOf[m])
		}
		a.offers = append(a.offers, offers)
		a.nOffers = append(a.nOffers, offers.AndCount(offers))
	}
	return len(a.tasks) >= 2
}

// exclusion is a pair of choice tasks (indices into groupAnalysis.tasks,
// i < j) and the number of method pairs by which they block each other.
type exclusion struct{ i, j, n int32 }

// mutualExclusions counts, for every pair of choice tasks, the values on
// which their methods block each other both ways: each adds for good a
// fact the other requires to be false. Each pair is counted from its
// first task, in a dense counter over the second (a map keyed by pairs
// was an eighth of the analysis' allocations).
func (a *groupAnalysis) mutualExclusions() []exclusion {
	t := a.t
	a.methAdds = make([][]FactID, len(t.Methods))
	a.methNegs = make([][]FactID, len(t.Methods))
	index := make([]int32, t.NumTasks()) // choice task -> its last position in a.tasks
	var choiceMethods []MethodID
	for i, id := range a.tasks {
		if i&63 == 0 {
			if a.err = a.ctx.Err(); a.err != nil {
				return nil
			}
		}
		index[id] = int32(i)
		for _, m := range t.Compound(id).Methods {
			a.methAdds[m], a.methNegs[m] = a.method(m)
			choiceMethods = append(choiceMethods, m)
		}
	}
	// requires.row(f): the choice methods (indices into choiceMethods)
	// that require f false
	requires := csrOf(len(t.Facts), len(choiceMethods), func(i int) []FactID { return a.methNegs[choiceMethods[i]] })
	var mutual []exclusion
	count := make([]int32, len(a.tasks))     // of the pairs of task i, by the other task
	var met []int32                          // the other tasks counted
	done := make([]MethodID, len(t.Methods)) // done[m2] == m1+1: pair checked
	k := 0
	for i, id := range a.tasks {
		if index[id] != int32(i) {
			continue // a task the initial network has twice: at its last place
		}
		for _, m1 := range t.Compound(id).Methods {
			// a method of a 36x36 grid meets hundreds of others
			if k++; k&15 == 0 {
				if a.err = a.ctx.Err(); a.err != nil {
					return nil
				}
			}
			for _, f := range a.methAdds[m1] {
				for _, i2 := range requires.row(int32(f)) {
					m2 := choiceMethods[i2]
					task2 := t.Methods[m2].Task
					j := index[task2]
					if j <= int32(i) || task2 == id || done[m2] == m1+1 || a.valueOf[m2] != a.valueOf[m1] {
						continue
					}
					done[m2] = m1 + 1
					if a.blocks(m2, m1) {
						if count[j] == 0 {
							met = append(met, j)
						}
						count[j]++
					}
				}
			}
		}
		for _, j := range met {
			mutual = append(mutual, exclusion{int32(i), j, count[j]})
			count[j] = 0
		}
		met = met[:0]
	}
	return mutual
}

// blocks reports whether method m adds for good a fact that method o
// requires to be false.
func (a *groupAnalysis) blocks(m, o MethodID) bool {
	negs := a.methNegs[o]
	for _, g := range a.methAdds[m] {
		if _, ok := slices.BinarySearch(negs, g); ok {
			return true
		}
	}
	return false
}

// exclusionGraph links two tasks that exclude each other: they block each
// other on every value they share.
func (a *groupAnalysis) exclusionGraph(mutual []exclusion) {
	a.adj = make([]sets.Bits, len(a.tasks))
	for i := range a.adj {
		a.adj[i] = sets.NewBits(len(a.tasks))
	}
	for _, x := range mutual {
		if a.stopped() {
			return
		}
		i, j := int(x.i), int(x.j)
		shared := a.offers[i].AndCount(a.offers[j])
		a.work += len(a.offers[i]) // words counted
		if int(x.n) == shared {
			a.adj[i].Add(j)
			a.adj[j].Add(i)
		}
	}
}

// cliques lists the maximal cliques of the exclusion graph (Bron-Kerbosch
// with a pivot, on bitsets), as far as the work budget goes.
func (a *groupAnalysis) cliques() [][]int {
	var cliques [][]int
	// the candidate and excluded sets and the member lists of each depth
	// of the recursion, reused by siblings
	type level struct {
		p, x      sets.Bits
		ms, pivot []int
	}
	var levels []*level
	var bk func(d int, r []int, p, x sets.Bits)
	bk = func(d int, r []int, p, x sets.Bits) {
		if a.tick() {
			return
		}
		if p.Empty() && x.Empty() {
			if len(r) >= 2 {
				cliques = append(cliques, slices.Clone(r))
			}
			return
		}
		if d == len(levels) {
			levels = append(levels, &level{p: sets.NewBits(len(a.tasks)), x: sets.NewBits(len(a.tasks))})
		}
		lv := levels[d]
		pivot, best := -1, -1
		lv.pivot = x.AppendMembers(p.AppendMembers(lv.pivot[:0]))
		for _, u := range lv.pivot {
			if n := p.AndCount(a.adj[u]); n > best {
				pivot, best = u, n
			}
		}
		lv.ms = p.AppendMembers(lv.ms[:0])
		for _, v := range lv.ms {
			if a.adj[pivot].Has(v) {
				continue
			}
			bk(d+1, append(r, v), p.AndInto(a.adj[v], lv.p), x.AndInto(a.adj[v], lv.x))
			p.Remove(v)
			x.Add(v)
		}
	}
	all := sets.NewBits(len(a.tasks))
	for i := range a.tasks {
		all.Add(i)
	}
	bk(0, nil, all, sets.NewBits(len(a.tasks)))
	return cliques
}

// mergeCliques joins cliques that share two tasks while every pair of the
// union that shares a value still excludes each other. Two tasks without
// a common value cannot clash, so they are not linked in the graph, and a
// group may have been split into overlapping cliques.
func (a *groupAnalysis) mergeCliques(cliques [][]int) [][]int {
	compatible := func(i, j int) bool {
		return i == j || a.adj[i].Has(j) || a.offers[i].AndCount(a.offers[j]) == 0
	}
	var out [][]int
	seen := map[string]bool{}
	set := sets.NewBits(len(a.tasks))
	var members []int // of set
	var fresh []int   // of the clique k2 below, the tasks not in set
	for _, k := range cliques {
		clear(set)
		members = append(members[:0], k...)
		for _, x := range k {
			set.Add(x)
		}
		for changed := true; changed && a.work <= a.maxWork && a.err == nil; {
			changed = false
			for _, k2 := range cliques {
				if a.stopped() {
					break
				}
				overlap := 0
				fresh = fresh[:0]
				for _, x := range k2 {
					if set.Has(x) {
						overlap++
					} else {
						fresh = append(fresh, x)
					}
				}
				if overlap < 2 || len(fresh) == 0 {
					continue
				}
				ok := true
				for _, x := range fresh {
					for _, y := range members {
						if a.tick() || !compatible(x, y) {
							ok = false
							break
						}
					}
					if !ok {
						break
					}
				}
				if ok {
					for _, x := range fresh {
						set.Add(x)
					}
					members = append(members, fresh...)
					changed = true
				}
			}
		}
		key := bitsKey(set)
		if !seen[key] {
			seen[key] = true
			out = append(out, set.Members())
		}
	}
	return out
}

// bitsKey is a map key for a bit set.
func bitsKey(b sets.Bits) string {
	buf := make([]byte, 0, 8*len(b))
	for _, w := range b {
		buf = binary.LittleEndian.AppendUint64(buf, w)
	}
	return string(buf)
}

// task returns the facts a task adds for good, and those it requires to be
// false, in every decomposition.
func (a *groupAnalysis) task(id TaskID) ([]FactID, []FactID) {
	t := a.t
	switch a.state[id] {
	case 2:
		return a.adds[id], a.negs[id]
	case 1:
		return nil, nil // recursion: nothing is certain
	}
	if t.IsPrimitive(id) {
		ac := &t.Actions[id]
		var adds []FactID
		for _, f := range ac.Add {
			if a.neverDel[f] {
				adds = append(adds, f)
			}
		}
		a.state[id] = 2
		a.adds[id], a.negs[id] = sortedFacts(adds), sortedFacts(append([]FactID(nil), ac.NegPre...))
		return a.adds[id], a.negs[id]
	}
	a.state[id] = 1
	var adds, negs []FactID
	for k, m := range t.Compound(id).Methods {
		ma, mn := a.method(m)
		if k == 0 {
			adds, negs = ma, mn
		} else {
			adds, negs = intersect(adds, ma), intersect(negs, mn)
		}
	}
	a.state[id] = 2
	a.adds[id], a.negs[id] = adds, negs
	return adds, negs
}

func (a *groupAnalysis) method(m MethodID) ([]FactID, []FactID) {
	gm := &a.t.Methods[m]
	var adds []FactID
	negs := sortedFacts(append([]FactID(nil), gm.NegPre...))
	for _, s := range gm.Subtasks {
		sa, sn := a.task(s)
		adds, negs = union(adds, sa), union(negs, sn)
	}
	return adds, negs
}

// group builds a ChoiceGroup from a clique if its tasks offer exactly as
// many values as they are.
func (a *groupAnalysis) group(r []int) (ChoiceGroup, bool) {
	if len(r) < 2 {
		return ChoiceGroup{}, false
	}
	t := a.t
	atomic := true
	g := ChoiceGroup{Tasks: make([]TaskID, 0, len(r))}
	// the methods by value, in the clique's order within a value: one
	// block cut into ByValue
	type bound struct {
		v int
		m MethodID
	}
	size := 0
	for _, i := range r {
		size += len(t.Compound(a.tasks[i]).Methods)
	}
	all := make([]bound, 0, size)
	for _, i := range r {
		g.Tasks = append(g.Tasks, a.tasks[i])
		for _, m := range t.Compound(a.tasks[i]).Methods {
			all = append(all, bound{a.valueOf[m], m})
			if !a.atomic(m) {
				atomic = false
			}
		}
	}
	slices.SortStableFunc(all, func(x, y bound) int { return x.v - y.v })
	n := 0
	for k := range all {
		if k == 0 || all[k].v != all[k-1].v {
			n++
		}
	}
	if n != len(r) {
		return ChoiceGroup{}, false
	}
	ms := make([]MethodID, len(all))
	g.Values = make([]int, 0, n)
	g.ByValue = make([][]MethodID, 0, n)
	start := 0
	for k, b := range all {
		ms[k] = b.m
		if k+1 == len(all) || all[k+1].v != b.v {
			g.Values = append(g.Values, b.v)
			g.ByValue = append(g.ByValue, ms[start:k+1:k+1])
			start = k + 1
		}
	}
	slices.Sort(g.Tasks)
	g.Atomic = atomic
	return g, true
}

// atomic reports whether method m's decomposition begins with exactly one
// action, reached through tasks with a single method each, so that the
// progression search runs that much as one step (single-method tasks go
// first, applicable actions at once), and whether what follows the action
// (in totally ordered methods) adds for good, or requires false, in every
// decomposition, no fact that the part up to the action does not and that
// a choice method's exclusion could rest on (one that some choice method
// requires false, or adds for good): the exclusions, computed over the
// whole decomposition, then rest on that part alone. A choice whose action
// is followed by bookkeeping with several methods (a counter moved on, say)
// is such a method.
func (a *groupAnalysis) atomic(m MethodID) bool {
	t := a.t
	a.anyFacts()
	actions := 0
	var adds, negs []FactID
	ok := true
	// strict: what comes after the action here may come before it (a
	// partially ordered method above), so it must hold no choice and no
	// other action, as before any action
	var walk func(m MethodID, depth int, strict bool)
	walk = func(m MethodID, depth int, strict bool) {
		gm := &t.Methods[m]
		if depth > 64 {
			ok = false
			return
		}
		total := gm.Total || chained(gm)
		if actions == 0 {
			negs = union(negs, sortedFacts(append([]FactID(nil), gm.NegPre...)))
		}
		for _, s := range gm.Subtasks {
			switch {
			case !ok:
				return
			case actions == 1 && total && !strict && !a.pureChain(s, depth+1):
				// after the action, and not run with it: no exclusion may
				// rest on what it adds or requires false
				sa, sn := a.task(s)
				if !inert(sa, adds, a.anyNegs) || !inert(sn, negs, a.anyAdds) {
					ok = false
				}
			case t.IsPrimitive(s):
				actions++
				sa, sn := a.task(s)
				adds, negs = union(adds, sa), union(negs, sn)
			case len(t.Compound(s).Methods) != 1:
				ok = false
			default:
				walk(t.Compound(s).Methods[0], depth+1, strict || (actions == 1 && !total))
			}
		}
	}
	walk(m, 0, false)
	return ok && actions == 1
}

// pureChain reports whether task id reaches no action and only tasks with
// a single method (tests, which the search runs at once).
func (a *groupAnalysis) pureChain(id TaskID, depth int) bool {
	t := a.t
	if t.IsPrimitive(id) || len(t.Compound(id).Methods) != 1 || depth > 64 {
		return false
	}
	for _, s := range t.Methods[t.Compound(id).Methods[0]].Subtasks {
		if !a.pureChain(s, depth+1) {
			return false
		}
	}
	return true
}

// chained reports whether m's ordering puts each subtask before the next
// (as compaction orders the subtasks of an inlined totally ordered method
// under a method not marked total).
func chained(m *Method) bool {
	next := make([]bool, len(m.Subtasks))
	for _, o := range m.Ordering {
		if o.After == o.Before+1 {
			next[o.Before] = true
		}
	}
	return !slices.Contains(next[:max(len(next)-1, 0)], false)
}

// inert reports whether each fact of fs is in sorted prefix (the part
// before the action has it too) or not in other (no choice method's
// exclusion can rest on it).
func inert(fs, prefix []FactID, other sets.Bits) bool {
	for _, f := range fs {
		if _, ok := slices.BinarySearch(prefix, f); !ok && other.Has(int(f)) {
			return false
		}
	}
	return true
}

// anyFacts sets anyAdds and anyNegs from the choice methods' facts.
func (a *groupAnalysis) anyFacts() {
	if a.anyAdds != nil {
		return
	}
	n := len(a.t.Facts)
	a.anyAdds, a.anyNegs = sets.NewBits(n), sets.NewBits(n)
	for m := range a.methAdds {
		for _, f := range a.methAdds[m] {
			a.anyAdds.Add(int(f))
		}
		for _, f := range a.methNegs[m] {
			a.anyNegs.Add(int(f))
		}
	}
}

func sortedFacts(fs []FactID) []FactID {
	slices.Sort(fs)
	return fs
}

func intersect(a, b []FactID) []FactID {
	var out []FactID
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// union merges two sorted fact lists; a list is never changed after it is
// made, so an empty side returns the other one itself.
func union(a, b []FactID) []FactID {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]FactID, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
