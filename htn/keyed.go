package htn

import (
	"math/bits"
	"slices"

	"github.com/htnsat/htnsat/internal/sets"
)

// A task with a method per binding of variables its preconditions test
// (IPC Snake's moves: one per place the snake's tail may be, thousands
// per task) has most of its methods fail in any state, and in eager mode
// the searches look at every one at each decomposition of the task. For
// a task of at least keyedMin methods, a method's key is the
// precondition fewest of the task's methods share (a positive one where
// it has one): checked first, from a flat array, it turns most of those
// looks into one bit of the state instead of a walk of the method's
// preconditions in memory far from the others'. The task's methods are
// also indexed by their positive keys (keyedMethods): the words of the
// state its keys lie in, ANDed with their masks, give the methods whose
// keys hold without a look at the others, in the order the search would
// have met them (their places in the order it tries them in).

// keyedMin is the fewest methods a task has keys and an index for:
// below it a look at each method's key costs about what the index does.
const keyedMin = 64

// keyedMethods indexes the methods of a compound task by their positive
// keys: the task's key facts lie in state words words[i] with bits
// masks[i]; the key facts before word i number before[i]; the methods of
// the j-th key fact (in fact order) are meths[start[j]:start[j+1]], and
// rest are the methods without a positive key (always candidates).
type keyedMethods struct {
	words  []int32
	masks  []uint64
	before []int32
	start  []int32
	meths  []int32
	rest   []int32
}

// keyPreconditions fills key, keyed and pos for the tasks of at least
// keyedMin methods, and leaves them nil when there are none: below it a
// look at a method's preconditions costs about what its key saves.
func (v *view) keyPreconditions() {
	if !slices.ContainsFunc(v.taskMeths, func(ms []int32) bool { return len(ms) >= keyedMin }) {
		return
	}
	v.key = make([]int32, len(v.meths))
	v.pos = make([]int32, len(v.meths))
	v.keyed = make([]*keyedMethods, len(v.taskMeths))
	count := make(map[int32]int32)
	for c, ms := range v.taskMeths {
		if len(ms) < keyedMin {
			continue
		}
		for i, m := range ms {
			v.pos[m] = int32(i)
		}
		clear(count)
		for _, m := range ms {
			for _, f := range v.meths[m].Pre {
				count[int32(f)+1]++
			}
			for _, f := range v.meths[m].NegPre {
				count[-int32(f)-1]++
			}
		}
		for _, m := range ms {
			v.key[m] = v.rarest(m, count, len(ms))
		}
		v.keyed[c] = v.keyIndex(ms)
	}
}

// keyedOf is the index of compound task c's methods by key, or nil.
func (v *view) keyedOf(c int) *keyedMethods {
	if v.keyed == nil {
		return nil
	}
	return v.keyed[c]
}

// rarest is the precondition of method m, of a task of n methods, the
// fewest of them share (count, by key): a positive one if m has any.
func (v *view) rarest(m int32, count map[int32]int32, n int) int32 {
	best, least := int32(0), int32(n+1)
	for _, f := range v.meths[m].Pre {
		if k := int32(f) + 1; count[k] < least {
			best, least = k, count[k]
		}
	}
	if best != 0 {
		return best
	}
	for _, f := range v.meths[m].NegPre {
		if k := -int32(f) - 1; count[k] < least {
			best, least = k, count[k]
		}
	}
	return best
}

// keyIndex indexes methods ms (a task's) by their positive keys, or
// returns nil when most have none.
func (v *view) keyIndex(ms []int32) *keyedMethods {
	k := &keyedMethods{}
	byKey := make([]int32, 0, len(ms))
	for _, m := range ms {
		if v.key[m] > 0 {
			byKey = append(byKey, m)
		} else {
			k.rest = append(k.rest, m)
		}
	}
	if len(k.rest) > len(ms)/2 {
		return nil // most would be looked at anyway
	}
	slices.SortStableFunc(byKey, func(a, b int32) int { return int(v.key[a] - v.key[b]) })
	k.meths = byKey
	last, nKeys := int32(-1), int32(0)
	for i, m := range byKey {
		f := v.key[m] - 1
		if f == last {
			continue
		}
		last = f
		k.start = append(k.start, int32(i))
		if w := f >> 6; len(k.words) == 0 || k.words[len(k.words)-1] != w {
			k.words = append(k.words, w)
			k.masks = append(k.masks, 0)
			k.before = append(k.before, nKeys)
		}
		k.masks[len(k.masks)-1] |= 1 << (uint(f) & 63)
		nKeys++
	}
	k.start = append(k.start, int32(len(byKey)))
	return k
}

// candidates appends to out the methods whose keys hold in state s, and
// those without a positive key, in no particular order.
func (k *keyedMethods) candidates(s sets.Bits, out []int32) []int32 {
	out = append(out, k.rest...)
	for i, w := range k.words {
		x := s[w] & k.masks[i]
		for x != 0 {
			b := uint(bits.TrailingZeros64(x))
			j := k.before[i] + int32(bits.OnesCount64(k.masks[i]&(1<<b-1)))
			out = append(out, k.meths[k.start[j]:k.start[j+1]]...)
			x &= x - 1
		}
	}
	return out
}

// keyHolds reports whether the key precondition of method m holds in
// state s: when not, neither do the method's preconditions.
func (v *view) keyHolds(s sets.Bits, m int32) bool {
	if v.key == nil {
		return true
	}
	switch k := v.key[m]; {
	case k > 0:
		return s.Has(int(k - 1))
	case k < 0:
		return !s.Has(int(-k - 1))
	}
	return true
}

// inOrder sorts methods cs of compound task c, a subset of its list,
// into the order the list would be tried in from place off on, round
// (rank nil), or by rank (indexed by the place in the list; a target
// order); scratch is room for the sort keys, returned for reuse.
func (v *view) inOrder(cs []int32, c, off int, rank []int32, scratch []int64) []int64 {
	n := int32(len(v.taskMeths[c]))
	keys := scratch[:0]
	for _, m := range cs {
		at := (v.pos[m] - int32(off) + n) % n
		if rank != nil {
			at = rank[v.pos[m]]
		}
		keys = append(keys, int64(at)<<32|int64(m))
	}
	slices.Sort(keys)
	for i, k := range keys {
		cs[i] = int32(k & 0xffffffff)
	}
	return keys
}
