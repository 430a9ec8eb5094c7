package ground

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/sets"
)

// Lazy grounds a problem on demand, for a search that visits a small
// part of a task too large to ground in full (Grow serves it as a
// growing Task to progression's search, htn.SolveGrow). Nothing is instantiated up front: the ground
// tasks, facts and action effects a search meets are made when it meets
// them and kept (interned) for every later node, and the methods of a task
// are instantiated against the state in which the task is decomposed, so
// that only bindings that hold there are made. The relevance reasoning of
// the full grounder applies locally: static predicates (no action changes
// them) are joined first, predicates no action adds rule out the method
// instances whose actions need a fact already gone, and a compound
// subtask none of whose methods can ever apply rules out its method
// instance.
type Lazy struct {
	Problem *hddl.Problem
	d       *hddl.Domain
	ctx     context.Context
	budget  int64 // the most method instances one decomposition may make
	// total: every network of the problem is totally ordered, so that a
	// method's first subtask runs in the state where the method is
	// chosen (inherit, inheritThrough); in partial order, tasks outside
	// the method may run in between, unless the search decomposes a
	// task only where its subtasks begin at once (the eager search, see
	// htn.Options.CompletePO), and methodsAny serve the others
	total bool

	static  []bool // predicate: no action changes it
	added   []bool // predicate: some action adds it
	deleted []bool // predicate: some action deletes it

	facts   []Fact
	factKey map[string]FactID
	// factPacked keys the facts packFact packs (a predicate in predBits,
	// each object in objBits; 0: none), factKey the others
	factPacked        sets.U64Map
	objBits, predBits uint
	byPred            [][]FactID
	byArg             map[argKey][]FactID
	staticOn          []bool // by fact: a static fact of the initial state
	init              []FactID

	actions []*lazySchema   // by lifted action
	methods [][]*lazySchema // by lifted method: one per disjunct
	// methodsAny (in partial order only) are the methods' queries for a
	// task decomposed before its subtasks' turn (Methods without a
	// state): they inherit only what holds whatever runs in between (see
	// inherit)
	methodsAny [][]*lazySchema
	methodsOf  [][]int       // by compound task: its methods
	goal       []*lazySchema // disjuncts of the goal (nil: none)

	tasks    []LazyTask
	taskKey  map[string]int32
	acts     map[int32]*lazyAction // primitive task -> its ground action
	possible map[int32]bool        // compound task -> feasible
	// feasibility of tasks with open arguments (feasible): the answers,
	// the tasks being looked into (by depth), the lowest of those met
	feas               map[string]bool
	feasOpen           map[string]int
	feasLow, feasSteps int
	feasGaveUp         bool
	// feasAdaptive (Grow) counts each feasibility look-up as a join step
	// and stops asking feasibility questions once they cost more than
	// they tell (feasTrial): feasAsked counts them,
	// feasNo those answered no, feasTicks their join steps
	feasAdaptive      bool
	feasAsked, feasNo int
	feasTicks         uint64
	// feasGaveUps counts the questions that gave up at their work bound
	// (answered yes, telling nothing: see feasGiveUps)
	feasGaveUps int
	// feasEnd, while a feasibility question is open (mayApply), is the
	// tick past which it gives up (maxFeasTicks after its start), else 0
	feasEnd uint64
	// addOK[f]: 1 when some action may add fact f, -1 when none can, 0
	// not asked yet (addable); initOn: the fluent facts of the initial
	// state (fluentsMayHold)
	addOK    []int8
	initOn   map[FactID]bool
	addAnyOf []int8 // by predicate: 1 when addAny, -1 when not, 0 not asked yet
	// reach, by predicate, holds the static facts and the fluent ones
	// the delete-relaxed reachability finds (nil: not known; see
	// reachFacts: Grow runs it)
	reach []*relation

	// groundPre: method instances carry their ground preconditions
	// (LazyMethod.Pre), and instances that differ only there are kept
	// apart (Grow, whose methods apply in other states than the one they
	// were made in)
	groundPre bool
	// deferFree: a method variable that neither the task, the
	// precondition nor the first subtasks bind is left open, and the
	// instance's network from the first subtask that uses one on is
	// its Rest, bound where that subtask's turn comes (Grow; in a totally
	// ordered method only, as a partially ordered one has no rest); netOf
	// holds methods' networks as open tasks (netTasks)
	deferFree bool
	netOf     map[int][]OpenTask

	ticks uint64 // join steps, for looking at ctx now and then
	looks uint64 // steps that are no join (feasibility look-ups, free bindings), for the same
	// stopped is set once a join step found ctx ended: every join stops
	// at once from then on (a feasibility question nests joins in
	// joins, each of which would otherwise look at ctx only every 4096
	// steps of its own)
	stopped bool
	types
	key []byte
}

// LazyTask is a ground task: a primitive or compound task of the domain
// with its arguments (object indices).
type LazyTask struct {
	Ref  hddl.TaskRef
	Args []int
}

// LazyMethod is a ground method instance made in one state: the lifted
// method and the ground tasks of its (totally ordered) network.
type LazyMethod struct {
	Method   int
	Subtasks []int32
	// Args are the decomposed task's arguments, for an open task
	// (OpenMethods) only.
	Args []int32
	// Pre and NegPre are the fluent facts the instance's precondition
	// asks to hold and not to hold, when the Lazy grounds preconditions
	// (Grow): those of the method and those it inherits from its actions
	// (see inherit), each implied by any plan through the instance.
	Pre, NegPre []FactID
	// Rest, when the Lazy defers free variables (deferFree), is the
	// rest of the network from the first subtask with a variable the
	// instance leaves open: Subtasks are the ones before it.
	Rest *NetRest
}

// NetRest is the rest of a method's network from subtask From on, under
// a binding Sub of the method's variables (-1: open).
type NetRest struct {
	Method, From int
	Sub          []int32
}

// key is what tells rests apart in the keys of method instances (nil
// for none).
func (r *NetRest) key() []int32 {
	if r == nil {
		return nil
	}
	return append([]int32{-2, int32(r.From)}, r.Sub...)
}

type argKey struct {
	pred, pos, obj int32
}

// lazySchema is one disjunct of a precondition (with the effects of an
// action) as a query over its variables.
type lazySchema struct {
	name    string
	vars    []hddl.Param
	pos     []lit // atoms, static first
	neg     []lit // negated atoms
	eq      []lit // equalities (neg: inequality)
	effects []effect
}

// lazyAction is a ground action: its precondition facts (when it has no
// variables beyond its parameters) and effects.
type lazyAction struct {
	schema   int
	pre, neg []FactID
	add, del []FactID
	exists   bool // existential variables: the precondition is a query
	never    bool // a static precondition fails: never applicable
}

// State is a set of facts of a Lazy grounding, with a hash kept up to
// date (the same set has the same hash, whatever the order of changes).
type State struct {
	bits []uint64
	Hash uint64
}

// Has reports whether fact f holds.
func (s *State) Has(f FactID) bool {
	w := int(f) >> 6
	return w < len(s.bits) && s.bits[w]&(1<<(uint(f)&63)) != 0
}

// Set makes fact f hold (v) or not and reports whether that changed s.
func (s *State) Set(f FactID, v bool) bool {
	if s.Has(f) == v {
		return false
	}
	w := int(f) >> 6
	for w >= len(s.bits) {
		s.bits = append(s.bits, 0)
	}
	s.bits[w] ^= 1 << (uint(f) & 63)
	s.Hash ^= Mix64(uint64(f) + 1)
	return true
}

// Mix64 is SplitMix64's finaliser: a 64-bit hash of x.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// newLazy prepares p for grounding on demand (Grow): it normalises the
// actions' and methods' preconditions and effects and loads the initial
// state. The budget (Options.MaxGround) bounds the method instances of
// one decomposition and the expansion of quantifiers.
func newLazy(ctx context.Context, p *hddl.Problem, opt Options) (*Lazy, error) {
	if p.Constraints != nil {
		return nil, fmt.Errorf("grounding on demand of an initial network with constraints is %w", ErrNotSupported)
	}
	if err := emptyNetworkParam(p); err != nil {
		return nil, err
	}
	budget := int64(opt.MaxGround)
	if budget <= 0 {
		budget = DefaultMaxGround
	}
	d := p.Domain
	lz := &Lazy{
		Problem: p, d: d, ctx: ctx, budget: budget,
		factKey: map[string]FactID{}, byArg: map[argKey][]FactID{},
		byPred:  make([][]FactID, len(d.Predicates)),
		taskKey: map[string]int32{}, acts: map[int32]*lazyAction{}, possible: map[int32]bool{},
		feas: map[string]bool{}, feasOpen: map[string]int{},
		types: newTypes(p), total: p.IsTotalOrder(),
		static: make([]bool, len(d.Predicates)), added: make([]bool, len(d.Predicates)), deleted: make([]bool, len(d.Predicates)),
	}
	lz.objBits, lz.predBits = uint(bits.Len(uint(len(p.Objects)))), uint(bits.Len(uint(len(d.Predicates))))
	norm := &normalizer{ctx: ctx, p: p, types: map[int][]int{}, budget: budget}
	if err := lz.loadActions(norm); err != nil {
		return nil, err
	}
	if err := lz.loadMethods(norm); err != nil {
		return nil, err
	}
	lz.inheritThrough()
	if err := lz.loadGoal(norm); err != nil {
		return nil, err
	}
	lz.loadInit()
	return lz, nil
}

// loadActions normalises the actions' preconditions (one conjunction
// each: a disjunctive one is refused) and effects, and tells which
// predicates are static, added and deleted.
func (lz *Lazy) loadActions(norm *normalizer) error {
	d := lz.d
	for i := range lz.static {
		lz.static[i] = true
	}
	for ai := range d.Actions {
		a := &d.Actions[ai]
		norm.scopeVars = a.Vars
		effs, err := norm.effects(a.Effect, nil, nil)
		if err != nil {
			return fmt.Errorf("action %s: %w", a.Name, err)
		}
		for _, e := range effs {
			lz.static[e.pred] = false
			if e.del {
				lz.deleted[e.pred] = true
			} else {
				lz.added[e.pred] = true
			}
		}
		dnf, err := norm.dnf(a.Precondition, false, nil)
		if err != nil {
			return fmt.Errorf("action %s: %w", a.Name, err)
		}
		if len(dnf) > 1 {
			return fmt.Errorf("%s: action %s: disjunctive preconditions of actions are %w", a.Pos, a.Name, ErrNotSupported)
		}
		var s *lazySchema
		if len(dnf) == 1 {
			s = lz.schema("action "+a.Name, a.Vars, dnf[0])
		}
		if s != nil {
			s.effects = effs
		}
		lz.actions = append(lz.actions, s) // nil: never applicable
	}
	for _, a := range lz.actions {
		if a != nil {
			lz.sortStatic(a)
		}
	}
	return nil
}

// loadMethods normalises the methods' preconditions, a query per
// disjunct, each with what the method inherits from its actions
// (inherit); in partial order also the query of a method decomposed
// where its subtasks may not begin at once (methodsAny).
func (lz *Lazy) loadMethods(norm *normalizer) error {
	d := lz.d
	lz.methodsOf = make([][]int, len(d.Tasks))
	for mi := range d.Methods {
		m := &d.Methods[mi]
		norm.scopeVars = m.Vars
		dnf, err := norm.dnf(m.Precondition, false, nil)
		if err != nil {
			return fmt.Errorf("method %s: %w", m.Name, err)
		}
		var ss, any []*lazySchema
		for _, c := range dnf {
			s := lz.schema("method "+m.Name, m.Vars, c)
			lz.inherit(s, m, m.Network.Total)
			lz.sortStatic(s)
			ss = append(ss, s)
			if !lz.total {
				a := lz.schema("method "+m.Name, m.Vars, c)
				lz.inherit(a, m, false)
				lz.sortStatic(a)
				any = append(any, a)
			}
		}
		lz.methods = append(lz.methods, ss)
		if !lz.total {
			lz.methodsAny = append(lz.methodsAny, any)
		}
		lz.methodsOf[m.Task] = append(lz.methodsOf[m.Task], mi)
	}
	return nil
}

// loadGoal normalises the goal, a query per disjunct (nil without one).
func (lz *Lazy) loadGoal(norm *normalizer) error {
	p := lz.Problem
	if p.Goal == nil {
		return nil
	}
	norm.scopeVars = p.GoalVars
	dnf, err := norm.dnf(p.Goal, false, nil)
	if err != nil {
		return fmt.Errorf("goal: %w", err)
	}
	lz.goal = []*lazySchema{}
	for _, c := range dnf {
		s := lz.schema("goal", p.GoalVars, c)
		lz.sortStatic(s)
		lz.goal = append(lz.goal, s)
	}
	return nil
}

// loadInit interns the initial facts: the static ones hold for good
// (staticOn), the others make the initial state.
func (lz *Lazy) loadInit() {
	args := make([]int32, 0, 8)
	for _, a := range lz.Problem.Init {
		args = args[:0]
		for _, o := range a.Args {
			args = append(args, int32(o))
		}
		f := lz.intern(a.Pred, args)
		if lz.static[a.Pred] {
			lz.staticOn[f] = true
		} else {
			lz.init = append(lz.init, f)
		}
	}
}

func (lz *Lazy) schema(name string, vars []hddl.Param, c conj) *lazySchema {
	s := &lazySchema{name: name, vars: vars}
	for _, l := range c {
		switch {
		case l.pred == eqPred:
			s.eq = append(s.eq, l)
		case l.neg:
			s.neg = append(s.neg, l)
		default:
			s.pos = append(s.pos, l)
		}
	}
	return s
}

// inherit adds to a method's query the preconditions of its actions that
// must already hold where the method is chosen: an atom no action adds
// can only become false, and a negated atom no action deletes can only
// become true; and the first subtask, when it is an action, runs in the
// state where the method is chosen, so all of its precondition must hold
// there, when first is set: a totally ordered method decomposed where
// its subtasks begin at once (in a partially ordered network, a task
// outside the method may run before it otherwise). It is the local form
// of the grounder's reachability reasoning: the join then never makes
// the instances whose actions need a fact already gone.
func (lz *Lazy) inherit(s *lazySchema, m *hddl.Method, first bool) {
	for k, st := range m.Network.Subtasks {
		if !st.Task.Primitive {
			continue
		}
		a := &lz.d.Actions[st.Task.Index]
		as := lz.actions[st.Task.Index]
		if as == nil {
			continue
		}
		first := first && k == 0
		rename := func(l lit) (lit, bool) {
			out := lit{pred: l.pred, neg: l.neg, args: make([]hddl.Term, len(l.args))}
			for i, x := range l.args {
				if x.IsVar() {
					if x.Var() >= a.NumParams {
						return lit{}, false // existential in the action
					}
					x = st.Args[x.Var()]
				}
				out.args[i] = x
			}
			return out, true
		}
		for _, l := range as.pos {
			if lz.added[l.pred] && !first {
				continue
			}
			if r, ok := rename(l); ok {
				s.pos = append(s.pos, r)
			}
		}
		for _, l := range as.neg {
			if lz.deleted[l.pred] && !first {
				continue
			}
			if r, ok := rename(l); ok {
				s.neg = append(s.neg, r)
			}
		}
		for _, l := range as.eq {
			if r, ok := rename(l); ok {
				s.eq = append(s.eq, r)
			}
		}
	}
}

// sortStatic puts a schema's static atoms first: they are joined before
// the state is looked at.
func (lz *Lazy) sortStatic(s *lazySchema) {
	var st, fl []lit
	for _, l := range s.pos {
		if lz.static[l.pred] {
			st = append(st, l)
		} else {
			fl = append(fl, l)
		}
	}
	s.pos = append(st, fl...)
}

// Init returns the initial state.
func (lz *Lazy) Init() *State {
	s := &State{}
	for _, f := range lz.init {
		s.Set(f, true)
	}
	return s
}

// TaskName names a ground task.
func (lz *Lazy) TaskName(id int32) string {
	t := &lz.tasks[id]
	return lz.call(lz.d.TaskName(t.Ref), t.Args)
}

func (lz *Lazy) call(name string, args []int) string {
	return "(" + callName(lz.Problem, name, args) + ")"
}

// keyOf writes head and the lists into lz.key, the key of a map
// (valid until the next call): a fact is its predicate and arguments, a
// task its index and kind and arguments.
func (lz *Lazy) keyOf(head uint32, lists ...[]int32) []byte {
	k := binary.LittleEndian.AppendUint32(lz.key[:0], head)
	for _, l := range lists {
		for _, a := range l {
			k = binary.LittleEndian.AppendUint32(k, uint32(a))
		}
	}
	lz.key = k
	return k
}

// taskHead is a task's head in keyOf.
func taskHead(ref hddl.TaskRef) uint32 { return uint32(ref.Index)<<1 | b2u(ref.Primitive) }

func (lz *Lazy) factKeyOf(pred int, args []int32) []byte {
	return lz.keyOf(uint32(pred), args)
}

// packFact packs a fact into a uint64 key when its predicate and
// objects fit (objBits per argument): the binder's filters look facts up
// at most of its steps, and hashing a string key for each took 16% of a
// search over a growing task (IPC Blocksworld-HPDDL pfile_700).
func (lz *Lazy) packFact(pred int, args []int32) (uint64, bool) {
	if lz.objBits == 0 || uint(len(args))*lz.objBits+lz.predBits > 64 {
		return 0, false
	}
	// the predicate in the low bits, each argument above it: facts of
	// one predicate have one arity, so no two facts share a key
	k, shift := uint64(pred), lz.predBits
	for _, a := range args {
		if a < 0 {
			return 0, false
		}
		k |= uint64(a) << shift
		shift += lz.objBits
	}
	return k, true
}

// find returns the fact's id, or -1 when it was never made.
func (lz *Lazy) find(pred int, args []int32) FactID {
	if k, ok := lz.packFact(pred, args); ok {
		if id, ok := lz.factPacked.Get(k); ok {
			return FactID(id)
		}
		return -1
	}
	if id, ok := lz.factKey[string(lz.factKeyOf(pred, args))]; ok {
		return id
	}
	return -1
}

// intern returns the fact's id, making it if need be.
func (lz *Lazy) intern(pred int, args []int32) FactID {
	id := FactID(len(lz.facts))
	if pk, ok := lz.packFact(pred, args); ok {
		if old, fresh := lz.factPacked.GetOrPut(pk, int32(id)); !fresh {
			return FactID(old)
		}
	} else {
		k := lz.factKeyOf(pred, args)
		if old, ok := lz.factKey[string(k)]; ok {
			return old
		}
		lz.factKey[string(k)] = id
	}
	f := Fact{Pred: pred, Args: make([]int, len(args))}
	for i, a := range args {
		f.Args[i] = int(a)
		ak := argKey{int32(pred), int32(i), a}
		lz.byArg[ak] = append(lz.byArg[ak], id)
	}
	lz.facts = append(lz.facts, f)
	lz.staticOn = append(lz.staticOn, false)
	lz.byPred[pred] = append(lz.byPred[pred], id)
	return id
}

func (lz *Lazy) internTask(ref hddl.TaskRef, args []int32) int32 {
	k := lz.keyOf(taskHead(ref), args)
	if id, ok := lz.taskKey[string(k)]; ok {
		return id
	}
	id := int32(len(lz.tasks))
	lz.taskKey[string(k)] = id
	t := LazyTask{Ref: ref, Args: make([]int, len(args))}
	for i, a := range args {
		t.Args[i] = int(a)
	}
	lz.tasks = append(lz.tasks, t)
	return id
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// holds reports whether fact f is true in s (static facts always are).
func (lz *Lazy) holds(f FactID, s *State) bool {
	if f < 0 {
		return false
	}
	if lz.static[lz.facts[f].Pred] {
		return lz.staticOn[f]
	}
	return s != nil && s.Has(f)
}

// binder enumerates the bindings of a schema's variables. b holds the
// binding (-1: unbound); state nil means the static atoms only (the
// fluent ones are taken as satisfiable).
type binder struct {
	lz    *Lazy
	s     *lazySchema
	b     []int32
	state *State
	need  []bool // variables that must be bound at the end
	// scan, without a state, joins a fluent atom over every reachable
	// fact even when none of its arguments is bound (see run): a
	// method instance made for any state binds its precondition's
	// variables (anyState)
	scan  bool
	done  []bool // by pos atom: joined
	tup   []int32
	yield func([]int32) bool
}

func (lz *Lazy) term(t hddl.Term, b []int32) int32 {
	if t.IsVar() {
		return b[t.Var()]
	}
	return int32(t.Obj())
}

// filters reports whether the negated atoms and equalities whose
// variables are all bound hold.
func (bd *binder) filters() bool {
	lz, b := bd.lz, bd.b
	for _, l := range bd.s.eq {
		x, y := lz.term(l.args[0], b), lz.term(l.args[1], b)
		if x < 0 || y < 0 {
			continue
		}
		if (x == y) == l.neg {
			return false
		}
	}
	for _, l := range bd.s.neg {
		if bd.state == nil && !lz.static[l.pred] {
			continue
		}
		tup := bd.tup[:0]
		ok := true
		for _, a := range l.args {
			v := lz.term(a, b)
			if v < 0 {
				ok = false
				break
			}
			tup = append(tup, v)
		}
		bd.tup = tup
		if ok && lz.holds(lz.find(l.pred, tup), bd.state) {
			return false
		}
	}
	return true
}

// run enumerates; it returns false when yield asked to stop.
func (bd *binder) run() bool {
	if !bd.going() {
		return false
	}
	best, bound := bd.pick()
	if best < 0 {
		return bd.free(0)
	}
	l := bd.s.pos[best]
	bd.done[best] = true
	defer func() { bd.done[best] = false }()
	switch {
	case bound == len(l.args):
		return bd.check(l)
	case bd.state == nil && !bd.lz.static[l.pred]:
		return bd.joinReachable(l)
	}
	return bd.joinState(l)
}

// going counts a join step and reports whether the join may go on: the
// grounding has not stopped, its context has not ended, and a
// feasibility question is within its work bound (past it, the answer is
// yes).
func (bd *binder) going() bool {
	lz := bd.lz
	if lz.stopped {
		return false
	}
	if lz.ticks++; lz.ticks&4095 == 0 && lz.ctx.Err() != nil {
		lz.stopped = true
		return false
	}
	if lz.feasEnd > 0 && lz.ticks > lz.feasEnd {
		lz.feasGaveUp = true
		return false
	}
	return true
}

// pick returns the atom to join next, the one with the most bound
// arguments (static ones first on ties), and how many it has bound; -1
// when none is left to join.
func (bd *binder) pick() (best, bestBound int) {
	lz, b := bd.lz, bd.b
	best, bestBound = -1, -1
	for i, l := range bd.s.pos {
		if bd.done[i] || !bd.joinable(l.pred) {
			continue
		}
		n := 0
		for _, a := range l.args {
			if lz.term(a, b) >= 0 {
				n++
			}
		}
		if n == 0 && bd.state == nil && !lz.static[l.pred] && !bd.scan {
			// a scan of every reachable fact of a fluent predicate
			// binds more than it rules out (IPC Multiarm-Blocksworld
			// pfile_02_075: 0.07 s to 1.1 s for the same nodes)
			continue
		}
		if n > bestBound {
			best, bestBound = i, n
		}
		if n == len(l.args) {
			break
		}
	}
	return best, bestBound
}

// check joins atom l, all of whose arguments are bound: it holds, or the
// binding goes no further.
func (bd *binder) check(l lit) bool {
	tup := bd.tup[:0]
	for _, a := range l.args {
		tup = append(tup, bd.lz.term(a, bd.b))
	}
	bd.tup = tup
	if !bd.holds(l.pred, tup) {
		return true
	}
	return bd.run()
}

// joinReachable joins fluent atom l without a state: over the reachable
// facts, those with its first bound argument where it has one.
func (bd *binder) joinReachable(l lit) bool {
	lz := bd.lz
	rel := lz.reach[l.pred]
	for i, a := range l.args {
		if v := lz.term(a, bd.b); v >= 0 {
			for _, j := range rel.lookup(i, v) {
				if !extend(bd, l, rel.tuple(j)) {
					return false
				}
			}
			return true
		}
	}
	for j := range int32(rel.size()) {
		if !extend(bd, l, rel.tuple(j)) {
			return false
		}
	}
	return true
}

// joinState joins atom l over the facts of its predicate that hold in
// the state (static ones hold in every state), those with its first
// bound argument where it has one.
func (bd *binder) joinState(l lit) bool {
	lz, b := bd.lz, bd.b
	cands := lz.byPred[l.pred]
	for i, a := range l.args {
		if v := lz.term(a, b); v >= 0 {
			cands = lz.byArg[argKey{int32(l.pred), int32(i), v}]
			break
		}
	}
	var bound [8]int
	for _, f := range cands {
		if !lz.holds(f, bd.state) {
			continue
		}
		// extend, inline: this loop is the hot path of grounding on
		// demand
		args := lz.facts[f].Args
		nb := bound[:0]
		ok := true
		for i, a := range l.args {
			o := int32(args[i])
			if !a.IsVar() {
				if int32(a.Obj()) != o {
					ok = false
					break
				}
				continue
			}
			v := a.Var()
			if b[v] >= 0 {
				if b[v] != o {
					ok = false
					break
				}
				continue
			}
			if !lz.isOfType(int(o), bd.s.vars[v].Type) {
				ok = false
				break
			}
			b[v] = o
			nb = append(nb, v)
		}
		if ok && bd.filters() && !bd.run() {
			for _, v := range nb {
				b[v] = -1
			}
			return false
		}
		for _, v := range nb {
			b[v] = -1
		}
	}
	return true
}

// joinable reports whether atoms of predicate pred bind variables: in a
// state, or static, or over the reachable facts (Lazy.reach) without a
// state, once one of their arguments is bound; the others are only
// checked once their variables are bound (fluentsMayHold). (IPC 2023
// Snake pb-5slots: 10.9 s without joins over the reachable facts, 5.5 s
// with, the same nodes.)
func (bd *binder) joinable(pred int) bool {
	return bd.state != nil || bd.lz.static[pred] || bd.lz.reach != nil
}

// holds reports whether atom pred(tup) holds: in the state, static, or
// without a state, reachable.
func (bd *binder) holds(pred int, tup []int32) bool {
	lz := bd.lz
	if bd.state == nil && !lz.static[pred] {
		_, ok := lz.reach[pred].find(tup)
		return ok
	}
	return lz.holds(lz.find(pred, tup), bd.state)
}

// extend binds atom l's unbound variables to the objects of a reachable
// tuple tup, if it fits, and goes on (as run does over facts); it returns
// false when yield asked to stop.
func extend(bd *binder, l lit, tup []int32) bool {
	lz, b := bd.lz, bd.b
	var bound [8]int
	nb := bound[:0]
	ok := true
	for i, a := range l.args {
		o := tup[i]
		if !a.IsVar() {
			if int32(a.Obj()) != o {
				ok = false
				break
			}
			continue
		}
		v := a.Var()
		if b[v] >= 0 {
			if b[v] != o {
				ok = false
				break
			}
			continue
		}
		if !lz.isOfType(int(o), bd.s.vars[v].Type) {
			ok = false
			break
		}
		b[v] = o
		nb = append(nb, v)
	}
	more := !ok || !bd.filters() || bd.run()
	for _, v := range nb {
		b[v] = -1
	}
	return more
}

// free binds the needed variables no atom bound, over their types, from
// variable v on.
func (bd *binder) free(v int) bool {
	for v < len(bd.b) && (bd.b[v] >= 0 || !bd.need[v]) {
		v++
	}
	if v == len(bd.b) {
		if !bd.filters() {
			return true
		}
		return bd.yield(bd.b)
	}
	lz := bd.lz
	for _, o := range lz.objectsOf(bd.s.vars[v].Type) {
		if lz.looks++; lz.looks&4095 == 0 && lz.ctx.Err() != nil || lz.stopped {
			lz.stopped = true
			bd.b[v] = -1
			return false
		}
		bd.b[v] = int32(o)
		if bd.filters() && !bd.free(v+1) {
			bd.b[v] = -1
			return false
		}
	}
	bd.b[v] = -1
	return true
}

// Methods returns method instances that decompose compound task id in
// state s: those whose precondition holds in s, whose actions do not need
// a fact that is gone for good (a fact no action adds, false in s, or a
// static fact that is false) and whose compound subtasks have a method
// that may apply. They come in the domain's order of methods, or the
// reverse order. It skips the first skip of them and returns at most
// limit (0: all), and whether there are more; the order is the same in
// the same state, so that a search can ask for a task's instances a few
// at a time. It fails with ErrTooLarge when one decomposition would make
// more instances than the budget. With s nil, the instances are those
// that may apply in some state (their fluent preconditions joined over
// the reachable facts, when known): in a partially ordered network a
// task may be decomposed before the state its subtasks begin in is
// known.
func (lz *Lazy) Methods(id int32, s *State, reverse bool, skip, limit int) ([]LazyMethod, bool, error) {
	t := &lz.tasks[id]
	args := make([]int32, len(t.Args))
	for i, a := range t.Args {
		args[i] = int32(a)
	}
	return lz.methodInstances(t.Ref.Index, args, nil, s, reverse, skip, limit)
}

// OpenTask is a task of the initial network: its arguments are objects
// or variables of the network (Problem.Vars, the :htn :parameters), which
// the search binds as it goes.
type OpenTask struct {
	Ref  hddl.TaskRef
	Args []hddl.Term
	Vars []hddl.Param // the variables Args refer to (their types)
}

// Initial returns the tasks of the initial network, in order.
func (lz *Lazy) Initial() []OpenTask {
	var out []OpenTask
	for _, st := range lz.Problem.Initial.Subtasks {
		out = append(out, OpenTask{Ref: st.Task, Args: st.Args, Vars: lz.Problem.Vars})
	}
	return out
}

// netTasks returns the tasks of method meth's network as open tasks over
// its variables, or for meth -1 those of the initial network.
func (lz *Lazy) netTasks(meth int) []OpenTask {
	if meth < 0 {
		return lz.Initial()
	}
	if lz.netOf == nil {
		lz.netOf = map[int][]OpenTask{}
	}
	if ts, ok := lz.netOf[meth]; ok {
		return ts
	}
	m := &lz.d.Methods[meth]
	var ts []OpenTask
	for _, st := range m.Network.Subtasks {
		ts = append(ts, OpenTask{Ref: st.Task, Args: st.Args, Vars: m.Vars})
	}
	lz.netOf[meth] = ts
	return ts
}

// resolve returns the arguments of an open task under the binding sub of
// the network's variables, -1 where a variable is unbound, and whether
// one is.
func (lz *Lazy) resolve(t OpenTask, sub []int32) ([]int32, bool) {
	args := make([]int32, len(t.Args))
	open := false
	for i, a := range t.Args {
		if a.IsVar() {
			args[i] = sub[a.Var()]
			open = open || args[i] < 0
		} else {
			args[i] = int32(a.Obj())
		}
	}
	return args, open
}

// Bind returns the ground task of an open task under the binding sub of
// the network's variables (-1: unbound), or -1 when one of its variables
// is unbound.
func (lz *Lazy) Bind(t OpenTask, sub []int32) int32 {
	args, open := lz.resolve(t, sub)
	if open {
		return -1
	}
	return lz.internTask(t.Ref, args)
}

// fits reports whether full arguments agree with an open task under sub:
// each variable of the network gets one value, of its type.
func (lz *Lazy) fits(t OpenTask, sub []int32, args []int32) bool {
	vals := map[int]int32{}
	for i, a := range t.Args {
		if !a.IsVar() {
			continue
		}
		v := a.Var()
		if sub[v] >= 0 && sub[v] != args[i] {
			return false
		}
		if x, ok := vals[v]; ok && x != args[i] {
			return false
		}
		vals[v] = args[i]
		if !lz.isOfType(int(args[i]), t.Vars[v].Type) {
			return false
		}
	}
	return true
}

// OpenMethods is Methods for a compound open task with unbound variables:
// each instance also binds them, LazyMethod.Args giving the task's
// arguments.
func (lz *Lazy) OpenMethods(t OpenTask, sub []int32, s *State, reverse bool, skip, limit int) ([]LazyMethod, bool, error) {
	args, _ := lz.resolve(t, sub)
	return lz.methodInstances(t.Ref.Index, args, func(full []int32) bool { return lz.fits(t, sub, full) }, s, reverse, skip, limit)
}

// OpenActions returns the arguments under which a primitive open task
// with unbound variables is applicable in s.
func (lz *Lazy) OpenActions(t OpenTask, sub []int32, s *State) ([][]int32, error) {
	args, _ := lz.resolve(t, sub)
	sc := lz.actions[t.Ref.Index]
	if sc == nil {
		return nil, nil
	}
	n := len(args)
	b := make([]int32, len(sc.vars))
	for i := range b {
		b[i] = -1
	}
	need := make([]bool, len(sc.vars))
	for i, o := range args {
		if o >= 0 {
			if !lz.isOfType(int(o), sc.vars[i].Type) {
				return nil, nil
			}
			b[i] = o
		} else {
			need[i] = true
		}
	}
	markFilterVars(sc, need)
	if s == nil {
		anyState(sc, need)
	}
	var out [][]int32
	seen := map[string]bool{}
	var err error
	bd := &binder{lz: lz, s: sc, b: b, state: s, need: need, done: make([]bool, len(sc.pos)), scan: s == nil}
	bd.yield = func(b []int32) bool {
		full := slices.Clone(b[:n])
		if !lz.fits(t, sub, full) {
			return true
		}
		k := string(lz.factKeyOf(0, full))
		if seen[k] {
			return true
		}
		seen[k] = true
		if int64(len(out)) >= lz.budget {
			err = fmt.Errorf("%w: the task %s has more than %d applicable instances in one state", ErrTooLarge, lz.d.TaskName(t.Ref), lz.budget)
			return false
		}
		out = append(out, full)
		return true
	}
	bd.run()
	if err == nil {
		err = lz.ctx.Err()
	}
	return out, err
}

// methodInstances makes the method instances of compound task ref whose
// arguments are args (-1: a variable still open, bound by the instance,
// which check must accept); see Methods.
func (lz *Lazy) methodInstances(ref int, targs []int32, check func([]int32) bool, s *State, reverse bool, skip, limit int) ([]LazyMethod, bool, error) {
	var out []LazyMethod
	seen := map[string]bool{}
	var made int64
	var err error
	more, accepted := false, 0
	// the state that tells which facts are gone for good (mayApply):
	// in any state, those of the initial state
	gone := s
	if s == nil {
		gone = lz.Init()
	}
	ms := lz.methodsOf[ref]
	if reverse {
		ms = slices.Clone(ms)
		slices.Reverse(ms)
	}
	for _, mi := range ms {
		if more {
			break
		}
		m := &lz.d.Methods[mi]
		if !lz.instantiable(m) {
			continue
		}
		// a free variable is left open in a totally ordered network only
		openOK := lz.deferFree && m.Network.Total
		need := make([]bool, len(m.Vars))
		for _, st := range m.Network.Subtasks {
			for _, a := range st.Args {
				if a.IsVar() && !openOK {
					need[a.Var()] = true
				}
			}
		}
		for i, a := range m.TaskArgs {
			if a.IsVar() && targs[i] < 0 {
				need[a.Var()] = true
			}
		}
		schemas := lz.methods[mi]
		if s == nil && lz.methodsAny != nil {
			schemas = lz.methodsAny[mi]
		}
		for _, sc := range schemas {
			markFilterVars(sc, need)
			if s == nil {
				anyState(sc, need)
			}
			b, ok := lz.head(m, sc, targs)
			if !ok {
				continue
			}
			bd := &binder{lz: lz, s: sc, b: b, state: s, need: need, done: make([]bool, len(sc.pos)), scan: s == nil}
			bd.yield = func(b []int32) bool {
				if made++; made > lz.budget {
					err = fmt.Errorf("%w: the task %s has more than %d method instances in one state", ErrTooLarge, lz.d.Tasks[ref].Name, lz.budget)
					return false
				}
				var full []int32
				if check != nil {
					full = make([]int32, len(m.TaskArgs))
					for i, a := range m.TaskArgs {
						full[i] = lz.term(a, b)
					}
					if !check(full) {
						return true
					}
				}
				subs, rest := lz.subtasks(mi, b)
				var pre, neg []FactID
				if lz.groundPre {
					pre, neg = lz.groundLits(sc, b)
				}
				restKey := rest.key()
				k := lz.keyOf(uint32(mi), subs, full, restKey)
				if lz.groundPre {
					k = lz.keyOf(uint32(mi), subs, full, []int32{-1}, factIDs(pre), []int32{-1}, factIDs(neg), restKey)
				}
				if seen[string(k)] {
					return true
				}
				seen[string(k)] = true
				for _, st := range subs {
					if !lz.mayApply(st, gone) {
						return true
					}
				}
				if accepted++; accepted <= skip {
					return true
				}
				if limit > 0 && len(out) == limit {
					more = true
					return false
				}
				out = append(out, LazyMethod{Method: mi, Subtasks: subs, Args: full, Pre: pre, NegPre: neg, Rest: rest})
				return true
			}
			bd.run()
			if err != nil {
				return nil, false, err
			}
			if e := lz.ctx.Err(); e != nil {
				return nil, false, e
			}
			if more {
				break
			}
		}
	}
	return out, more, nil
}

// subtasks returns the ground subtasks of method mi under binding b: all
// of them, or those before the first with a variable b leaves open and
// the rest from there (deferFree).
func (lz *Lazy) subtasks(mi int, b []int32) ([]int32, *NetRest) {
	m := &lz.d.Methods[mi]
	subs := make([]int32, 0, len(m.Network.Subtasks))
	args := make([]int32, 0, 8)
	for k, st := range m.Network.Subtasks {
		args = args[:0]
		for _, a := range st.Args {
			args = append(args, lz.term(a, b))
		}
		if slices.Contains(args, -1) {
			return subs, &NetRest{Method: mi, From: k, Sub: slices.Clone(b)}
		}
		subs = append(subs, lz.internTask(st.Task, args))
	}
	return subs, nil
}

// groundLits returns the fluent facts of a schema's atoms and negated
// atoms under binding b, which binds all their variables (the binder
// joins every atom, and markFilterVars has the negated atoms' variables
// bound).
func (lz *Lazy) groundLits(sc *lazySchema, b []int32) (pre, neg []FactID) {
	tup := make([]int32, 0, 8)
	ground := func(l lit) FactID {
		tup = tup[:0]
		for _, a := range l.args {
			tup = append(tup, lz.term(a, b))
		}
		return lz.intern(l.pred, tup)
	}
	for _, l := range sc.pos {
		if !lz.static[l.pred] {
			pre = append(pre, ground(l))
		}
	}
	for _, l := range sc.neg {
		if !lz.static[l.pred] {
			neg = append(neg, ground(l))
		}
	}
	return sets.Dedup(pre), sets.Dedup(neg)
}

// factIDs views facts as int32s, for keyOf.
func factIDs(fs []FactID) []int32 {
	out := make([]int32, len(fs))
	for i, f := range fs {
		out[i] = int32(f)
	}
	return out
}

// markFilterVars marks the variables of a schema's negated atoms and
// equalities as needed: an existential variable that only they mention
// must still have a value that satisfies them.
func markFilterVars(s *lazySchema, need []bool) {
	for _, ls := range [][]lit{s.neg, s.eq} {
		for _, l := range ls {
			for _, a := range l.args {
				if a.IsVar() {
					need[a.Var()] = true
				}
			}
		}
	}
}

// anyState marks as needed the variables of a query's atoms, for an
// instance made for any state (Methods without a state): where no state
// binds them, they are joined over the reachable facts (binder.scan) or
// else bound over their types, never left open, as the instance's ground
// precondition is checked where its subtasks begin.
func anyState(s *lazySchema, need []bool) {
	for _, l := range s.pos {
		for _, a := range l.args {
			if a.IsVar() {
				need[a.Var()] = true
			}
		}
	}
	markFilterVars(s, need)
}

// head binds a method's variables to the arguments of the task it
// decomposes; false when they cannot match.
func (lz *Lazy) head(m *hddl.Method, s *lazySchema, args []int32) ([]int32, bool) {
	b := make([]int32, len(m.Vars))
	for i := range b {
		b[i] = -1
	}
	for i, a := range m.TaskArgs {
		o := args[i]
		if o < 0 {
			continue // open: the instance binds it
		}
		if !a.IsVar() {
			if int32(a.Obj()) != o {
				return nil, false
			}
			continue
		}
		v := a.Var()
		if b[v] >= 0 && b[v] != o || !lz.isOfType(int(o), s.vars[v].Type) {
			return nil, false
		}
		b[v] = o
	}
	return b, true
}

// mayApply reports whether a subtask may still be achieved: an action
// whose static preconditions hold and whose facts that no action adds
// hold now; a compound task with a method whose static precondition can
// hold (computed once per task).
func (lz *Lazy) mayApply(id int32, s *State) bool {
	t := &lz.tasks[id]
	if t.Ref.Primitive {
		a := lz.action(id)
		if a.never {
			return false
		}
		if a.exists {
			return true
		}
		for _, f := range a.pre {
			if !lz.holds(f, s) && !lz.addableFact(f) {
				return false
			}
		}
		return true
	}
	if p, ok := lz.possible[id]; ok {
		return p
	}
	if lz.feasAdaptive && (lz.feasAsked >= feasTrial && lz.feasTicks*2 > lz.ticks && lz.feasNo*8 < lz.feasAsked ||
		lz.feasGaveUps >= feasGiveUps && lz.feasGaveUps > 2*lz.feasNo) {
		return true // the questions cost more than they tell
	}
	start := lz.ticks
	targs := make([]int32, len(t.Args))
	for i, a := range t.Args {
		targs[i] = int32(a)
	}
	lz.feasSteps, lz.feasGaveUp = 0, false
	outer := lz.feasEnd
	if outer == 0 {
		lz.feasEnd = lz.ticks + maxFeasTicks
	}
	p := lz.feasible(t.Ref, targs, 0)
	lz.feasEnd = outer
	if outer == 0 {
		lz.feasAsked++
		lz.feasTicks += lz.ticks - start
		if !p {
			lz.feasNo++
		}
		if lz.feasGaveUp {
			lz.feasGaveUps++
		}
	}
	if !lz.stopped {
		lz.possible[id] = p
	}
	return p
}

// feasGiveUps is the number of feasibility questions given up at their
// work bound after which a Lazy with feasAdaptive stops asking them, when
// they outnumber twice those answered no: each costs maxFeasTicks join
// steps, and the sixteen of feasTrial took 20 s of IPC 2023 Snake
// pb-2slots' 23 s.
const feasGiveUps = 3

// feasTrial is the number of feasibility questions (mayApply) after which
// a Lazy with feasAdaptive stops asking them when they have taken more
// than half of its join steps and fewer than one in eight answered no
// (IPC 2023 Snake pb-2slots: 93% of 30 s of search in them, 617 search
// nodes; most give up at their work bound, which answers yes).
const feasTrial = 16

// maxFeasSteps bounds the work of one feasibility question (feasible):
// beyond it the answer is yes.
const maxFeasSteps = 200_000

// maxFeasTicks bounds the join steps of one feasibility question, where
// maxFeasSteps counts only the tasks it looks into: a task whose
// methods join long lists of static facts for each binding of its
// arguments (IPC 2023 Snake: a move between two cells, by any
// neighbour, of a snake whose body cells are bound too) took minutes
// within maxFeasSteps. Beyond it the answer is yes.
const maxFeasTicks = 1 << 22

// maxFeasDepth bounds the nesting of feasibility questions, and so the
// stack: deeper, the answer is yes.
const maxFeasDepth = 4096

// feasible reports whether a task (args -1: any value) has a
// decomposition into actions whose static preconditions can hold: a
// method whose static precondition holds, each of whose subtasks is
// feasible in turn (the fluent preconditions are taken as satisfiable,
// and the subtasks each on its own: an over-approximation, so that an
// infeasible task truly has no plan). It is the bottom-up reachability of
// the grounder, computed on demand for the tasks the search meets, with
// the answers kept: e.g. a trip to a place that no road leads to is
// found to have no decomposition before the search tries one. A task met
// again below itself is taken as infeasible there (a decomposition tree
// is finite); answers that depended on such an assumption about a task
// higher up are not kept. Past maxFeasSteps (or maxFeasDepth) the answer
// is yes.
func (lz *Lazy) feasible(ref hddl.TaskRef, args []int32, depth int) bool {
	if lz.feasAdaptive {
		// a look-up is work too: a binding that meets only answers
		// kept costs no join step, and millions of them took minutes
		// within maxFeasTicks (IPC 2023 Snake pb-8slots, the first task)
		if lz.ticks++; lz.feasEnd > 0 && lz.ticks > lz.feasEnd {
			lz.feasGaveUp = true
			return true
		}
	}
	// look-ups alone can run for long between joins' looks at ctx
	if lz.looks++; lz.looks&4095 == 0 && lz.ctx.Err() != nil {
		lz.stopped = true
	}
	key := string(lz.keyOf(taskHead(ref), args))
	if v, ok := lz.feas[key]; ok {
		return v
	}
	if d, ok := lz.feasOpen[key]; ok {
		lz.feasLow = min(lz.feasLow, d)
		return false
	}
	if lz.feasSteps++; lz.feasSteps > maxFeasSteps || depth > maxFeasDepth || lz.feasGaveUp || lz.stopped {
		lz.feasGaveUp = true
		return true
	}
	if ref.Primitive {
		sc := lz.actions[ref.Index]
		ok := sc != nil && lz.staticBinding(sc, args, func(b []int32) bool { return lz.fluentsMayHold(sc, b) })
		lz.feas[key] = ok
		return ok
	}
	lz.feasOpen[key] = depth
	outerLow := lz.feasLow
	lz.feasLow = depth + 1
	found := false
	for _, mi := range lz.methodsOf[ref.Index] {
		m := &lz.d.Methods[mi]
		for _, sc := range lz.methods[mi] {
			b, ok := lz.head(m, sc, args)
			if !ok {
				continue
			}
			found = lz.staticBinding(sc, nil, func(b []int32) bool {
				if !lz.fluentsMayHold(sc, b) {
					return false
				}
				for _, st := range m.Network.Subtasks {
					sargs := make([]int32, len(st.Args))
					for i, a := range st.Args {
						sargs[i] = lz.term(a, b)
					}
					if !lz.feasible(st.Task, sargs, depth+1) {
						return false
					}
				}
				return true
			}, b...)
			if found {
				break
			}
		}
		if found {
			break
		}
	}
	delete(lz.feasOpen, key)
	if found || lz.feasGaveUp || lz.feasLow > depth {
		// yes, or no without an assumption about a task higher up
		lz.feas[key] = found || lz.feasGaveUp
	}
	lz.feasLow = min(outerLow, lz.feasLow)
	return found || lz.feasGaveUp
}

// staticBinding reports whether schema sc has a binding of its variables
// that satisfies its static precondition and accept (nil: any), starting
// from the parameters args (-1: unbound) or, when args is nil, from the
// full binding start.
func (lz *Lazy) staticBinding(sc *lazySchema, args []int32, accept func([]int32) bool, start ...int32) bool {
	b := start
	if b == nil {
		b = make([]int32, len(sc.vars))
		for i := range b {
			b[i] = -1
		}
		for i, o := range args {
			if o >= 0 {
				if !lz.isOfType(int(o), sc.vars[i].Type) {
					return false
				}
				b[i] = o
			}
		}
	}
	found := false
	bd := &binder{lz: lz, s: sc, b: b, need: make([]bool, len(sc.vars)), done: make([]bool, len(sc.pos))}
	bd.yield = func(b []int32) bool {
		if accept == nil || accept(b) {
			found = true
			return false
		}
		return !lz.feasGaveUp
	}
	bd.run()
	return found
}

// action returns the ground action of primitive task id, made once.
func (lz *Lazy) action(id int32) *lazyAction {
	if a, ok := lz.acts[id]; ok {
		return a
	}
	t := &lz.tasks[id]
	s := lz.actions[t.Ref.Index]
	a := &lazyAction{schema: t.Ref.Index}
	lz.acts[id] = a
	if s == nil {
		a.never = true
		return a
	}
	b := make([]int32, len(s.vars))
	for i := range b {
		b[i] = -1
	}
	for i, o := range t.Args {
		b[i] = int32(o)
	}
	a.exists = usesVarsFrom(s, len(t.Args))
	if !a.exists {
		tup := make([]int32, 0, 8)
		groundLit := func(l lit) []int32 {
			tup = tup[:0]
			for _, x := range l.args {
				tup = append(tup, lz.term(x, b))
			}
			return tup
		}
		for _, l := range s.eq {
			x, y := lz.term(l.args[0], b), lz.term(l.args[1], b)
			if (x == y) == l.neg {
				a.never = true
			}
		}
		for _, l := range s.pos {
			f := lz.intern(l.pred, groundLit(l))
			if lz.static[l.pred] {
				if !lz.staticOn[f] {
					a.never = true
				}
				continue
			}
			a.pre = append(a.pre, f)
		}
		for _, l := range s.neg {
			f := lz.intern(l.pred, groundLit(l))
			if lz.static[l.pred] {
				if lz.staticOn[f] {
					a.never = true
				}
				continue
			}
			a.neg = append(a.neg, f)
		}
	} else {
		// the static part of a query with existential variables
		bd := &binder{lz: lz, s: s, b: b, need: make([]bool, len(s.vars)), done: make([]bool, len(s.pos))}
		found := false
		bd.yield = func([]int32) bool { found = true; return false }
		bd.run()
		a.never = !found
	}
	tup := make([]int32, 0, 8)
	for _, e := range s.effects {
		tup = tup[:0]
		for _, x := range e.args {
			tup = append(tup, lz.term(x, b))
		}
		f := lz.intern(e.pred, tup)
		if e.del {
			a.del = append(a.del, f)
		} else {
			a.add = append(a.add, f)
		}
	}
	return a
}

// Goal reports whether the problem's goal holds in s.
func (lz *Lazy) Goal(s *State) bool {
	if lz.goal == nil {
		return true
	}
	for _, sc := range lz.goal {
		b := make([]int32, len(sc.vars))
		for i := range b {
			b[i] = -1
		}
		bd := &binder{lz: lz, s: sc, b: b, state: s, need: make([]bool, len(sc.vars)), done: make([]bool, len(sc.pos))}
		markFilterVars(sc, bd.need)
		found := false
		bd.yield = func([]int32) bool { found = true; return false }
		bd.run()
		if found {
			return true
		}
	}
	return false
}

// usesVarsFrom reports whether a literal of s has a variable numbered n or
// above (an existential one, for an action with n parameters).
func usesVarsFrom(s *lazySchema, n int) bool {
	for _, ls := range [][]lit{s.pos, s.neg, s.eq} {
		for _, l := range ls {
			for _, a := range l.args {
				if a.IsVar() && a.Var() >= n {
					return true
				}
			}
		}
	}
	return false
}

// instantiable reports whether every parameter of m has an object of its
// type: one without has no instance at all, even where nothing uses it
// (the binder binds only the variables something uses).
func (lz *Lazy) instantiable(m *hddl.Method) bool {
	for _, v := range m.Params() {
		if len(lz.objectsOf(v.Type)) == 0 {
			return false
		}
	}
	return true
}
