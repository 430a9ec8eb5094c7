package satenc

import (
	"context"
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
		out, ok, err := propagateUnits(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
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

// TestLinearPassesStop checks that the passes over a whole formula
// before a solver starts (unit propagation, gophersat's input, the
// DIMACS file of an external solver) end with the context's error when
// it has ended, instead of running to the end.
func TestLinearPassesStop(t *testing.T) {
	c := &CNF{}
	vs := make([]Lit, 1000)
	for i := range vs {
		vs[i] = Lit(c.NewVar())
	}
	c.AddClause(vs[0])
	for i := 1; i < len(vs); i++ {
		for range 100 {
			c.AddClause(-vs[i-1], vs[i], vs[(i*7)%len(vs)])
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := propagateUnits(ctx, c); err != context.Canceled {
		t.Errorf("propagateUnits: error %v, want %v", err, context.Canceled)
	}
	if _, err := gophersatInput(ctx, c); err != context.Canceled {
		t.Errorf("gophersatInput: error %v, want %v", err, context.Canceled)
	}
	if _, err := (Gophersat{}).Solve(ctx, c); err != context.Canceled {
		t.Errorf("Gophersat.Solve: error %v, want %v", err, context.Canceled)
	}
	var w countingWriter
	if err := WriteDIMACS(ctxWriter{ctx, &w}, c, c.NumVars, nil); err != context.Canceled || w.n > 0 {
		t.Errorf("WriteDIMACS: error %v after %d bytes, want %v after none", err, w.n, context.Canceled)
	}
	// the same passes under a live context finish
	if _, ok, err := propagateUnits(context.Background(), c); err != nil || !ok {
		t.Errorf("propagateUnits: %v, %v", ok, err)
	}
}

type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
