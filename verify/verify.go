package verify

import (
	"context"
	"fmt"
	"slices"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
)

// Verify checks a plan against the lifted problem, independently of the
// grounder and the planners:
//
//   - the decomposition lines form a forest whose roots are the root line's
//     tasks: every task id is reached from the root exactly once (no id
//     twice, no cycle), and every action and decomposition line is reached;
//   - every decomposition uses a method of its task with the subtasks the
//     method prescribes, every variable of the method bound to an object of
//     its type, and the root's tasks are those of the initial network;
//   - the actions are executable in order from the initial state;
//   - every task can be placed where the orderings put it, and every method
//     precondition holds in a state between the method's predecessors and
//     its first subtask; the goal holds at the end;
//   - the cost the plan says it has ("; cost N", Plan.Costed) is what its
//     actions cost.
//
// Method variables that the plan does not bind (the column variables of
// m-check-row) are found by matching the precondition against the state,
// not by enumerating their types. The work grows about linearly with the
// plan (ordered networks, states kept as a timeline of changes per atom).
//
// It returns nil for a valid plan, a *plan.Error naming the plan line of
// the first problem found, or ctx's error when ctx ends first.
//
// A root wrapped as pandaPI writes it ("root N" and "N __top ->
// __top_method ..."), which plan-format.md shows, is read as its
// subtasks.
func Verify(ctx context.Context, p *hddl.Problem, pl *plan.Plan) error {
	pl = unwrapTop(p.Domain, pl)
	atoms := len(p.Init) + 4*len(pl.Actions) // about what the plan makes
	v := &verifier{ctx: ctx, p: p, d: p.Domain, plan: pl, atoms: map[string]int32{}, packed: make(map[uint64]int32, atoms),
		typeObjs: map[int][]int{}, conjs: map[*hddl.Formula][]*hddl.Formula{}, orders: map[int]*matchOrder{}}
	v.atomArgs = make([][]int32, 0, atoms)
	v.changes = make([][]event, 0, atoms)
	v.byPred = make([][]int32, len(v.d.Predicates))
	v.byArg = make([][]map[int32][]int32, len(v.d.Predicates))
	return v.run()
}

// unwrapTop returns pl with a wrapped root (see Verify) replaced by the
// wrapper's subtasks, or pl itself. The wrapper is a task __top of no
// arguments, which the domain must not declare.
func unwrapTop(d *hddl.Domain, pl *plan.Plan) *plan.Plan {
	if len(pl.Root) != 1 || d.TaskIndex("__top") >= 0 {
		return pl
	}
	for i, dc := range pl.Decomps {
		if dc.ID == pl.Root[0] && dc.Task == "__top" && len(dc.Args) == 0 {
			q := *pl
			q.Root = dc.Subtasks
			q.Decomps = append(slices.Clone(pl.Decomps[:i]), pl.Decomps[i+1:]...)
			return &q
		}
	}
	return pl
}

type verifier struct {
	ctx   context.Context
	ticks int
	p     *hddl.Problem
	d     *hddl.Domain
	plan  *plan.Plan

	atoms    map[string]int32 // ground atom key -> id, for atoms packedKey cannot pack
	packed   map[uint64]int32 // packed ground atom -> id
	atomArgs [][]int32
	byPred   [][]int32             // predicate -> atom ids
	byArg    [][]map[int32][]int32 // predicate, argument position, object -> atom ids; built on use
	key      []byte
	init     []bool    // per atom: true in the initial state
	changes  [][]event // per atom: its changes, in plan order
	cur      []bool    // per atom: its value while the actions execute
	now      int       // the state cur holds
	final    int       // the index of the final state (the number of actions)

	typeObjs    map[int][]int
	nodes       map[int]*vnode
	roots       []*vnode
	scope       []hddl.Param                      // the variables of the formula being evaluated
	trail       []int                             // satisfy's matcher trail, kept between calls
	methodTrail []int                             // matchMethod's matcher trail, kept between calls
	conjs       map[*hddl.Formula][]*hddl.Formula // satisfy's flattened conjunctions
	orders      map[int]*matchOrder               // per method of a partial order: its ordering for match
	block       []int32                           // what int32s carves slices from
}

// int32s returns a zeroed slice of n values carved from a shared block, so
// that the many short argument lists of a plan cost few allocations.
func (v *verifier) int32s(n int) []int32 {
	if len(v.block) < n {
		v.block = make([]int32, max(n, 1024))
	}
	out := v.block[:n:n]
	v.block = v.block[n:]
	return out
}

// vnode is one task of the decomposition tree.
type vnode struct {
	id, line int
	prim     bool
	schema   int     // action or compound task index
	args     []int32 // objects
	pos      int     // primitive: position in the plan
	dc       *plan.Decomposition
	method   int
	binding  []int32  // method variables (-1: not bound by the plan)
	children []*vnode // children[k] is method subtask k
	first    int      // first action position in the subtree, -1 if none
	last     int
	parent   *vnode // in the tree reached from the root (nil for a root)
	reached  bool   // reached from the root
}

func (v *verifier) errf(line int, format string, args ...any) error {
	return &plan.Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// tick counts work and returns the context's error, looked at every 1,024
// calls.
func (v *verifier) tick() error {
	v.ticks++
	if v.ticks&1023 == 0 {
		return v.ctx.Err()
	}
	return nil
}

// Cost is the cost of pl's actions in p's domain: their (increase
// (total-cost) N), or 1 each in a domain without costs. An action the
// domain does not know costs nothing (Verify reports it).
func Cost(p *hddl.Problem, pl *plan.Plan) int {
	c := 0
	for _, a := range pl.Actions {
		if i := p.Domain.ActionIndex(a.Name); i >= 0 {
			c += p.Domain.ActionCost(i)
		}
	}
	return c
}

func (v *verifier) run() error {
	if err := v.buildTree(); err != nil {
		return err
	}
	if v.plan.Costed {
		if c := Cost(v.p, v.plan); c != v.plan.Cost {
			return v.errf(0, "the plan says it costs %d, its actions cost %d", v.plan.Cost, c)
		}
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
		ok, err := v.holds(g, b, v.final)
		if err != nil {
			return err
		}
		if !ok {
			return v.errf(0, "the goal does not hold at the end of the plan%s", v.why(g, b, v.final))
		}
	}
	return nil
}
