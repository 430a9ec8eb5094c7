package satenc

// state maps every fact to its variable at one boundary of a layer. The
// states of consecutive positions differ in the few facts a position can
// change, so a state is kept as chunks shared with the state it was made
// from and copied only where it changes: a 25x25 Sudoku's 16,000 facts
// over 1,300 positions took 64 KB a position as whole copies.
type state [][]Var

// stateChunk is the number of facts a chunk holds.
const stateChunk = 64

func newState(nf int) state {
	s := make(state, (nf+stateChunk-1)/stateChunk)
	for c := range s {
		s[c] = make([]Var, min(stateChunk, nf-c*stateChunk))
	}
	return s
}

// at is the variable of fact f.
func (s state) at(f int) Var { return s[f/stateChunk][f%stateChunk] }

// differing calls fn for every fact whose variable differs between s and
// o, skipping the chunks they share.
func (s state) differing(o state, fn func(f int)) {
	for c, ch := range s {
		oc := o[c]
		if len(ch) > 0 && &ch[0] == &oc[0] {
			continue
		}
		for i := range ch {
			if ch[i] != oc[i] {
				fn(c*stateChunk + i)
			}
		}
	}
}

// stateBuilder makes each state from the one before: it shares every
// chunk until a fact in it changes. One state is built at a time.
type stateBuilder struct {
	s     state
	owned []bool // chunks of s copied already
}

// start begins a state equal to s.
func (b *stateBuilder) start(s state) {
	b.s = append(state(nil), s...)
	if cap(b.owned) < len(s) {
		b.owned = make([]bool, len(s))
	}
	b.owned = b.owned[:len(s)]
	clear(b.owned)
}

// set makes fact f's variable v in the state begun.
func (b *stateBuilder) set(f int, v Var) {
	c := f / stateChunk
	if !b.owned[c] {
		b.s[c] = append([]Var(nil), b.s[c]...)
		b.owned[c] = true
	}
	b.s[c][f%stateChunk] = v
}
