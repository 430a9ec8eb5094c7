package plan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/internal/input"
)

// Error is a problem with one line of a plan.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("plan line %d: %s", e.Line, e.Msg)
	}
	return "plan: " + e.Msg
}

// Limits of Read: the most bytes of a plan and of one of its lines.
const (
	MaxSize = 256 << 20
	MaxLine = 1 << 20
)

// quote quotes a field of the input for a message, cut to 40 bytes.
func quote(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%q... (%d bytes)", s[:40], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// Read reads a plan in the IPC 2020 format. Everything before "==>" is
// ignored but for the cost line, as are blank lines and lines starting
// with ";". A plan larger than MaxSize, or with a line longer than
// MaxLine, is an error.
func Read(r io.Reader) (*Plan, error) {
	lr := &io.LimitedReader{R: input.BOMReader(r), N: MaxSize + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	p := &Plan{}
	started, ended, sawRoot := false, false, false
	line, costAt := 0, 0
	var ids idLines
	var words arena[string] // the arguments of every line, a few large blocks
	var subs arena[int]     // the subtask ids of every decomposition
	for sc.Scan() {
		line++
		text := strings.TrimSpace(strings.TrimRight(sc.Text(), "\r"))
		if !started {
			if text == "==>" {
				started = true
			} else if c, ok, err := costLine(text); err != nil {
				return nil, &Error{Line: line, Msg: err.Error()}
			} else if ok {
				if costAt > 0 {
					return nil, &Error{Line: line, Msg: fmt.Sprintf("a second cost line (the first is line %d)", costAt)}
				}
				p.Cost, p.Costed, costAt = c, true, line
			}
			continue
		}
		if text == "" || strings.HasPrefix(text, ";") {
			continue
		}
		if text == "<==" {
			ended = true
			break
		}
		fields := strings.Fields(text)
		if fields[0] == "root" {
			if sawRoot {
				return nil, &Error{Line: line, Msg: "second root line"}
			}
			sawRoot = true
			for _, f := range fields[1:] {
				id, err := strconv.Atoi(f)
				if err != nil || id < 0 {
					return nil, &Error{Line: line, Msg: fmt.Sprintf("root: %s is not a task id", quote(f))}
				}
				p.Root = append(p.Root, id)
			}
			continue
		}
		id, err := strconv.Atoi(fields[0])
		if err != nil || id < 0 {
			return nil, &Error{Line: line, Msg: fmt.Sprintf("expected a task id, found %s", quote(fields[0]))}
		}
		if len(fields) < 2 {
			return nil, &Error{Line: line, Msg: "expected a task name after the id"}
		}
		arrow := -1
		for i, f := range fields {
			if f == "->" {
				arrow = i
				break
			}
		}
		if prev := ids.use(id, line); prev > 0 {
			return nil, &Error{Line: line, Msg: fmt.Sprintf("id %d already used on line %d", id, prev)}
		}
		if arrow < 0 {
			if sawRoot {
				return nil, &Error{Line: line, Msg: "an action line after the root line"}
			}
			p.Actions = append(p.Actions, Action{ID: id, Name: fields[1], Args: words.add(fields[2:]...), Line: line})
			continue
		}
		if !sawRoot {
			return nil, &Error{Line: line, Msg: "a decomposition before the root line"}
		}
		if arrow < 2 || arrow+1 >= len(fields) {
			return nil, &Error{Line: line, Msg: "expected \"<id> <task> <args> -> <method> <subtask ids>\""}
		}
		d := Decomposition{ID: id, Task: fields[1], Args: words.add(fields[2:arrow]...), Method: fields[arrow+1], Line: line}
		d.Subtasks = subs.grow(len(fields) - arrow - 2)
		for i, f := range fields[arrow+2:] {
			s, err := strconv.Atoi(f)
			if err != nil || s < 0 {
				return nil, &Error{Line: line, Msg: fmt.Sprintf("%s is not a subtask id", quote(f))}
			}
			d.Subtasks[i] = s
		}
		p.Decomps = append(p.Decomps, d)
	}
	switch err := sc.Err(); {
	case lr.N <= 0:
		return nil, &Error{Line: line, Msg: fmt.Sprintf("the plan is larger than %d MiB", MaxSize>>20)}
	case errors.Is(err, bufio.ErrTooLong):
		return nil, &Error{Line: line + 1, Msg: fmt.Sprintf("a line longer than %d KiB", MaxLine>>10)}
	case err != nil:
		return nil, err
	}
	switch {
	case !started:
		return nil, &Error{Msg: "no \"==>\" line: not a plan in the IPC 2020 format"}
	case !ended:
		return nil, &Error{Line: line, Msg: "no closing \"<==\" line"}
	case !sawRoot:
		return nil, &Error{Line: line, Msg: "no root line"}
	}
	return p, nil
}

// costLine reads "; cost N" (also ";; cost = N"), the cost a plan says it
// has, N a whole number written in decimal digits. A comment whose first
// word is "cost", in any case, is a cost line: written any other way
// ("; cost 8.0", "; cost -8", "; cost 8 extra", "; COST 8") it is an
// error rather than a comment that claims nothing, and so is a cost too
// large for any plan (no action costs more than hddl.MaxCost).
func costLine(text string) (int, bool, error) {
	t := strings.TrimLeft(text, ";")
	if len(t) == len(text) {
		return 0, false, nil
	}
	t = strings.TrimSpace(t)
	if len(t) < 4 || !strings.EqualFold(t[:4], "cost") || len(t) > 4 && t[4] != '=' && t[4] != ' ' && t[4] != '\t' {
		return 0, false, nil
	}
	bad := fmt.Errorf("a cost line reads \"; cost N\", N a whole number in decimal digits, not %s", quote(text))
	if t[:4] != "cost" {
		return 0, false, bad
	}
	n := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t[4:]), "="))
	if n == "" || strings.TrimLeft(n, "0123456789") != "" {
		return 0, false, bad
	}
	c, err := strconv.Atoi(n)
	if err != nil {
		return 0, false, fmt.Errorf("the plan says it costs %s, more than any plan can", quote(n))
	}
	return c, true, nil
}

// idLines remembers the line of each id used: a slice while the ids are
// few and small (they usually run from 0), a map once one is not.
type idLines struct {
	dense  []int32 // id -> line, 0 for unused
	sparse map[int]int
}

// use records that id is defined on line and returns the line that
// defined it before, or 0.
func (m *idLines) use(id, line int) int {
	if m.sparse == nil && id < 4*len(m.dense)+1<<16 {
		if id >= len(m.dense) {
			m.dense = append(m.dense, make([]int32, id+1-len(m.dense))...)
		}
		if prev := m.dense[id]; prev > 0 {
			return int(prev)
		}
		m.dense[id] = int32(line)
		return 0
	}
	if m.sparse == nil {
		m.sparse = make(map[int]int, len(m.dense))
		for i, l := range m.dense {
			if l > 0 {
				m.sparse[i] = int(l)
			}
		}
		m.dense = nil
	}
	if prev, ok := m.sparse[id]; ok {
		return prev
	}
	m.sparse[id] = line
	return 0
}

// arena hands out short slices from large blocks, so that a plan of a
// million lines makes a few hundred allocations for their arguments and
// subtasks, not a million.
type arena[T any] struct{ block []T }

// grow returns a new slice of n elements.
func (a *arena[T]) grow(n int) []T {
	if n == 0 {
		return nil
	}
	if n > cap(a.block)-len(a.block) {
		a.block = make([]T, 0, max(4096, n))
	}
	a.block = a.block[:len(a.block)+n]
	return a.block[len(a.block)-n : len(a.block) : len(a.block)]
}

// add returns a new slice holding xs.
func (a *arena[T]) add(xs ...T) []T {
	s := a.grow(len(xs))
	copy(s, xs)
	return s
}
