package plan

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Plan is a solution in the IPC 2020 HTN plan format: the primitive
// actions in execution order and the decomposition tree over task ids.
// Names are as written in the domain and problem.
type Plan struct {
	Actions []Action // in execution order
	Root    []int    // ids of the tasks of the initial network, in order
	Decomps []Decomposition
	// Cost is the plan's cost, written before "==>" as "; cost N" when
	// Costed (a domain with action costs), and read back from there: the
	// verifier checks it.
	Cost   int
	Costed bool
}

// Action is one line "<id> <action> <args>".
type Action struct {
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
	if p.Costed {
		fmt.Fprintf(b, "; cost %d\n", p.Cost)
	}
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

// Length is the number of primitive actions.
func (p *Plan) Length() int { return len(p.Actions) }

// TotalCost is the plan's cost: Cost in a domain with action costs, else
// its length.
func (p *Plan) TotalCost() int64 {
	if p.Costed {
		return int64(p.Cost)
	}
	return int64(p.Length())
}
