package ground

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Write prints the task readably: the initial state, the goal, the initial
// network, then every action with its preconditions and effects and every
// method with its precondition, subtasks and ordering.
func (t *Task) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	w = bw
	facts := func(fs []FactID) string {
		names := make([]string, len(fs))
		for i, f := range fs {
			names[i] = t.FactName(f)
		}
		return strings.Join(names, " ")
	}
	fmt.Fprintf(w, "; %d facts, %d actions, %d compound tasks, %d methods\n", len(t.Facts), len(t.Actions), len(t.Compounds), len(t.Methods))
	fmt.Fprintf(w, "init: %s\n", facts(t.Init))
	if len(t.Goal)+len(t.GoalNeg) > 0 {
		fmt.Fprintf(w, "goal: %s | not: %s\n", facts(t.Goal), facts(t.GoalNeg))
	}
	fmt.Fprintf(w, "initial network (total order: %v):\n", t.InitialTotal)
	for i, id := range t.Initial {
		fmt.Fprintf(w, "  %d: %s\n", i, t.TaskName(id))
	}
	for _, o := range t.InitialOrder {
		if !t.InitialTotal {
			fmt.Fprintf(w, "  %d < %d\n", o.Before, o.After)
		}
	}
	for i := range t.Actions {
		a := &t.Actions[i]
		fmt.Fprintf(w, "action %d %s\n  pre: %s\n  not: %s\n  add: %s\n  del: %s\n", i, t.TaskName(TaskID(i)), facts(a.Pre), facts(a.NegPre), facts(a.Add), facts(a.Del))
	}
	for i := range t.Methods {
		m := &t.Methods[i]
		fmt.Fprintf(w, "method %d %s for %s\n", i, t.MethodName(MethodID(i)), t.TaskName(m.Task))
		if len(m.Pre)+len(m.NegPre) > 0 {
			fmt.Fprintf(w, "  pre: %s | not: %s\n", facts(m.Pre), facts(m.NegPre))
		}
		for k, s := range m.Subtasks {
			fmt.Fprintf(w, "  %d: %s\n", k, t.TaskName(s))
		}
		if !m.Total {
			for _, o := range m.Ordering {
				fmt.Fprintf(w, "  %d < %d\n", o.Before, o.After)
			}
		}
	}
	return bw.Flush()
}
