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
	ended := poll(ctx)
	n := cnf.NumVars
	idx := func(l Lit) int { // 2v for v, 2v+1 for -v
		if l < 0 {
			return int(-l)<<1 | 1
		}
		return int(l) << 1
	}
	val := make([]int8, n+1) // 1 true, -1 false, 0 unassigned
	value := func(l Lit) int8 {
		if l < 0 {
			return -val[-l]
		}
		return val[l]
	}
	var trail []Lit
	conflict := false
	assign := func(l Lit) {
		switch value(l) {
		case 1:
		case -1:
			conflict = true
		default:
			if l < 0 {
				val[-l] = -1
			} else {
				val[l] = 1
			}
			trail = append(trail, l)
		}
	}
	// the clauses of two or more distinct literals, without tautologies,
	// back to back; starts[c] is where clause c begins
	lits := make([]Lit, 0, len(cnf.lits))
	starts := make([]int32, 0, cnf.NumClauses+1)
	stamp := make([]int32, 2*n+2)
	seen := int32(0)
	cnf.Clauses(func(cl []Lit) {
		if ended() {
			return
		}
		seen++
		start := len(lits)
		for _, l := range cl {
			if stamp[idx(-l)] == seen {
				lits = lits[:start] // a tautology
				return
			}
			if stamp[idx(l)] != seen {
				stamp[idx(l)] = seen
				lits = append(lits, l)
			}
		}
		switch len(lits) - start {
		case 0:
			conflict = true
		case 1:
			assign(lits[start])
			lits = lits[:start]
		default:
			starts = append(starts, int32(start))
		}
	})
	nc := len(starts)
	starts = append(starts, int32(len(lits)))
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if conflict {
		return nil, false, nil
	}
	// occurrences: the clauses of literal index i are occ[off[i]:off[i+1]]
	off := make([]int32, 2*n+3)
	for _, l := range lits {
		off[idx(l)+1]++
	}
	for i := 1; i < len(off); i++ {
		off[i] += off[i-1]
	}
	occ := make([]int32, len(lits))
	fill := append([]int32(nil), off...)
	for c := range nc {
		if ended() {
			return nil, false, ctx.Err()
		}
		for _, l := range lits[starts[c]:starts[c+1]] {
			occ[fill[idx(l)]] = int32(c)
			fill[idx(l)]++
		}
	}
	// count[c]: the literals of c not yet known false
	count := make([]int32, nc)
	for c := range nc {
		count[c] = starts[c+1] - starts[c]
	}
	sat := make([]bool, nc)
	for i := 0; i < len(trail) && !conflict; i++ {
		if ended() {
			return nil, false, ctx.Err()
		}
		l := trail[i]
		for _, c := range occ[off[idx(l)]:off[idx(l)+1]] {
			sat[c] = true
		}
		for _, c := range occ[off[idx(-l)]:off[idx(-l)+1]] {
			if sat[c] {
				continue
			}
			count[c]--
			if count[c] > 1 {
				continue
			}
			// one literal left that is not known false: it is true
			// already (the clause holds), or unassigned (it must be
			// true), or false and not yet propagated (a conflict)
			var free Lit
			for _, m := range lits[starts[c]:starts[c+1]] {
				switch value(m) {
				case 1:
					sat[c] = true
				case 0:
					free = m
				}
			}
			switch {
			case sat[c]:
			case free != 0:
				assign(free)
			default:
				conflict = true
			}
			if conflict {
				break
			}
		}
	}
	if conflict {
		return nil, false, nil
	}
	out = &CNF{NumVars: n}
	out.lits = make([]Lit, 0, 2*len(trail)+len(lits)+nc)
	for _, l := range trail {
		out.lits = append(out.lits, l, 0)
	}
	out.NumClauses = len(trail)
	// the clauses left, in the order gophersat's own simplification
	// leaves them (a clause it drops takes the last one's place, a false
	// literal the clause's last literal's): its search follows the order
	// of clauses and literals, and on some formulas (Childsnack p19)
	// runs twice as long without it
	order := make([]int32, nc)
	for c := range order {
		order[c] = int32(c)
	}
	for i, n := 0, nc; i < n; {
		if c := order[i]; sat[c] {
			n--
			order[i], order[n] = order[n], order[i]
			order = order[:n]
			continue
		}
		i++
	}
	buf := make([]Lit, 0, 64)
	for _, c := range order {
		if ended() {
			return nil, false, ctx.Err()
		}
		buf = append(buf[:0], lits[starts[c]:starts[c+1]]...)
		for j := 0; j < len(buf); {
			if value(buf[j]) != 0 {
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
	return out, true, nil
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
