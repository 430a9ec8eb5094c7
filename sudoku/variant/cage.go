package variant

import (
	"math/bits"
	"strconv"

	"github.com/htnsat/htnsat/internal/sets"
)

// cageStates is the automaton a killer cage's running sum follows in the
// HDDL model: its states are what the digits placed so far say about the
// cage, a step places one more digit, and every state can still end in a
// full cage adding up to its total. A state is the set of digits placed
// (each set that a combination of the cage contains, so a step is allowed
// exactly when some combination still fits: the reasoning of a solver's
// combination table) or, where a cage has too many such sets, the sum and
// the count placed (a step is allowed when the other cells can still make
// up the total with distinct allowed digits).
type cageStates struct {
	n     int      // states 0..n-1; state 0 is the cage before the fills (its givens placed)
	steps []cStep  // every allowed step
	final []bool   // per state: the cage is full and adds up to its total
	label []string // per state: how it reads (digits placed, or sum/count)
}

type cStep struct{ from, digit, to int }

// maxCageStates bounds the sets of placed digits a cage may have before
// its automaton counts sums instead.
const maxCageStates = 4096

// maxCageWork bounds the combinations scanned while the sets are explored.
const maxCageWork = 4_000_000

// newCageStates builds the automaton of a cage of size cells (digits
// 1..n, all different) adding up to total, whose givens hold the digits
// given. It is nil when no state before the fills can end in a full cage.
func newCageStates(n, size, total int, given []int) *cageStates {
	var start uint64
	for _, d := range given {
		start |= 1 << d
	}
	if c := setStates(n, size, total, start); c != nil {
		return c
	}
	sum := 0
	for _, d := range given {
		sum += d
	}
	return sumStates(n, size, total, sum, len(given))
}

// setStates is the automaton over sets of placed digits, or nil when the
// cage has more than maxCageStates of them (or none, or takes too long to
// enumerate).
func setStates(n, size, total int, start uint64) *cageStates {
	if n > 62 {
		return nil
	}
	// the combinations that contain the givens, while they are few
	var combos []uint64
	calls := 0 // a cage of a large grid with no combination could take long to say so
	var rec func(next, left, rest int, set uint64) bool
	rec = func(next, left, rest int, set uint64) bool {
		if calls++; calls > 100*maxCageStates {
			return false
		}
		if left == 0 {
			if rest == 0 && set&start == start {
				combos = append(combos, set)
			}
			return len(combos) <= maxCageStates
		}
		for d := next; d <= n && d <= rest; d++ {
			if !rec(d+1, left-1, rest-d, set|1<<d) {
				return false
			}
		}
		return true
	}
	if !rec(1, size, total, 0) || len(combos) == 0 {
		return nil
	}
	// each step scans the combinations: a bound on the scans keeps a cage
	// of a large grid to its sums
	work := 0
	fits := func(set uint64) bool {
		for _, c := range combos {
			if work++; c&set == set {
				return true
			}
		}
		return false
	}
	c := explore(start, n, func(set uint64, d int) (uint64, bool) {
		next := set | 1<<d
		return next, work <= maxCageWork && set&(1<<d) == 0 && fits(next)
	}, func(set uint64) bool { return bits.OnesCount64(set) == size }, setLabel)
	if work > maxCageWork {
		return nil
	}
	return c
}

// explore builds the automaton of the states reachable from start by
// digits 1..n, step(q, d) giving the state after d and whether d is
// allowed; nil past maxCageStates states.
func explore[S comparable](start S, n int, step func(S, int) (S, bool), final func(S) bool, label func(S) string) *cageStates {
	index := map[S]int{start: 0}
	states := []S{start}
	c := &cageStates{}
	for q := 0; q < len(states); q++ {
		for d := 1; d <= n; d++ {
			next, ok := step(states[q], d)
			if !ok {
				continue
			}
			to, seen := index[next]
			if !seen {
				if len(states) == maxCageStates {
					return nil
				}
				to = len(states)
				index[next] = to
				states = append(states, next)
			}
			c.steps = append(c.steps, cStep{q, d, to})
		}
	}
	c.n = len(states)
	for _, s := range states {
		c.final = append(c.final, final(s))
		c.label = append(c.label, label(s))
	}
	return c
}

func setLabel(s uint64) string {
	out := "set"
	for d := 1; d < 64; d++ {
		if s&(1<<d) != 0 {
			out += "-" + strconv.Itoa(d)
		}
	}
	return out
}

// sumStates is the automaton over (sum, count) placed: a step to (t, j)
// is allowed when size-j distinct allowed digits can add up to total-t.
func sumStates(n, size, total, sum, count int) *cageStates {
	allowed := cageDigits(n, size, total)
	can := subsetSums(n, size, total, func(d int) bool { return allowed[d] })
	ok := func(s, j int) bool { return j <= size && s <= total && can[size-j].Has(total-s) }
	if !ok(sum, count) {
		return nil
	}
	return explore([2]int{sum, count}, n, func(q [2]int, d int) ([2]int, bool) {
		next := [2]int{q[0] + d, q[1] + 1}
		return next, allowed[d] && ok(next[0], next[1])
	}, func(q [2]int) bool { return q[1] == size }, func(q [2]int) string {
		return "sum-" + strconv.Itoa(q[0]) + "-" + strconv.Itoa(q[1])
	})
}

// cageDigits lists the digits that some set of size distinct digits 1..n
// adding up to sum contains: x is one when size-1 of the other digits add
// up to sum-x (enumerating the sets took seconds for one row-long cage of
// a 25x25 grid).
func cageDigits(n, size, sum int) []bool {
	ok := make([]bool, n+1)
	if size < 1 || sum < 1 {
		return ok
	}
	for x := 1; x <= n && x <= sum; x++ {
		can := subsetSums(n, size-1, sum, func(d int) bool { return d != x })
		ok[x] = can[size-1].Has(sum - x)
	}
	return ok
}

// subsetSums returns, for m = 0..size, the sums up to total that m
// distinct digits of 1..n that use allows can add up to (a subset-sum
// table over bit sets).
func subsetSums(n, size, total int, use func(d int) bool) []sets.Bits {
	can := make([]sets.Bits, size+1)
	for m := range can {
		can[m] = sets.NewBits(total + 1)
	}
	can[0].Add(0)
	for d := 1; d <= n; d++ {
		if !use(d) {
			continue
		}
		for m := size; m >= 1; m-- {
			orShifted(can[m], can[m-1], d)
		}
	}
	return can
}

// orShifted sets dst |= src << k over bit sets of the same length (bits
// past the end dropped).
func orShifted(dst, src sets.Bits, k int) {
	w, b := k/64, uint(k%64)
	for i := len(dst) - 1; i >= w; i-- {
		v := src[i-w] << b
		if b > 0 && i-w-1 >= 0 {
			v |= src[i-w-1] >> (64 - b)
		}
		dst[i] |= v
	}
}
