package variant

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/sudoku"
)

// HDDL models extend the paper's domain (Listing 6) with what
// the HTN engines need for killer cages, diagonals, extra regions and
// thermometers, for any size:
//
//   - regions (diagonals, extra regions, killer cages) are objects; a cell
//     in k of them is filled by m-fill-cell-k, whose precondition names
//     them through the static fact (regions-k c r g1..gk) and asks each to
//     allow the digit ((allows g d): every digit for a diagonal or an extra
//     region, the digits of the allowed combinations for a killer cage),
//     and whose subtasks check that no region already holds the digit;
//     FILL-CELL-k records it in every region;
//   - a killer total is checked after the fills by a running sum along the
//     cage's cells (cage-first, cage-next, cage-last, (plus s d t) over
//     numbers n0..), ending at (cage-total g t);
//   - a thermometer step from one cell to the next is a check-thermo task
//     after the fills, decomposed only when the digits increase (less).
//
// Other clues have no HDDL model: WriteProblem refuses them by name.

// maxRegions is the largest number of regions one cell of p is in.
func (p *Puzzle) maxRegions() int {
	most := 0
	for _, rs := range p.regionsOf() {
		most = max(most, len(rs))
	}
	return most
}

// regionsOf lists, per cell, the regions (indexes into Regions) it is in.
func (p *Puzzle) regionsOf() [][]int {
	n := p.Size()
	out := make([][]int, n*n)
	for i, r := range p.hddlRegions() {
		for _, c := range r {
			out[c] = append(out[c], i)
		}
	}
	return out
}

// hddlRegions are the regions of the HDDL model: killer cages first (so
// that cage i is region g<i>), then extra regions and diagonals.
func (p *Puzzle) hddlRegions() [][]int {
	var out [][]int
	for _, k := range p.Killers {
		out = append(out, k.Cells)
	}
	out = append(out, p.Extra...)
	return append(out, p.Diagonals()...)
}

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

func digitName(d int) string  { return fmt.Sprintf("d%d", d) }
func colName(c int) string    { return fmt.Sprintf("c%d", c) }
func rowName(r int) string    { return fmt.Sprintf("r%d", r) }
func boxName(b int) string    { return fmt.Sprintf("b%d", b) }
func regionName(g int) string { return fmt.Sprintf("g%d", g) }
func numName(s int) string    { return fmt.Sprintf("n%d", s) }

// WriteDomain writes the variant domain for p's size and the largest
// number of regions a cell of p is in.
func WriteDomain(w io.Writer, p *Puzzle) error {
	n, k := p.Size(), p.maxRegions()
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
	pr("  (:types row col - position digit box region num)\n")
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
	pr("    (plus ?s - num ?d - digit ?t - num))\n")
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
	pr("  (:method m-all-check\n")
	pr("    :parameters ()\n")
	pr("    :task (all-check)\n")
	pr("    :precondition (and (forall (?r - row ?c - col) (filled ?c ?r))))\n")
	for i := 0; i <= k; i++ {
		gs := vars("g", i)
		pr("  (:method m-fill-cell-%d\n", i)
		pr("    :parameters (%s)\n", fillParams(gs))
		pr("    :task (fill-cell ?b ?c ?r ?d)\n")
		pr("    :precondition (and (not (filled ?c ?r)) (regions-%d ?c ?r%s)", i, prefixSpace(gs))
		for j := 1; j <= i; j++ {
			pr(" (allows ?g%d ?d)", j)
		}
		pr(")\n")
		pr("    :ordered-subtasks (and (check-box ?b ?d) (check-row ?r ?d) (check-column ?c ?d)")
		for j := 1; j <= i; j++ {
			pr(" (check-region ?g%d ?d)", j)
		}
		pr("\n       (FILL-CELL-%d ?b ?c ?r ?d%s)))\n", i, prefixSpace(gs))
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

// cageDigits lists the digits that some set of size distinct digits 1..n
// adding up to sum contains.
func cageDigits(n, size, sum int) []bool {
	ok := make([]bool, n+1)
	var rec func(next, left, rest int, used []int)
	rec = func(next, left, rest int, used []int) {
		if left == 0 {
			if rest == 0 {
				for _, d := range used {
					ok[d] = true
				}
			}
			return
		}
		for d := next; d <= n && d <= rest; d++ {
			rec(d+1, left-1, rest-d, append(used, d))
		}
	}
	rec(1, size, sum, nil)
	return ok
}

// WriteProblem writes the HDDL problem of p for the domain of
// WriteDomain: the paper's problem (one fill-cell task per blank cell, its
// digit a free variable, then all-check), the regions and their facts, and
// after the fills one check-cage task per killer total and one
// check-thermo task per thermometer step.
func WriteProblem(w io.Writer, p *Puzzle, style sudoku.Style) error {
	if err := p.HDDLSupported(); err != nil {
		return err
	}
	g := p.Grid
	if err := g.Check(); err != nil {
		return err
	}
	n := g.Size()
	regions := p.hddlRegions()
	of := p.regionsOf()
	maxSum := 0
	for _, k := range p.Killers {
		maxSum = max(maxSum, k.Sum)
	}
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
	var checks []string
	for i, k := range p.Killers {
		if k.Sum > 0 {
			checks = append(checks, fmt.Sprintf("(check-cage %s)", regionName(i)))
		}
	}
	for _, t := range p.Thermos {
		for i := 1; i < len(t); i++ {
			checks = append(checks, fmt.Sprintf("(check-thermo %s %s %s %s)", colName(t[i-1]%n), rowName(t[i-1]/n), colName(t[i]%n), rowName(t[i]/n)))
		}
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
		for _, c := range checks {
			pr("\n      %s", c)
		}
		pr("))\n")
	default:
		pr("    :subtasks (and")
		for i, bl := range blanks {
			pr("\n      (t%d %s)", i, fill(bl))
		}
		pr("\n      (check (all-check))")
		for i, c := range checks {
			pr("\n      (k%d %s)", i, c)
		}
		pr(")\n")
		if len(blanks)+len(checks) > 0 {
			pr("    :ordering (and")
			for i := range blanks {
				pr("\n      (< t%d check)", i)
			}
			for i := range checks {
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
	for _, t := range p.Thermos {
		for i := 1; i < len(t); i++ {
			pr("    (thermo-step %s %s %s %s)\n", colName(t[i-1]%n), rowName(t[i-1]/n), colName(t[i]%n), rowName(t[i]/n))
		}
	}
	pr("  )\n)\n")
	return b.Flush()
}

// Model parses and checks the variant domain and problem of p.
func Model(p *Puzzle, style sudoku.Style) (*hddl.Domain, *hddl.Problem, error) {
	var ds, ps strings.Builder
	if err := WriteDomain(&ds, p); err != nil {
		return nil, nil, err
	}
	if err := WriteProblem(&ps, p, style); err != nil {
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
