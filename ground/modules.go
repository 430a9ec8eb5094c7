package ground

import (
	"context"
	"math/bits"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/sets"
)

// widenToModules merges into each component of uf (over the n tasks of a
// network ordered by order, totally when total) the tasks that are not
// ordered the same way with respect to all its members, until every
// component is a module of the ordering: each task outside it is before
// all its members, after all of them, or unordered with all of them.
//
// A network of one task per component needs nothing. A total order needs
// one pass: a module of a total order is a run of consecutive tasks, so
// each component widens to the span from its first to its last member,
// and overlapping spans merge; so does an ordering that turns out to be
// total (a chain of :ordering pairs). Another partial order looks, for each member of
// a component of several tasks, at the tasks before and after it (two
// searches of the ordering), which costs the members times the size of
// the ordering; singletons cost nothing. Memory stays linear in n and the
// ordering either way. It stops with ctx's error when ctx is done.
func widenToModules(ctx context.Context, uf unionFind, n int, order []hddl.Order, total bool) error {
	size := make([]int, n)
	shared := false
	for i := range n {
		r := uf.find(i)
		size[r]++
		shared = shared || size[r] > 1
	}
	if !shared {
		return nil
	}
	if total {
		widenSpans(uf, n, nil)
		return nil
	}
	succ, pred := adjacency(n, order)
	if pos := chainPositions(n, succ, pred); pos != nil {
		widenSpans(uf, n, pos)
		return nil
	}
	return widenPartial(ctx, uf, n, succ, pred)
}

// chainPositions returns the task at each position of the ordering when
// it is a total order (a topological order whose every two neighbours are
// ordered directly, as a chain of :ordering pairs is), else nil.
func chainPositions(n int, succ, pred [][]int32) []int {
	indeg := make([]int, n)
	var at []int
	for i := range n {
		if indeg[i] = len(pred[i]); indeg[i] == 0 {
			at = append(at, i)
		}
	}
	if len(at) != 1 {
		return nil
	}
	for k := 0; k < len(at); k++ {
		next := -1
		for _, x := range succ[at[k]] {
			if indeg[x]--; indeg[x] == 0 {
				if next >= 0 {
					return nil // two tasks may come next: not total
				}
				next = int(x)
			}
		}
		if next >= 0 {
			at = append(at, next)
		}
	}
	if len(at) != n {
		return nil // a cycle
	}
	return at
}

// widenSpans widens the components of a totally ordered network to runs
// of consecutive tasks; at[k] is the task at position k (nil: task k).
func widenSpans(uf unionFind, n int, at []int) {
	task := func(k int) int {
		if at == nil {
			return k
		}
		return at[k]
	}
	last := make([]int, n) // per root: the position of its last member
	for k := range n {
		last[uf.find(task(k))] = k
	}
	end := -1 // the end of the span the sweep is in
	for k := range n {
		r := uf.find(task(k))
		if k <= end {
			uf.union(task(k), task(k-1))
		}
		end = max(end, last[r])
	}
}

// widenPartial widens the components of a partially ordered network,
// rechecking a component only when it has grown since it was last found
// to be a module (a component that has not changed stays one: whether a
// task is ordered alike with all members depends on the members alone).
func widenPartial(ctx context.Context, uf unionFind, n int, succ, pred [][]int32) error {
	w := &moduleWalk{
		seen: sets.NewBits(n), anyBefore: sets.NewBits(n), allBefore: sets.NewBits(n),
		anyAfter: sets.NewBits(n), allAfter: sets.NewBits(n),
	}
	checked := map[int]int{} // root -> the size it had when found a module
	for {
		members := make(map[int][]int)
		for i := range n {
			r := uf.find(i)
			members[r] = append(members[r], i)
		}
		changed := false
		for r, ms := range members {
			if len(ms) < 2 || checked[r] == len(ms) {
				continue
			}
			checked[r] = len(ms)
			grown, err := w.widen(ctx, uf, ms, succ, pred)
			if err != nil {
				return err
			}
			changed = changed || grown
		}
		if !changed {
			return nil
		}
	}
}

// adjacency lists each task's direct successors and predecessors.
func adjacency(n int, order []hddl.Order) (succ, pred [][]int32) {
	succ, pred = make([][]int32, n), make([][]int32, n)
	for _, o := range order {
		succ[o.Before] = append(succ[o.Before], int32(o.After))
		pred[o.After] = append(pred[o.After], int32(o.Before))
	}
	return succ, pred
}

// moduleWalk holds the sets widen reuses: the tasks before (after) some
// member and before (after) every member of the component at hand.
type moduleWalk struct {
	seen, anyBefore, allBefore, anyAfter, allAfter sets.Bits
	stack                                          []int32
}

// widen merges into the component of members every task ordered
// differently with respect to two of them; it reports whether it merged
// any.
func (w *moduleWalk) widen(ctx context.Context, uf unionFind, members []int, succ, pred [][]int32) (bool, error) {
	for k, m := range members {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		w.reach(m, pred)
		w.fold(w.anyBefore, w.allBefore, k == 0)
		w.reach(m, succ)
		w.fold(w.anyAfter, w.allAfter, k == 0)
	}
	root := uf.find(members[0])
	grown := false
	for _, p := range [][2]sets.Bits{{w.anyBefore, w.allBefore}, {w.anyAfter, w.allAfter}} {
		for i, word := range p[0] {
			for diff := word &^ p[1][i]; diff != 0; diff &= diff - 1 {
				o := i*64 + bits.TrailingZeros64(diff)
				if uf.find(o) != root {
					uf.union(o, members[0])
					root = uf.find(members[0])
					grown = true
				}
			}
		}
	}
	return grown, nil
}

// reach puts into w.seen the tasks reachable from m along next (m
// itself not included unless on a cycle).
func (w *moduleWalk) reach(m int, next [][]int32) {
	clear(w.seen)
	w.stack = append(w.stack[:0], next[m]...)
	for len(w.stack) > 0 {
		x := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		if w.seen.Has(int(x)) {
			continue
		}
		w.seen.Add(int(x))
		w.stack = append(w.stack, next[x]...)
	}
}

// fold adds w.seen to the union any and the intersection all (which it
// starts when first).
func (w *moduleWalk) fold(any, all sets.Bits, first bool) {
	if first {
		copy(any, w.seen)
		copy(all, w.seen)
		return
	}
	for i, word := range w.seen {
		any[i] |= word
		all[i] &= word
	}
}
