package htn

import "github.com/htnsat/htnsat/internal/sets"

// locker applies the rule of locked values across choice groups. Each
// pair (group, value) is taken by exactly one method in a plan: one of
// the live, untaken methods of the group's undecided tasks that bind the
// value (see groupState). When every such method of a pair p also binds
// another pair q, the method that takes p takes q as well, so q's other
// methods can be part of no plan below the node and are killed. (In a
// Sudoku, a digit whose places left in a box all lie in one row leaves the
// rest of that row: "locked candidates"; the rule itself knows only
// methods and pairs.) Single groups see none of this: their counters see a
// value left to one task or to none, their matching (matcher) the values
// their tasks can take one to one; the rule relates two groups that share
// tasks.
//
// Only a pair that lost a method can newly make the rule fire, so the
// pairs whose counters went down are queued (groupState.dec) and looked
// at when the search is about to branch.
type locker struct {
	queue sets.Index[int32] // pairs to look at
	live  []int32           // scratch: the live methods of the pair looked at
}

func newLocker(gs *groupState) *locker {
	lk := &locker{}
	lk.queue.Grow(len(gs.pairMeths))
	return lk
}

// touch queues pair p, whose count just went down.
func (lk *locker) touch(p int32) {
	if !lk.queue.Has(p) {
		lk.queue.Add(p)
	}
}

func (lk *locker) pending() bool { return len(lk.queue.Members) > 0 }
func (lk *locker) clear()        { lk.queue.Clear() }

// counted reports whether method m is in the counters of its pairs: live,
// untaken, of an undecided task.
func counted(s *dfs, m int32) bool {
	return !s.methDead[m] && !s.groups.taken(m) && !s.groups.decided[s.v.meths[m].Task]
}

// propagate applies the rule to the queued pairs until none is left (the
// kills queue more) and reports false at a dead end (see matcher.propagate).
func (lk *locker) propagate(s *dfs) bool {
	gs := s.groups
	for len(lk.queue.Members) > 0 {
		if s.deadEnd > 0 || gs.zero > 0 {
			return false
		}
		p := lk.queue.Pop()
		if gs.used[p] > 0 || gs.cnt[p] == 0 {
			continue
		}
		lk.live = lk.live[:0]
		for _, m := range gs.pairMeths[p] {
			if counted(s, m) {
				lk.live = append(lk.live, m)
			}
		}
		if len(lk.live) == 0 {
			continue
		}
		// the pairs every live method of p binds
		for _, q := range gs.methPairs[lk.live[0]] {
			if q == p || gs.used[q] > 0 || gs.cnt[q] <= int32(len(lk.live)) {
				continue
			}
			all := true
			for _, m := range lk.live[1:] {
				if !binds(gs, m, q) {
					all = false
					break
				}
			}
			if !all {
				continue
			}
			for _, m := range gs.pairMeths[q] {
				if counted(s, m) && !binds(gs, m, p) {
					s.killMethod(m)
					s.stats.Locked++
				}
			}
		}
	}
	return s.deadEnd == 0 && gs.zero == 0
}

// binds reports whether method m binds pair q.
func binds(gs *groupState, m, q int32) bool {
	for _, x := range gs.methPairs[m] {
		if x == q {
			return true
		}
	}
	return false
}
