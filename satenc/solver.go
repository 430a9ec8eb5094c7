package satenc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/internal/excerpt"
	"github.com/htnsat/htnsat/internal/proc"
)

// Result is a solver's answer. Model[v] is the value of variable v (index
// 0 unused) when Sat.
type Result struct {
	Sat   bool
	Model []bool
}

// Solver decides a CNF formula.
type Solver interface {
	Name() string
	Solve(ctx context.Context, cnf *CNF) (*Result, error)
}

// External runs a DIMACS solver as a separate process, killed when the
// context ends. The command is split at spaces; "{in}" and "{out}" in it
// stand for the input file and a result file, otherwise the input file is
// the last argument. Both output forms are read: the competition form on
// standard output ("s SATISFIABLE" and "v" lines) and MiniSat's result
// file ("SAT" then the model), which is used when the solver is minisat.
type External struct {
	Command string
	TempDir string
}

// Name is the command line.
func (x External) Name() string { return x.Command }

// ErrSolver is wrapped by errors of an external solver.
var ErrSolver = errors.New("SAT solver failed")

// Solve writes the formula to a temporary file and runs the solver on it.
func (x External) Solve(ctx context.Context, cnf *CNF) (*Result, error) {
	fields := strings.Fields(x.Command)
	if len(fields) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrSolver)
	}
	dir, err := os.MkdirTemp(x.TempDir, "htnsat-sat-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.cnf")
	out := filepath.Join(dir, "out.txt")
	f, err := os.Create(in)
	if err != nil {
		return nil, err
	}
	// writing a formula of a hundred million literals takes seconds:
	// the writer stops when ctx ends
	if err := WriteDIMACS(ctxWriter{ctx, f}, cnf, cnf.NumVars, nil); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	usesIn, usesOut := false, false
	for i, a := range fields {
		if strings.Contains(a, "{in}") {
			fields[i] = strings.ReplaceAll(a, "{in}", in)
			usesIn = true
		}
		if strings.Contains(fields[i], "{out}") {
			fields[i] = strings.ReplaceAll(fields[i], "{out}", out)
			usesOut = true
		}
	}
	resultFile := usesOut
	if !usesIn {
		fields = append(fields, in)
		if base := filepath.Base(fields[0]); strings.HasPrefix(base, "minisat") && !usesOut {
			fields = append(fields, out)
			resultFile = true
		}
	}
	cmd := exec.CommandContext(ctx, fields[0], fields[1:]...)
	proc.Isolate(cmd)
	// the output is kept up to what a model of this formula can need; the
	// error output only for a message
	stdout := &cappedBuffer{max: maxModelSize(cnf.NumVars)}
	stderr := &cappedBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// SAT solvers exit with 10 (satisfiable) or 20 (unsatisfiable)
	var ee *exec.ExitError
	if errors.Is(runErr, exec.ErrNotFound) || errors.Is(runErr, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s: no such program (install it, or give --sat-solver gophersat, or the path of a DIMACS solver)", ErrSolver, fields[0])
	}
	if runErr != nil && !(errors.As(runErr, &ee) && (ee.ExitCode() == 10 || ee.ExitCode() == 20)) {
		msg := fmt.Sprintf("%s: %v", x.Command, runErr)
		if last := lastLine(stderr.String() + stdout.String()); last != "" {
			msg += ": " + excerpt.Of(last)
		}
		return nil, fmt.Errorf("%w: %s", ErrSolver, msg)
	}
	if stdout.over {
		return nil, fmt.Errorf("%w: %s wrote more than %d bytes, more than a model of %d variables needs", ErrSolver, x.Command, stdout.max, cnf.NumVars)
	}
	if resultFile {
		f, err := os.Open(out)
		if err != nil {
			return nil, fmt.Errorf("%w: %s wrote no result file: %v", ErrSolver, x.Command, err)
		}
		defer f.Close()
		return ReadModel(f, cnf.NumVars)
	}
	return ReadModel(bytes.NewReader(stdout.Bytes()), cnf.NumVars)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// maxModelSize is the most bytes a solver's answer for a formula of n
// variables may take: a megabyte of comments and status, and 16 bytes per
// literal.
func maxModelSize(n int) int { return 1<<20 + 16*n }

// cappedBuffer keeps the first max bytes written to it and notes whether
// more came.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); len(p) > room {
		c.over = true
		c.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.Buffer.Write(p)
}

// ReadModel reads a solver's answer in the competition form ("s
// SATISFIABLE", "v 1 -2 ... 0") or MiniSat's result-file form ("SAT" then
// the literals, or "UNSAT"). Variables the answer leaves out are false. An
// answer longer than a model of numVars variables can need is an error.
func ReadModel(r io.Reader, numVars int) (*Result, error) {
	limit := maxModelSize(numVars)
	lr := &io.LimitedReader{R: r, N: int64(limit) + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64<<10), limit)
	status := ""
	model := make([]bool, numVars+1)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "" || strings.HasPrefix(text, "c"):
			continue
		case text == "s SATISFIABLE" || text == "SAT":
			status = "sat"
			continue
		case text == "s UNSATISFIABLE" || text == "UNSAT":
			status = "unsat"
			continue
		case strings.HasPrefix(text, "s "):
			return nil, fmt.Errorf("%w: answer %s", ErrSolver, excerpt.Quote(text))
		}
		text = strings.TrimPrefix(text, "v")
		for _, f := range strings.Fields(text) {
			n, err := strconv.Atoi(f)
			if err != nil {
				return nil, fmt.Errorf("%w: model line %d: %s is not a literal", ErrSolver, line, excerpt.Quote(f))
			}
			if n == 0 {
				continue
			}
			if n < -numVars || n > numVars {
				return nil, fmt.Errorf("%w: model line %d: literal %d, but the formula has %d variables", ErrSolver, line, n, numVars)
			}
			v := max(n, -n)
			model[v] = n > 0
		}
	}
	switch err := sc.Err(); {
	case lr.N <= 0 || errors.Is(err, bufio.ErrTooLong):
		return nil, fmt.Errorf("%w: the answer is longer than %d bytes, more than a model of %d variables needs", ErrSolver, limit, numVars)
	case err != nil:
		return nil, err
	}
	switch status {
	case "sat":
		return &Result{Sat: true, Model: model}, nil
	case "unsat":
		return &Result{}, nil
	}
	return nil, fmt.Errorf("%w: no answer (no \"s SATISFIABLE\", \"s UNSATISFIABLE\", \"SAT\" or \"UNSAT\" line)", ErrSolver)
}

// ctxWriter is w that fails with ctx's error once ctx has ended.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
