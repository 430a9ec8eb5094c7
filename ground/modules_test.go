package ground

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/htnsat/htnsat/hddl"
)

// TestWidenToModules: on random orderings (partial, total as a chain of
// pairs, and total as the network's task order) and random groups of tasks, widenToModules gives
// the partition that widening by the transitive closure gives (the
// fixpoint of merging a task ordered differently with two members).
func TestWidenToModules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := 1 + rng.IntN(14)
		total := trial%3 == 0
		var order []hddl.Order
		switch {
		case total:
			for i := 1; i < n; i++ {
				order = append(order, hddl.Order{Before: i - 1, After: i})
			}
		case trial%3 == 1:
			// a chain of :ordering pairs in another order than the tasks'
			p := rng.Perm(n)
			for i := 1; i < n; i++ {
				order = append(order, hddl.Order{Before: p[i-1], After: p[i]})
			}
			if n > 2 && trial%2 == 0 {
				order = append(order, hddl.Order{Before: p[0], After: p[2]})
			}
		default:
			for range rng.IntN(2 * n) {
				a, b := rng.IntN(n), rng.IntN(n)
				if a < b {
					order = append(order, hddl.Order{Before: a, After: b})
				}
			}
		}
		got, want := newUnionFind(n), newUnionFind(n)
		for range rng.IntN(n) {
			a, b := rng.IntN(n), rng.IntN(n)
			got.union(a, b)
			want.union(a, b)
		}
		if err := widenToModules(context.Background(), got, n, order, total); err != nil {
			t.Fatal(err)
		}
		naiveModules(want, n, order)
		for i := range n {
			for j := range n {
				if (got.find(i) == got.find(j)) != (want.find(i) == want.find(j)) {
					t.Fatalf("trial %d (n %d, order %v, total %v): tasks %d and %d together: %v, want %v",
						trial, n, order, total, i, j, got.find(i) == got.find(j), want.find(i) == want.find(j))
				}
			}
		}
	}
}

// naiveModules widens by the transitive closure, as the grounder did
// before widenToModules.
func naiveModules(uf unionFind, n int, order []hddl.Order) {
	before := make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	for _, o := range order {
		before[o.Before][o.After] = true
	}
	for k := range n {
		for i := range n {
			for j := range n {
				before[i][j] = before[i][j] || before[i][k] && before[k][j]
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range n {
			for j := range n {
				if uf.find(i) != uf.find(j) || i == j {
					continue
				}
				for o := range n {
					if uf.find(o) == uf.find(i) {
						continue
					}
					if before[o][i] != before[o][j] || before[i][o] != before[j][o] {
						uf.union(o, i)
						changed = true
					}
				}
			}
		}
	}
}

// TestWidenToModulesLarge: 100,000 tasks, in a total order and in a
// chain of :ordering pairs, with or without tasks sharing a variable, are
// widened (the closure the grounder took before needed n² bytes, 10 GB
// here), and a done context stops the partial order's search.
func TestWidenToModulesLarge(t *testing.T) {
	const n = 100_000
	var chain []hddl.Order
	for i := 1; i < n; i++ {
		chain = append(chain, hddl.Order{Before: i - 1, After: i})
	}
	for _, total := range []bool{true, false} {
		for _, pairs := range []int{0, 10} {
			uf := newUnionFind(n)
			for k := range pairs {
				uf.union(k*1000, k*1000+500)
			}
			if err := widenToModules(context.Background(), uf, n, chain, total); err != nil {
				t.Fatal(err)
			}
			if pairs > 0 && uf.find(250) != uf.find(0) {
				t.Errorf("total %v: task 250, between two members, was not merged", total)
			}
		}
	}
	// two chains side by side: a partial order
	two := append([]hddl.Order(nil), chain...)
	two[n/2-1] = two[0]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	uf := newUnionFind(n)
	uf.union(0, n-1)
	if err := widenToModules(ctx, uf, n, two, false); err == nil {
		t.Error("a done context did not stop the widening")
	}
}
