package htn_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/verify"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/sudoku"
)

const (
	paperPuzzle = testutil.PaperPuzzle
	hardPuzzle  = testutil.HardPuzzle
)

var sudokuTask = testutil.SudokuTask

// solveAndVerify solves the task with its pure tests folded, writes the
// plan, reads it back and verifies it.
func solveAndVerify(t testing.TB, p *hddl.Problem, task *ground.Task, opt htn.Options) (*plan.Plan, *htn.Stats) {
	t.Helper()
	return solveFolding(t, p, testutil.Compact(t, task), opt)
}

// solveFolding solves f.Task and verifies the plan of the unfolded
// solution.
func solveFolding(t testing.TB, p *hddl.Problem, f *ground.Folding, opt htn.Options) (*plan.Plan, *htn.Stats) {
	t.Helper()
	sol, st, err := htn.Solve(context.Background(), f.Task, opt)
	if err != nil {
		t.Fatalf("solve: %v", err)
	}
	pl, err := plan.Read(strings.NewReader(f.Unfold(sol).ToPlan(f.Orig).String()))
	if err != nil {
		t.Fatalf("reading the written plan: %v", err)
	}
	if err := verify.Verify(context.Background(), p, pl); err != nil {
		t.Fatalf("verify: %v\n%s", err, pl)
	}
	return pl, st
}

// gridOf reads the FILL-CELL actions (box, column c<i>, row r<i>, digit
// d<n>) of a plan into the puzzle.
func gridOf(t testing.TB, line string, pl *plan.Plan) sudoku.Grid {
	pz, _ := sudoku.ParsePuzzle(line)
	g := pz.Grid.Clone()
	for _, a := range pl.Actions {
		c, err1 := strconv.Atoi(strings.TrimPrefix(a.Args[1], "c"))
		r, err2 := strconv.Atoi(strings.TrimPrefix(a.Args[2], "r"))
		d, err3 := strconv.Atoi(strings.TrimPrefix(a.Args[3], "d"))
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("cannot read action %v", a)
		}
		g.Set(r, c, d)
	}
	return g
}

func TestSudokuBothStyles(t *testing.T) {
	for _, line := range []string{paperPuzzle, hardPuzzle} {
		for _, style := range []sudoku.Style{sudoku.Ordered, sudoku.Unordered} {
			p, task := sudokuTask(t, line, style)
			pl, st := solveAndVerify(t, p, task, htn.Options{})
			g := gridOf(t, line, pl)
			if !g.IsSolved() {
				t.Errorf("%s: the plan's grid is not solved:\n%s", style, g)
			}
			t.Logf("%.10s… %s: %d nodes, %v", line, style, st.Nodes, st.Duration)
		}
	}
}

// TestOptionsAllFindPlans switches each acceleration off in turn: every
// configuration must still find a verified plan.
func TestOptionsAllFindPlans(t *testing.T) {
	p, task := sudokuTask(t, paperPuzzle, sudoku.Unordered)
	base := htn.Options{MaxNodes: 2_000_000}
	t.Run("no-fold", func(t *testing.T) {
		solveFolding(t, p, ground.NoFolding(task), base)
	})
	for name, change := range map[string]func(*htn.Options){
		"default":     func(*htn.Options) {},
		"no-mrv":      func(o *htn.Options) { o.NoMRV = true },
		"no-ahead":    func(o *htn.Options) { o.NoLookahead = true },
		"no-deadend":  func(o *htn.Options) { o.NoDeadEnds = true },
		"no-groups":   func(o *htn.Options) { o.NoGroups = true },
		"no-restart":  func(o *htn.Options) { o.NoRestarts = true },
		"no-conflict": func(o *htn.Options) { o.NoConflicts = true },
		"no-focus":    func(o *htn.Options) { o.NoFocus = true },
		"complete-po": func(o *htn.Options) { o.CompletePO = true },
		"seed":        func(o *htn.Options) { o.Seed = 42 },
		"gbfs":        func(o *htn.Options) { o.Search = htn.GBFS },
		"astar":       func(o *htn.Options) { o.Search = htn.AStar },
		"gbfs-rc":     func(o *htn.Options) { o.Search, o.Heuristic = htn.GBFS, htn.HeurRC },
		"gbfs-tdg":    func(o *htn.Options) { o.Search, o.Heuristic = htn.GBFS, htn.HeurTDG },
		"gbfs-queued": func(o *htn.Options) { o.Search, o.NoChain = htn.GBFS, true },
	} {
		t.Run(name, func(t *testing.T) {
			o := base
			change(&o)
			solveAndVerify(t, p, task, o)
		})
	}
}

// TestSplitMethodsPlan plans on a domain whose method the grounder splits
// into synthetic tasks (testdata/split/*.hddl): every search finds
// a plan, the written plan names only the domain's methods, with all
// three subtasks of m-deliver under it, and the verifier accepts it.
func TestSplitMethodsPlan(t *testing.T) {
	p, task := testutil.LoadTask(t, "../testdata/split/domain.hddl", "../testdata/split/problem.hddl")
	for _, search := range []htn.Search{htn.DFS, htn.GBFS, htn.AStar} {
		o := htn.Options{}
		o.Search = search
		pl, _ := solveAndVerify(t, p, task, o)
		if len(pl.Actions) != 6 || len(pl.Decomps) != 2 {
			t.Fatalf("%v: %d actions, %d decompositions, want 6 and 2:\n%s", search, len(pl.Actions), len(pl.Decomps), pl)
		}
		for _, dc := range pl.Decomps {
			if dc.Method != "m-deliver" || len(dc.Subtasks) != 3 {
				t.Errorf("%v: decomposition %s -> %s %v, want m-deliver with 3 subtasks", search, dc.Task, dc.Method, dc.Subtasks)
			}
		}
	}
}

// TestRCHeuristic solves IPC AssemblyHierarchical depth 4 (a recursive
// domain where connections are made until a chain of them exists) by
// greedy best-first search with each heuristic: the state-aware relaxed
// composition estimate must need far fewer nodes than the state-blind
// least-actions one, and both plans must verify.
func TestRCHeuristic(t *testing.T) {
	dir := testutil.IPCDir(t, "total-order", "AssemblyHierarchical")
	p, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "genericLinearProblem_depth04.hddl"))
	nodes := map[htn.Heuristic]int64{}
	for _, h := range []htn.Heuristic{htn.HeurRC, htn.HeurTDG} {
		o := htn.Options{}
		o.Search, o.Heuristic, o.MaxNodes = htn.GBFS, h, 2_000_000
		_, st := solveAndVerify(t, p, task, o)
		nodes[h] = st.Nodes
	}
	t.Logf("nodes: rc %d, tdg %d", nodes[htn.HeurRC], nodes[htn.HeurTDG])
	if nodes[htn.HeurRC]*10 > nodes[htn.HeurTDG] {
		t.Errorf("rc expanded %d nodes, tdg %d: want rc at least 10 times fewer", nodes[htn.HeurRC], nodes[htn.HeurTDG])
	}
}

// TestFocus solves IPC partial-order Barman-BDI problems, whose initial
// networks are unordered cocktail tasks. Decomposing the latest
// decomposition's tasks first carries one cocktail through before the next
// is begun; MRV alone interleaves them and the depth-first search drowns
// (without Focus, pfile05 exceeds 500,000 nodes; with it, a few hundred).
// pfile17 needs more than the first restart budget: the runs that keep the
// domain's method order must still find its plan.
func TestFocus(t *testing.T) {
	dir := testutil.IPCDir(t, "partial-order", "Barman-BDI")
	p, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "pfile05.hddl"))
	o := htn.Options{Search: htn.DFS}
	o.MaxNodes = 500_000
	_, st := solveAndVerify(t, p, task, o)
	if st.Nodes > 5000 {
		t.Errorf("pfile05 with Focus: %d nodes, want at most 5,000", st.Nodes)
	}
	o.NoFocus = true
	if _, _, err := htn.Solve(context.Background(), testutil.Compact(t, task).Task, o); err != htn.ErrNodeLimit {
		t.Errorf("pfile05 without Focus: %v, want the node limit", err)
	}
	p, task = testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "pfile17.hddl"))
	o = htn.Options{Search: htn.DFS}
	o.MaxNodes = 1_000_000
	_, st = solveAndVerify(t, p, task, o)
	t.Logf("pfile17: %d nodes, %d restarts", st.Nodes, st.Restarts)
}

// TestLookahead plans the hard puzzle through the paper's ordered network,
// where the next task in the order is the next cell: deciding the most
// constrained cell first, ahead of its turn, must at least halve the
// search (it cuts it threefold), and both plans must verify. The group
// filters (matching, locked values) are off: with them the next cell is
// rarely much less constrained than the most constrained one (over the
// 95 hard puzzles in the ordered network, 26,506 nodes with lookahead and
// 26,145 without; 61,036 and 23,358,095 with the filters off).
func TestLookahead(t *testing.T) {
	p, task := sudokuTask(t, hardPuzzle, sudoku.Ordered)
	o := htn.Options{Search: htn.DFS, MaxNodes: 5_000_000, NoMatching: true, NoLocked: true}
	_, with := solveAndVerify(t, p, task, o)
	o.NoLookahead = true
	_, without := solveAndVerify(t, p, task, o)
	t.Logf("hard puzzle, ordered: %d nodes (%d ahead) with lookahead, %d without", with.Nodes, with.Ahead, without.Nodes)
	if with.Ahead == 0 || with.Nodes*2 > without.Nodes {
		t.Errorf("%d nodes (%d ahead) with lookahead, %d without: want half as many at most", with.Nodes, with.Ahead, without.Nodes)
	}
}

// TestLeftRecursion plans testdata/recursive, whose task recurses on its
// left: a depth-first search that takes the recursive method first never
// meets a network twice and, uncapped, filled the memory (8 GiB). With the
// depth cap it comes back and finds a plan; the portfolio finds one too.
func TestLeftRecursion(t *testing.T) {
	p, task := testutil.LoadTask(t, "../testdata/recursive/domain.hddl", "../testdata/recursive/problem.hddl")
	for _, search := range []htn.Search{htn.DFS, htn.Auto} {
		o := htn.Options{Search: search, MaxNodes: 1_000_000}
		pl, st := solveAndVerify(t, p, task, o)
		t.Logf("%v: %d actions, %d nodes, %s", search, len(pl.Actions), st.Nodes, st.Search)
		// the bound on a task recurring in its own decomposition grows
		// one doubling at a time, so the first plan found recurs once:
		// arrive, step (without it, the depth cap let 4,094 actions in)
		if search == htn.DFS && len(pl.Actions) != 2 {
			t.Errorf("dfs: %d actions, want 2", len(pl.Actions))
		}
	}
}

// TestPortfolioWeights: Options.Weights changes who is in the portfolio:
// without depth-first search a best-first member answers, and a portfolio
// left with no member is an error, not a search.
func TestPortfolioWeights(t *testing.T) {
	p, task := testutil.LoadTask(t, "../testdata/split/domain.hddl", "../testdata/split/problem.hddl")
	o := htn.Options{Search: htn.Auto, Weights: map[string]int{"dfs": 0, "dfs-serial": 0}}
	_, st := solveAndVerify(t, p, task, o)
	if !strings.HasPrefix(st.Search, "portfolio: ") || strings.Contains(st.Search, "dfs") {
		t.Errorf("answered by %q with dfs left out", st.Search)
	}
	o.Weights = map[string]int{}
	for _, m := range htn.PortfolioMembers {
		o.Weights[m] = 0
	}
	if _, _, err := htn.Solve(context.Background(), testutil.Compact(t, task).Task, o); err == nil || !strings.Contains(err.Error(), "no member") {
		t.Errorf("every weight 0: %v, want an error", err)
	}
}

// TestPortfolioRC: on a large totally ordered task, where greedy search's
// own estimate is TDG, the portfolio has a greedy member with RC
// (gbfs-rc); alone it solves IPC Freecell-Learned probfreecell-02-1, which
// greedy search with TDG does only after millions of nodes, within a few
// thousand. A small task has no such member.
func TestPortfolioRC(t *testing.T) {
	dir := testutil.IPCDir(t, "total-order", "Freecell-Learned-ECAI-16")
	p, task := testutil.LoadTask(t, filepath.Join(dir, "domain.hddl"), filepath.Join(dir, "probfreecell-02-1.hddl"))
	only := func(name string) map[string]int {
		w := map[string]int{}
		for _, m := range htn.PortfolioMembers {
			w[m] = 0
		}
		w[name] = 1
		return w
	}
	_, st := solveAndVerify(t, p, task, htn.Options{Search: htn.Auto, Weights: only("gbfs-rc"), MaxNodes: 100_000})
	if st.Search != "portfolio: gbfs-rc" {
		t.Errorf("answered by %q, want gbfs-rc", st.Search)
	}
	// with the default weights A*'s turn goes to gbfs-rc on a task this
	// large: a run cut short names its members
	if _, st, err := htn.Solve(context.Background(), testutil.Compact(t, task).Task, htn.Options{Search: htn.Auto, MaxNodes: 200}); err != htn.ErrNodeLimit || !strings.Contains(st.Search, "gbfs-rc") || strings.Contains(st.Search, "astar") {
		t.Errorf("default weights, 200 nodes: %v, members %q; want the node limit, gbfs-rc and no astar", err, st.Search)
	}
	_, smallTask := testutil.LoadTask(t, "../testdata/split/domain.hddl", "../testdata/split/problem.hddl")
	if _, _, err := htn.Solve(context.Background(), testutil.Compact(t, smallTask).Task, htn.Options{Search: htn.Auto, Weights: only("gbfs-rc")}); err == nil || !strings.Contains(err.Error(), "no member") {
		t.Errorf("small task, gbfs-rc alone: %v, want no member", err)
	}
}

// TestPortfolioBoundedPO: in a recursive partial-order network the
// portfolio's bounded depth-first member (dfs-serial-rec) never starts
// over; alone it solves IPC Monroe-Partially-Observable (partial order)
// pfile10 in one run.
func TestPortfolioBoundedPO(t *testing.T) {
	dir := testutil.IPCDir(t, "partial-order", "Monroe-Partially-Observable")
	name := "pfile10-p-0028-set-up-shelter-6"
	p, task := testutil.LoadTask(t, filepath.Join(dir, name+"-domain.hddl"), filepath.Join(dir, name+".hddl"))
	w := map[string]int{}
	for _, m := range htn.PortfolioMembers {
		w[m] = 0
	}
	w["dfs-serial-rec"] = 1
	_, st := solveAndVerify(t, p, task, htn.Options{Search: htn.Auto, Weights: w, MaxNodes: 3_000_000})
	if st.Search != "portfolio: dfs-serial-rec" || st.Restarts != 0 {
		t.Errorf("answered by %q after %d restarts, want dfs-serial-rec without any", st.Search, st.Restarts)
	}
}

// TestPortfolioFullDFSPO: in partial order the portfolio's depth-first
// search has a full member beside the serial one; alone it finds the plan
// of a problem whose tasks must interleave, which the serial members
// cannot (TestPortfolioOnlyIncomplete).
func TestPortfolioFullDFSPO(t *testing.T) {
	p, task := testutil.LoadTask(t, "../testdata/interleave/domain.hddl", "../testdata/interleave/problem.hddl")
	w := map[string]int{}
	for _, m := range htn.PortfolioMembers {
		w[m] = 0
	}
	w["dfs"] = 1
	_, st := solveAndVerify(t, p, task, htn.Options{Search: htn.Auto, Weights: w})
	if st.Search != "portfolio: dfs" || st.Complete {
		t.Errorf("answered by %q (complete rerun %v), want the full dfs member in the eager run", st.Search, st.Complete)
	}
}
