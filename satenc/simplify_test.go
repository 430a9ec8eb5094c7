package satenc

import (
	"math/rand/v2"
	"testing"
)

// TestPropagateUnits checks propagateUnits against brute force on random
// small formulas with many unit and binary clauses (long propagation
// chains, conflicts, repeated literals, tautologies): the result has
// exactly the models of the formula, a conflict only for a formula
// without models, and the promised shape (units first, then clauses of
// two or more distinct literals of unassigned variables).
func TestPropagateUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	holds := func(c *CNF, a uint32) bool {
		ok := true
		c.Clauses(func(cl []Lit) {
			sat := false
			for _, l := range cl {
				if v := a>>(l.Var()-1)&1 == 1; v == (l > 0) {
					sat = true
				}
			}
			ok = ok && sat
		})
		return ok
	}
	conflicts, reduced := 0, 0
	for range 3000 {
		n := 1 + rng.IntN(9)
		c := &CNF{NumVars: n}
		for range rng.IntN(3 * n) {
			k := 1 + rng.IntN(3)
			if rng.IntN(3) == 0 {
				k = 1
			}
			var cl []Lit
			for range k {
				l := Lit(1 + rng.IntN(n))
				if rng.IntN(2) == 0 {
					l = -l
				}
				cl = append(cl, l)
			}
			c.AddClause(cl...)
		}
		out, ok := propagateUnits(c)
		models := 0
		for a := range uint32(1) << n {
			in := holds(c, a)
			if in {
				models++
			}
			if ok && holds(out, a) != in {
				t.Fatalf("assignment %b: formula %v, result %v\n%v\n%v", a, in, !in, c.lits, out.lits)
			}
		}
		if !ok {
			conflicts++
			if models > 0 {
				t.Fatalf("conflict reported for a formula with %d models: %v", models, c.lits)
			}
			continue
		}
		if out.NumVars != c.NumVars {
			t.Fatalf("%d variables, want %d", out.NumVars, c.NumVars)
		}
		assigned := map[Var]bool{}
		units := true
		out.Clauses(func(cl []Lit) {
			if len(cl) == 1 {
				if !units {
					t.Fatalf("a unit clause after a longer one: %v", out.lits)
				}
				assigned[cl[0].Var()] = true
				return
			}
			units = false
			reduced++
			seen := map[Var]bool{}
			for _, l := range cl {
				if assigned[l.Var()] || seen[l.Var()] {
					t.Fatalf("clause %v: a variable assigned or repeated: %v", cl, out.lits)
				}
				seen[l.Var()] = true
			}
			if len(cl) < 2 {
				t.Fatalf("clause %v: fewer than two literals", cl)
			}
		})
	}
	if conflicts == 0 || reduced == 0 {
		t.Fatalf("%d conflicts, %d clauses left: the formulas did not exercise both", conflicts, reduced)
	}
}
