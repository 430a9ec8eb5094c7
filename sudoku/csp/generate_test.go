package csp

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestGenerate: a puzzle made at each rating level has one solution
// (counted by search), the grid it was made from, and Rate gives it that
// level: the level solves it, the weaker ones do not.
func TestGenerate(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	m := NewModel(3)
	// (sgac alone is rarely needed at 9x9: a puzzle that sgac solves,
	// emptied as far as it does, is mostly solved by sac too)
	for _, l := range []Level{AC, GACAll, SACAll} {
		for range 3 {
			g, sol, err := m.Generate(ctx, rng, l, 50)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			res, err := m.Search(ctx, g, 2, GACAll)
			if err != nil || res.Solutions != 1 || res.First.Line() != sol.Line() {
				t.Fatalf("%s: %d solutions (%v), the first %s, want %s", l, res.Solutions, err, res.First.Line(), sol.Line())
			}
			r, err := m.Rate(ctx, g)
			if err != nil || r.Level != l.String() {
				t.Errorf("%s: rated %s (%v): %s", l, r.Level, err, g.Line())
			}
		}
	}
	g, sol, err := m.GenerateMinimal(ctx, rng)
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := m.Search(ctx, g, 2, GACAll); res.Solutions != 1 || res.First.Line() != sol.Line() {
		t.Errorf("minimal: %d solutions", res.Solutions)
	}
	for c, d := range g.Cells {
		if d == 0 {
			continue
		}
		h := g.Clone()
		h.Cells[c] = 0
		if res, _ := m.Search(ctx, h, 2, GACAll); res.Solutions < 2 {
			t.Errorf("minimal: the given of cell %d can go", c)
			break
		}
	}
	if _, _, err := m.Generate(ctx, rng, GACEach, 1); err == nil {
		t.Error("a level on each constraint was taken")
	}
	// a model with a unit more (a diagonal): its puzzles keep it
	d := NewModel(2)
	var diag Unit
	for i := 0; i < 4; i++ {
		diag.Cells = append(diag.Cells, i*4+i)
	}
	d.AddUnit(diag)
	g, sol, err = d.Generate(ctx, rng, GACAll, 50)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, c := range diag.Cells {
		seen[sol.Cells[c]] = true
	}
	if len(seen) != 4 || g.Size() != 4 {
		t.Errorf("the diagonal of %s repeats a digit", sol.Line())
	}

}
