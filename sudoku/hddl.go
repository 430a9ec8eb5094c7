package sudoku

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/htnsat/htnsat/domains"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/excerpt"
)

// Style is the shape of the initial task network of a generated problem.
type Style int

const (
	// Unordered leaves the fill tasks unordered, with all-check after all
	// of them. It is the zero value: the style the engines solve best.
	Unordered Style = iota
	// Ordered is the paper's style: the fill tasks in row-major order in
	// :ordered-subtasks, then all-check.
	Ordered
)

func (s Style) String() string {
	if s == Unordered {
		return "unordered"
	}
	return "ordered"
}

// ParseStyle reads "ordered" or "unordered".
func ParseStyle(s string) (Style, error) {
	switch strings.ToLower(s) {
	case "ordered":
		return Ordered, nil
	case "unordered":
		return Unordered, nil
	}
	return 0, fmt.Errorf("unknown style %q (want ordered or unordered)", s)
}

// Names of the constants of the generated domains: d1..dn, b0.., c0.., r0..
// (the letters below and a number).
const (
	digitLetter = 'd'
	boxLetter   = 'b'
	colLetter   = 'c'
	rowLetter   = 'r'
)

func digitName(d int) string { return string(appendName(nil, digitLetter, d)) }
func boxName(b int) string   { return string(appendName(nil, boxLetter, b)) }
func colName(c int) string   { return string(appendName(nil, colLetter, c)) }
func rowName(r int) string   { return string(appendName(nil, rowLetter, r)) }

// appendName appends the name of constant i of a kind to b.
func appendName(b []byte, letter byte, i int) []byte {
	return strconv.AppendInt(append(b, letter), int64(i), 10)
}

// WriteDomain writes the paper's domain structure for n×n grids: the same
// types, predicates, tasks, methods and action as Listing 6, with digits,
// boxes, rows and columns as constants and m-check-row/m-check-column
// taking n position parameters chained by inc. For n = 9 the model is that
// of domains/sudoku.hddl.
func WriteDomain(w io.Writer, k int) error {
	if k < MinBox || k > MaxBox {
		return fmt.Errorf("box size %d outside %d..%d", k, MinBox, MaxBox)
	}
	n := k * k
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	list := func(name func(int) string, from, to int) string {
		var parts []string
		for i := from; i <= to; i++ {
			parts = append(parts, name(i))
		}
		return strings.Join(parts, " ")
	}
	p("; The Sudoku domain of \"Planning Sudoku for HDDL\" (Listing 6) for %d×%d grids, written by htnsat.\n", n, n)
	p("(define (domain sudoku)\n")
	p("  (:requirements :hierarchy :typing :strips :universal-preconditions)\n")
	p("  (:types row col - position digit box)\n")
	p("  (:predicates\n")
	p("    (cell-at-box ?b - box ?c - col ?r - row)\n")
	p("    (digit-at ?d - digit ?c - col ?r - row)\n")
	p("    (digit-at-box ?d - digit ?b - box)\n")
	p("    (filled ?c - col ?r - row)\n")
	p("    (inc ?a ?b - position))\n")
	p("  (:constants\n")
	p("    %s - digit\n", list(digitName, 1, n))
	p("    %s - box\n", list(boxName, 0, n-1))
	p("    %s - col\n", list(colName, 0, n-1))
	p("    %s - row)\n", list(rowName, 0, n-1))
	p("  (:task all-check :parameters ())\n")
	p("  (:task fill-cell :parameters (?b - box ?c - col ?r - row ?d - digit))\n")
	p("  (:task check-box :parameters (?b - box ?d - digit))\n")
	p("  (:task check-row :parameters (?r - row ?d - digit))\n")
	p("  (:task check-column :parameters (?c - col ?d - digit))\n")
	p("  (:method m-all-check\n")
	p("    :parameters ()\n")
	p("    :task (all-check)\n")
	p("    :precondition (and (forall (?r - row ?c - col) (filled ?c ?r))))\n")
	p("  (:method m-fill-cell\n")
	p("    :parameters (?b - box ?c - col ?r - row ?d - digit)\n")
	p("    :task (fill-cell ?b ?c ?r ?d)\n")
	p("    :precondition (and (not (filled ?c ?r)))\n")
	p("    :ordered-subtasks (and (check-box ?b ?d) (check-row ?r ?d) (check-column ?c ?d)\n")
	p("       (FILL-CELL ?b ?c ?r ?d)))\n")
	WriteCheckMethods(b, n)
	p("  (:action FILL-CELL\n")
	p("    :parameters (?b - box ?c - col ?r - row ?d - digit)\n")
	p("    :precondition (and (cell-at-box ?b ?c ?r))\n")
	p("    :effect (and (digit-at ?d ?c ?r) (digit-at-box ?d ?b) (filled ?c ?r)))\n")
	p(")\n")
	return b.Flush()
}

// WriteCheckMethods writes the paper's methods for check-row,
// check-column and check-box for n×n grids (shared by the variant domain).
func WriteCheckMethods(w io.Writer, n int) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	chain := func(v string) string {
		var parts []string
		for i := 0; i+1 < n; i++ {
			parts = append(parts, fmt.Sprintf("(inc ?%s%d ?%s%d)", v, i, v, i+1))
		}
		return strings.Join(parts, " ")
	}
	vars := func(v string) string {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, fmt.Sprintf("?%s%d", v, i))
		}
		return strings.Join(parts, " ")
	}
	p("  (:method m-check-row\n")
	p("    :parameters (%s - col ?r - row ?d - digit)\n", vars("c"))
	p("    :task (check-row ?r ?d)\n")
	p("    :precondition (and %s\n", chain("c"))
	p("      (forall (?c - col) (not (digit-at ?d ?c ?r)))))\n")
	p("  (:method m-check-column\n")
	p("    :parameters (?c - col %s - row ?d - digit)\n", vars("r"))
	p("    :task (check-column ?c ?d)\n")
	p("    :precondition (and %s\n", chain("r"))
	p("      (forall (?r - row) (not (digit-at ?d ?c ?r)))))\n")
	p("  (:method m-check-box\n")
	p("    :parameters (?b - box ?d - digit)\n")
	p("    :task (check-box ?b ?d)\n")
	p("    :precondition (and (not (digit-at-box ?d ?b))))\n")
}

// DomainText returns the domain for k×k boxes; for k = 3 it is the
// embedded paper domain itself.
func DomainText(k int) ([]byte, string, error) {
	if k == 3 {
		return domains.Sudoku, domains.SudokuFile, nil
	}
	var b strings.Builder
	if err := WriteDomain(&b, k); err != nil {
		return nil, "", err
	}
	return []byte(b.String()), fmt.Sprintf("sudoku-%dx%d-domain.hddl", k*k, k*k), nil
}

// VarName is the free digit variable of the blank cell at row r, column c.
func VarName(r, c int) string { return string(appendVarName(nil, r, c)) }

// appendVarName appends VarName(r, c) to b.
func appendVarName(b []byte, r, c int) []byte {
	b = appendName(append(b, "?d-"...), rowLetter, r)
	return appendName(append(b, '-'), colLetter, c)
}

// CheckName reports whether name can name an HDDL problem: a letter, then
// letters, digits, "-" and "_", at most 100 in all.
func CheckName(name string) error {
	ok := len(name) > 0 && len(name) <= 100
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		ok = letter || i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '_')
	}
	if !ok {
		return fmt.Errorf("problem name %s: want a letter, then letters, digits, \"-\" or \"_\" (at most 100)", excerpt.Quote(name))
	}
	return nil
}

// WriteProblem writes the HDDL problem for puzzle g: the grid structure
// (cell-at-box, inc) and the givens (digit-at, digit-at-box, filled) as
// initial facts, and one fill-cell task per blank cell whose digit is a
// free variable of the initial task network, then all-check.
func WriteProblem(w io.Writer, g Grid, style Style, name string) error {
	text, err := ProblemText(g, style, name)
	if err != nil {
		return err
	}
	_, err = w.Write(text)
	return err
}

// ProblemText returns the problem for g as HDDL text (WriteProblem). It
// appends to one buffer without fmt: every HTN solve of a puzzle writes
// its problem, and formatting each name was most of the allocations of
// the parse stage.
func ProblemText(g Grid, style Style, name string) ([]byte, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	n := g.Size()
	if name == "" {
		name = "sudoku"
	}
	if err := CheckName(name); err != nil {
		return nil, err
	}
	b := make([]byte, 0, 256+n*n*80)
	// text, then a constant's name
	put := func(text string, letter byte, i int) { b = appendName(append(b, text...), letter, i) }
	b = fmt.Appendf(b, "; %d×%d Sudoku %s, written by htnsat (%s style)\n", n, n, g.Line(), style)
	b = append(b, "(define (problem "...)
	b = append(b, name...)
	b = append(b, ")\n  (:domain sudoku)\n"...)
	type blank struct{ r, c int }
	var blanks []blank
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if g.At(r, c) == 0 {
				blanks = append(blanks, blank{r, c})
			}
		}
	}
	b = append(b, "  (:htn\n"...)
	if len(blanks) > 0 {
		b = append(b, "    :parameters ("...)
		for i, bl := range blanks {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendVarName(b, bl.r, bl.c)
		}
		b = append(b, " - digit)\n"...)
	}
	fill := func(bl blank) {
		put("(fill-cell ", boxLetter, g.BoxOf(bl.r, bl.c))
		put(" ", colLetter, bl.c)
		put(" ", rowLetter, bl.r)
		b = appendVarName(append(b, ' '), bl.r, bl.c)
		b = append(b, ')')
	}
	switch style {
	case Ordered:
		b = append(b, "    :ordered-subtasks (and"...)
		for _, bl := range blanks {
			b = append(b, "\n      "...)
			fill(bl)
		}
		b = append(b, "\n      (all-check)))\n"...)
	case Unordered:
		b = append(b, "    :subtasks (and"...)
		for i, bl := range blanks {
			put("\n      (", 't', i)
			b = append(b, ' ')
			fill(bl)
			b = append(b, ')')
		}
		b = append(b, "\n      (check (all-check)))\n"...)
		if len(blanks) > 0 {
			b = append(b, "    :ordering (and"...)
			for i := range blanks {
				put("\n      (< ", 't', i)
				b = append(b, " check)"...)
			}
			b = append(b, "))\n"...)
		} else {
			b = append(b, "  )\n"...)
		}
	}
	b = append(b, "  (:init\n"...)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			put("    (cell-at-box ", boxLetter, g.BoxOf(r, c))
			put(" ", colLetter, c)
			put(" ", rowLetter, r)
			b = append(b, ")\n"...)
		}
	}
	for i := 0; i+1 < n; i++ {
		put("    (inc ", colLetter, i)
		put(" ", colLetter, i+1)
		b = append(b, ")\n"...)
	}
	for i := 0; i+1 < n; i++ {
		put("    (inc ", rowLetter, i)
		put(" ", rowLetter, i+1)
		b = append(b, ")\n"...)
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if d := g.At(r, c); d != 0 {
				put("    (digit-at ", digitLetter, d)
				put(" ", colLetter, c)
				put(" ", rowLetter, r)
				put(") (digit-at-box ", digitLetter, d)
				put(" ", boxLetter, g.BoxOf(r, c))
				put(") (filled ", colLetter, c)
				put(" ", rowLetter, r)
				b = append(b, ")\n"...)
			}
		}
	}
	b = append(b, "  )\n)\n"...)
	return b, nil
}

// parsedDomains holds the parsed domain of each box size: the text never
// changes and a parsed domain is read-only, so a batch of puzzles parses
// it once.
var parsedDomains [MaxBox + 1]struct {
	once sync.Once
	d    *hddl.Domain
	err  error
}

// parsedDomain is the parsed and checked domain for k×k boxes.
func parsedDomain(k int) (*hddl.Domain, error) {
	if k < MinBox || k > MaxBox {
		return nil, fmt.Errorf("box size %d outside %d..%d", k, MinBox, MaxBox)
	}
	c := &parsedDomains[k]
	c.once.Do(func() {
		dsrc, dname, err := DomainText(k)
		if err != nil {
			c.err = err
			return
		}
		c.d, c.err = hddl.ParseDomain(dname, dsrc)
	})
	return c.d, c.err
}

// Model parses and checks the problem for g against the domain of its
// size (parsed once per process and size).
func Model(g Grid, style Style) (*hddl.Domain, *hddl.Problem, error) {
	d, err := parsedDomain(g.Box)
	if err != nil {
		return nil, nil, err
	}
	psrc, err := ProblemText(g, style, "")
	if err != nil {
		return nil, nil, err
	}
	p, err := hddl.ParseProblem("sudoku-problem.hddl", psrc, d)
	if err != nil {
		return nil, nil, err
	}
	return d, p, nil
}
