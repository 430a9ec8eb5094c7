package satenc

import "context"

// propagateUnits simplifies a formula by unit propagation, in time linear
// in its size: every literal a unit clause forces, directly or through
// other clauses, becomes a unit clause of the result; the other clauses
// lose their false literals, repeated literals and, if satisfied or
// tautological, their place. Every clause of the result but the units has
// at least two literals, none of an assigned variable. ok is false when
// propagation derives the empty clause (the formula is unsatisfiable).
//
// The result has the same models, restricted to the assignments the
// units force. gophersat needs it: its parser propagates units by
// rescanning every clause after each unit it finds (and checks each
// clause for repeated literals in quadratic time on every scan), which
// took 6 of 10 seconds on IPC Elevator-Learned s21-1.
//
// It returns ctx's error when ctx ends first: on a formula of a hundred
// million literals (Blocksworld-GTOHP p27, 7 layers) the pass takes a
// second, too long to finish after a timeout.
func propagateUnits(ctx context.Context, cnf *CNF) (out *CNF, ok bool, err error) {
	u := &unitProp{ended: poll(ctx), val: make([]int8, cnf.NumVars+1)}
	u.load(cnf)
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if u.conflict {
		return nil, false, nil
	}
	if !u.index() || !u.propagate() {
		return nil, false, ctx.Err()
	}
	if u.conflict {
		return nil, false, nil
	}
	if out = u.result(cnf.NumVars); out == nil {
		return nil, false, ctx.Err()
	}
	return out, true, nil
}

// unitProp is propagateUnits' state: the clauses of two or more distinct
// literals, without tautologies, back to back (clause c is
// lits[starts[c]:starts[c+1]]), the literals' occurrences, the values
// assigned and the trail of literals made true.
type unitProp struct {
	ended    func() bool
	val      []int8 // per variable: 1 true, -1 false, 0 unassigned
	trail    []Lit
	conflict bool
	lits     []Lit
	starts   []int32
	nc       int
	// occurrences: the clauses of literal index i are occ[off[i]:off[i+1]]
	off, occ []int32
	sat      []bool // per clause: a literal of it is true
}

// litIndex is 2v for literal v, 2v+1 for -v.
func litIndex(l Lit) int {
	if l < 0 {
		return int(-l)<<1 | 1
	}
	return int(l) << 1
}

func (u *unitProp) value(l Lit) int8 {
	if l < 0 {
		return -u.val[-l]
	}
	return u.val[l]
}

// assign makes l true, or notes a conflict if it is false.
func (u *unitProp) assign(l Lit) {
	switch u.value(l) {
	case 1:
	case -1:
		u.conflict = true
	default:
		if l < 0 {
			u.val[-l] = -1
		} else {
			u.val[l] = 1
		}
		u.trail = append(u.trail, l)
	}
}

// load reads the clauses of cnf: repeated literals dropped, tautologies
// left out, units assigned, an empty clause a conflict.
func (u *unitProp) load(cnf *CNF) {
	n := cnf.NumVars
	u.lits = make([]Lit, 0, len(cnf.lits))
	u.starts = make([]int32, 0, cnf.NumClauses+1)
	stamp := make([]int32, 2*n+2)
	seen := int32(0)
	cnf.Clauses(func(cl []Lit) {
		if u.ended() {
			return
		}
		seen++
		start := len(u.lits)
		for _, l := range cl {
			if stamp[litIndex(-l)] == seen {
				u.lits = u.lits[:start] // a tautology
				return
			}
			if stamp[litIndex(l)] != seen {
				stamp[litIndex(l)] = seen
				u.lits = append(u.lits, l)
			}
		}
		switch len(u.lits) - start {
		case 0:
			u.conflict = true
		case 1:
			u.assign(u.lits[start])
			u.lits = u.lits[:start]
		default:
			u.starts = append(u.starts, int32(start))
		}
	})
	u.nc = len(u.starts)
	u.starts = append(u.starts, int32(len(u.lits)))
}

// index fills the occurrences (false when the context ended).
func (u *unitProp) index() bool {
	u.off = make([]int32, 2*(len(u.val)-1)+3)
	for _, l := range u.lits {
		u.off[litIndex(l)+1]++
	}
	for i := 1; i < len(u.off); i++ {
		u.off[i] += u.off[i-1]
	}
	u.occ = make([]int32, len(u.lits))
	fill := append([]int32(nil), u.off...)
	for c := range u.nc {
		if u.ended() {
			return false
		}
		for _, l := range u.clause(c) {
			u.occ[fill[litIndex(l)]] = int32(c)
			fill[litIndex(l)]++
		}
	}
	return true
}

func (u *unitProp) clause(c int) []Lit { return u.lits[u.starts[c]:u.starts[c+1]] }

// occurrences returns the clauses literal l is in.
func (u *unitProp) occurrences(l Lit) []int32 {
	return u.occ[u.off[litIndex(l)]:u.off[litIndex(l)+1]]
}

// propagate follows the trail to a fixpoint or a conflict, counting in
// each clause the literals not yet known false (false when the context
// ended).
func (u *unitProp) propagate() bool {
	count := make([]int32, u.nc)
	for c := range u.nc {
		count[c] = u.starts[c+1] - u.starts[c]
	}
	u.sat = make([]bool, u.nc)
	for i := 0; i < len(u.trail) && !u.conflict; i++ {
		if u.ended() {
			return false
		}
		l := u.trail[i]
		for _, c := range u.occurrences(l) {
			u.sat[c] = true
		}
		for _, c := range u.occurrences(-l) {
			if u.sat[c] {
				continue
			}
			count[c]--
			if count[c] > 1 {
				continue
			}
			if u.lastLiteral(int(c)); u.conflict {
				break
			}
		}
	}
	return true
}

// lastLiteral settles clause c, one literal of which is not known false:
// it is true already (the clause holds), or unassigned (it must be
// true), or false and not yet propagated (a conflict).
func (u *unitProp) lastLiteral(c int) {
	var free Lit
	for _, m := range u.clause(c) {
		switch u.value(m) {
		case 1:
			u.sat[c] = true
		case 0:
			free = m
		}
	}
	switch {
	case u.sat[c]:
	case free != 0:
		u.assign(free)
	default:
		u.conflict = true
	}
}

// result is the simplified formula over n variables: the trail as unit
// clauses, then the clauses left without their assigned literals (nil
// when the context ended).
func (u *unitProp) result(n int) *CNF {
	out := &CNF{NumVars: n}
	out.lits = make([]Lit, 0, 2*len(u.trail)+len(u.lits)+u.nc)
	for _, l := range u.trail {
		out.lits = append(out.lits, l, 0)
	}
	out.NumClauses = len(u.trail)
	buf := make([]Lit, 0, 64)
	for _, c := range u.order() {
		if u.ended() {
			return nil
		}
		buf = append(buf[:0], u.clause(int(c))...)
		for j := 0; j < len(buf); {
			if u.value(buf[j]) != 0 {
				buf[j] = buf[len(buf)-1]
				buf = buf[:len(buf)-1]
				continue
			}
			j++
		}
		out.lits = append(out.lits, buf...)
		out.lits = append(out.lits, 0)
		out.NumClauses++
	}
	return out
}

// order returns the clauses left, in the order gophersat's own
// simplification leaves them (a clause it drops takes the last one's
// place, a false literal the clause's last literal's): its search follows
// the order of clauses and literals, and on some formulas (Childsnack
// p19) runs twice as long without it.
func (u *unitProp) order() []int32 {
	order := make([]int32, u.nc)
	for c := range order {
		order[c] = int32(c)
	}
	for i, n := 0, u.nc; i < n; {
		if c := order[i]; u.sat[c] {
			n--
			order[i], order[n] = order[n], order[i]
			order = order[:n]
			continue
		}
		i++
	}
	return order
}

// poll returns a function that reports whether ctx has ended, looking at
// the context once in 4096 calls: cheap enough for the inner loop of a
// linear pass, often enough to stop it within a millisecond or so. Once
// it has reported true it goes on doing so.
func poll(ctx context.Context) func() bool {
	n, done := 0, false
	return func() bool {
		if n++; !done && n&4095 == 0 {
			done = ctx.Err() != nil
		}
		return done
	}
}
