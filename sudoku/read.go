package sudoku

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/htnsat/htnsat/internal/excerpt"
	"github.com/htnsat/htnsat/internal/input"
)

// Puzzle is a grid read from a file or an argument.
type Puzzle struct {
	Grid
	Name   string // "file#3": the base name and the 1-based index
	Source string // "file:line"
	// Solution and SolutionCount are set when the file gives them
	// ("puzzle:count:solution" lines); SolutionCount is -1 otherwise.
	Solution      *Grid
	SolutionCount int
	// Note says how an ambiguous line was read (LettersOnly), or is empty.
	Note string
}

// LettersOnly is the Note of a grid larger than 9x9 written in letters
// alone: read as A=1, B=2, ..., since with no digit 1-9 the other scheme
// (1-9, then A=10) would need every given to be 10 or more.
const LettersOnly = "written in letters only: read as A=1, B=2, ... (write 1-9 then A=10 to mean the other scheme)"

// lettersOnly reports whether the cells of an n-grid are read as A=1.
func lettersOnly(cells string, n int) bool {
	return n > 9 && !strings.ContainsAny(cells, "123456789") && strings.IndexFunc(cells, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}) >= 0
}

// LineError is a problem with one line of a puzzle file.
type LineError struct {
	File string
	Line int
	Msg  string
	// More, when positive, makes this error the count of the lines past
	// MaxErrors that could not be read either.
	More int
}

func (e *LineError) Error() string {
	switch {
	case e.Line <= 0 && e.File == "":
		return e.Msg
	case e.Line <= 0:
		return e.File + ": " + e.Msg
	case e.File == "":
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// cellCounts maps the number of cells of a one-line puzzle to its box size.
var cellCounts = map[int]int{16: 2, 81: 3, 256: 4, 625: 5, 1296: 6, 2401: 7}

// ReadFile reads the puzzles of a file; see ReadContext.
func ReadFile(ctx context.Context, path string, limit int) ([]Puzzle, []error) {
	f, err := input.Open(ctx, path)
	if err != nil {
		return nil, []error{err}
	}
	defer f.Close()
	return ReadContext(ctx, f, path, limit)
}

// Limits of Read: the most bytes of input and of one line, and the most
// errors told one by one (the rest are counted in one more error).
const (
	MaxInput  = 64 << 20
	MaxLine   = 1 << 20
	MaxErrors = 20
)

// Read reads every puzzle in r, in any of these forms, mixed freely:
//
//   - one puzzle per line: 16, 81, 256, 625, 1296 or 2401 cell characters, with
//     ".", "0", "_" or "*" for blanks and 1-9 then A-Z for digits (16×16
//     grids as 1-9A-G or A-P, 25×25 as 1-9A-P or A-Y);
//   - "puzzle:count:solution" and "puzzle:count" lines;
//   - whitespace-separated numbers, a whole puzzle on one line or one row
//     per line, either 1..n with 0 for blanks or 0..n-1 with -1 for blanks;
//   - a grid drawn one row per line, with "|" and "+---" borders ignored;
//   - "#" comment lines and blank lines;
//   - a leading count line: a number alone on the first line, when the
//     rest of the input holds that many puzzles (otherwise the line is
//     read as a puzzle or a row of one: "1000002000300004" is a 4×4 grid
//     with 0 for blanks).
//
// A line that cannot be read gets a *LineError naming file and line, and
// reading goes on with the next line; input longer than MaxInput, or a
// line longer than MaxLine, is an error. name is used in messages.
//
// A UTF-8 byte order mark at the start is skipped.
func Read(r io.Reader, name string) ([]Puzzle, []error) {
	return ReadContext(context.Background(), r, name, 0)
}

// ReadContext is Read that stops after limit puzzles (0: no limit) and
// when ctx ends (the last error then wraps its cause). At most MaxErrors
// errors are told one by one; one more error counts the rest.
func ReadContext(ctx context.Context, r io.Reader, name string, limit int) ([]Puzzle, []error) {
	data, err := input.ReadAll(ctx, r, name, MaxInput)
	switch {
	case errors.Is(err, input.ErrTooLarge):
		return nil, []error{&LineError{File: name, Msg: fmt.Sprintf("more than %d MiB of input", MaxInput>>20)}}
	case err != nil && ctx.Err() != nil:
		return nil, []error{err}
	case err != nil:
		return nil, []error{&LineError{File: name, Msg: err.Error()}}
	}
	data = input.TrimBOM(data)
	rd := readLines(ctx, data, name, true, limit)
	if rd.stopped == nil && rd.count >= 0 && rd.count != len(rd.puzzles)+rd.failed {
		// the number on the first line is no count of the rest: data,
		// unless it cannot be read as data either
		asData := readLines(ctx, data, name, false, limit)
		for _, e := range asData.errs {
			if le, ok := e.(*LineError); ok && le.Line == rd.countLine {
				rd.errorf(rd.countLine, "the count line says %d puzzles, the file has %d", rd.count, len(rd.puzzles)+rd.failed)
				return rd.puzzles, rd.allErrors()
			}
		}
		rd = asData
	}
	return rd.puzzles, rd.allErrors()
}

// readLines reads the puzzles of data, at most limit (0: all); with
// count, a number alone on the first data line is taken as a count line.
func readLines(ctx context.Context, data []byte, name string, count bool, limit int) *reader {
	rd := &reader{file: name, base: filepath.Base(name), count: -1, seenData: !count}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	for sc.Scan() {
		rd.line++
		if rd.line%1024 == 0 && ctx.Err() != nil {
			rd.stopped = fmt.Errorf("%s:%d: %w", name, rd.line, context.Cause(ctx))
			return rd
		}
		rd.handle(strings.TrimRight(sc.Text(), "\r"))
		if limit > 0 && len(rd.puzzles) >= limit {
			rd.stopped = errLimit
			rd.puzzles = rd.puzzles[:limit]
			return rd
		}
	}
	if err := sc.Err(); err != nil {
		msg := err.Error()
		if errors.Is(err, bufio.ErrTooLong) {
			msg = fmt.Sprintf("a line longer than %d KiB", MaxLine>>10)
		}
		rd.errs = append(rd.errs, &LineError{File: name, Line: rd.line + 1, Msg: msg})
	}
	rd.flushRows()
	return rd
}

// ParsePuzzle reads one puzzle from a string, in any form Read accepts.
func ParsePuzzle(s string) (Puzzle, error) {
	if t := strings.TrimSpace(s); t != "" && strings.Trim(t, "0123456789") == "" && len(t) < 16 {
		return Puzzle{}, fmt.Errorf("a puzzle has 16, 81, 256, 625, 1296 or 2401 cells, %s has %d", excerpt.Quote(t), len(t))
	}
	ps, errs := Read(strings.NewReader(s), "")
	if len(errs) > 0 {
		return Puzzle{}, errs[0]
	}
	switch len(ps) {
	case 0:
		return Puzzle{}, fmt.Errorf("no puzzle in %s", excerpt.Quote(s))
	case 1:
		ps[0].Name = "argument"
		return ps[0], nil
	}
	return Puzzle{}, fmt.Errorf("%d puzzles where one was expected", len(ps))
}

type reader struct {
	file, base string
	line       int
	puzzles    []Puzzle
	errs       []error
	failed     int
	seenData   bool
	count      int // from a count line, or -1
	countLine  int
	// rows of a grid written over several lines
	rows       [][]int
	rowStart   int
	rowBox     int
	rowNumbers bool // rows are raw numbers, decoded when complete
	rowFailed  bool
	// stopped says why reading ended before the end: errLimit, or the
	// context's error
	stopped error
	more    int // errors past MaxErrors
}

// errLimit stops a reader that has read the puzzles it was asked for.
var errLimit = errors.New("enough puzzles")

func (rd *reader) errorf(line int, format string, args ...any) {
	if len(rd.errs) >= MaxErrors {
		rd.more++
		return
	}
	rd.errs = append(rd.errs, &LineError{File: rd.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// allErrors is the errors told, one counting the others, and the
// context's.
func (rd *reader) allErrors() []error {
	errs := rd.errs
	if rd.more > 0 {
		errs = append(errs, &LineError{File: rd.file, Msg: fmt.Sprintf("and %d more lines could not be read", rd.more), More: rd.more})
	}
	if rd.stopped != nil && rd.stopped != errLimit {
		errs = append(errs, rd.stopped)
	}
	return errs
}

// rowBox returns the box size for a row of length n, or 0. Rows of 4 and
// 16 cells are only recognised in drawn grids (with "|"), since a line of
// 16 characters is a whole 4×4 puzzle.
func rowBoxOf(n int, drawn bool) int {
	switch n {
	case 9:
		return 3
	case 25:
		return 5
	case 36:
		return 6
	case 49:
		return 7
	case 4, 16:
		if drawn {
			return map[int]int{4: 2, 16: 4}[n]
		}
	}
	return 0
}

func (rd *reader) handle(text string) {
	t := strings.TrimSpace(text)
	if t == "" || strings.HasPrefix(t, "#") {
		return
	}
	if !rd.seenData {
		rd.seenData = true
		if n, err := strconv.Atoi(t); err == nil && n >= 0 {
			rd.count, rd.countLine = n, rd.line
			return
		}
	}
	if isBorder(t) {
		return
	}
	if n := strings.Count(t, ":"); n == 1 || n == 2 {
		rd.flushRows()
		rd.solutionLine(t)
		return
	}
	if nums, ok := numbers(t); ok && len(nums) > 1 {
		rd.numberLine(nums)
		return
	}
	drawn := strings.Contains(t, "|")
	cells := strings.Map(func(r rune) rune {
		if r == '|' || r == ' ' || r == '\t' || r == ',' {
			return -1
		}
		return r
	}, t)
	if k := rowBoxOf(len(cells), drawn); k > 0 {
		digits, err := decodeCells(cells, k*k)
		rd.addRow(digits, k, false, err)
		return
	}
	rd.flushRows()
	if f := strings.Fields(t); len(f) > 1 && !drawn {
		cells = f[0] // a puzzle followed by a name or comment
	}
	k, ok := cellCounts[len(cells)]
	if !ok {
		rd.failed++
		rd.errorf(rd.line, "a puzzle line has %d cells; expected 16, 81, 256, 625, 1296 or 2401", len(cells))
		return
	}
	g, err := decodeGrid(cells, k)
	before := len(rd.puzzles)
	rd.add(g, err, rd.line, nil, -1)
	rd.noteLetters(cells, k, before)
}

// noteLetters notes on the puzzle just added that its letters were read
// as A=1 (see LettersOnly).
func (rd *reader) noteLetters(cells string, k int, before int) {
	if len(rd.puzzles) > before && lettersOnly(cells, k*k) {
		rd.puzzles[len(rd.puzzles)-1].Note = LettersOnly
	}
}

// isBorder reports whether t is a drawn grid's horizontal border.
func isBorder(t string) bool {
	return strings.Trim(t, "-+=| ") == "" && strings.ContainsAny(t, "-=")
}

func (rd *reader) add(g Grid, err error, line int, sol *Grid, count int) {
	if err == nil {
		err = g.Check()
	}
	if err != nil {
		rd.failed++
		rd.errorf(line, "%v", err)
		return
	}
	idx := len(rd.puzzles) + rd.failed
	rd.puzzles = append(rd.puzzles, Puzzle{
		Grid:          g,
		Name:          fmt.Sprintf("%s#%d", rd.base, idx),
		Source:        fmt.Sprintf("%s:%d", rd.file, line),
		Solution:      sol,
		SolutionCount: count,
	})
}

func (rd *reader) solutionLine(t string) {
	parts := strings.Split(t, ":")
	k, ok := cellCounts[len(parts[0])]
	if !ok {
		rd.failed++
		rd.errorf(rd.line, "a puzzle has %d cells; expected 16, 81, 256, 625, 1296 or 2401", len(parts[0]))
		return
	}
	g, err := decodeGrid(parts[0], k)
	if err != nil {
		rd.add(g, err, rd.line, nil, -1)
		return
	}
	count, err := strconv.Atoi(parts[1])
	if err != nil || count < 0 {
		rd.failed++
		rd.errorf(rd.line, "solution count %s is not a number", excerpt.Quote(parts[1]))
		return
	}
	var sol *Grid
	if len(parts) == 3 && parts[2] != "" {
		s, err := decodeGrid(parts[2], k)
		if err == nil && !s.IsSolved() {
			err = fmt.Errorf("the solution given is not a solved grid")
		}
		if err == nil {
			err = s.Extends(g)
		}
		if err != nil {
			rd.failed++
			rd.errorf(rd.line, "solution: %v", err)
			return
		}
		sol = &s
	}
	before := len(rd.puzzles)
	rd.add(g, nil, rd.line, sol, count)
	rd.noteLetters(parts[0], k, before)
}

// numbers parses a line of whitespace-separated integers.
func numbers(t string) ([]int, bool) {
	// separated by white space or commas, as spreadsheets write them
	f := strings.FieldsFunc(t, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	out := make([]int, len(f))
	for i, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func (rd *reader) numberLine(nums []int) {
	// 16 numbers are a whole 4×4 puzzle unless they continue a 16×16 grid
	// or hold values a 4×4 grid cannot.
	whole := false
	if k, ok := cellCounts[len(nums)]; ok {
		whole = true
		if len(nums) == 16 && (rd.rowBox == 4 && len(rd.rows) > 0 || maxOf(nums) > 4) {
			whole = false
		}
		if whole {
			rd.flushRows()
			g, err := decodeNumbers(nums, k)
			rd.add(g, err, rd.line, nil, -1)
			return
		}
	}
	k := 0
	for kk := MinBox; kk <= MaxBox; kk++ {
		if kk*kk == len(nums) {
			k = kk
		}
	}
	if k == 0 {
		rd.flushRows()
		rd.failed++
		rd.errorf(rd.line, "a line of %d numbers is neither a puzzle (16, 81, 256, 625, 1296 or 2401 numbers) nor a row (4, 9, 16, 25, 36 or 49)", len(nums))
		return
	}
	rd.addRow(nums, k, true, nil)
}

func maxOf(xs []int) int {
	m := xs[0]
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}

// addRow collects one row of a grid written over several lines.
func (rd *reader) addRow(row []int, k int, raw bool, err error) {
	if len(rd.rows) > 0 && (rd.rowBox != k || rd.rowNumbers != raw) {
		rd.flushRows()
	}
	if len(rd.rows) == 0 {
		rd.rowStart, rd.rowBox, rd.rowNumbers, rd.rowFailed = rd.line, k, raw, false
	}
	if err != nil && !rd.rowFailed {
		rd.rowFailed = true
		rd.errorf(rd.line, "%v", err)
	}
	rd.rows = append(rd.rows, row)
	if len(rd.rows) == k*k {
		rd.flushRows()
	}
}

// flushRows turns the collected rows into a puzzle, or reports them.
func (rd *reader) flushRows() {
	if len(rd.rows) == 0 {
		return
	}
	rows, k, start := rd.rows, rd.rowBox, rd.rowStart
	rd.rows = nil
	n := k * k
	if rd.rowFailed {
		rd.failed++
		return
	}
	if len(rows) != n {
		rd.failed++
		rd.errorf(start, "a grid drawn over lines has %d rows; expected %d", len(rows), n)
		return
	}
	var cells []int
	for _, r := range rows {
		cells = append(cells, r...)
	}
	if rd.rowNumbers {
		g, err := decodeNumbers(cells, k)
		rd.add(g, err, start, nil, -1)
		return
	}
	rd.add(Grid{Box: k, Cells: cells}, nil, start, nil, -1)
}

// ParseLine reads the one-line form of a grid (16, 81, 256, 625, 1296 or 2401
// cell symbols, as Grid.Line writes them) without checking its digits
// against each other: a player's grid may repeat one, which the caller
// reports in its own way.
func ParseLine(s string) (Grid, error) {
	s = strings.TrimSpace(s)
	for k := MinBox; k <= MaxBox; k++ {
		if len(s) == k*k*k*k {
			return decodeGrid(s, k)
		}
	}
	return Grid{}, fmt.Errorf("a one-line grid has 16, 81, 256, 625, 1296 or 2401 cells, not %d", len(s))
}

// decodeGrid reads a one-line puzzle of (k*k)² cells.
func decodeGrid(s string, k int) (Grid, error) {
	digits, err := decodeCells(s, k*k)
	if err != nil {
		return Grid{}, err
	}
	return Grid{Box: k, Cells: digits}, nil
}

// decodeCells reads cell characters of an n-grid. For n > 9 the scheme is
// 1-9 then A-Z when any digit 1-9 occurs, and A=1, B=2, ... otherwise.
func decodeCells(s string, n int) ([]int, error) {
	letterOne := n > 9 && !strings.ContainsAny(s, "123456789")
	out := make([]int, len(s))
	for i := 0; i < len(s); i++ {
		ch := s[i]
		v := -1
		switch {
		case ch == '.' || ch == '_' || ch == '*':
			v = 0
		case ch == '0' && !letterOne:
			v = 0
		case ch >= '1' && ch <= '9':
			v = int(ch - '0')
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z':
			l := int(ch|0x20) - 'a'
			if letterOne {
				v = l + 1
			} else {
				v = l + 10
			}
		}
		if v < 0 || v > n {
			return nil, fmt.Errorf("unknown symbol %q at cell %d (a %d×%d grid uses %s)", ch, i+1, n, n, alphabet(n))
		}
		out[i] = v
	}
	return out, nil
}

func alphabet(n int) string {
	switch {
	case n <= 9:
		return fmt.Sprintf("1-%d and . or 0", n)
	case n <= 26:
		return fmt.Sprintf("1-9A-%s or A-%s, and . for blanks", symbols[n-1:n], string(rune('A'+n-1)))
	case n <= len(symbols):
		return fmt.Sprintf("1-9A-%s, and . for blanks", symbols[n-1:n])
	}
	return "numbers separated by spaces, 0 for blanks"
}

// decodeNumbers reads numbers 1..n with 0 blank, or 0..n-1 with -1 blank.
func decodeNumbers(nums []int, k int) (Grid, error) {
	n := k * k
	zeroBased := false
	for _, v := range nums {
		if v == -1 {
			zeroBased = true
			break
		}
	}
	g := New(k)
	for i, v := range nums {
		d := v
		if zeroBased {
			d = v + 1
		}
		if d < 0 || d > n {
			lo, hi := 0, n
			if zeroBased {
				lo, hi = -1, n-1
			}
			return Grid{}, fmt.Errorf("number %d at cell %d is outside %d..%d", v, i+1, lo, hi)
		}
		g.Cells[i] = d
	}
	return g, nil
}
