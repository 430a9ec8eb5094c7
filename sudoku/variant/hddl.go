package variant

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/sudoku"
)

// HDDL models extend the paper's domain (Listing 6) with what
// the HTN engines need for killer cages, diagonals, extra regions and
// thermometers, for any size. Every clue is checked when a cell is filled,
// so that a search sees a broken clue at the fill that breaks it:
//
//   - regions (diagonals, extra regions, killer cages) are objects; a cell
//     in k of them is filled by m-fill-cell-k, whose precondition names
//     them through the static fact (regions-k c r g1..gk) and asks each to
//     allow the digit ((allows g d): every digit for a diagonal or an extra
//     region, the digits of the allowed combinations for a killer cage),
//     and whose subtasks check that no region already holds the digit;
//     FILL-CELL-k records it in every region;
//   - a killer total is followed as the cells are filled: (cage-at g q)
//     says cage g is in state q, and a cell of the cage is filled by
//     m-fill-cell-k-sum, whose subtask (move-cage g d) needs a step
//     (cage-step g q d q2) (static) and moves the cage to q2. The states are the sets of digits placed
//     that some combination of the cage contains (or, for a cage with too
//     many, the sum and count placed); see cageStates. After the fills,
//     (cage-full g) needs a full state (cage-final g q): the search's reach
//     finds that task dead as soon as the digits its cells can still take
//     cannot fill the cage. A cell in a second
//     cage with a total has that one checked after the fills by a sum along
//     its cells (check-cage, cage-first, cage-next, cage-last, cage-total,
//     (plus s d t) over numbers n0..);
//   - a thermometer step between cells is checked when the second of the
//     two is filled: a fill's check-thermos walks the cell's links
//     ((thermo-below c r i c2 r2): the i-th neighbour must hold a smaller
//     digit, thermo-above a larger one; link-next i i+1) and asks each neighbour to be blank
//     or to hold such a digit; (cell-allows c r d) bounds each cell by its
//     place on the thermometers (a cell k steps after a bulb holds at least
//     k+1). A step between two givens is a check-thermo task after the
//     fills.
//
// That is the model with checks at each fill (AtFill), which the
// progression search prunes with. With AfterFills every killer total is a
// sum along its cells and every thermometer step a check-thermo task, both
// after the fills: a smaller formula, which the SAT engine solves faster
// (killer puzzles: about half the time).
//
// Other clues have no HDDL model: WriteProblem refuses them by name.

// Checks says when the model checks killer totals and thermometers.
type Checks int

const (
	AtFill     Checks = iota // as each cell is filled (running sums, thermometer neighbours)
	AfterFills               // after all the fills
)

// ParseChecks reads "at-fill" or "after-fills".
func ParseChecks(s string) (Checks, error) {
	switch s {
	case "at-fill":
		return AtFill, nil
	case "after-fills":
		return AfterFills, nil
	}
	return 0, fmt.Errorf("checks %q: at-fill or after-fills", s)
}

// layout is what the model of p is made of.
type layout struct {
	n       int
	regions [][]int // killer cages first (cage i is region g<i>), then extra regions and diagonals
	of      [][]int // per cell: the regions it is in, in order
	maxK    int     // the most regions a cell is in
	sumCage []int   // per cell: the cage whose running sum its fill moves, or -1
	running []bool  // per cage: its total is followed as its cells are filled
	states  []*cageStates
	links   [][]link
	lo, hi  []int // per cell: the digits its thermometers allow
	thermos bool
	steps   [][2]int // thermometer steps between two givens
	maxNum  int      // numbers n0..maxNum
}

// link is a thermometer neighbour: below, it must hold a smaller digit.
type link struct {
	cell  int
	below bool
}

func (p *Puzzle) layout(checks Checks) *layout {
	n := p.Size()
	l := &layout{n: n, of: make([][]int, n*n), sumCage: make([]int, n*n), running: make([]bool, len(p.Killers)), states: make([]*cageStates, len(p.Killers)),
		links: make([][]link, n*n), lo: make([]int, n*n), hi: make([]int, n*n)}
	for _, k := range p.Killers {
		l.regions = append(l.regions, k.Cells)
	}
	l.regions = append(l.regions, p.Extra...)
	l.regions = append(l.regions, p.Diagonals()...)
	for i, r := range l.regions {
		for _, c := range r {
			l.of[c] = append(l.of[c], i)
		}
	}
	for c := range l.of {
		l.maxK = max(l.maxK, len(l.of[c]))
		l.sumCage[c] = -1
		l.lo[c], l.hi[c] = 1, n
	}
	for i, k := range p.Killers {
		if k.Sum == 0 {
			continue
		}
		free := true
		var given []int
		for _, c := range k.Cells {
			free = free && l.sumCage[c] < 0
			if d := p.Grid.Cells[c]; d != 0 {
				given = append(given, d)
			}
		}
		if free && checks == AtFill {
			l.states[i] = newCageStates(n, len(k.Cells), k.Sum, given)
		}
		if l.states[i] == nil {
			l.maxNum = max(l.maxNum, k.Sum, len(k.Cells))
		} else {
			l.running[i] = true
			for _, c := range k.Cells {
				l.sumCage[c] = i
			}
		}
	}
	g := p.Grid
	seen := map[[2]int]bool{}
	for _, t := range p.Thermos {
		for i := 1; i < len(t); i++ {
			a, b := t[i-1], t[i]
			if seen[[2]int{a, b}] {
				continue
			}
			seen[[2]int{a, b}] = true
			l.thermos = checks == AtFill
			if !l.thermos || g.Cells[a] != 0 && g.Cells[b] != 0 {
				l.steps = append(l.steps, [2]int{a, b})
				continue
			}
			l.links[b] = append(l.links[b], link{a, true})
			l.links[a] = append(l.links[a], link{b, false})
		}
	}
	for c := range l.links {
		l.maxNum = max(l.maxNum, len(l.links[c]))
	}
	// A cell k steps after a bulb holds at least k+1, k steps before a tip
	// at most n-k: the longest paths, relaxed n+1 times (a cycle of steps
	// leaves no digit to some cell, as it should).
	for range n + 1 {
		for s := range seen {
			l.lo[s[1]] = min(max(l.lo[s[1]], l.lo[s[0]]+1), n+1)
			l.hi[s[0]] = max(min(l.hi[s[0]], l.hi[s[1]]-1), 0)
		}
	}
	return l
}

func digitName(d int) string  { return fmt.Sprintf("d%d", d) }
func colName(c int) string    { return fmt.Sprintf("c%d", c) }
func rowName(r int) string    { return fmt.Sprintf("r%d", r) }
func boxName(b int) string    { return fmt.Sprintf("b%d", b) }
func regionName(g int) string { return fmt.Sprintf("g%d", g) }
func numName(s int) string    { return fmt.Sprintf("n%d", s) }

// HDDLSupported tells whether p's clues all have an HDDL model; the error
// names the first that has none.
func (p *Puzzle) HDDLSupported() error {
	other := []struct {
		what string
		n    int
	}{
		{"little killer sums", len(p.LittleKiller)}, {"arrows", len(p.Arrows)},
		{"ratio dots", len(p.Ratios)}, {"difference dots", len(p.Differences)}, {"XV marks", len(p.XV)},
		{"renban lines", len(p.Renbans)}, {"whispers lines", len(p.Whispers)}, {"palindromes", len(p.Palindromes)},
		{"quadruples", len(p.Quadruples)}, {"odd or even cells", len(p.Odd) + len(p.Even)},
	}
	for _, o := range other {
		if o.n > 0 {
			return fmt.Errorf("the HDDL model covers killer cages, diagonals, extra regions and thermometers; this puzzle has %s", o.what)
		}
	}
	switch {
	case p.AntiKnight || p.AntiKing:
		return fmt.Errorf("the HDDL model covers killer cages, diagonals, extra regions and thermometers; this puzzle has an anti-knight or anti-king rule")
	case p.NegativeRatio || p.NegativeDifference || p.NegativeXV:
		return fmt.Errorf("the HDDL model covers killer cages, diagonals, extra regions and thermometers; this puzzle has a negative rule")
	}
	return nil
}

// WriteDomain writes the variant domain for p: its size, the most regions
// a cell of p is in, and the running sums and thermometer checks if p has
// them.
func WriteDomain(w io.Writer, p *Puzzle, checks Checks) error {
	l := p.layout(checks)
	n, k := l.n, l.maxK
	sums := slices.Contains(l.running, true)
	b := bufio.NewWriter(w)
	pr := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	names := func(name func(int) string, from, to int) string {
		var parts []string
		for i := from; i <= to; i++ {
			parts = append(parts, name(i))
		}
		return strings.Join(parts, " ")
	}
	vars := func(prefix string, k int) string {
		var parts []string
		for i := 1; i <= k; i++ {
			parts = append(parts, fmt.Sprintf("?%s%d", prefix, i))
		}
		return strings.Join(parts, " ")
	}
	pr("; The Sudoku domain of \"Planning Sudoku for HDDL\" (Listing 6) for %d×%d grids, with killer cages,\n", n, n)
	pr("; diagonals, extra regions and thermometers (cells in up to %d regions), written by htnsat.\n", k)
	pr("(define (domain sudoku-variant)\n")
	pr("  (:requirements :hierarchy :typing :strips :negative-preconditions :universal-preconditions)\n")
	pr("  (:types row col - position digit box region num cage-state)\n")
	pr("  (:predicates\n")
	pr("    (cell-at-box ?b - box ?c - col ?r - row)\n")
	pr("    (digit-at ?d - digit ?c - col ?r - row)\n")
	pr("    (digit-at-box ?d - digit ?b - box)\n")
	pr("    (filled ?c - col ?r - row)\n")
	pr("    (inc ?a ?b - position)\n")
	for i := 0; i <= k; i++ {
		pr("    (regions-%d ?c - col ?r - row", i)
		for j := 1; j <= i; j++ {
			pr(" ?g%d", j)
		}
		if i > 0 {
			pr(" - region")
		}
		pr(")\n")
	}
	pr("    (allows ?g - region ?d - digit)\n")
	pr("    (digit-at-region ?d - digit ?g - region)\n")
	pr("    (less ?a ?b - digit)\n")
	pr("    (thermo-step ?c1 - col ?r1 - row ?c2 - col ?r2 - row)\n")
	pr("    (cage-first ?g - region ?c - col ?r - row)\n")
	pr("    (cage-next ?g - region ?c - col ?r - row ?c2 - col ?r2 - row)\n")
	pr("    (cage-last ?g - region ?c - col ?r - row)\n")
	pr("    (cage-total ?g - region ?s - num)\n")
	pr("    (plus ?s - num ?d - digit ?t - num)")
	if sums {
		pr("\n    (sum-cage ?c - col ?r - row ?g - region)\n")
		pr("    (cage-at ?g - region ?q - cage-state)\n")
		pr("    (cage-step ?g - region ?q - cage-state ?d - digit ?q2 - cage-state)\n")
		pr("    (cage-final ?g - region ?q - cage-state)\n")
		pr("    (no-sum-cage ?c - col ?r - row)")
	}
	if l.thermos {
		pr("\n    (cell-allows ?c - col ?r - row ?d - digit)\n")
		pr("    (thermo-below ?c - col ?r - row ?i - num ?c2 - col ?r2 - row)\n")
		pr("    (thermo-above ?c - col ?r - row ?i - num ?c2 - col ?r2 - row)\n")
		pr("    (thermo-links ?c - col ?r - row ?i - num)\n")
		pr("    (link-next ?i ?i1 - num)")
	}
	pr(")\n")
	pr("  (:constants\n")
	pr("    %s - digit\n", names(digitName, 1, n))
	pr("    %s - box\n", names(boxName, 0, n-1))
	pr("    %s - col\n", names(colName, 0, n-1))
	pr("    %s - row\n", names(rowName, 0, n-1))
	pr("    n0 - num)\n")
	pr("  (:task all-check :parameters ())\n")
	pr("  (:task fill-cell :parameters (?b - box ?c - col ?r - row ?d - digit))\n")
	pr("  (:task check-box :parameters (?b - box ?d - digit))\n")
	pr("  (:task check-row :parameters (?r - row ?d - digit))\n")
	pr("  (:task check-column :parameters (?c - col ?d - digit))\n")
	pr("  (:task check-region :parameters (?g - region ?d - digit))\n")
	pr("  (:task check-thermo :parameters (?c1 - col ?r1 - row ?c2 - col ?r2 - row))\n")
	pr("  (:task check-cage :parameters (?g - region))\n")
	pr("  (:task cage-sum :parameters (?g - region ?c - col ?r - row ?s - num))\n")
	if sums {
		pr("  (:task move-cage :parameters (?g - region ?d - digit))\n")
		pr("  (:task cage-full :parameters (?g - region))\n")
	}
	if l.thermos {
		pr("  (:task check-thermos :parameters (?c - col ?r - row ?d - digit ?i - num))\n")
		pr("  (:task check-less :parameters (?c - col ?r - row ?d - digit))\n")
		pr("  (:task check-more :parameters (?c - col ?r - row ?d - digit))\n")
	}
	pr("  (:method m-all-check\n")
	pr("    :parameters ()\n")
	pr("    :task (all-check)\n")
	pr("    :precondition (and (forall (?r - row ?c - col) (filled ?c ?r))))\n")
	variants := []bool{false}
	if sums {
		variants = append(variants, true)
	}
	for i := 0; i <= k; i++ {
		gs := vars("g", i)
		for _, sum := range variants {
			params := fillParams(gs)
			name := fmt.Sprintf("m-fill-cell-%d", i)
			if sum {
				name += "-sum"
				params += " ?gs - region"
			}
			pr("  (:method %s\n", name)
			pr("    :parameters (%s)\n", params)
			pr("    :task (fill-cell ?b ?c ?r ?d)\n")
			pr("    :precondition (and (not (filled ?c ?r)) (regions-%d ?c ?r%s)", i, prefixSpace(gs))
			for j := 1; j <= i; j++ {
				pr(" (allows ?g%d ?d)", j)
			}
			if l.thermos {
				pr(" (cell-allows ?c ?r ?d)")
			}
			if sum {
				pr(" (sum-cage ?c ?r ?gs)")
			} else if sums {
				pr(" (no-sum-cage ?c ?r)")
			}
			pr(")\n")
			pr("    :ordered-subtasks (and (check-box ?b ?d) (check-row ?r ?d) (check-column ?c ?d)")
			for j := 1; j <= i; j++ {
				pr(" (check-region ?g%d ?d)", j)
			}
			// the fill right after the region checks (the search runs them
			// as one step, which its choice groups need), then the checks
			// with more than one method
			pr("\n       (FILL-CELL-%d %s)", i, paramVars(fillParams(gs)))
			if l.thermos {
				pr(" (check-thermos ?c ?r ?d n0)")
			}
			if sum {
				pr(" (move-cage ?gs ?d)")
			}
			pr("))\n")
		}
	}
	if sums {
		// the cage's state is a choice of its own, so that a cell's
		// methods are its digits
		pr("  (:method m-move-cage\n")
		pr("    :parameters (?g - region ?d - digit ?q ?q2 - cage-state)\n")
		pr("    :task (move-cage ?g ?d)\n")
		pr("    :precondition (and (cage-at ?g ?q) (cage-step ?g ?q ?d ?q2))\n")
		pr("    :ordered-subtasks (and (MOVE-CAGE ?g ?q ?d ?q2)))\n")
		// after the fills each cage is full: a task the search sees die as
		// soon as no full state can be reached any more
		pr("  (:method m-cage-full\n")
		pr("    :parameters (?g - region ?q - cage-state)\n")
		pr("    :task (cage-full ?g)\n")
		pr("    :precondition (and (cage-at ?g ?q) (cage-final ?g ?q)))\n")
	}
	sudoku.WriteCheckMethods(b, n)
	pr("  (:method m-check-region\n")
	pr("    :parameters (?g - region ?d - digit)\n")
	pr("    :task (check-region ?g ?d)\n")
	pr("    :precondition (and (not (digit-at-region ?d ?g))))\n")
	pr("  (:method m-check-thermo\n")
	pr("    :parameters (?c1 - col ?r1 - row ?c2 - col ?r2 - row ?d1 ?d2 - digit)\n")
	pr("    :task (check-thermo ?c1 ?r1 ?c2 ?r2)\n")
	pr("    :precondition (and (digit-at ?d1 ?c1 ?r1) (digit-at ?d2 ?c2 ?r2) (less ?d1 ?d2)))\n")
	if l.thermos {
		pr("  (:method m-thermos-done\n")
		pr("    :parameters (?c - col ?r - row ?d - digit ?i - num)\n")
		pr("    :task (check-thermos ?c ?r ?d ?i)\n")
		pr("    :precondition (and (thermo-links ?c ?r ?i)))\n")
		for _, dir := range []struct{ name, check string }{{"below", "check-less"}, {"above", "check-more"}} {
			pr("  (:method m-thermos-%s\n", dir.name)
			pr("    :parameters (?c - col ?r - row ?d - digit ?i - num ?c2 - col ?r2 - row ?i1 - num)\n")
			pr("    :task (check-thermos ?c ?r ?d ?i)\n")
			pr("    :precondition (and (thermo-%s ?c ?r ?i ?c2 ?r2) (link-next ?i ?i1))\n", dir.name)
			pr("    :ordered-subtasks (and (%s ?c2 ?r2 ?d) (check-thermos ?c ?r ?d ?i1)))\n", dir.check)
		}
		for _, dir := range []struct{ task, less string }{{"check-less", "(less ?d2 ?d)"}, {"check-more", "(less ?d ?d2)"}} {
			pr("  (:method m-%s-blank\n", dir.task)
			pr("    :parameters (?c - col ?r - row ?d - digit)\n")
			pr("    :task (%s ?c ?r ?d)\n", dir.task)
			pr("    :precondition (and (not (filled ?c ?r))))\n")
			pr("  (:method m-%s-digit\n", dir.task)
			pr("    :parameters (?c - col ?r - row ?d ?d2 - digit)\n")
			pr("    :task (%s ?c ?r ?d)\n", dir.task)
			pr("    :precondition (and (digit-at ?d2 ?c ?r) %s))\n", dir.less)
		}
	}
	pr("  (:method m-check-cage\n")
	pr("    :parameters (?g - region ?c - col ?r - row)\n")
	pr("    :task (check-cage ?g)\n")
	pr("    :precondition (and (cage-first ?g ?c ?r))\n")
	pr("    :ordered-subtasks (and (cage-sum ?g ?c ?r n0)))\n")
	pr("  (:method m-cage-step\n")
	pr("    :parameters (?g - region ?c - col ?r - row ?s - num ?d - digit ?t - num ?c2 - col ?r2 - row)\n")
	pr("    :task (cage-sum ?g ?c ?r ?s)\n")
	pr("    :precondition (and (cage-next ?g ?c ?r ?c2 ?r2) (digit-at ?d ?c ?r) (plus ?s ?d ?t))\n")
	pr("    :ordered-subtasks (and (cage-sum ?g ?c2 ?r2 ?t)))\n")
	pr("  (:method m-cage-last\n")
	pr("    :parameters (?g - region ?c - col ?r - row ?s - num ?d - digit ?t - num)\n")
	pr("    :task (cage-sum ?g ?c ?r ?s)\n")
	pr("    :precondition (and (cage-last ?g ?c ?r) (digit-at ?d ?c ?r) (plus ?s ?d ?t) (cage-total ?g ?t)))\n")
	for i := 0; i <= k; i++ {
		gs := vars("g", i)
		pr("  (:action FILL-CELL-%d\n", i)
		pr("    :parameters (%s)\n", fillParams(gs))
		pr("    :precondition (and (cell-at-box ?b ?c ?r))\n")
		pr("    :effect (and (digit-at ?d ?c ?r) (digit-at-box ?d ?b) (filled ?c ?r)")
		for j := 1; j <= i; j++ {
			pr(" (digit-at-region ?d ?g%d)", j)
		}
		pr("))\n")
	}
	if sums {
		// the step is static: it binds ?q2 in the grounder's reachability
		pr("  (:action MOVE-CAGE\n")
		pr("    :parameters (?g - region ?q - cage-state ?d - digit ?q2 - cage-state)\n")
		pr("    :precondition (and (cage-at ?g ?q) (cage-step ?g ?q ?d ?q2))\n")
		pr("    :effect (and (not (cage-at ?g ?q)) (cage-at ?g ?q2)))\n")
	}
	pr(")\n")
	return b.Flush()
}

// fillParams is the parameter list of m-fill-cell-k and FILL-CELL-k: the
// paper's four, then the regions gs.
func fillParams(gs string) string {
	if gs == "" {
		return "?b - box ?c - col ?r - row ?d - digit"
	}
	return "?b - box ?c - col ?r - row ?d - digit " + gs + " - region"
}

func prefixSpace(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// WriteProblem writes the HDDL problem of p for the domain of
// WriteDomain: the paper's problem (one fill-cell task per blank cell, its
// digit a free variable, then all-check), the regions and their facts, and
// after the fills one check-cage task per killer total that is not a
// running sum and one check-thermo task per thermometer step between two
// givens.
func WriteProblem(w io.Writer, p *Puzzle, style sudoku.Style, checks Checks) error {
	if err := p.HDDLSupported(); err != nil {
		return err
	}
	g := p.Grid
	if err := g.Check(); err != nil {
		return err
	}
	n := g.Size()
	l := p.layout(checks)
	regions, of, maxSum := l.regions, l.of, l.maxNum
	b := bufio.NewWriter(w)
	pr := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	pr("; %d×%d variant Sudoku %s, written by htnsat (%s style)\n", n, n, g.Line(), style)
	pr("(define (problem variant)\n")
	pr("  (:domain sudoku-variant)\n")
	if len(regions) > 0 || maxSum > 0 {
		pr("  (:objects")
		for i := range regions {
			pr(" %s", regionName(i))
		}
		if len(regions) > 0 {
			pr(" - region")
		}
		for s := 1; s <= maxSum; s++ {
			pr(" %s", numName(s))
		}
		if maxSum > 0 {
			pr(" - num")
		}
		states := false
		for i, cs := range l.states {
			if l.running[i] {
				for q := 0; q < cs.n; q++ {
					pr(" %s", stateName(i, cs, q))
				}
				states = true
			}
		}
		if states {
			pr(" - cage-state")
		}
		pr(")\n")
	}
	type cell struct{ r, c int }
	var blanks []cell
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if g.At(r, c) == 0 {
				blanks = append(blanks, cell{r, c})
			}
		}
	}
	var after []string
	for i, k := range p.Killers {
		switch {
		case l.running[i]:
			after = append(after, fmt.Sprintf("(cage-full %s)", regionName(i)))
		case k.Sum > 0:
			after = append(after, fmt.Sprintf("(check-cage %s)", regionName(i)))
		}
	}
	for _, s := range l.steps {
		after = append(after, fmt.Sprintf("(check-thermo %s %s %s %s)", colName(s[0]%n), rowName(s[0]/n), colName(s[1]%n), rowName(s[1]/n)))
	}
	pr("  (:htn\n")
	if len(blanks) > 0 {
		pr("    :parameters (")
		for i, bl := range blanks {
			if i > 0 {
				pr(" ")
			}
			pr("%s", sudoku.VarName(bl.r, bl.c))
		}
		pr(" - digit)\n")
	}
	fill := func(bl cell) string {
		return fmt.Sprintf("(fill-cell %s %s %s %s)", boxName(g.BoxOf(bl.r, bl.c)), colName(bl.c), rowName(bl.r), sudoku.VarName(bl.r, bl.c))
	}
	switch style {
	case sudoku.Ordered:
		pr("    :ordered-subtasks (and")
		for _, bl := range blanks {
			pr("\n      %s", fill(bl))
		}
		pr("\n      (all-check)")
		for _, c := range after {
			pr("\n      %s", c)
		}
		pr("))\n")
	default:
		pr("    :subtasks (and")
		for i, bl := range blanks {
			pr("\n      (t%d %s)", i, fill(bl))
		}
		pr("\n      (check (all-check))")
		for i, c := range after {
			pr("\n      (k%d %s)", i, c)
		}
		pr(")\n")
		if len(blanks)+len(after) > 0 {
			pr("    :ordering (and")
			for i := range blanks {
				pr("\n      (< t%d check)", i)
			}
			for i := range after {
				pr("\n      (< check k%d)", i)
			}
			pr("))\n")
		} else {
			pr("  )\n")
		}
	}
	pr("  (:init\n")
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			pr("    (cell-at-box %s %s %s)", boxName(g.BoxOf(r, c)), colName(c), rowName(r))
			rs := append([]int(nil), of[r*n+c]...)
			sort.Ints(rs)
			pr(" (regions-%d %s %s", len(rs), colName(c), rowName(r))
			for _, x := range rs {
				pr(" %s", regionName(x))
			}
			pr(")\n")
		}
	}
	for i := 0; i+1 < n; i++ {
		pr("    (inc %s %s) (inc %s %s)\n", colName(i), colName(i+1), rowName(i), rowName(i+1))
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if d := g.At(r, c); d != 0 {
				pr("    (digit-at %s %s %s) (digit-at-box %s %s) (filled %s %s)", digitName(d), colName(c), rowName(r), digitName(d), boxName(g.BoxOf(r, c)), colName(c), rowName(r))
				for _, x := range of[r*n+c] {
					pr(" (digit-at-region %s %s)", digitName(d), regionName(x))
				}
				pr("\n")
			}
		}
	}
	for i, cells := range regions {
		allowed := make([]bool, n+1)
		for d := range allowed {
			allowed[d] = true
		}
		if i < len(p.Killers) && p.Killers[i].Sum > 0 {
			allowed = cageDigits(n, len(cells), p.Killers[i].Sum)
		}
		pr("   ")
		for d := 1; d <= n; d++ {
			if allowed[d] {
				pr(" (allows %s %s)", regionName(i), digitName(d))
			}
		}
		pr("\n")
	}
	for i, k := range p.Killers {
		if k.Sum == 0 {
			continue
		}
		if l.running[i] {
			writeRunning(pr, g, i, k, l.states[i])
			continue
		}
		cs := k.Cells
		pr("    (cage-first %s %s %s) (cage-last %s %s %s) (cage-total %s %s)\n", regionName(i), colName(cs[0]%n), rowName(cs[0]/n),
			regionName(i), colName(cs[len(cs)-1]%n), rowName(cs[len(cs)-1]/n), regionName(i), numName(k.Sum))
		for j := 1; j < len(cs); j++ {
			pr("    (cage-next %s %s %s %s %s)\n", regionName(i), colName(cs[j-1]%n), rowName(cs[j-1]/n), colName(cs[j]%n), rowName(cs[j]/n))
		}
	}
	for s := 0; s < maxSum; s++ {
		pr("   ")
		for d := 1; d <= n && s+d <= maxSum; d++ {
			pr(" (plus %s %s %s)", numName(s), digitName(d), numName(s+d))
		}
		pr("\n")
	}
	for a := 1; a <= n; a++ {
		pr("   ")
		for c := a + 1; c <= n; c++ {
			pr(" (less %s %s)", digitName(a), digitName(c))
		}
		pr("\n")
	}
	for _, s := range l.steps {
		pr("    (thermo-step %s %s %s %s)\n", colName(s[0]%n), rowName(s[0]/n), colName(s[1]%n), rowName(s[1]/n))
	}
	if l.thermos {
		writeThermos(pr, l)
	}
	if slices.Contains(l.running, true) {
		pr("   ")
		for c, k := range l.sumCage {
			if k < 0 {
				pr(" (no-sum-cage %s %s)", colName(c%n), rowName(c/n))
			}
		}
		pr("\n")
	}
	pr("  )\n)\n")
	return b.Flush()
}

// writeRunning writes the facts of killer cage i's running sum: its
// cells, its state before the fills and its steps.
func writeRunning(pr func(string, ...any), g sudoku.Grid, i int, k Sum, cs *cageStates) {
	n := g.Size()
	name := regionName(i)
	pr("   ")
	for _, c := range k.Cells {
		pr(" (sum-cage %s %s %s)", colName(c%n), rowName(c/n), name)
	}
	pr("\n    (cage-at %s %s)\n", name, stateName(i, cs, 0))
	// the steps come grouped by the state they leave: one line each
	for j, s := range cs.steps {
		if j > 0 && cs.steps[j-1].from != s.from {
			pr("\n")
		}
		pr(" (cage-step %s %s %s %s)", name, stateName(i, cs, s.from), digitName(s.digit), stateName(i, cs, s.to))
	}
	pr("\n   ")
	for q := range cs.n {
		if cs.final[q] {
			pr(" (cage-final %s %s)", name, stateName(i, cs, q))
		}
	}
	pr("\n")
}

func stateName(g int, cs *cageStates, q int) string { return regionName(g) + "-" + cs.label[q] }

// writeThermos writes each blank cell's thermometer links, numbered from
// n0, and the digits its place on the thermometers allows.
func writeThermos(pr func(string, ...any), l *layout) {
	n := l.n
	most := 0
	for _, links := range l.links {
		most = max(most, len(links))
	}
	pr("   ")
	for i := range most {
		pr(" (link-next %s %s)", numName(i), numName(i+1))
	}
	pr("\n")
	for c, links := range l.links {
		col, row := colName(c%n), rowName(c/n)
		pr("   ")
		for i, k := range links {
			dir := "above"
			if k.below {
				dir = "below"
			}
			pr(" (thermo-%s %s %s %s %s %s)", dir, col, row, numName(i), colName(k.cell%n), rowName(k.cell/n))
		}
		pr(" (thermo-links %s %s %s)\n   ", col, row, numName(len(links)))
		for d := l.lo[c]; d <= l.hi[c]; d++ {
			pr(" (cell-allows %s %s %s)", col, row, digitName(d))
		}
		pr("\n")
	}
}

// Model parses and checks the variant domain and problem of p.
func Model(p *Puzzle, style sudoku.Style, checks Checks) (*hddl.Domain, *hddl.Problem, error) {
	var ds, ps strings.Builder
	if err := WriteDomain(&ds, p, checks); err != nil {
		return nil, nil, err
	}
	if err := WriteProblem(&ps, p, style, checks); err != nil {
		return nil, nil, err
	}
	d, err := hddl.ParseDomain("variant-domain.hddl", []byte(ds.String()))
	if err != nil {
		return nil, nil, err
	}
	prob, err := hddl.ParseProblem("variant-problem.hddl", []byte(ps.String()), d)
	if err != nil {
		return nil, nil, err
	}
	return d, prob, nil
}

// paramVars is the variables of a parameter list, types dropped.
func paramVars(params string) string {
	var out []string
	for _, f := range strings.Fields(params) {
		if strings.HasPrefix(f, "?") {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}
