package ground

import (
	"fmt"
	"math/bits"
	"sort"
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

// ChoiceGroups finds the choice groups of t. The search for groups (maximal
// cliques of pairwise exclusive choice tasks) stops after about maxWork
// steps and returns what it found.
func (t *Task) ChoiceGroups(maxWork int) []ChoiceGroup {
	nt := t.NumTasks()
	a := &groupAnalysis{t: t, adds: make([][]FactID, nt), negs: make([][]FactID, nt), state: make([]int8, nt)}
	a.neverDel = make([]bool, len(t.Facts))
	for i := range a.neverDel {
		a.neverDel[i] = true
	}
	for _, ac := range t.Actions {
		for _, f := range ac.Del {
			a.neverDel[f] = false
		}
	}
	// choice tasks binding one variable, and their methods by value
	var tasks []TaskID
	value := map[MethodID]int{}
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
		if ok {
			tasks = append(tasks, id)
			for _, m := range t.Compound(id).Methods {
				value[m] = t.Methods[m].Args[0]
			}
		}
	}
	if len(tasks) < 2 {
		return nil
	}
	methAdds := make([][]FactID, len(t.Methods))
	methNegs := make([][]FactID, len(t.Methods))
	for _, id := range tasks {
		for _, m := range t.Compound(id).Methods {
			methAdds[m], methNegs[m] = a.method(m)
		}
	}
	// Two methods with the same value block each other when each adds for
	// good a fact the other requires to be false. Count, for every pair of
	// tasks, the values on which their methods block each other both ways,
	// and the values they share: the tasks exclude each other when the two
	// counts agree.
	index := map[TaskID]int{}
	for i, id := range tasks {
		index[id] = i
	}
	requires := make([][]MethodID, len(t.Facts))
	var choiceMethods []MethodID
	for _, id := range tasks {
		choiceMethods = append(choiceMethods, t.Compound(id).Methods...)
	}
	for _, m := range choiceMethods {
		for _, f := range methNegs[m] {
			requires[f] = append(requires[f], m)
		}
	}
	valueOf := make([]int, len(t.Methods))
	for i := range valueOf {
		valueOf[i] = -1
	}
	for m, v := range value {
		valueOf[m] = v
	}
	requiresFalse := func(m MethodID, f FactID) bool {
		negs := methNegs[m]
		k := sort.Search(len(negs), func(i int) bool { return negs[i] >= f })
		return k < len(negs) && negs[k] == f
	}
	mutual := map[[2]int]int{}
	done := make([]MethodID, len(t.Methods)) // done[m2] == m1+1: pair checked
	for _, m1 := range choiceMethods {
		for _, f := range methAdds[m1] {
			for _, m2 := range requires[f] {
				if m2 <= m1 || done[m2] == m1+1 || valueOf[m2] != valueOf[m1] || t.Methods[m2].Task == t.Methods[m1].Task {
					continue
				}
				done[m2] = m1 + 1
				back := false
				for _, g := range methAdds[m2] {
					if requiresFalse(m1, g) {
						back = true
						break
					}
				}
				if back {
					i, j := index[t.Methods[m1].Task], index[t.Methods[m2].Task]
					mutual[[2]int{min(i, j), max(i, j)}]++
				}
			}
		}
	}
	offers := make([]map[int]bool, len(tasks))
	for i, id := range tasks {
		offers[i] = map[int]bool{}
		for _, m := range t.Compound(id).Methods {
			offers[i][value[m]] = true
		}
	}
	adj := make([]bitset, len(tasks))
	for i := range adj {
		adj[i] = newBitset(len(tasks))
	}
	work := 0
	for pair, n := range mutual {
		i, j := pair[0], pair[1]
		shared := 0
		for v := range offers[i] {
			if offers[j][v] {
				shared++
			}
		}
		work += len(offers[i])
		if n == shared {
			adj[i].set(j)
			adj[j].set(i)
		}
	}
	// maximal cliques of the exclusion graph (Bron-Kerbosch with a pivot,
	// on bitsets)
	var cliques [][]int
	var bk func(r []int, p, x bitset)
	bk = func(r []int, p, x bitset) {
		if work > maxWork {
			return
		}
		work++
		if p.empty() && x.empty() {
			if len(r) >= 2 {
				cliques = append(cliques, append([]int(nil), r...))
			}
			return
		}
		pivot, best := -1, -1
		for _, u := range append(p.members(), x.members()...) {
			if n := p.andCount(adj[u]); n > best {
				pivot, best = u, n
			}
		}
		for _, v := range p.members() {
			if adj[pivot].has(v) {
				continue
			}
			bk(append(r, v), p.and(adj[v]), x.and(adj[v]))
			p.clear(v)
			x.set(v)
		}
	}
	all := newBitset(len(tasks))
	for i := range tasks {
		all.set(i)
	}
	bk(nil, all, newBitset(len(tasks)))
	// Two tasks without a common value cannot clash, so they are not
	// linked in the graph, and a group may be split into overlapping
	// cliques: merge cliques that share two tasks while every pair of the
	// union that shares a value still excludes each other.
	compatible := func(i, j int) bool {
		return i == j || adj[i].has(j) || disjointValues(offers[i], offers[j])
	}
	var sets [][]int
	seen := map[string]bool{}
	for _, k := range cliques {
		set := map[int]bool{}
		for _, x := range k {
			set[x] = true
		}
		for changed := true; changed && work <= maxWork; {
			changed = false
			for _, k2 := range cliques {
				overlap, fresh := 0, []int{}
				for _, x := range k2 {
					if set[x] {
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
					for y := range set {
						work++
						if !compatible(x, y) {
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
						set[x] = true
					}
					changed = true
				}
			}
		}
		members := make([]int, 0, len(set))
		for x := range set {
			members = append(members, x)
		}
		sort.Ints(members)
		key := fmt.Sprint(members)
		if !seen[key] {
			seen[key] = true
			sets = append(sets, members)
		}
	}
	// kept when the tasks offer exactly as many values as they are
	var groups []ChoiceGroup
	for _, m := range sets {
		if g, ok := a.group(m, tasks, value); ok {
			groups = append(groups, g)
		}
	}
	return groups
}

// disjointValues reports whether two tasks offer no common value.
func disjointValues(a, b map[int]bool) bool {
	for v := range a {
		if b[v] {
			return false
		}
	}
	return true
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) clear(i int)    { b[i>>6] &^= 1 << (uint(i) & 63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

func (b bitset) and(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range b {
		out[i] = b[i] & c[i]
	}
	return out
}

func (b bitset) andCount(c bitset) int {
	n := 0
	for i := range b {
		n += bits.OnesCount64(b[i] & c[i])
	}
	return n
}

func (b bitset) members() []int {
	var out []int
	for i, w := range b {
		for w != 0 {
			k := bits.TrailingZeros64(w)
			out = append(out, i*64+k)
			w &= w - 1
		}
	}
	return out
}

type groupAnalysis struct {
	t          *Task
	neverDel   []bool
	adds, negs [][]FactID // per task, once computed
	state      []int8     // per task: 0 new, 1 being computed, 2 done
}

// task returns the facts a task adds for good, and those it requires to be
// false, in every decomposition.
func (a *groupAnalysis) task(id TaskID) ([]FactID, []FactID) {
	t := a.t
	if t.IsPrimitive(id) {
		ac := &t.Actions[id]
		var adds []FactID
		for _, f := range ac.Add {
			if a.neverDel[f] {
				adds = append(adds, f)
			}
		}
		return sortedFacts(adds), sortedFacts(append([]FactID(nil), ac.NegPre...))
	}
	switch a.state[id] {
	case 2:
		return a.adds[id], a.negs[id]
	case 1:
		return nil, nil // recursion: nothing is certain
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
	adds := []FactID{}
	negs := sortedFacts(append([]FactID(nil), gm.NegPre...))
	for _, s := range gm.Subtasks {
		sa, sn := a.task(s)
		adds, negs = union(adds, sa), union(negs, sn)
	}
	return adds, negs
}

// group builds a ChoiceGroup from a clique if its tasks offer exactly as
// many values as they are.
func (a *groupAnalysis) group(r []int, tasks []TaskID, value map[MethodID]int) (ChoiceGroup, bool) {
	if len(r) < 2 {
		return ChoiceGroup{}, false
	}
	t := a.t
	vals := map[int][]MethodID{}
	atomic := true
	g := ChoiceGroup{}
	for _, i := range r {
		g.Tasks = append(g.Tasks, tasks[i])
		for _, m := range t.Compound(tasks[i]).Methods {
			vals[value[m]] = append(vals[value[m]], m)
			if !a.atomic(m) {
				atomic = false
			}
		}
	}
	if len(vals) != len(r) {
		return ChoiceGroup{}, false
	}
	for v := range vals {
		g.Values = append(g.Values, v)
	}
	sort.Ints(g.Values)
	sort.Slice(g.Tasks, func(x, y int) bool { return g.Tasks[x] < g.Tasks[y] })
	for _, v := range g.Values {
		g.ByValue = append(g.ByValue, vals[v])
	}
	g.Atomic = atomic
	return g, true
}

// atomic reports whether method m leads to exactly one action, through
// tasks with a single method each.
func (a *groupAnalysis) atomic(m MethodID) bool {
	t := a.t
	actions := 0
	var walk func(m MethodID, depth int) bool
	walk = func(m MethodID, depth int) bool {
		if depth > 64 {
			return false
		}
		for _, s := range t.Methods[m].Subtasks {
			if t.IsPrimitive(s) {
				actions++
				continue
			}
			c := t.Compound(s)
			if len(c.Methods) != 1 || !walk(c.Methods[0], depth+1) {
				return false
			}
		}
		return true
	}
	return walk(m, 0) && actions == 1
}

func sortedFacts(fs []FactID) []FactID {
	sort.Slice(fs, func(i, j int) bool { return fs[i] < fs[j] })
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

func union(a, b []FactID) []FactID {
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
