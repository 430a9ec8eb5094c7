package heap

import (
	"math/rand/v2"
	"testing"
)

// TestRadixAgreesWithMin runs a monotone sequence of pushes and pops, as
// Dijkstra's algorithm makes, through both queues: each pop must return
// the same least cost.
func TestRadixAgreesWithMin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var m Min
		var r Radix
		if round%2 == 1 {
			r.Reset() // a used queue starts over alike
		}
		last := int32(0)
		pops := 0
		for step := range 2000 {
			if len(m) == 0 || rng.IntN(3) > 0 && step < 1500 {
				// costs near the last popped one, and some far above it
				c := last + int32(rng.IntN(8))
				if rng.IntN(10) == 0 {
					c = last + int32(rng.IntN(1<<20))
				}
				it := Item{Node: int32(step), Cost: c}
				m.Push(it)
				r.Push(it)
				continue
			}
			a, b := m.Pop(), r.Pop()
			if a.Cost != b.Cost {
				t.Fatalf("round %d, pop %d: Min gives cost %d, Radix %d", round, pops, a.Cost, b.Cost)
			}
			if b.Cost < last {
				t.Fatalf("round %d: cost %d popped after %d", round, b.Cost, last)
			}
			last = b.Cost
			pops++
		}
		if len(m) != r.Len() {
			t.Fatalf("round %d: %d items left in Min, %d in Radix", round, len(m), r.Len())
		}
	}
}
