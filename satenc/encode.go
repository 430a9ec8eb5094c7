package satenc

import (
	"context"
	"fmt"
	"slices"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
	"github.com/htnsat/htnsat/plan"
)

// The encoding follows totSAT (Behnke, Höller and Biundo, 2018). A path
// decomposition tree (PDT) is laid over every decomposition the ground task
// allows: a vertex holds one task out of the tasks that can stand there,
// and, if that task is compound, one of its methods; the i-th child of a
// vertex holds the i-th subtask of the chosen method, or, for a primitive
// task, the first child inherits it. Vertices that can hold only actions
// are the plan's time steps, in tree order, with fact variables between
// them for preconditions, effects and frame axioms. A method's precondition
// holds at the step where its subtree starts.
//
// Partially ordered networks are linearised: each method's subtasks (and
// the initial network) are put in one order allowed by their ordering.
// Every plan found is then valid, but a plan that needs another order, or
// an interleaving of two methods' subtasks, is not found: on partial-order
// problems "no plan" from this engine does not prove unsolvability.

// ErrTooLarge is returned when the decomposition tree outgrows its budget
// (Options.MaxVertices). It wraps plan.ErrTooLarge.
var ErrTooLarge = fmt.Errorf("encoding %w", plan.ErrTooLarge)

type varKind uint8

const (
	kindTask   varKind = iota // task a at vertex v
	kindMethod                // method a at vertex v
	kindFact                  // fact a at step v
	kindAux                   // helper of an at-most-one constraint
)

type varInfo struct {
	kind varKind
	v, a int32
}

// vertex is a node of the path decomposition tree.
type vertex struct {
	parent   int32
	depth    int32
	tasks    []ground.TaskID // possible tasks, sorted
	taskVar  []Var
	methods  []ground.MethodID // possible methods, sorted
	methVar  []Var
	reasons  [][]Lit // per task: the parent's literals that put it here
	children []int32
	pos      int32 // step index for a vertex that holds actions only, else -1
	start    int32 // first step of the vertex's subtree
}

// Encoding is the CNF of a ground task at one depth, with what is needed to
// decode a model and to name the variables.
type Encoding struct {
	t        *ground.Task
	Depth    int
	NumVars  int
	Clauses  int
	verts    []vertex
	roots    []int32 // vertices of the initial network, in order
	steps    []int32 // vertex of each step
	factVars [][]Var // per step 0..len(steps), per fact (shared when unchanged)
	info     []varInfo
	order    [][]int32 // per ground method: subtask indices in the order used
	initial  []int     // initial network indices in the order used
	sink     Sink
	known    []int8 // per variable: +1 or -1 if a unit clause fixes it
}

// Options bound an encoding.
type Options struct {
	// MaxVertices bounds the decomposition tree (0: 5,000,000).
	MaxVertices int
	// NoGroups leaves out the clauses of choice groups (see
	// ground.ChoiceGroup): for every group and value, one of the group's
	// methods binding that value is used.
	NoGroups bool
}

type encoder struct {
	*Encoding
	opt Options
	buf []Lit
	ctx context.Context
	err error // the context's error once it has ended
}

// stopped reports whether the encoding must stop; loops over vertices and
// steps call it. It checks the context at every call: one vertex can carry
// many thousand methods (Freecell), so checking every 16th vertex let a
// 60 s limit overrun by seconds.
func (e *encoder) stopped() bool {
	if e.err == nil {
		e.err = e.ctx.Err()
	}
	return e.err != nil
}

func (e *encoder) newVar(kind varKind, v, a int32) Var {
	e.NumVars++
	e.info = append(e.info, varInfo{kind, v, a})
	e.known = append(e.known, 0)
	return Var(e.NumVars)
}

// add writes a clause, simplified by the variables that unit clauses fix:
// a clause with a true literal is dropped, false literals are left out. A
// unit clause fixes its variable for the clauses that follow.
func (e *encoder) add(lits ...Lit) {
	buf := e.buf[:0]
	for _, l := range lits {
		switch k := e.known[l.Var()]; {
		case k == 0:
			buf = append(buf, l)
		case (k > 0) == (l > 0):
			return
		}
	}
	e.buf = buf
	if len(buf) == 1 {
		if buf[0] > 0 {
			e.known[buf[0].Var()] = 1
		} else {
			e.known[buf[0].Var()] = -1
		}
	}
	e.sink.AddClause(buf...)
	e.Clauses++
}

// Encode writes the CNF of t with decompositions at most depth levels deep
// (the initial network is level 1) to sink. It stops with the context's
// error when ctx ends; what the sink has received by then is incomplete.
func Encode(ctx context.Context, t *ground.Task, depth int, sink Sink, opt Options) (*Encoding, error) {
	if opt.MaxVertices <= 0 {
		opt.MaxVertices = 5_000_000
	}
	e := &encoder{Encoding: &Encoding{t: t, Depth: depth, sink: sink}, opt: opt, ctx: ctx}
	e.info = append(e.info, varInfo{}) // variable 0 does not exist
	e.known = append(e.known, 0)
	if err := e.linearize(); err != nil {
		return nil, err
	}
	if err := e.buildTree(); err != nil {
		return nil, err
	}
	phases := []func(){e.treeClauses, e.stepClauses}
	if !opt.NoGroups {
		phases = append(phases, e.groupClauses)
	}
	for _, phase := range phases {
		if phase(); e.err != nil {
			return nil, e.err
		}
	}
	return e.Encoding, nil
}

// linearize puts every method's subtasks and the initial network in one
// order their orderings allow.
func (e *encoder) linearize() error {
	t := e.t
	e.order = make([][]int32, len(t.Methods))
	for i := range t.Methods {
		m := &t.Methods[i]
		if m.Total {
			e.order[i] = make([]int32, len(m.Subtasks))
			for k := range e.order[i] {
				e.order[i][k] = int32(k)
			}
			continue
		}
		lin, err := ground.Linearize(len(m.Subtasks), m.Ordering)
		if err != nil {
			return fmt.Errorf("method %s: %w", t.MethodName(ground.MethodID(i)), err)
		}
		for _, k := range lin {
			e.order[i] = append(e.order[i], int32(k))
		}
	}
	var err error
	e.initial, err = ground.Linearize(len(t.Initial), t.InitialOrder)
	if err != nil {
		return fmt.Errorf("initial network: %w", err)
	}
	return nil
}

// buildTree lays out the vertices depth first, so that steps come in plan
// order, and allocates the task and method variables.
func (e *encoder) buildTree() error {
	t := e.t
	var build func(parent int32, depth int, tasks []ground.TaskID, reasons map[ground.TaskID][]Lit) (int32, error)
	build = func(parent int32, depth int, tasks []ground.TaskID, reasons map[ground.TaskID][]Lit) (int32, error) {
		if e.stopped() {
			return 0, e.err
		}
		if len(e.verts) >= e.opt.MaxVertices {
			return 0, fmt.Errorf("%w: more than %d vertices in the decomposition tree at depth %d", ErrTooLarge, e.opt.MaxVertices, e.Depth)
		}
		id := int32(len(e.verts))
		e.verts = append(e.verts, vertex{parent: parent, depth: int32(depth), tasks: tasks, pos: -1, start: int32(len(e.steps))})
		v := &e.verts[id]
		for _, tk := range tasks {
			r := reasons[tk]
			v.reasons = append(v.reasons, r)
			if len(r) == 1 {
				// the only literal that puts the task here, and which puts
				// it here for sure: the same variable
				v.taskVar = append(v.taskVar, r[0].Var())
			} else {
				v.taskVar = append(v.taskVar, e.newVar(kindTask, id, int32(tk)))
			}
		}
		// the methods that fit below this depth
		nChildren, hasPrim := 0, false
		var methods []ground.MethodID
		for _, tk := range tasks {
			if t.IsPrimitive(tk) {
				hasPrim = true
				continue
			}
			for _, m := range t.Compound(tk).Methods {
				if k := len(e.order[m]); k == 0 || depth < e.Depth {
					methods = append(methods, m)
					nChildren = max(nChildren, k)
				}
			}
		}
		slices.Sort(methods)
		v.methods = methods
		fits := map[ground.TaskID]int{}
		for _, m := range methods {
			fits[t.Methods[m].Task]++
		}
		for _, m := range methods {
			if tk := t.Methods[m].Task; fits[tk] == 1 {
				// a task with one method here takes it: the same variable
				v.methVar = append(v.methVar, v.taskVar[v.taskIndex(tk)])
			} else {
				v.methVar = append(v.methVar, e.newVar(kindMethod, id, int32(m)))
			}
		}
		if nChildren == 0 {
			if hasPrim {
				v.pos = int32(len(e.steps))
				e.steps = append(e.steps, id)
			}
			return id, nil
		}
		kids := make([]int32, nChildren)
		for i := 0; i < nChildren; i++ {
			v := &e.verts[id]
			why := map[ground.TaskID][]Lit{}
			if i == 0 {
				for k, tk := range tasks {
					if t.IsPrimitive(tk) {
						why[tk] = append(why[tk], v.taskVar[k].Pos())
					}
				}
			}
			for k, m := range methods {
				if o := e.order[m]; i < len(o) {
					sub := t.Methods[m].Subtasks[o[i]]
					why[sub] = append(why[sub], v.methVar[k].Pos())
				}
			}
			set := map[ground.TaskID]bool{}
			for tk := range why {
				set[tk] = true
			}
			child, err := build(id, depth+1, sortedTasks(set), why)
			if err != nil {
				return 0, err
			}
			kids[i] = child
		}
		e.verts[id].children = kids
		return id, nil
	}
	for _, i := range e.initial {
		r, err := build(-1, 1, []ground.TaskID{t.Initial[i]}, nil)
		if err != nil {
			return err
		}
		e.roots = append(e.roots, r)
	}
	return nil
}

func sortedTasks(set map[ground.TaskID]bool) []ground.TaskID {
	out := make([]ground.TaskID, 0, len(set))
	for tk := range set {
		out = append(out, tk)
	}
	slices.Sort(out)
	return out
}

func (v *vertex) taskIndex(tk ground.TaskID) int {
	if i, ok := slices.BinarySearch(v.tasks, tk); ok {
		return i
	}
	return -1
}

// treeClauses encodes the choices of the tree: one task per vertex, a
// method for a compound task, the children a method or an inherited action
// prescribes, and no task at a child without such a reason.
func (e *encoder) treeClauses() {
	t := e.t
	for _, r := range e.roots {
		e.add(e.verts[r].taskVar[0].Pos())
	}
	imply := func(a, b Var) { // a -> b, unless they are the same variable
		if a != b {
			e.add(a.Neg(), b.Pos())
		}
	}
	for vi := range e.verts {
		if e.stopped() {
			return
		}
		v := &e.verts[vi]
		e.atMostOne(sets.Dedup(slices.Clone(v.taskVar)), int32(vi))
		byTask := map[ground.TaskID][]Var{}
		for k, m := range v.methods {
			tk := t.Methods[m].Task
			byTask[tk] = append(byTask[tk], v.methVar[k])
			imply(v.methVar[k], v.taskVar[v.taskIndex(tk)])
		}
		for k, tk := range v.tasks {
			if t.IsPrimitive(tk) {
				if len(v.children) > 0 {
					c := &e.verts[v.children[0]]
					imply(v.taskVar[k], c.taskVar[c.taskIndex(tk)])
				}
				continue
			}
			ms := byTask[tk]
			if len(ms) == 1 && ms[0] == v.taskVar[k] {
				continue
			}
			cl := []Lit{v.taskVar[k].Neg()}
			for _, mv := range ms {
				cl = append(cl, mv.Pos())
			}
			e.add(cl...) // with no method fitting, the task cannot be here
			e.atMostOne(ms, int32(vi))
		}
		for k, m := range v.methods {
			for i, si := range e.order[m] {
				c := &e.verts[v.children[i]]
				imply(v.methVar[k], c.taskVar[c.taskIndex(t.Methods[m].Subtasks[si])])
			}
		}
		// a task at a child needs a reason: a method of the parent that
		// has it there, or the parent's action passed down
		for _, ci := range v.children {
			c := &e.verts[ci]
			for k := range c.tasks {
				if r := c.reasons[k]; len(r) == 1 && r[0].Var() == c.taskVar[k] {
					continue
				}
				e.add(append([]Lit{c.taskVar[k].Neg()}, c.reasons[k]...)...)
			}
		}
	}
}

// stepClauses encodes the states between steps: the initial state, action
// preconditions and effects, frame axioms, method preconditions and the
// goal. A fact's variable is shared by consecutive states until a step can
// change it.
func (e *encoder) stepClauses() {
	t := e.t
	nf := len(t.Facts)
	cur := make([]Var, nf)
	for f := range cur {
		cur[f] = e.newVar(kindFact, 0, int32(f))
	}
	init := make([]bool, nf)
	for _, f := range t.Init {
		init[f] = true
	}
	for f, v := range cur {
		if init[f] {
			e.add(v.Pos())
		} else {
			e.add(v.Neg())
		}
	}
	e.factVars = append(e.factVars, cur)
	for k, vi := range e.steps {
		if e.stopped() {
			return
		}
		v := &e.verts[vi]
		// facts this step can change, and why
		adders := map[ground.FactID][]Lit{}
		deleters := map[ground.FactID][]Lit{}
		var changed []ground.FactID
		note := func(f ground.FactID) {
			if _, ok := adders[f]; !ok {
				if _, ok := deleters[f]; !ok {
					changed = append(changed, f)
				}
			}
		}
		for i, tk := range v.tasks {
			if !t.IsPrimitive(tk) {
				continue
			}
			a := &t.Actions[tk]
			for _, f := range a.Add {
				note(f)
				adders[f] = append(adders[f], v.taskVar[i].Pos())
			}
			for _, f := range a.Del {
				if !contains(a.Add, f) {
					note(f)
					deleters[f] = append(deleters[f], v.taskVar[i].Pos())
				}
			}
		}
		next := append([]Var(nil), cur...)
		slices.Sort(changed)
		for _, f := range changed {
			next[f] = e.newVar(kindFact, int32(k+1), int32(f))
		}
		for i, tk := range v.tasks {
			if !t.IsPrimitive(tk) {
				continue
			}
			a := &t.Actions[tk]
			x := v.taskVar[i].Neg()
			for _, f := range a.Pre {
				e.add(x, cur[f].Pos())
			}
			for _, f := range a.NegPre {
				e.add(x, cur[f].Neg())
			}
			for _, f := range a.Add {
				e.add(x, next[f].Pos())
			}
			for _, f := range a.Del {
				if !contains(a.Add, f) {
					e.add(x, next[f].Neg())
				}
			}
		}
		for _, f := range changed {
			// a fact that changes was changed by an action of this step
			e.add(append([]Lit{cur[f].Neg(), next[f].Pos()}, deleters[f]...)...)
			e.add(append([]Lit{cur[f].Pos(), next[f].Neg()}, adders[f]...)...)
		}
		cur = next
		e.factVars = append(e.factVars, cur)
	}
	for vi := range e.verts {
		if e.stopped() {
			return
		}
		v := &e.verts[vi]
		for k, m := range v.methods {
			state := e.factVars[v.start]
			for _, f := range t.Methods[m].Pre {
				e.add(v.methVar[k].Neg(), state[f].Pos())
			}
			for _, f := range t.Methods[m].NegPre {
				e.add(v.methVar[k].Neg(), state[f].Neg())
			}
		}
	}
	last := e.factVars[len(e.steps)]
	for _, f := range t.Goal {
		e.add(last[f].Pos())
	}
	for _, f := range t.GoalNeg {
		e.add(last[f].Neg())
	}
}

// groupClauses adds, for every choice group and value, the clause that one
// of the group's tasks takes the value. The groups' exclusions hold in the
// (linearised) total order the encoding uses, so no plan is lost.
func (e *encoder) groupClauses() {
	t := e.t
	root := map[ground.TaskID]int32{}
	for k, i := range e.initial {
		root[t.Initial[i]] = e.roots[k]
	}
	groups, err := t.ChoiceGroups(e.ctx)
	if err != nil {
		e.err = err
		return
	}
	for _, g := range groups {
		if e.stopped() {
			return
		}
		for _, ms := range g.ByValue {
			var cl []Lit
			for _, m := range ms {
				v := &e.verts[root[t.Methods[m].Task]]
				if k, ok := slices.BinarySearch(v.methods, m); ok {
					cl = append(cl, v.methVar[k].Pos())
				}
			}
			e.add(cl...)
		}
	}
}

func contains(fs []ground.FactID, f ground.FactID) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// Steps is the number of time steps (slots for one action each).
func (enc *Encoding) Steps() int { return len(enc.steps) }

// Vertices is the size of the decomposition tree.
func (enc *Encoding) Vertices() int { return len(enc.verts) }

// VarName describes variable v for DIMACS comments.
func (enc *Encoding) VarName(v Var) string {
	in := enc.info[v]
	t := enc.t
	switch in.kind {
	case kindTask:
		what := "task"
		if t.IsPrimitive(ground.TaskID(in.a)) {
			what = "action"
		}
		return fmt.Sprintf("%s at vertex %d (step %d): %s", what, in.v, enc.verts[in.v].start, t.TaskName(ground.TaskID(in.a)))
	case kindMethod:
		m := ground.MethodID(in.a)
		name := t.MethodName(m) // with its variables' values
		for _, o := range t.Methods[m].Args {
			if o < 0 {
				name += " ?" // bound in a split-off synthetic task
				continue
			}
			name += " " + t.Problem.Objects[o].Name
		}
		return fmt.Sprintf("method at vertex %d: %s for %s", in.v, name, t.TaskName(t.Methods[m].Task))
	case kindFact:
		return fmt.Sprintf("fact at step %d: %s", in.v, t.FactName(ground.FactID(in.a)))
	}
	return fmt.Sprintf("at-most-one helper (vertex %d)", in.v)
}

// VarKind says what variable v stands for: "task", "action", "method",
// "fact" or "aux" (a helper of an at-most-one constraint).
func (enc *Encoding) VarKind(v Var) string {
	in := enc.info[v]
	switch in.kind {
	case kindTask:
		if enc.t.IsPrimitive(ground.TaskID(in.a)) {
			return "action"
		}
		return "task"
	case kindMethod:
		return "method"
	case kindFact:
		return "fact"
	}
	return "aux"
}
