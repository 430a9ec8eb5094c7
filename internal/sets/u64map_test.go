package sets

import (
	"math"
	"math/rand"
	"testing"
)

// TestU64Map checks the open-addressing map against Go's, with keys that
// collide in their low and high bits, MaxUint64 and zero included.
func TestU64Map(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var m U64Map
	want := map[uint64]int32{}
	keys := []uint64{0, math.MaxUint64, math.MaxUint64 - 1, 1}
	for i := 0; i < 5000; i++ {
		switch rng.Intn(3) {
		case 0:
			keys = append(keys, uint64(rng.Intn(100))<<40)
		case 1:
			keys = append(keys, uint64(rng.Intn(100)))
		default:
			keys = append(keys, rng.Uint64())
		}
	}
	for i, k := range keys {
		v, fresh := m.GetOrPut(k, int32(i))
		old, seen := want[k]
		if fresh == seen || seen && v != old {
			t.Fatalf("GetOrPut(%#x) = %d, %v; had %d, %v", k, v, fresh, old, seen)
		}
		if !seen {
			want[k] = int32(i)
		}
	}
	if m.Len() != len(want) {
		t.Fatalf("%d keys, want %d", m.n, len(want))
	}
	for k, v := range want {
		if got, ok := m.Get(k); !ok || got != v {
			t.Fatalf("Get(%#x) = %d, %v; want %d", k, got, ok, v)
		}
	}
	for i := 0; i < 1000; i++ {
		k := rng.Uint64() | 1<<63
		if _, ok := want[k]; ok {
			continue
		}
		if _, ok := m.Get(k); ok {
			t.Fatalf("Get(%#x) found a key never put", k)
		}
	}
}
