package ground

import "github.com/htnsat/htnsat/plan"

// Solution is a plan over the ground task: the decomposition tree with
// ground task and method IDs, and the actions in execution order. Planners
// produce it; ToPlan turns it into the IPC format with the input's names.
type Solution struct {
	Nodes []SolNode
	Roots []int32 // tree nodes of the initial network, in order
	Order []int32 // primitive tree nodes in execution order
}

// SolNode is one task of a solution tree.
type SolNode struct {
	Task     TaskID
	Method   MethodID // -1 for primitive tasks
	Children []int32  // in the ground method's subtask order
}

// Length is the number of actions.
func (s *Solution) Length() int { return len(s.Order) }

// Actions lists the ground actions in execution order.
func (s *Solution) Actions() []TaskID {
	out := make([]TaskID, len(s.Order))
	for i, n := range s.Order {
		out[i] = s.Nodes[n].Task
	}
	return out
}

// ToPlan writes a solution in the IPC format with the names of the input.
// Synthetic choice tasks, which bind the free variables of the initial
// network, are left out: their subtasks take their place.
func (s *Solution) ToPlan(t *Task) *plan.Plan {
	d := t.Problem.Domain
	objs := t.Problem.ObjectNames
	p := &plan.Plan{Costed: d.Costs}
	id := make([]int, len(s.Nodes))
	for i := range id {
		id[i] = -1
	}
	for i, n := range s.Order {
		id[n] = i
		a := &t.Actions[s.Nodes[n].Task]
		p.Actions = append(p.Actions, plan.Action{ID: i, Name: d.Actions[a.Schema].Name, Args: objs(a.Args)})
		p.Cost += d.ActionCost(a.Schema)
	}
	next := len(s.Order)
	// expand replaces synthetic tasks by their children
	var expand func(ns []int32) []int32
	expand = func(ns []int32) []int32 {
		var out []int32
		for _, n := range ns {
			sn := &s.Nodes[n]
			if !t.IsPrimitive(sn.Task) && t.Compound(sn.Task).Synthetic() {
				out = append(out, expand(sn.Children)...)
			} else {
				out = append(out, n)
			}
		}
		return out
	}
	var visit func(n int32)
	visit = func(n int32) {
		sn := &s.Nodes[n]
		if t.IsPrimitive(sn.Task) {
			return
		}
		if id[n] < 0 {
			id[n] = next
			next++
		}
		kids := expand(sn.Children)
		for _, k := range kids {
			if id[k] < 0 && !t.IsPrimitive(s.Nodes[k].Task) {
				id[k] = next
				next++
			}
		}
		c := t.Compound(sn.Task)
		dc := plan.Decomposition{ID: id[n], Task: d.Tasks[c.Schema].Name, Args: objs(c.Args), Method: t.MethodName(sn.Method)}
		for _, k := range kids {
			dc.Subtasks = append(dc.Subtasks, id[k])
		}
		p.Decomps = append(p.Decomps, dc)
		for _, k := range kids {
			visit(k)
		}
	}
	roots := expand(s.Roots)
	for _, r := range roots {
		if id[r] < 0 {
			id[r] = next
			next++
		}
		p.Root = append(p.Root, id[r])
	}
	for _, r := range roots {
		visit(r)
	}
	return p
}
