package satenc

import (
	"math/rand"
	"testing"
)

// TestState: a chain of states, each made from the one before and changed
// in a few facts, reads like a chain of whole copies; changing a state
// leaves the ones it was made from alone; differing lists exactly the
// facts whose variables differ.
func TestState(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const nf = 1000 // not a multiple of stateChunk
	s := newState(nf)
	plain := make([]Var, nf)
	for f := range nf {
		v := Var(f + 1)
		s[f/stateChunk][f%stateChunk] = v
		plain[f] = v
	}
	states, plains := []state{s}, [][]Var{plain}
	var b stateBuilder
	next := Var(nf + 1)
	for range 200 {
		b.start(s)
		plain = append([]Var(nil), plain...)
		for range rng.Intn(5) {
			f := rng.Intn(nf)
			b.set(f, next)
			plain[f] = next
			next++
		}
		s = b.s
		states, plains = append(states, s), append(plains, plain)
	}
	for i, st := range states {
		for f := range nf {
			if st.at(f) != plains[i][f] {
				t.Fatalf("state %d, fact %d: %d, want %d", i, f, st.at(f), plains[i][f])
			}
		}
	}
	for range 100 {
		i, j := rng.Intn(len(states)), rng.Intn(len(states))
		var got []int
		states[i].differing(states[j], func(f int) { got = append(got, f) })
		var want []int
		for f := range nf {
			if plains[i][f] != plains[j][f] {
				want = append(want, f)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("states %d and %d differ in %v, want %v", i, j, got, want)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("states %d and %d differ in %v, want %v", i, j, got, want)
			}
		}
	}
}
