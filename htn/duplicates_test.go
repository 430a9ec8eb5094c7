package htn

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/sudoku"
)

// TestDuplicates: testdata/transpose has no plan, and every order of its
// eight jobs fails only once the first is done. Recording the nodes
// searched to the end, the search meets each set of jobs done once
// (2^8); without it, once per order.
func TestDuplicates(t *testing.T) {
	v := loadView(t, "transpose")
	if v.recursive || v.total {
		t.Fatal("transpose: want an acyclic partial-order network")
	}
	run := func(opt Options) *Stats {
		st := &Stats{}
		ok, err := newDFS(context.Background(), v, opt, st, nil).run()
		if ok || err != nil {
			t.Fatalf("%+v: %v, %v: want no plan", opt, ok, err)
		}
		return st
	}
	on := run(Options{NoRestarts: true})
	off := run(Options{NoRestarts: true, NoDuplicates: true})
	if on.Nodes > 2000 || on.Duplicates == 0 || off.Nodes < 20_000 || off.Duplicates != 0 {
		t.Errorf("%d nodes (%d duplicates) recording, %d (%d) without: want under 2,000 and over 20,000",
			on.Nodes, on.Duplicates, off.Nodes, off.Duplicates)
	}
	// kept across restarts: the restarts find the same nodes failed
	if st := run(Options{RestartBudget: 100}); st.Restarts == 0 || st.Nodes > 2*on.Nodes+2000 {
		t.Errorf("with restarts: %d nodes, %d restarts", st.Nodes, st.Restarts)
	}
}

// TestNodeHash: the network's hash kept as nodes come and go
// (dfs.nodeHash) is at every search node the sum computed afresh, in
// problems with decompositions ahead, checks and partial orders, and in
// recursive ones, whose nodes are hashed by content.
func TestNodeHash(t *testing.T) {
	views := map[string]func() *view{}
	for _, dir := range []string{"transpose", "interleave", "goal", "landmark", "recursive", "reach-recursive", "transport"} {
		views[dir] = func() *view { return loadView(t, dir) }
	}
	// a Sudoku in the paper's ordered network, whose tasks are
	// decomposed ahead of their turn, and in the unordered one
	for name, style := range map[string]sudoku.Style{"sudoku-ordered": sudoku.Ordered, "sudoku-unordered": sudoku.Unordered} {
		views[name] = func() *view {
			_, task := testutil.SudokuTask(t, testutil.HardPuzzle, style)
			v, err := newView(context.Background(), task)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	for name, load := range views {
		t.Run(name, func(t *testing.T) {
			v := load()
			if v.recursive != (name == "recursive" || name == "reach-recursive" || name == "transport") {
				t.Fatalf("recursive: %v", v.recursive)
			}
			s := newDFS(context.Background(), v, Options{MaxNodes: 5000}, &Stats{}, nil)
			checked := 0
			s.hooks.check = func(s *dfs) {
				if !s.failed && !s.content {
					return
				}
				got := s.nodeHash()
				want := s.zobrist
				net := placeHash(s)
				if s.content {
					net = contentHash(s)
				}
				want[0] += net[0]
				want[1] += net[1]
				var z [2]uint64
				for f := 0; f < v.nFacts; f++ {
					if s.state.Has(f) {
						h := hashFact(ground.FactID(f))
						z[0] ^= h[0]
						z[1] ^= h[1]
					}
				}
				if got != want || z != s.zobrist {
					t.Fatalf("node %d: hash %x, afresh %x (state %x, afresh %x)", s.stats.Nodes, got, want, s.zobrist, z)
				}
				checked++
			}
			s.run()
			if checked == 0 || s.stats.Ahead == 0 && name == "sudoku-ordered" {
				t.Fatal("nothing checked")
			}
		})
	}
}

// placeHash is the hash of an acyclic network computed afresh.
func placeHash(s *dfs) [2]uint64 {
	var net [2]uint64
	for _, i := range s.alive.Members {
		h := s.hashNode(i)
		net[0] += h[0]
		net[1] += h[1]
	}
	return net
}

// contentHash is the hash of a recursive network computed afresh, each
// node by its content (kind, id, recursion), its successors' contents
// and its count of predecessors, in the order nodes were made: by
// content, not place.
func contentHash(s *dfs) [2]uint64 {
	merk := map[int32][2]uint64{}
	var of func(i int32) [2]uint64
	of = func(i int32) [2]uint64 {
		if m, ok := merk[i]; ok {
			return m
		}
		nd := &s.nodes[i]
		x := mix64(uint64(nd.rec)<<40 | uint64(nd.kind)<<32 | uint64(uint32(nd.id)))
		sum := [2]uint64{uint64(len(nd.succ)), 0}
		for _, y := range nd.succ {
			m := of(y)
			sum[0] += m[0]
			sum[1] += m[1]
		}
		m := [2]uint64{mix64(x ^ mix64(sum[0])), mix64(x ^ 0x9E3779B97F4A7C15 ^ mix64(sum[1]))}
		merk[i] = m
		return m
	}
	preds := map[int32]uint64{}
	for _, i := range s.alive.Members {
		for _, y := range s.nodes[i].succ {
			preds[y]++
		}
	}
	var net [2]uint64
	for _, i := range s.alive.Members {
		m, p := of(i), preds[i]+1
		net[0] += mix64(m[0] + p*0x9E3779B97F4A7C15)
		net[1] += mix64(m[1] ^ p*0xD1B54A32D192ED03)
	}
	return net
}

// TestSeenSetBound: a set with a bound starts over when full instead of
// growing (maxSeen bounds the depth-first search's records), and keeps
// what it recorded since.
func TestSeenSetBound(t *testing.T) {
	v := newSeenSet()
	v.max = 4
	for i := range uint64(10) {
		v.put([2]uint64{i, i}, int32(i))
		if v.t.n > v.max {
			t.Fatalf("after %d puts: %d entries, bound %d", i+1, v.t.n, v.max)
		}
	}
	if n, ok := v.get([2]uint64{9, 9}); !ok || n != 9 {
		t.Errorf("last put: %d, %v", n, ok)
	}
	if _, ok := v.get([2]uint64{0, 0}); ok {
		t.Error("the first put survived three fills")
	}
}

// TestSeenSetRoom: a set whose doubling would take the process past
// roomShare of its memory limit starts over at the size it has; with
// room it grows as before.
func TestSeenSetRoom(t *testing.T) {
	for _, c := range []struct {
		name  string
		used  int64
		grows bool
	}{{"room", 0, true}, {"no-room", 1 << 30, false}} {
		t.Run(c.name, func(t *testing.T) {
			v := newSeenSet()
			v.gauge = func() (int64, int64) { return c.used, 1 << 30 }
			const n = 5000
			for i := range uint64(n) {
				v.put([2]uint64{i + 1, i}, int32(i))
			}
			if got := v.t.n == n; got != c.grows {
				t.Fatalf("%d entries in %d slots after %d puts: grown %v, want %v", v.t.n, len(v.t.slots), n, got, c.grows)
			}
			if !c.grows && len(v.t.slots) != 1024 {
				t.Errorf("%d slots, want the first table's 1024", len(v.t.slots))
			}
			if k, ok := v.get([2]uint64{n, n - 1}); !ok || k != n-1 {
				t.Errorf("last put: %d, %v", k, ok)
			}
		})
	}
}

// TestSeenTable checks the open-addressing table against a Go map over
// growth, overwrites, the all-zero hash and clearing, with hashes whose
// low bits collide so that probes run long.
func TestSeenTable(t *testing.T) {
	var tab seenTable
	want := map[[2]uint64]int32{}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 6_000 {
		h := [2]uint64{rng.Uint64() & 0xFFFF << 16, rng.Uint64() & 7}
		if i == 7 || i == 4_000 {
			h = [2]uint64{}
		}
		tab.put(h, int32(i))
		want[h] = int32(i)
		if i == 3_000 {
			tab.clear()
			clear(want)
		}
	}
	if tab.n != len(want) {
		t.Fatalf("%d entries, want %d", tab.n, len(want))
	}
	for h, v := range want {
		if got, ok := tab.get(h); !ok || got != v {
			t.Fatalf("get(%x) = %d, %v; want %d", h, got, ok, v)
		}
	}
	for range 6_000 {
		h := [2]uint64{rng.Uint64() & 0xFFFF << 16, rng.Uint64() & 7}
		_, okWant := want[h]
		if _, ok := tab.get(h); ok != okWant {
			t.Fatalf("get(%x): present %v, want %v", h, ok, okWant)
		}
	}
}
