package verify

import (
	"strings"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
)

// The decomposition tree: the plan's lines matched to tasks, methods and
// subtasks.

func (v *verifier) object(name string, line int) (int32, error) {
	i := v.p.ObjectIndex(name)
	if i < 0 {
		return 0, v.errf(line, "unknown object %s", name)
	}
	return int32(i), nil
}

func (v *verifier) args(names []string, params []hddl.Param, what string, line int) ([]int32, error) {
	if len(names) != len(params) {
		return nil, v.errf(line, "%s expects %d arguments, got %d", what, len(params), len(names))
	}
	out := make([]int32, len(names))
	for i, n := range names {
		o, err := v.object(n, line)
		if err != nil {
			return nil, err
		}
		if !v.d.IsSubtype(v.p.Objects[o].Type, params[i].Type) {
			return nil, v.errf(line, "argument %d of %s must be of type %s, but %s is of type %s",
				i+1, what, v.d.Types[params[i].Type].Name, n, v.d.Types[v.p.Objects[o].Type].Name)
		}
		out[i] = o
	}
	return out, nil
}

func (v *verifier) buildTree() error {
	d := v.d
	v.nodes = map[int]*vnode{}
	v.actPos = map[int]int{}
	for i, a := range v.plan.Actions {
		ai := d.ActionIndex(a.Name)
		if ai < 0 {
			if d.TaskIndex(a.Name) >= 0 {
				return v.errf(a.Line, "%s is a compound task, not an action", a.Name)
			}
			return v.errf(a.Line, "unknown action %s", a.Name)
		}
		args, err := v.args(a.Args, d.Actions[ai].Params(), "action "+a.Name, a.Line)
		if err != nil {
			return err
		}
		if _, dup := v.nodes[a.ID]; dup {
			return v.errf(a.Line, "id %d used twice", a.ID)
		}
		v.nodes[a.ID] = &vnode{id: a.ID, line: a.Line, prim: true, schema: ai, args: args, pos: i, first: i, last: i}
		v.actPos[a.ID] = i
	}
	for _, dc := range v.plan.Decomps {
		ti := d.TaskIndex(dc.Task)
		if ti < 0 {
			if d.ActionIndex(dc.Task) >= 0 {
				return v.errf(dc.Line, "%s is an action and cannot be decomposed", dc.Task)
			}
			return v.errf(dc.Line, "unknown task %s", dc.Task)
		}
		args, err := v.args(dc.Args, d.Tasks[ti].Params, "task "+dc.Task, dc.Line)
		if err != nil {
			return err
		}
		mi := d.MethodIndex(dc.Method)
		if mi < 0 {
			return v.errf(dc.Line, "unknown method %s", dc.Method)
		}
		if d.Methods[mi].Task != ti {
			return v.errf(dc.Line, "method %s decomposes %s, not %s", dc.Method, d.Tasks[d.Methods[mi].Task].Name, dc.Task)
		}
		if _, dup := v.nodes[dc.ID]; dup {
			return v.errf(dc.Line, "id %d used twice", dc.ID)
		}
		v.nodes[dc.ID] = &vnode{id: dc.ID, line: dc.Line, schema: ti, args: args, method: mi, first: -1, last: -1}
	}
	// parents: every id but the roots is the subtask of exactly one task
	parent := map[int]int{}
	for _, r := range v.plan.Root {
		if _, ok := v.nodes[r]; !ok {
			return v.errf(0, "root lists task id %d, which no line defines", r)
		}
		if _, dup := parent[r]; dup {
			return v.errf(0, "root lists task id %d twice", r)
		}
		parent[r] = -1
	}
	for _, dc := range v.plan.Decomps {
		for _, s := range dc.Subtasks {
			if _, ok := v.nodes[s]; !ok {
				return v.errf(dc.Line, "subtask id %d is defined by no line", s)
			}
			if prev, dup := parent[s]; dup {
				if prev < 0 {
					return v.errf(dc.Line, "task %d is in the root and also a subtask", s)
				}
				return v.errf(dc.Line, "task %d is a subtask of both %d and %d", s, prev, dc.ID)
			}
			parent[s] = dc.ID
		}
	}
	for _, a := range v.plan.Actions {
		if _, ok := parent[a.ID]; !ok {
			return v.errf(a.Line, "action %d is not part of the decomposition", a.ID)
		}
	}
	for _, dc := range v.plan.Decomps {
		if _, ok := parent[dc.ID]; !ok {
			return v.errf(dc.Line, "task %d is not reachable from the root", dc.ID)
		}
	}
	// children matched to method subtasks, depth first from the roots
	visiting := map[int]bool{}
	var build func(id int) error
	build = func(id int) error {
		n := v.nodes[id]
		if n.prim {
			return nil
		}
		if visiting[id] {
			return v.errf(n.line, "task %d is its own descendant", id)
		}
		visiting[id] = true
		dc := v.decomp(id)
		if err := v.matchMethod(n, dc); err != nil {
			return err
		}
		for _, c := range n.children {
			if err := build(c.id); err != nil {
				return err
			}
			if c.first >= 0 && (n.first < 0 || c.first < n.first) {
				n.first = c.first
			}
			if c.last > n.last {
				n.last = c.last
			}
		}
		return nil
	}
	for _, r := range v.plan.Root {
		if err := build(r); err != nil {
			return err
		}
	}
	return nil
}

func (v *verifier) decomp(id int) *plan.Decomposition {
	for i := range v.plan.Decomps {
		if v.plan.Decomps[i].ID == id {
			return &v.plan.Decomps[i]
		}
	}
	return nil
}

// taskOf returns the TaskRef and arguments of a node.
func (n *vnode) ref() hddl.TaskRef { return hddl.TaskRef{Primitive: n.prim, Index: n.schema} }

func (v *verifier) nodeName(n *vnode) string {
	var b strings.Builder
	b.WriteString("(" + v.d.TaskName(n.ref()))
	for _, a := range n.args {
		b.WriteString(" " + v.p.Objects[a].Name)
	}
	b.WriteString(")")
	return b.String()
}

// unify binds method variables so that terms equal the objects vals.
func unify(terms []hddl.Term, vals []int32, b []int32) bool {
	for i, t := range terms {
		if !t.IsVar() {
			if int32(t.Obj()) != vals[i] {
				return false
			}
			continue
		}
		x := t.Var()
		switch {
		case b[x] < 0:
			b[x] = vals[i]
		case b[x] != vals[i]:
			return false
		}
	}
	return true
}

// matchMethod binds the method's variables from the task and assigns the
// listed subtasks to the method's subtasks.
func (v *verifier) matchMethod(n *vnode, dc *plan.Decomposition) error {
	m := &v.d.Methods[n.method]
	b := make([]int32, len(m.Vars))
	for i := range b {
		b[i] = -1
	}
	if !unify(m.TaskArgs, n.args, b) {
		return v.errf(n.line, "method %s cannot decompose %s: its task arguments do not match", m.Name, v.nodeName(n))
	}
	subs := m.Network.Subtasks
	if len(dc.Subtasks) != len(subs) {
		return v.errf(n.line, "method %s has %d subtasks, the plan gives %d", m.Name, len(subs), len(dc.Subtasks))
	}
	listed := make([]*vnode, len(dc.Subtasks))
	for i, s := range dc.Subtasks {
		listed[i] = v.nodes[s]
	}
	assign := make([]*vnode, len(subs))
	used := make([]bool, len(listed))
	// Total order: the i-th listed subtask is the i-th subtask of the
	// method. Partial order: any assignment that unifies (backtracking).
	var rec func(k int, b []int32) []int32
	rec = func(k int, b []int32) []int32 {
		if k == len(subs) {
			return b
		}
		for i, c := range listed {
			if used[i] || (m.Network.Total && i != k) {
				continue
			}
			if c.prim != subs[k].Task.Primitive || c.schema != subs[k].Task.Index {
				continue
			}
			nb := cloneBinding(b)
			if !unify(subs[k].Args, c.args, nb) {
				continue
			}
			used[i] = true
			assign[k] = c
			if res := rec(k+1, nb); res != nil {
				return res
			}
			used[i] = false
		}
		return nil
	}
	res := rec(0, b)
	if res == nil {
		if m.Network.Total {
			for k := range subs {
				c := listed[k]
				want := v.subtaskName(&subs[k], b)
				if c.prim != subs[k].Task.Primitive || c.schema != subs[k].Task.Index || !unify(subs[k].Args, c.args, b) {
					return v.errf(n.line, "subtask %d of method %s must be %s, found %s (id %d)", k+1, m.Name, want, v.nodeName(c), c.id)
				}
			}
		}
		return v.errf(n.line, "the subtasks listed do not match those of method %s", m.Name)
	}
	n.binding = res
	n.children = assign
	return nil
}

func (v *verifier) subtaskName(st *hddl.Subtask, b []int32) string {
	var s strings.Builder
	s.WriteString("(" + v.d.TaskName(st.Task))
	for _, t := range st.Args {
		switch {
		case !t.IsVar():
			s.WriteString(" " + v.p.Objects[t.Obj()].Name)
		case b[t.Var()] >= 0:
			s.WriteString(" " + v.p.Objects[b[t.Var()]].Name)
		default:
			s.WriteString(" ?")
		}
	}
	s.WriteString(")")
	return s.String()
}
