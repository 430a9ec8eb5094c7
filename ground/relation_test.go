package ground

import (
	"math/rand"
	"testing"
)

// TestRelation checks the relation against a plain map of tuples, with
// values both small enough to pack and too large to (arity 3 packs values
// below 2^21, arity 4 below 2^16, arity 8 below 2^8).
func TestRelation(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for arity := 0; arity <= 9; arity++ {
		r := newRelation(arity)
		want := map[[9]int32]int32{}
		var order [][9]int32
		for n := 0; n < 3000; n++ {
			var tup [9]int32
			for c := 0; c < arity; c++ {
				switch rng.Intn(4) {
				case 0:
					tup[c] = rng.Int31n(1 << 30) // too large to pack beyond arity 2
				default:
					tup[c] = rng.Int31n(6) // small, so that tuples repeat
				}
			}
			if n == 1500 && arity >= 2 {
				// indexes built half-way must be kept up to date
				r.lookup(0, 0)
				r.lookupCols(3, []int{0, 1}, []int32{0, 0})
			}
			i, fresh := r.add(tup[:arity])
			old, seen := want[tup]
			if fresh == seen {
				t.Fatalf("arity %d: add(%v) new=%v, but seen before=%v", arity, tup[:arity], fresh, seen)
			}
			if seen && i != old {
				t.Fatalf("arity %d: add(%v) = %d, want %d", arity, tup[:arity], i, old)
			}
			if !seen {
				want[tup] = i
				order = append(order, tup)
			}
		}
		if r.size() != len(want) {
			t.Fatalf("arity %d: size %d, want %d", arity, r.size(), len(want))
		}
		for tup, i := range want {
			if j, ok := r.find(tup[:arity]); !ok || j != i {
				t.Fatalf("arity %d: find(%v) = %d, %v; want %d", arity, tup[:arity], j, ok, i)
			}
			got := r.tuple(i)
			for c := 0; c < arity; c++ {
				if got[c] != tup[c] {
					t.Fatalf("arity %d: tuple(%d) = %v, want %v", arity, i, got, tup[:arity])
				}
			}
		}
		// a tuple that differs from a stored one in one value is absent
		for _, tup := range order[:min(len(order), 50)] {
			if arity == 0 {
				break
			}
			tup[arity-1] = 1<<30 + 7
			if _, ok := want[tup]; ok {
				continue
			}
			if _, ok := r.find(tup[:arity]); ok {
				t.Fatalf("arity %d: find(%v) found a tuple never added", arity, tup[:arity])
			}
		}
		// every column's index lists exactly the tuples holding the value
		var large []int32 // values too large for a dense index
		for _, tup := range order[:min(len(order), 20)] {
			for c := 0; c < arity; c++ {
				if tup[c] >= 6 {
					large = append(large, tup[c])
				}
			}
		}
		for c := 0; c < arity; c++ {
			for _, v := range append([]int32{0, 1, 2, 3, 4, 5, 6, -1}, large...) {
				n := 0
				for _, tup := range order {
					if tup[c] == v {
						n++
					}
				}
				got := r.lookup(c, v)
				if len(got) != n {
					t.Fatalf("arity %d: lookup(%d, %d) has %d tuples, want %d", arity, c, v, len(got), n)
				}
				for _, i := range got {
					if r.tuple(i)[c] != v {
						t.Fatalf("arity %d: lookup(%d, %d) lists tuple %v", arity, c, v, r.tuple(i))
					}
				}
			}
		}
		// and the index on the first two columns together
		if arity < 2 {
			continue
		}
		pairs := map[[2]int32]int{}
		for _, tup := range order {
			pairs[[2]int32{tup[0], tup[1]}]++
		}
		pairs[[2]int32{1<<30 + 7, 0}] = 0
		for p, n := range pairs {
			got := r.lookupCols(3, []int{0, 1}, p[:])
			if len(got) != n {
				t.Fatalf("arity %d: lookupCols(%v) has %d tuples, want %d", arity, p, len(got), n)
			}
			for _, i := range got {
				if tu := r.tuple(i); tu[0] != p[0] || tu[1] != p[1] {
					t.Fatalf("arity %d: lookupCols(%v) lists tuple %v", arity, p, tu)
				}
			}
		}
	}
}
