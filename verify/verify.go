package verify

import (
	"fmt"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
)

// Verify checks a plan against the lifted problem, independently of the
// grounder and the planners: the actions are executable in order from the
// initial state; the decomposition lines form a tree over the plan's ids
// whose roots are the tasks of the initial network; every decomposition
// uses a method of its task with the subtasks the method prescribes;
// orderings hold; every method precondition holds where the method's first
// subtask runs; the goal holds at the end. Method variables that the plan
// does not bind (the column variables of m-check-row) are found by matching
// the precondition against the state, not by enumerating their types.
//
// It returns nil for a valid plan, or a *plan.Error naming the plan line.
func Verify(p *hddl.Problem, pl *plan.Plan) error {
	v := &verifier{p: p, d: p.Domain, plan: pl, atoms: map[string]int32{}, typeObjs: map[int][]int{}}
	v.byPred = make([][]int32, len(v.d.Predicates))
	return v.run()
}

type verifier struct {
	p    *hddl.Problem
	d    *hddl.Domain
	plan *plan.Plan

	atoms    map[string]int32 // ground atom key -> id
	atomArgs [][]int32
	byPred   [][]int32 // predicate -> atom ids
	key      []byte
	states   [][]uint64 // states[i]: before action i; states[len]: final

	typeObjs map[int][]int
	nodes    map[int]*vnode
	actPos   map[int]int  // action id -> position
	scope    []hddl.Param // the variables of the formula being evaluated
}

// vnode is one task of the decomposition tree.
type vnode struct {
	id, line int
	prim     bool
	schema   int     // action or compound task index
	args     []int32 // objects
	pos      int     // primitive: position in the plan
	method   int
	binding  []int32  // method variables (-1: not bound by the plan)
	children []*vnode // children[k] is method subtask k
	first    int      // first action position in the subtree, -1 if none
	last     int
}

func (v *verifier) errf(line int, format string, args ...any) error {
	return &plan.Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (v *verifier) run() error {
	if err := v.buildTree(); err != nil {
		return err
	}
	if err := v.simulate(); err != nil {
		return err
	}
	if err := v.placeRoot(); err != nil {
		return err
	}
	if g := v.p.Goal; g != nil {
		v.scope = v.p.GoalVars
		b := make([]int32, len(v.scope))
		for i := range b {
			b[i] = -1
		}
		ok, err := v.holds(g, b, len(v.plan.Actions))
		if err != nil {
			return err
		}
		if !ok {
			return v.errf(0, "the goal does not hold at the end of the plan")
		}
	}
	return nil
}
