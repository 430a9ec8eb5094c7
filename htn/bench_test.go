package htn_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/sudoku"
)

// benchSolve measures the progression search alone (the task is grounded
// once, outside the loop) and reports the nodes expanded.
func benchSolve(b *testing.B, line string, style sudoku.Style, opt htn.Options) {
	_, task := sudokuTask(b, line, style)
	task = testutil.Compact(b, task).Task
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		_, st, err := htn.Solve(context.Background(), task, opt)
		if err != nil {
			b.Fatal(err)
		}
		nodes = st.Nodes
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// The paper's puzzle in its own (ordered) network and in the unordered one.
func BenchmarkSolvePaperOrdered(b *testing.B) {
	benchSolve(b, paperPuzzle, sudoku.Ordered, htn.Options{})
}

func BenchmarkSolvePaperUnordered(b *testing.B) {
	benchSolve(b, paperPuzzle, sudoku.Unordered, htn.Options{})
}

// A hard 9×9 with each acceleration on and then off, measured in one run
// so the ratios can be read off directly.
func BenchmarkSolveHard(b *testing.B) {
	base := htn.Options{}
	for _, c := range []struct {
		name   string
		change func(*htn.Options)
	}{
		{"all", func(*htn.Options) {}},
		{"no-groups", func(o *htn.Options) { o.NoGroups = true }},
		{"no-matching", func(o *htn.Options) { o.NoMatching = true }},
		{"no-locked", func(o *htn.Options) { o.NoLocked = true }},
		{"no-filters", func(o *htn.Options) { o.NoMatching, o.NoLocked = true, true }},
		{"no-last-conflict", func(o *htn.Options) { o.NoLastConflict = true }},
		{"no-mrv", func(o *htn.Options) { o.NoMRV = true }},
		{"no-conflicts", func(o *htn.Options) { o.NoConflicts = true }},
		{"no-restarts", func(o *htn.Options) { o.NoRestarts = true }},
	} {
		o := base
		c.change(&o)
		b.Run(c.name, func(b *testing.B) { benchSolve(b, hardPuzzle, sudoku.Unordered, o) })
	}
}

// BenchmarkSolveGrow measures grounding on demand and the search over
// the growing task together (nothing is grounded ahead: each iteration
// starts from the lifted problem) on the paper's puzzle in its ordered
// network, against BenchmarkSolvePaperOrdered's search over the full
// grounding.
func BenchmarkSolveGrow(b *testing.B) {
	p := testutil.SudokuProblem(b, paperPuzzle, sudoku.Ordered)
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		g, err := ground.NewGrow(context.Background(), p, ground.Options{})
		if err != nil {
			b.Fatal(err)
		}
		_, st, err := htn.SolveGrow(context.Background(), g, htn.Options{NoClose: true})
		if err != nil {
			b.Fatal(err)
		}
		nodes = st.Nodes
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// BenchmarkGBFSRC measures greedy best-first search under the relaxed
// composition heuristic, whose evaluation is most of its time, on IPC
// Blocksworld-GTOHP p28 (2,949 facts; 1,500 nodes).
func BenchmarkGBFSRC(b *testing.B) {
	benchIPC(b, "Blocksworld-GTOHP", "p28.hddl", htn.Options{Search: htn.GBFS, Heuristic: htn.HeurRC, MaxNodes: 1500})
}

// BenchmarkGBFSRCLarge measures the same on a large relaxed problem, IPC
// Freecell-Learned probfreecell-05-5 (119,256 operators over 11,736
// nodes; 60,000 nodes), where an evaluation walks far more operators than
// fit in the cache.
func BenchmarkGBFSRCLarge(b *testing.B) {
	benchIPC(b, "Freecell-Learned-ECAI-16", "probfreecell-05-5.hddl", htn.Options{Search: htn.GBFS, Heuristic: htn.HeurRC, MaxNodes: 60_000})
}

// BenchmarkGBFS measures greedy best-first search itself (successors,
// networks, keys, the visited set) under the TDG estimate, which costs
// little, on IPC Freecell-Learned probfreecell-03-1 (91,806 methods; deep
// networks; 400,000 nodes).
func BenchmarkGBFS(b *testing.B) {
	benchIPC(b, "Freecell-Learned-ECAI-16", "probfreecell-03-1.hddl", htn.Options{Search: htn.GBFS, Heuristic: htn.HeurTDG, MaxNodes: 400_000})
}

// BenchmarkDFSRecursive measures depth-first search of a recursive
// network, whose nodes are all recorded by content hash, on IPC
// Logistics-Learned probLOGISTICS-37-0 (3,000,000 nodes; a set of
// millions of nodes, so look-ups miss the cache), without the value
// order (with it, the target order plans it in about 5,000 nodes).
func BenchmarkDFSRecursive(b *testing.B) {
	benchIPC(b, "Logistics-Learned-ECAI-16", "probLOGISTICS-37-0.hddl", htn.Options{Search: htn.DFS, NoValueOrder: true, MaxNodes: 3_000_000})
}

// benchIPC searches an IPC 2020 total-order problem (its domain.hddl)
// with opt until opt.MaxNodes, which the search must reach.
func benchIPC(b *testing.B, domain, problem string, opt htn.Options) {
	dir := testutil.IPCDir(b, "total-order", domain)
	_, task := testutil.LoadTask(b, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, problem))
	task = testutil.Compact(b, task).Task
	var nodes int64
	for b.Loop() {
		_, st, err := htn.Solve(context.Background(), task, opt)
		if err != htn.ErrNodeLimit {
			b.Fatalf("%v, want the node limit", err)
		}
		nodes = st.Nodes
	}
	b.ReportMetric(float64(nodes), "nodes")
}
