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
	d := &decoder{enc: enc, t: enc.t, model: model, sol: &ground.Solution{}, last: int32(len(enc.layers) - 1)}
	d.steps = make([]int32, len(enc.layers[d.last]))
	for i := range d.steps {
		d.steps[i] = -1
	}
	for k, r := range enc.layers[0] {
		n, err := d.visit(r)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, fmt.Errorf("%w: initial task %d is missing", ErrBadModel, k+1)
		}
		d.sol.Roots = append(d.sol.Roots, n)
	}
	// the roots in the order of the initial network, not the linearised one
	roots := make([]int32, len(d.sol.Roots))
	for k, i := range enc.initial {
		roots[i] = d.sol.Roots[k]
	}
	d.sol.Roots = roots
	if err := d.order(); err != nil {
		return nil, err
	}
	return d.sol, nil
}

// decoder is Decode's state: the solution read so far and, per
// position of the last layer, the tree node of the action there (or -1).
type decoder struct {
	enc   *Encoding
	t     *ground.Task
	model []bool
	sol   *ground.Solution
	last  int32 // the last layer
	steps []int32
}

// task returns the task vertex vi holds in the model, if any.
func (d *decoder) task(vi int32) (ground.TaskID, bool, error) {
	v := &d.enc.verts[vi]
	found := -1
	for k, x := range v.taskVar {
		if d.model[x] {
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

// method returns the method of compound task tk at vertex vi.
func (d *decoder) method(vi int32, tk ground.TaskID) (ground.MethodID, error) {
	v := &d.enc.verts[vi]
	found := ground.MethodID(-1)
	for k, x := range v.methVar {
		if d.model[x] {
			if found >= 0 || d.t.Methods[v.methods[k]].Task != tk {
				return 0, fmt.Errorf("%w: vertex %d has an inconsistent method", ErrBadModel, vi)
			}
			found = v.methods[k]
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("%w: compound task %s at vertex %d has no method", ErrBadModel, d.t.TaskName(tk), vi)
	}
	return found, nil
}

// visit reads the subtree at vertex vi and returns its node (-1: the
// vertex holds no task).
func (d *decoder) visit(vi int32) (int32, error) {
	tk, ok, err := d.task(vi)
	if err != nil || !ok {
		return -1, err
	}
	if d.t.IsPrimitive(tk) {
		return d.action(vi, tk)
	}
	return d.compound(vi, tk)
}

// action reads action tk at vertex vi: it runs where its chain of first
// children ends, a step of the last layer.
func (d *decoder) action(vi int32, tk ground.TaskID) (int32, error) {
	t := d.t
	v := &d.enc.verts[vi]
	node := int32(len(d.sol.Nodes))
	d.sol.Nodes = append(d.sol.Nodes, ground.SolNode{Task: tk, Method: -1})
	for len(v.children) > 0 {
		c := v.children[0]
		ct, ok, err := d.task(c)
		if err != nil {
			return -1, err
		}
		if !ok || ct != tk {
			return -1, fmt.Errorf("%w: action %s at vertex %d is not passed down", ErrBadModel, t.TaskName(tk), vi)
		}
		v = &d.enc.verts[c]
	}
	if v.layer != d.last {
		return -1, fmt.Errorf("%w: action %s ends at vertex %d, which is no step", ErrBadModel, t.TaskName(tk), vi)
	}
	d.steps[v.pos] = node
	return node, nil
}

// compound reads compound task tk at vertex vi: its method and the
// subtrees of its subtasks.
func (d *decoder) compound(vi int32, tk ground.TaskID) (int32, error) {
	t, enc := d.t, d.enc
	v := &enc.verts[vi]
	m, err := d.method(vi, tk)
	if err != nil {
		return -1, err
	}
	if len(enc.order[m]) > 0 && len(v.children) == 0 {
		return -1, fmt.Errorf("%w: method %s at vertex %d, in the last layer, has subtasks", ErrBadModel, t.MethodName(m), vi)
	}
	node := int32(len(d.sol.Nodes))
	d.sol.Nodes = append(d.sol.Nodes, ground.SolNode{Task: tk, Method: m})
	gm := &t.Methods[m]
	children := make([]int32, len(gm.Subtasks))
	k, _ := slices.BinarySearch(v.methods, m)
	for j, si := range enc.order[m] {
		c, err := d.visit(v.children[v.align.slot(k, j)])
		if err != nil {
			return -1, err
		}
		if c < 0 || d.sol.Nodes[c].Task != gm.Subtasks[si] {
			return -1, fmt.Errorf("%w: subtask %d of method %s at vertex %d is missing", ErrBadModel, si+1, t.MethodName(m), vi)
		}
		children[si] = c
	}
	d.sol.Nodes[node].Children = children
	return node, nil
}

// order sets the plan's order, the actions by step; an action at a step
// that no task of the tree put there is an error.
func (d *decoder) order() error {
	for k, n := range d.steps {
		if n >= 0 {
			d.sol.Order = append(d.sol.Order, n)
			continue
		}
		if tk, ok, _ := d.task(d.enc.layers[d.last][k]); ok && d.t.IsPrimitive(tk) {
			return fmt.Errorf("%w: step %d holds %s, which no task of the tree put there", ErrBadModel, k, d.t.TaskName(tk))
		}
	}
	return nil
}
