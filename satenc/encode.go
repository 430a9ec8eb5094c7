package satenc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
	"github.com/htnsat/htnsat/plan"
)

// The encoding lays a path decomposition tree (PDT, as in totSAT: Behnke,
// Höller and Biundo, 2018) over every decomposition the ground task allows,
// and grows it one layer at a time, as Tree-REX and Lilotane do (Schreiber
// et al., ICAPS 2019; Schreiber, JAIR 2021), so that one solver can keep
// the formula of a layer, and what it learnt from it, when the next layer
// is added.
//
// A vertex holds one task out of those that can stand there and, if that
// task is compound, one of its methods; layer 0 holds the initial network,
// and the children of a vertex (in the next layer) hold the subtasks of
// the chosen method, in order, at the children the vertex's alignment
// gives them (align.go: the others stay blank), or, for an action, the
// first child inherits it.
// A layer's vertices, in order, are its positions; fact variables between
// positions give the states. The state before a vertex is the state before
// its first child, so the two share their variables, and the state after
// the last position of every layer is the goal's. An action constrains the
// states around its position by its preconditions and effects; a compound
// task, not yet decomposed, may change at most what some action of its
// subtree can change (its possible effects); a method's precondition holds
// in the state before its position. A layer describes a plan when no
// vertex of it still needs decomposing: the literal Final(layer) says so,
// and the solver is asked under it as an assumption, so that a layer that
// has no plan leaves its clauses, and what the solver learnt, in place for
// the next.
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
	kindFact                  // fact a before position v of the layer of the last state encoded with it
	kindAux                   // helper of an at-most-one constraint
	kindFinal                 // layer v describes a plan
	kindOpen                  // vertex v takes a method with subtasks
)

type varInfo struct {
	kind varKind
	v, a int32
}

// vertex is a node of the path decomposition tree.
type vertex struct {
	parent   int32 // -1 for the initial network
	layer    int32
	pos      int32           // position in its layer
	tasks    []ground.TaskID // possible tasks, sorted
	taskVar  []Var
	methods  []ground.MethodID // possible methods, sorted
	methVar  []Var
	reasons  [][]Lit // per task: the parent's literals that put it here
	children []int32 // in the next layer, once it is built
	align    *alignment
}

// Encoding is the formula of a ground task as far as it has been grown,
// with what is needed to grow it, to decode a model and to name the
// variables.
type Encoding struct {
	t       *ground.Task
	opt     Options
	sink    Sink
	ctx     context.Context
	err     error // the context's error once it has ended
	NumVars int
	Clauses int
	// Depth is the number of layers.
	Depth   int
	verts   []vertex
	layers  [][]int32 // vertices of each layer, in plan order
	offsets [][]int32 // per layer l but the last: position p -> position of its first child in layer l+1 (or where it would be), len(layer)+1 entries
	info    []varInfo
	known   []int8    // per variable: +1 or -1 if a unit clause fixes it
	order   [][]int32 // per ground method: subtask indices in the order used
	initial []int     // initial network indices in the order used
	// the states of the last layer whose state was encoded: per boundary
	// (before each position, and after the last), per fact
	stateLayer int
	states     []state
	build      stateBuilder
	chg        changes // scratch of positionClauses
	preDone    int     // vertices whose method preconditions are encoded
	// preLits holds, per variable x, the literals l of the precondition
	// clauses x -> l added, and preSeen the pairs (x, l) of a variable
	// with more than maxPreLits of them (see addPre)
	preLits  [][]Lit
	preSeen  sets.U64Map
	complete bool // made by Encode: what a next layer would need is gone
	finals   []Lit
	opens    map[int32]Var // per vertex of the last encoded layer that may take a method with subtasks
	effects  *possibleEffects
	aligns   map[string]*alignment // by a vertex's methods
	alignKey []byte
	lefts    []*alignment // per width: every method left-aligned
	buf      []Lit
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

// NewEncoding starts the formula of t in sink: layer 0 (the initial
// network), the tree's clauses and those of the choice groups. It stops
// with the context's error when ctx ends (the context also bounds every
// later call).
func NewEncoding(ctx context.Context, t *ground.Task, sink Sink, opt Options) (*Encoding, error) {
	if opt.MaxVertices <= 0 {
		opt.MaxVertices = 5_000_000
	}
	e := &Encoding{t: t, opt: opt, sink: sink, ctx: ctx, stateLayer: -1}
	e.info = append(e.info, varInfo{}) // variable 0 does not exist
	e.known = append(e.known, 0)
	if err := e.linearize(); err != nil {
		return nil, err
	}
	var layer []int32
	for _, i := range e.initial {
		id, err := e.newVertex(-1, 0, int32(len(layer)), []ground.TaskID{t.Initial[i]}, nil)
		if err != nil {
			return nil, err
		}
		layer = append(layer, id)
	}
	e.layers = append(e.layers, layer)
	e.Depth = 1
	if !opt.NoGroups {
		e.groupClauses()
	}
	return e, e.err
}

// errComplete: an Encoding made by Encode cannot grow.
var errComplete = errors.New("satenc: the formula of Encode is complete; NewEncoding makes one that grows")

// Encode writes the formula of t with decompositions at most depth layers
// deep (the initial network is layer 1) to sink, with Final of that layer
// as a unit clause: the formula of a plan of at most that depth. It stops
// with the context's error when ctx ends; what the sink has received by
// then is incomplete.
func Encode(ctx context.Context, t *ground.Task, depth int, sink Sink, opt Options) (*Encoding, error) {
	e, err := NewEncoding(ctx, t, sink, opt)
	if err != nil {
		return nil, err
	}
	gauge := plan.MemoryGaugeOf(ctx)
	var base int64 // the memory in use before the formula
	if gauge != nil {
		base, _ = gauge()
	}
	for before := 0; e.Depth < depth; {
		if err := e.AddLayer(); err != nil {
			return nil, err
		}
		if gauge != nil && e.Depth >= 3 && e.Depth < depth {
			if err := e.fits(gauge, base, depth, before); err != nil {
				return nil, err
			}
		}
		before = e.Clauses
	}
	final, err := e.Final()
	if err != nil {
		return nil, err
	}
	if final != 0 {
		e.add(final)
	}
	// the formula is complete: what only the next layer would read can go
	// before the solver starts (the precondition clauses seen, the states
	// of the last layer)
	e.preLits, e.preSeen, e.states, e.complete = nil, sets.U64Map{}, nil, true
	return e, e.err
}

// fits refuses a formula whose growth says that depth layers would not
// fit in the memory the gauge allows, and names the deepest that would.
// It looks once the formula holds an eighth of the limit (what is used
// beyond base, the memory before the formula): before, a layer's growth
// says little of the next ones (the first layers of IPC 2023 SharpSAT
// 20units grow 14 times each, the tenth twice) and building on costs
// little. Each further layer is then taken to grow the clauses as the
// last one did (before clauses to e.Clauses), each clause four times the
// memory it takes so far.
func (e *Encoding) fits(gauge plan.MemoryGauge, base int64, depth, before int) error {
	used, limit := gauge()
	formula := used - base
	if limit <= 0 || before <= 0 || e.Clauses <= 0 || formula < limit/8 {
		return nil
	}
	growth := max(1, float64(e.Clauses)/float64(before))
	// four times what a clause takes now: the last layer's state and
	// goal clauses nearly double the count, and writing the formula out
	// (its variables' names) takes as much again (20units at depth 10:
	// 6.2 million clauses in 142 MiB on the way, 11.8 million in 630 MiB
	// in all)
	perClause := 4 * float64(formula) / float64(e.Clauses)
	needAt := func(d int) float64 {
		return float64(base) + perClause*float64(e.Clauses)*math.Pow(growth, float64(d-e.Depth))
	}
	if needAt(depth) <= float64(limit) {
		return nil
	}
	fit := e.Depth
	for fit < depth && needAt(fit+1) <= float64(limit) {
		fit++
	}
	return fmt.Errorf("%w: the formula of depth %d would take about %.3g clauses and %s (depth %d has %d clauses in %d MiB, the last layer %.1f times the one before); --max-memory (%d MiB) holds depth %d at most: give --depth %d, or plan the problem (htnsat plan grows the formula only as deep as its plan needs)",
		ErrTooLarge, depth, float64(e.Clauses)*math.Pow(growth, float64(depth-e.Depth)), bytesString(needAt(depth)), e.Depth, e.Clauses, formula>>20, growth, limit>>20, fit, fit)
}

// bytesString writes a size in MiB, GiB or TiB.
func bytesString(b float64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.3g TiB", b/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", b/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", b/(1<<20))
}

// stopped reports whether the encoding must stop; loops over vertices and
// steps call it. It checks the context at every call: one vertex can carry
// many thousand methods (Freecell).
func (e *Encoding) stopped() bool {
	if e.err == nil {
		e.err = e.ctx.Err()
	}
	return e.err != nil
}

func (e *Encoding) newVar(kind varKind, v, a int32) Var {
	x := e.sink.NewVar()
	e.NumVars = int(x)
	for len(e.info) <= int(x) {
		e.info = append(e.info, varInfo{})
		e.known = append(e.known, 0)
	}
	e.info[x] = varInfo{kind, v, a}
	return x
}

// add writes a clause, simplified by the variables that unit clauses fix:
// a clause with a true literal is dropped, false literals are left out. A
// unit clause fixes its variable for the clauses that follow.
func (e *Encoding) add(lits ...Lit) {
	// a long run of clauses (the frame axioms of a wide layer) looks at
	// the context too; once it has ended nothing more is added, and the
	// caller returns its error
	if e.err != nil || e.Clauses&4095 == 4095 && e.stopped() {
		return
	}
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

// linearize puts every method's subtasks and the initial network in one
// order their orderings allow.
func (e *Encoding) linearize() error {
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

// newVertex makes a vertex of layer l at position pos holding one of
// tasks, with its task and method variables and the clauses among them:
// at most one task, a method implies its task, a compound task one of its
// methods (at most one).
func (e *Encoding) newVertex(parent, l, pos int32, tasks []ground.TaskID, reasons map[ground.TaskID][]Lit) (int32, error) {
	t := e.t
	if e.stopped() {
		return 0, e.err
	}
	if len(e.verts) >= e.opt.MaxVertices {
		return 0, fmt.Errorf("%w: more than %d vertices in the decomposition tree at depth %d", ErrTooLarge, e.opt.MaxVertices, l+1)
	}
	id := int32(len(e.verts))
	e.verts = append(e.verts, vertex{parent: parent, layer: l, pos: pos, tasks: tasks})
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
	if reasons == nil {
		// a task of the initial network is there for sure (first, so
		// that it simplifies the clauses that follow)
		e.add(v.taskVar[0].Pos())
	}
	hasPrim := false
	for _, tk := range tasks {
		if t.IsPrimitive(tk) {
			hasPrim = true
			continue
		}
		v.methods = append(v.methods, t.Compound(tk).Methods...)
	}
	slices.Sort(v.methods)
	v.align = e.alignFor(v.methods, hasPrim)
	fits := map[ground.TaskID]int{}
	for _, m := range v.methods {
		fits[t.Methods[m].Task]++
	}
	for _, m := range v.methods {
		if tk := t.Methods[m].Task; fits[tk] == 1 {
			// a task with one method here takes it: the same variable
			v.methVar = append(v.methVar, v.taskVar[v.taskIndex(tk)])
		} else {
			v.methVar = append(v.methVar, e.newVar(kindMethod, id, int32(m)))
		}
	}
	// at most one task; two variables of the parent's tasks and methods
	// exclude each other already (at most one task there, at most one
	// method per task, a method implies its task)
	tv := sets.Dedup(slices.Clone(v.taskVar))
	inParent := func(x Var) bool {
		return parent >= 0 && (slices.Contains(e.verts[parent].taskVar, x) || slices.Contains(e.verts[parent].methVar, x))
	}
	switch {
	case len(tv) <= 6:
		for i := range tv {
			for j := i + 1; j < len(tv); j++ {
				if !inParent(tv[i]) || !inParent(tv[j]) {
					e.add(tv[i].Neg(), tv[j].Neg())
				}
			}
		}
	case !subsetVars(tv, e.verts[max(parent, 0)].taskVar, e.verts[max(parent, 0)].methVar) || parent < 0:
		e.atMostOne(tv, id)
	}
	byTask := map[ground.TaskID][]Var{}
	for k, m := range v.methods {
		tk := t.Methods[m].Task
		byTask[tk] = append(byTask[tk], v.methVar[k])
		if x, y := v.methVar[k], v.taskVar[v.taskIndex(tk)]; x != y {
			e.add(x.Neg(), y.Pos())
		}
	}
	for k, tk := range v.tasks {
		if t.IsPrimitive(tk) {
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
		e.add(cl...)
		e.atMostOne(ms, id)
	}
	// a task needs a reason: a method of the parent that has it here, or
	// the parent's action passed down
	for k := range v.tasks {
		if r := v.reasons[k]; r == nil || len(r) == 1 && r[0].Var() == v.taskVar[k] {
			continue
		}
		e.add(append([]Lit{v.taskVar[k].Neg()}, v.reasons[k]...)...)
	}
	return id, nil
}

// subsetVars reports whether every variable of a is in b or c: by
// scanning when the lists are short, through a set otherwise (a vertex of
// Hiking p25 has 198,000 tasks, and the scans took most of a minute).
func subsetVars(a, b, c []Var) bool {
	if len(a)*(len(b)+len(c)) <= 1<<12 {
		for _, x := range a {
			if !slices.Contains(b, x) && !slices.Contains(c, x) {
				return false
			}
		}
		return true
	}
	in := make(map[Var]struct{}, len(b)+len(c))
	for _, x := range b {
		in[x] = struct{}{}
	}
	for _, x := range c {
		in[x] = struct{}{}
	}
	for _, x := range a {
		if _, ok := in[x]; !ok {
			return false
		}
	}
	return true
}

// encodedAncestor is the vertex of the last encoded layer of which vi is
// the first descendant (its first child's first child ...), or -1: the
// state before vi is then the state before that vertex.
func (e *Encoding) encodedAncestor(vi int32) int32 {
	if e.stateLayer < 0 {
		return -1
	}
	for e.verts[vi].layer > int32(e.stateLayer) {
		p := e.verts[vi].parent
		if p < 0 || e.verts[p].children[0] != vi {
			return -1
		}
		vi = p
	}
	return vi
}

// sameAs reports whether v holds exactly the tasks of u, with the same
// variables, and no method: an action inherited alone.
func (v *vertex) sameAs(u *vertex) bool {
	return len(v.methods) == 0 && len(u.methods) == 0 && slices.Equal(v.tasks, u.tasks) && slices.Equal(v.taskVar, u.taskVar)
}

func (v *vertex) taskIndex(tk ground.TaskID) int {
	if i, ok := slices.BinarySearch(v.tasks, tk); ok {
		return i
	}
	return -1
}

// AddLayer grows the tree by one layer: the children of every vertex of
// the last layer, and the clauses that tie them to their parent (a method
// puts its subtasks there, an action passes down to the first child).
func (e *Encoding) AddLayer() error {
	if e.complete {
		return errComplete
	}
	t := e.t
	last := e.layers[len(e.layers)-1]
	l := int32(len(e.layers))
	var layer []int32
	offs := make([]int32, len(last)+1)
	for p, vi := range last {
		offs[p] = int32(len(layer))
		v := &e.verts[vi]
		n := v.align.width
		// why each task may stand at each child: an action passes down to
		// the first child, a method puts its subtasks where its alignment
		// places them
		why := make([]map[ground.TaskID][]Lit, n)
		for i := range why {
			why[i] = map[ground.TaskID][]Lit{}
		}
		for k, tk := range v.tasks {
			if t.IsPrimitive(tk) {
				why[0][tk] = append(why[0][tk], v.taskVar[k].Pos())
			}
		}
		for k, m := range v.methods {
			for j, si := range e.order[m] {
				sub, i := t.Methods[m].Subtasks[si], v.align.slot(k, j)
				why[i][sub] = append(why[i][sub], v.methVar[k].Pos())
			}
		}
		kids := make([]int32, n)
		for i := range kids {
			child, err := e.newVertex(vi, l, int32(len(layer)), sortedTasks(why[i]), why[i])
			if err != nil {
				return err
			}
			kids[i] = child
			layer = append(layer, child)
		}
		v = &e.verts[vi]
		v.children = kids
		// the clauses from the parent's side: an action passes down, a
		// method puts each subtask at its child
		for k, tk := range v.tasks {
			if t.IsPrimitive(tk) {
				c := &e.verts[kids[0]]
				if x, y := v.taskVar[k], c.taskVar[c.taskIndex(tk)]; x != y {
					e.add(x.Neg(), y.Pos())
				}
			}
		}
		for k, m := range v.methods {
			for j, si := range e.order[m] {
				c := &e.verts[kids[v.align.slot(k, j)]]
				if x, y := v.methVar[k], c.taskVar[c.taskIndex(t.Methods[m].Subtasks[si])]; x != y {
					e.add(x.Neg(), y.Pos())
				}
			}
		}
	}
	offs[len(last)] = int32(len(layer))
	e.layers = append(e.layers, layer)
	e.offsets = append(e.offsets, offs)
	e.Depth++
	return e.err
}

// sortedTasks are the tasks that have reasons to stand at a child.
func sortedTasks(why map[ground.TaskID][]Lit) []ground.TaskID {
	out := make([]ground.TaskID, 0, len(why))
	for tk := range why {
		out = append(out, tk)
	}
	slices.Sort(out)
	return out
}

// Final encodes the states of the last layer (once) and returns the
// literal that says the last layer describes a plan: no vertex of it
// takes a method with subtasks (is open). It is 0 when no vertex of the
// layer can be open: the layer is final in every model.
func (e *Encoding) Final() (Lit, error) {
	l := len(e.layers) - 1
	if l < len(e.finals) {
		return e.finals[l], nil
	}
	e.stateClauses()
	if e.err != nil {
		return 0, e.err
	}
	var f Lit
	if len(e.opens) > 0 {
		x := e.newVar(kindFinal, int32(l), 0)
		for _, vi := range e.layers[l] {
			if o, ok := e.opens[vi]; ok {
				e.add(x.Neg(), o.Neg())
			}
		}
		f = x.Pos()
	}
	for len(e.finals) < l {
		e.finals = append(e.finals, 0) // layers whose state was never encoded
	}
	e.finals = append(e.finals, f)
	return f, e.err
}

// boundary maps position p of layer l to the position of its first
// descendant in layer to (or where it would be).
func (e *Encoding) boundary(l, p, to int) int {
	for ; l < to; l++ {
		p = int(e.offsets[l][p])
	}
	return p
}

// stateClauses encodes the states between the positions of the last
// layer: the initial state, actions' preconditions and effects, frame
// axioms, the possible effects of compound tasks, method preconditions and
// the goal. A fact's variable is shared by consecutive states while no
// task between them can change it, and with the states of the last layer
// encoded before, at the boundaries the two layers share.
func (e *Encoding) stateClauses() {
	l := len(e.layers) - 1
	layer := e.layers[l]
	shared := e.sharedStates(l)
	states := make([]state, len(layer)+1)
	if st, ok := shared[0]; ok {
		states[0] = st
	} else {
		states[0] = e.initialState()
	}
	e.opens = map[int32]Var{}
	for p, vi := range layer {
		if e.stopped() {
			return
		}
		next, ok := e.positionClauses(l, p, vi, states[p], shared)
		if !ok {
			return
		}
		states[p+1] = next
	}
	if !e.methodPreClauses(states, l) {
		return
	}
	e.goalClauses(states[len(layer)])
	e.stateLayer, e.states = l, states
}

// sharedStates returns the states of the last encoded layer's
// boundaries, by the position of layer l they fall on; where two of them
// fall on one (the positions between them decompose into nothing), their
// states are made the same.
func (e *Encoding) sharedStates(l int) map[int]state {
	shared := map[int]state{}
	if e.stateLayer < 0 {
		return shared
	}
	for p, st := range e.states {
		b := e.boundary(e.stateLayer, p, l)
		if prev, ok := shared[b]; ok {
			prev.differing(st, func(f int) {
				e.add(prev.at(f).Neg(), st.at(f).Pos())
				e.add(prev.at(f).Pos(), st.at(f).Neg())
			})
		}
		shared[b] = st
	}
	return shared
}

// initialState returns the state before the first position: a variable
// per fact, fixed to the initial state by unit clauses.
func (e *Encoding) initialState() state {
	t := e.t
	nf := len(t.Facts)
	cur := newState(nf)
	for f := range nf {
		cur[f/stateChunk][f%stateChunk] = e.newVar(kindFact, 0, int32(f))
	}
	init := make([]bool, nf)
	for _, f := range t.Init {
		init[f] = true
	}
	for f := range nf {
		if init[f] {
			e.add(cur.at(f).Pos())
		} else {
			e.add(cur.at(f).Neg())
		}
	}
	return cur
}

// changes are the facts a position can change (in the order first met)
// and the literals of the tasks that may add or delete each.
type changes struct {
	adders, deleters map[ground.FactID][]Lit
	changed          []ground.FactID
}

// reset empties c for another position, its maps kept.
func (c *changes) reset() *changes {
	if c.adders == nil {
		c.adders, c.deleters = map[ground.FactID][]Lit{}, map[ground.FactID][]Lit{}
	}
	clear(c.adders)
	clear(c.deleters)
	c.changed = c.changed[:0]
	return c
}

func (c *changes) note(f ground.FactID) {
	if _, ok := c.adders[f]; !ok {
		if _, ok := c.deleters[f]; !ok {
			c.changed = append(c.changed, f)
		}
	}
}

func (c *changes) add(f ground.FactID, x Lit) {
	c.note(f)
	c.adders[f] = append(c.adders[f], x)
}

func (c *changes) del(f ground.FactID, x Lit) {
	c.note(f)
	c.deleters[f] = append(c.deleters[f], x)
}

// positionClauses encodes position p (vertex vi) of layer l, between
// state cur and the next one, which it returns (false when the context
// ended): the next state, the actions' clauses, and the frame axioms. A
// boundary shared with the layer before keeps that layer's state, and an
// action passed down unchanged between two of them its clauses.
func (e *Encoding) positionClauses(l, p int, vi int32, cur state, shared map[int]state) (state, bool) {
	v := &e.verts[vi]
	next, isShared := shared[p+1]
	if isShared && e.stateLayer == l-1 && v.sameAs(&e.verts[v.parent]) {
		return next, true
	}
	ch := e.chg.reset()
	e.actionChanges(v, ch)
	if open := e.openVar(v, vi); open != 0 && !e.openChanges(v, open, ch) {
		return nil, false
	}
	slices.Sort(ch.changed)
	if !isShared {
		e.build.start(cur)
		for _, f := range ch.changed {
			e.build.set(int(f), e.newVar(kindFact, int32(p+1), int32(f)))
		}
		next = e.build.s
	}
	e.actionClauses(v, vi, cur, next, isShared)
	e.frameClauses(cur, next, ch, isShared)
	return next, true
}

// actionChanges notes in ch the effects of the actions vertex v may be.
func (e *Encoding) actionChanges(v *vertex, ch *changes) {
	t := e.t
	for i, tk := range v.tasks {
		if !t.IsPrimitive(tk) {
			continue
		}
		a := &t.Actions[tk]
		for _, f := range a.Add {
			ch.add(f, v.taskVar[i].Pos())
		}
		for _, f := range a.Del {
			if !contains(a.Add, f) {
				ch.del(f, v.taskVar[i].Pos())
			}
		}
	}
}

// openVar returns the variable that tells vertex vi (v) is open: it
// takes a method with subtasks, decomposed in a later layer, so that some
// action below it may change what it can change (0: none of its methods
// has subtasks). It is recorded in e.opens.
func (e *Encoding) openVar(v *vertex, vi int32) Var {
	var openers []Var
	for k, m := range v.methods {
		if len(e.t.Methods[m].Subtasks) > 0 {
			openers = append(openers, v.methVar[k])
		}
	}
	var open Var
	switch len(openers) {
	case 0:
		return 0
	case 1:
		open = openers[0]
	default:
		open = e.newVar(kindOpen, vi, 0)
		for _, x := range openers {
			e.add(x.Neg(), open.Pos())
		}
	}
	e.opens[vi] = open
	return open
}

// openChanges notes in ch the possible effects of the compound tasks of
// open vertex v, each made by its open variable (false when the context
// ended while they were computed).
func (e *Encoding) openChanges(v *vertex, open Var, ch *changes) bool {
	t := e.t
	if e.effects == nil {
		if e.effects = newPossibleEffects(t, e.stopped); e.effects == nil {
			return false
		}
	}
	for _, tk := range v.tasks {
		if t.IsPrimitive(tk) {
			continue
		}
		for _, f := range e.effects.of(tk) {
			ch.add(f, open.Pos())
			ch.del(f, open.Pos())
		}
	}
	return true
}

// actionClauses encodes the preconditions (in cur) and effects (in next)
// of the actions vertex vi (v) may be. An action passed down from the
// last encoded layer has its preconditions there already, and its
// effects too if it still ends at a boundary of that layer.
func (e *Encoding) actionClauses(v *vertex, vi int32, cur, next state, isShared bool) {
	t := e.t
	var old []Var
	if anc := e.encodedAncestor(vi); anc >= 0 {
		old = e.verts[anc].taskVar
	}
	for i, tk := range v.tasks {
		if !t.IsPrimitive(tk) {
			continue
		}
		a := &t.Actions[tk]
		x := v.taskVar[i].Neg()
		inherited := slices.Contains(old, v.taskVar[i])
		if !inherited {
			for _, f := range a.Pre {
				e.addPre(v.taskVar[i], cur.at(int(f)).Pos())
			}
			for _, f := range a.NegPre {
				e.addPre(v.taskVar[i], cur.at(int(f)).Neg())
			}
		}
		if inherited && isShared {
			continue
		}
		for _, f := range a.Add {
			e.add(x, next.at(int(f)).Pos())
		}
		for _, f := range a.Del {
			if !contains(a.Add, f) {
				e.add(x, next.at(int(f)).Neg())
			}
		}
	}
}

// frameClauses encodes the frame axioms between cur and next: a fact
// that changes was changed by a task of this position (ch). At a
// boundary shared with an earlier layer, facts that children before this
// one changed have other variables too.
func (e *Encoding) frameClauses(cur, next state, ch *changes, isShared bool) {
	frame := func(f int) {
		c, n := cur.at(f), next.at(f)
		if c == n {
			return
		}
		e.add(append([]Lit{c.Neg(), n.Pos()}, dedupLits(ch.deleters[ground.FactID(f)])...)...)
		e.add(append([]Lit{c.Pos(), n.Neg()}, dedupLits(ch.adders[ground.FactID(f)])...)...)
	}
	if isShared {
		cur.differing(next, frame)
		return
	}
	for _, f := range ch.changed {
		frame(int(f))
	}
}

// methodPreClauses encodes the preconditions of the methods of the
// vertices made since it last ran: they hold in the state before the
// method's position, which every later layer shares, so each is encoded
// once (false when the context ended).
func (e *Encoding) methodPreClauses(states []state, l int) bool {
	t := e.t
	for ; e.preDone < len(e.verts); e.preDone++ {
		if e.stopped() {
			return false
		}
		v := &e.verts[e.preDone]
		if len(v.methods) == 0 {
			continue
		}
		state := states[e.boundary(int(v.layer), int(v.pos), l)]
		for k, m := range v.methods {
			x := v.methVar[k]
			for _, f := range t.Methods[m].Pre {
				e.addPre(x, state.at(int(f)).Pos())
			}
			for _, f := range t.Methods[m].NegPre {
				e.addPre(x, state.at(int(f)).Neg())
			}
		}
	}
	return true
}

// goalClauses fixes the goal in the state after the last position.
func (e *Encoding) goalClauses(end state) {
	for _, f := range e.t.Goal {
		e.add(end.at(int(f)).Pos())
	}
	for _, f := range e.t.GoalNeg {
		e.add(end.at(int(f)).Neg())
	}
}

// addPre adds the precondition clause x -> l once: a vertex whose task
// (and method) is its parent's method (one reason, one method) shares the
// parent's variable and state, and a method's precondition is often its
// first subtask's too.
//
// The literals are kept per variable, not in a set of pairs: most
// variables have a few, met in one or two bursts, where a hashed pair cost
// a cache miss each (most of the encoding of an empty 36x36 grid). Those
// of a variable with many (a method whose precondition is universal over
// many objects) go to a set.
func (e *Encoding) addPre(x Var, l Lit) {
	if int(x) >= len(e.preLits) {
		e.preLits = append(e.preLits, make([][]Lit, max(int(x), e.NumVars)+1-len(e.preLits))...)
	}
	ls := e.preLits[x]
	switch {
	case len(ls) > maxPreLits:
		if _, fresh := e.preSeen.GetOrPut(preKey(x, l), 0); !fresh {
			return
		}
	case slices.Contains(ls, l):
		return
	default:
		e.preLits[x] = append(ls, l)
		if len(ls) == maxPreLits {
			// past the list's length: the set takes over
			for _, k := range e.preLits[x] {
				e.preSeen.GetOrPut(preKey(x, k), 0)
			}
		}
	}
	e.add(x.Neg(), l)
}

func preKey(x Var, l Lit) uint64 { return uint64(uint32(x))<<32 | uint64(uint32(l)) }

// maxPreLits is the most literals addPre keeps in a variable's list.
const maxPreLits = 256

// groupClauses adds, for every choice group and value, the clause that one
// of the group's tasks takes the value. The groups' exclusions hold in the
// (linearised) total order the encoding uses, so no plan is lost.
func (e *Encoding) groupClauses() {
	t := e.t
	root := map[ground.TaskID]int32{}
	for k, i := range e.initial {
		root[t.Initial[i]] = e.layers[0][k]
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

// dedupLits removes repeated literals (an open vertex is the adder of a
// fact once per compound task that may change it).
func dedupLits(ls []Lit) []Lit {
	if len(ls) < 2 {
		return ls
	}
	return sets.Dedup(ls)
}

func contains(fs []ground.FactID, f ground.FactID) bool {
	return slices.Contains(fs, f)
}

// Steps is the number of positions of the last layer: the slots of the
// plan's actions.
func (e *Encoding) Steps() int { return len(e.layers[len(e.layers)-1]) }

// Vertices is the size of the decomposition tree.
func (e *Encoding) Vertices() int { return len(e.verts) }

// VarName describes variable v for DIMACS comments.
func (e *Encoding) VarName(v Var) string {
	in := e.info[v]
	t := e.t
	switch in.kind {
	case kindTask:
		what := "task"
		if t.IsPrimitive(ground.TaskID(in.a)) {
			what = "action"
		}
		return fmt.Sprintf("%s at vertex %d (layer %d): %s", what, in.v, e.verts[in.v].layer+1, t.TaskName(ground.TaskID(in.a)))
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
		return fmt.Sprintf("fact before position %d: %s", in.v, t.FactName(ground.FactID(in.a)))
	case kindFinal:
		return fmt.Sprintf("layer %d describes a plan", in.v+1)
	case kindOpen:
		return fmt.Sprintf("vertex %d takes a method with subtasks", in.v)
	}
	return fmt.Sprintf("at-most-one helper (vertex %d)", in.v)
}

// VarKind says what variable v stands for: "task", "action", "method",
// "fact", "final" (a layer describes a plan), "open" (a vertex takes a
// method with subtasks) or "aux" (a helper of an at-most-one constraint).
func (e *Encoding) VarKind(v Var) string {
	in := e.info[v]
	switch in.kind {
	case kindTask:
		if e.t.IsPrimitive(ground.TaskID(in.a)) {
			return "action"
		}
		return "task"
	case kindMethod:
		return "method"
	case kindFact:
		return "fact"
	case kindFinal:
		return "final"
	case kindOpen:
		return "open"
	}
	return "aux"
}
