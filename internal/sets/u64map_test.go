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

// TestU64MapReserve: after Reserve(n), putting n keys does not grow the
// table, and the keys already in it stay.
func TestU64MapReserve(t *testing.T) {
	var m U64Map
	m.GetOrPut(7, 70)
	m.Reserve(1000)
	size := len(m.keys)
	if size < 1000*4/3 {
		t.Fatalf("Reserve(1000): %d slots", size)
	}
	for k := uint64(100); k < 1099; k++ {
		m.GetOrPut(k, int32(k))
	}
	if len(m.keys) != size {
		t.Errorf("the table grew from %d to %d slots within its reserve", size, len(m.keys))
	}
	if v, ok := m.Get(7); !ok || v != 70 {
		t.Errorf("Get(7) = %d, %v after Reserve", v, ok)
	}
	m.Reserve(10) // never shrinks
	if len(m.keys) != size || m.Len() != 1000 {
		t.Errorf("Reserve(10): %d slots, %d keys", len(m.keys), m.Len())
	}
}
