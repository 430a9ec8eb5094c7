package satenc

import (
	"errors"
	"fmt"
	"slices"

	"github.com/htnsat/htnsat/ground"
)

// ErrBadModel is wrapped by errors about a model that does not describe a
// consistent decomposition.
var ErrBadModel = errors.New("the model does not describe a plan")

// Decode reads the decomposition tree and the plan from a model (model[v]
// is the value of variable v; index 0 is unused). It checks that the tree
// is consistent; the plan itself is for the verifier to judge.
func (enc *Encoding) Decode(model []bool) (*ground.Solution, error) {
	if len(model) <= enc.NumVars {
		return nil, fmt.Errorf("%w: it has %d variables, the encoding %d", ErrBadModel, len(model)-1, enc.NumVars)
	}
	t := enc.t
	sol := &ground.Solution{}
	// the chosen task and method of a vertex
	task := func(vi int32) (ground.TaskID, bool, error) {
		v := &enc.verts[vi]
		found := -1
		for k, x := range v.taskVar {
			if model[x] {
				if found >= 0 {
					return 0, false, fmt.Errorf("%w: vertex %d holds two tasks", ErrBadModel, vi)
				}
				found = k
			}
		}
		if found < 0 {
			return 0, false, nil
		}
		return v.tasks[found], true, nil
	}
	method := func(vi int32, tk ground.TaskID) (ground.MethodID, error) {
		v := &enc.verts[vi]
		found := ground.MethodID(-1)
		for k, x := range v.methVar {
			if model[x] {
				if found >= 0 || t.Methods[v.methods[k]].Task != tk {
					return 0, fmt.Errorf("%w: vertex %d has an inconsistent method", ErrBadModel, vi)
				}
				found = v.methods[k]
			}
		}
		if found < 0 {
			return 0, fmt.Errorf("%w: compound task %s at vertex %d has no method", ErrBadModel, t.TaskName(tk), vi)
		}
		return found, nil
	}
	lastLayer := int32(len(enc.layers) - 1)
	steps := make([]int32, len(enc.layers[lastLayer])) // position of the last layer -> tree node, or -1
	for i := range steps {
		steps[i] = -1
	}
	var visit func(vi int32) (int32, error)
	visit = func(vi int32) (int32, error) {
		tk, ok, err := task(vi)
		if err != nil || !ok {
			return -1, err
		}
		v := &enc.verts[vi]
		node := int32(len(sol.Nodes))
		if t.IsPrimitive(tk) {
			sol.Nodes = append(sol.Nodes, ground.SolNode{Task: tk, Method: -1})
			// the action runs where its chain of first children ends
			for len(v.children) > 0 {
				c := v.children[0]
				ct, ok, err := task(c)
				if err != nil {
					return -1, err
				}
				if !ok || ct != tk {
					return -1, fmt.Errorf("%w: action %s at vertex %d is not passed down", ErrBadModel, t.TaskName(tk), vi)
				}
				v = &enc.verts[c]
			}
			if v.layer != lastLayer {
				return -1, fmt.Errorf("%w: action %s ends at vertex %d, which is no step", ErrBadModel, t.TaskName(tk), vi)
			}
			steps[v.pos] = node
			return node, nil
		}
		m, err := method(vi, tk)
		if err != nil {
			return -1, err
		}
		if len(enc.order[m]) > 0 && len(v.children) == 0 {
			return -1, fmt.Errorf("%w: method %s at vertex %d, in the last layer, has subtasks", ErrBadModel, t.MethodName(m), vi)
		}
		sol.Nodes = append(sol.Nodes, ground.SolNode{Task: tk, Method: m})
		gm := &t.Methods[m]
		children := make([]int32, len(gm.Subtasks))
		k, _ := slices.BinarySearch(v.methods, m)
		for j, si := range enc.order[m] {
			c, err := visit(v.children[v.align.slot(k, j)])
			if err != nil {
				return -1, err
			}
			if c < 0 || sol.Nodes[c].Task != gm.Subtasks[si] {
				return -1, fmt.Errorf("%w: subtask %d of method %s at vertex %d is missing", ErrBadModel, si+1, t.MethodName(m), vi)
			}
			children[si] = c
		}
		sol.Nodes[node].Children = children
		return node, nil
	}
	for k, r := range enc.layers[0] {
		n, err := visit(r)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, fmt.Errorf("%w: initial task %d is missing", ErrBadModel, k+1)
		}
		sol.Roots = append(sol.Roots, n)
	}
	// the roots in the order of the initial network, not the linearised one
	roots := make([]int32, len(sol.Roots))
	for k, i := range enc.initial {
		roots[i] = sol.Roots[k]
	}
	sol.Roots = roots
	for k, n := range steps {
		if n >= 0 {
			sol.Order = append(sol.Order, n)
			continue
		}
		if tk, ok, _ := task(enc.layers[lastLayer][k]); ok && t.IsPrimitive(tk) {
			return nil, fmt.Errorf("%w: step %d holds %s, which no task of the tree put there", ErrBadModel, k, t.TaskName(tk))
		}
	}
	return sol, nil
}
