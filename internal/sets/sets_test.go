package sets

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBits(t *testing.T) {
	b := NewBits(200)
	for _, i := range []int{0, 63, 64, 130, 199} {
		b.Add(i)
	}
	b.Flip(63)
	b.Flip(5)
	b.Remove(130)
	if got := b.Members(); !slices.Equal(got, []int{0, 5, 64, 199}) {
		t.Fatalf("members %v", got)
	}
	c := NewBits(200)
	c.Add(5)
	c.Add(199)
	c.Add(7)
	if got := b.And(c).Members(); !slices.Equal(got, []int{5, 199}) || b.AndCount(c) != 2 {
		t.Errorf("intersection %v, count %d", got, b.AndCount(c))
	}
	if b.Empty() || !NewBits(70).Empty() || !b.Has(64) || b.Has(63) {
		t.Error("Empty or Has wrong")
	}
}

// TestIndex checks Index against a map through random operations.
func TestIndex(t *testing.T) {
	var s Index[int32]
	s.Grow(50)
	want := map[int32]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		x := int32(rng.IntN(50))
		if want[x] {
			s.Remove(x)
			delete(want, x)
		} else {
			s.Add(x)
			want[x] = true
		}
		if len(s.Members) != len(want) {
			t.Fatalf("%d members, want %d", len(s.Members), len(want))
		}
		for _, m := range s.Members {
			if !want[m] || !s.Has(m) {
				t.Fatalf("member %d not wanted", m)
			}
		}
	}
}

func TestDedup(t *testing.T) {
	if got := Dedup([]int{3, 1, 3, 2, 1, 3}); !slices.Equal(got, []int{3, 1, 2}) {
		t.Errorf("Dedup: %v", got)
	}
}
