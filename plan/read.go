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
// ignored, as are blank lines and lines starting with ";". A plan larger
// than MaxSize, or with a line longer than MaxLine, is an error.
func Read(r io.Reader) (*Plan, error) {
	lr := &io.LimitedReader{R: input.BOMReader(r), N: MaxSize + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	p := &Plan{}
	started, ended, sawRoot := false, false, false
	line := 0
	ids := map[int]int{} // id -> line
	useID := func(id int) error {
		if prev, ok := ids[id]; ok {
			return &Error{Line: line, Msg: fmt.Sprintf("id %d already used on line %d", id, prev)}
		}
		ids[id] = line
		return nil
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(strings.TrimRight(sc.Text(), "\r"))
		if !started {
			if text == "==>" {
				started = true
			} else if c, ok, err := costLine(text); err != nil {
				return nil, &Error{Line: line, Msg: err.Error()}
			} else if ok {
				p.Cost, p.Costed = c, true
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
		if err := useID(id); err != nil {
			return nil, err
		}
		if arrow < 0 {
			if sawRoot {
				return nil, &Error{Line: line, Msg: "an action line after the root line"}
			}
			p.Actions = append(p.Actions, Action{ID: id, Name: fields[1], Args: fields[2:], Line: line})
			continue
		}
		if !sawRoot {
			return nil, &Error{Line: line, Msg: "a decomposition before the root line"}
		}
		if arrow < 2 || arrow+1 >= len(fields) {
			return nil, &Error{Line: line, Msg: "expected \"<id> <task> <args> -> <method> <subtask ids>\""}
		}
		d := Decomposition{ID: id, Task: fields[1], Args: fields[2:arrow], Method: fields[arrow+1], Line: line}
		for _, f := range fields[arrow+2:] {
			s, err := strconv.Atoi(f)
			if err != nil || s < 0 {
				return nil, &Error{Line: line, Msg: fmt.Sprintf("%s is not a subtask id", quote(f))}
			}
			d.Subtasks = append(d.Subtasks, s)
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
// has. A cost too large for any plan (no action costs more than
// hddl.MaxCost) is an error rather than a comment: the plan claims what no
// plan can be.
func costLine(text string) (int, bool, error) {
	t := strings.TrimLeft(text, ";")
	if len(t) == len(text) {
		return 0, false, nil
	}
	t, ok := strings.CutPrefix(strings.TrimSpace(t), "cost")
	if !ok {
		return 0, false, nil
	}
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "="))
	n, err := strconv.Atoi(t)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(t, "-") {
		return 0, false, fmt.Errorf("the plan says it costs %s, more than any plan can", quote(t))
	}
	return n, err == nil && n >= 0, nil
}
