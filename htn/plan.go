package htn

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Plan is a solution in the IPC 2020 HTN plan format: the primitive
// actions in execution order and the decomposition tree over task ids.
// Names are as written in the domain and problem.
type Plan struct {
	Actions []PlanAction // in execution order
	Root    []int        // ids of the tasks of the initial network, in order
	Decomps []Decomposition
}

// PlanAction is one line "<id> <action> <args>".
type PlanAction struct {
	ID   int
	Name string
	Args []string
	Line int // line in the plan file (0 when built in memory)
}

// Decomposition is one line "<id> <task> <args> -> <method> <subtask ids>".
type Decomposition struct {
	ID       int
	Task     string
	Args     []string
	Method   string
	Subtasks []int
	Line     int
}

// Write writes the plan in the IPC 2020 format.
func (p *Plan) Write(w io.Writer) error {
	b := bufio.NewWriter(w)
	b.WriteString("==>\n")
	for _, a := range p.Actions {
		fmt.Fprintf(b, "%d %s\n", a.ID, call(a.Name, a.Args))
	}
	b.WriteString("root")
	for _, r := range p.Root {
		fmt.Fprintf(b, " %d", r)
	}
	b.WriteByte('\n')
	for _, d := range p.Decomps {
		fmt.Fprintf(b, "%d %s -> %s", d.ID, call(d.Task, d.Args), d.Method)
		for _, s := range d.Subtasks {
			fmt.Fprintf(b, " %d", s)
		}
		b.WriteByte('\n')
	}
	b.WriteString("<==\n")
	return b.Flush()
}

// String returns the plan in the IPC 2020 format.
func (p *Plan) String() string {
	var b strings.Builder
	p.Write(&b)
	return b.String()
}

func call(name string, args []string) string {
	if len(args) == 0 {
		return name
	}
	return name + " " + strings.Join(args, " ")
}

// PlanError is a problem with one line of a plan.
type PlanError struct {
	Line int
	Msg  string
}

func (e *PlanError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("plan line %d: %s", e.Line, e.Msg)
	}
	return "plan: " + e.Msg
}

// ReadPlan reads a plan in the IPC 2020 format. Everything before "==>" is
// ignored, as are blank lines and lines starting with ";".
func ReadPlan(r io.Reader) (*Plan, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	p := &Plan{}
	started, ended, sawRoot := false, false, false
	line := 0
	ids := map[int]int{} // id -> line
	useID := func(id int) error {
		if prev, ok := ids[id]; ok {
			return &PlanError{Line: line, Msg: fmt.Sprintf("id %d already used on line %d", id, prev)}
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
				return nil, &PlanError{Line: line, Msg: "second root line"}
			}
			sawRoot = true
			for _, f := range fields[1:] {
				id, err := strconv.Atoi(f)
				if err != nil || id < 0 {
					return nil, &PlanError{Line: line, Msg: fmt.Sprintf("root: %q is not a task id", f)}
				}
				p.Root = append(p.Root, id)
			}
			continue
		}
		id, err := strconv.Atoi(fields[0])
		if err != nil || id < 0 {
			return nil, &PlanError{Line: line, Msg: fmt.Sprintf("expected a task id, found %q", fields[0])}
		}
		if len(fields) < 2 {
			return nil, &PlanError{Line: line, Msg: "expected a task name after the id"}
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
				return nil, &PlanError{Line: line, Msg: "an action line after the root line"}
			}
			p.Actions = append(p.Actions, PlanAction{ID: id, Name: fields[1], Args: fields[2:], Line: line})
			continue
		}
		if !sawRoot {
			return nil, &PlanError{Line: line, Msg: "a decomposition before the root line"}
		}
		if arrow < 2 || arrow+1 >= len(fields) {
			return nil, &PlanError{Line: line, Msg: "expected \"<id> <task> <args> -> <method> <subtask ids>\""}
		}
		d := Decomposition{ID: id, Task: fields[1], Args: fields[2:arrow], Method: fields[arrow+1], Line: line}
		for _, f := range fields[arrow+2:] {
			s, err := strconv.Atoi(f)
			if err != nil || s < 0 {
				return nil, &PlanError{Line: line, Msg: fmt.Sprintf("%q is not a subtask id", f)}
			}
			d.Subtasks = append(d.Subtasks, s)
		}
		p.Decomps = append(p.Decomps, d)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	switch {
	case !started:
		return nil, &PlanError{Msg: "no \"==>\" line: not a plan in the IPC 2020 format"}
	case !ended:
		return nil, &PlanError{Line: line, Msg: "no closing \"<==\" line"}
	case !sawRoot:
		return nil, &PlanError{Line: line, Msg: "no root line"}
	}
	return p, nil
}

// Length is the number of primitive actions.
func (p *Plan) Length() int { return len(p.Actions) }

// sortedIDs lists the ids of a plan in increasing order (for messages).
func sortedIDs(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	sort.Ints(out)
	return out
}
