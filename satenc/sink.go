package satenc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Var is a propositional variable, numbered from 1 as in DIMACS.
type Var int32

// Lit is a literal: v or -v.
type Lit int32

// Pos and Neg are the literals of v.
func (v Var) Pos() Lit { return Lit(v) }
func (v Var) Neg() Lit { return Lit(-v) }

// Var is the variable of l.
func (l Lit) Var() Var {
	if l < 0 {
		return Var(-l)
	}
	return Var(l)
}

// Sink receives the clauses of an encoding and hands out its variables,
// so that it always knows how many there are. The in-memory CNF, the
// DIMACS writer and the solvers implement it, so that encoders never
// depend on where their clauses go.
type Sink interface {
	// NewVar returns a variable not used before (1, 2, ...).
	NewVar() Var
	AddClause(lits ...Lit)
}

// CNF is a formula in memory: clauses stored back to back, each ended by
// a 0, as in DIMACS.
type CNF struct {
	NumVars    int
	NumClauses int
	lits       []Lit
}

// NewVar returns the next variable.
func (c *CNF) NewVar() Var {
	c.NumVars++
	return Var(c.NumVars)
}

// AddClause appends a clause; a literal of a variable beyond NumVars
// raises NumVars.
func (c *CNF) AddClause(lits ...Lit) {
	for _, l := range lits {
		if v := int(l.Var()); v > c.NumVars {
			c.NumVars = v
		}
	}
	c.lits = append(c.lits, lits...)
	c.lits = append(c.lits, 0)
	c.NumClauses++
}

// Clauses calls fn for every clause; the slice is only valid during the
// call.
func (c *CNF) Clauses(fn func([]Lit)) {
	start := 0
	for i, l := range c.lits {
		if l == 0 {
			fn(c.lits[start:i])
			start = i + 1
		}
	}
}

// mark and truncate undo the clauses added after a mark (a solver that
// is not incremental adds its assumptions as unit clauses for one call).
func (c *CNF) mark() (int, int) { return len(c.lits), c.NumClauses }

func (c *CNF) truncate(lits, clauses int) { c.lits, c.NumClauses = c.lits[:lits], clauses }

// Each sends every clause to s.
func (c *CNF) Each(s Sink) {
	c.Clauses(func(cl []Lit) { s.AddClause(cl...) })
}

// DIMACSWriter is a Sink that writes DIMACS. Clauses are streamed to a
// temporary file as they come (the header, which needs the counts, is
// written by WriteTo), so that large formulas never sit in memory twice.
type DIMACSWriter struct {
	tmp        *os.File
	w          *bufio.Writer
	numVars    int
	numClauses int
	buf        []byte
	err        error
}

// NewDIMACSWriter starts a writer with its temporary file in dir ("" for
// the system's).
func NewDIMACSWriter(dir string) (*DIMACSWriter, error) {
	f, err := os.CreateTemp(dir, "htnsat-*.cnf.body")
	if err != nil {
		return nil, err
	}
	return &DIMACSWriter{tmp: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// NewVar returns the next variable.
func (d *DIMACSWriter) NewVar() Var {
	d.numVars++
	return Var(d.numVars)
}

// NumVars is the number of variables so far.
func (d *DIMACSWriter) NumVars() int { return d.numVars }

// AddClause writes one clause line.
func (d *DIMACSWriter) AddClause(lits ...Lit) {
	if d.err != nil {
		return
	}
	b := d.buf[:0]
	for _, l := range lits {
		if v := int(l.Var()); v > d.numVars {
			d.numVars = v
		}
		b = strconv.AppendInt(b, int64(l), 10)
		b = append(b, ' ')
	}
	b = append(b, '0', '\n')
	d.buf = b
	_, d.err = d.w.Write(b)
	d.numClauses++
}

// NumClauses is the number of clauses written so far.
func (d *DIMACSWriter) NumClauses() int { return d.numClauses }

// WriteTo writes the comment lines, the header "p cnf V C" (V at least
// numVars) and the clauses to w, then removes the temporary file.
func (d *DIMACSWriter) WriteTo(w io.Writer, numVars int, comments []string) error {
	defer d.Close()
	if d.err != nil {
		return d.err
	}
	if err := d.w.Flush(); err != nil {
		return err
	}
	numVars = max(numVars, d.numVars)
	out := bufio.NewWriterSize(w, 1<<20)
	for _, c := range comments {
		out.WriteString("c ")
		out.WriteString(c)
		out.WriteByte('\n')
	}
	fmt.Fprintf(out, "p cnf %d %d\n", numVars, d.numClauses)
	if _, err := d.tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(out, d.tmp); err != nil {
		return err
	}
	return out.Flush()
}

// Close removes the temporary file.
func (d *DIMACSWriter) Close() error {
	if d.tmp == nil {
		return nil
	}
	name := d.tmp.Name()
	d.tmp.Close()
	d.tmp = nil
	return os.Remove(name)
}

// WriteDIMACS writes a CNF as DIMACS with the given comment lines.
func WriteDIMACS(w io.Writer, c *CNF, numVars int, comments []string) error {
	out := bufio.NewWriterSize(w, 1<<20)
	for _, cm := range comments {
		out.WriteString("c ")
		out.WriteString(cm)
		out.WriteByte('\n')
	}
	fmt.Fprintf(out, "p cnf %d %d\n", max(numVars, c.NumVars), c.NumClauses)
	b := make([]byte, 0, 64)
	for _, l := range c.lits {
		b = b[:0]
		if l == 0 {
			b = append(b, '0', '\n')
		} else {
			b = strconv.AppendInt(b, int64(l), 10)
			b = append(b, ' ')
		}
		if _, err := out.Write(b); err != nil {
			return err // the writer's error stays: stop formatting
		}
	}
	return out.Flush()
}
