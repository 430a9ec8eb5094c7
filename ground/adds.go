package ground

import (
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// effectPattern is a fact some decomposition of a lifted task may add
// (or delete), with its arguments as far as the task's own tell them:
// args[i] >= 0 is the task's parameter args[i], localArg(j) a variable
// of a method below (the same j, the same object), anyArg any object,
// and another negative value an object (-1-object). needs are facts of
// one-way predicates (deleted, never added) a method on the way to the
// effect needs, over the same arguments: false now, they stay false, and
// the effect cannot come that way. guards are conditions on the task's
// own arguments the way to the effect needs (a method's task naming one
// variable twice, or its precondition an equality).
type effectPattern struct {
	pred   int32
	del    bool
	args   []int32
	needs  []needAtom
	guards []argGuard
}

// argGuard asks that two arguments be equal (or, neq, differ), each a
// parameter of the task (>= 0) or an object (-1-object).
type argGuard struct {
	a, b int32
	neq  bool
}

// holds reports whether the guard may hold under the task's arguments
// arg(i) (-1: open).
func (g argGuard) holds(arg func(i int) int32) bool {
	x, y := guardArg(g.a, arg), guardArg(g.b, arg)
	if x < 0 || y < 0 {
		return true
	}
	return (x == y) != g.neq
}

// guardArg is argument a (a parameter or an object) under the task's
// arguments arg(i) (-1: open).
func guardArg(a int32, arg func(i int) int32) int32 {
	if a < 0 {
		return -1 - a
	}
	return arg(int(a))
}

// newGuard returns the guard that arguments a and b be equal (differ),
// both already in a pattern's terms; ok false when it cannot hold (two
// objects), keep false when it always holds or is not one of the task's
// own arguments (a local or any: left out, the pattern only wider).
func newGuard(a, b int32, neq bool) (g argGuard, keep, ok bool) {
	own := func(x int32) bool { return x != anyArg && !isLocal(x) }
	if !own(a) || !own(b) {
		return argGuard{}, false, true
	}
	if a == b {
		return argGuard{}, false, !neq
	}
	if a < 0 && b < 0 {
		return argGuard{}, false, neq
	}
	if a > b {
		a, b = b, a
	}
	return argGuard{a: a, b: b, neq: neq}, true, true
}

// needAtom is a fact an effectPattern needs.
type needAtom struct {
	pred int32
	args []int32
}

// anyArg stands for an argument a task's parameters do not fix.
const anyArg = int32(-1 << 30)

// maxLocals bounds the method variables a pattern tells apart.
const maxLocals = 64

func localArg(j int) int32 { return anyArg + 1 + int32(j) }

func isLocal(a int32) bool { return a > anyArg && a <= anyArg+maxLocals }

// maxEffectPatterns bounds the patterns of one task: beyond, a pattern is
// widened to its predicate alone (any arguments, no needs).
const maxEffectPatterns = 512

// liftedEffects are the effect patterns of every lifted task: for a
// compound task, the union over its methods of their subtasks' patterns,
// each argument carried through the method's variables to the task's
// parameters where it can be, to a fixpoint. They over-approximate what
// any ground instance can make true or false below it: a ground task
// whose patterns do not match a fact can never add (delete) it, and one
// whose matching patterns all need a one-way fact false in a state can
// never add it from there. That is what the search over a growing task
// needs to tell a goal lost for good without grounding the task's
// decompositions.
type liftedEffects struct {
	lz   *Lazy
	act  [][]effectPattern // by lifted action
	task [][]effectPattern // by compound task
	seen []map[string]bool // by compound task: the keys of its patterns
}

// oneWay reports whether predicate p is deleted but never added.
func (lz *Lazy) oneWay(p int) bool { return lz.deleted[p] && !lz.added[p] }

// newLiftedEffects computes the effect patterns of the domain of lz.
func newLiftedEffects(lz *Lazy) *liftedEffects {
	d := lz.d
	le := &liftedEffects{lz: lz, act: make([][]effectPattern, len(d.Actions)), task: make([][]effectPattern, len(d.Tasks)), seen: make([]map[string]bool, len(d.Tasks))}
	for i := range le.seen {
		le.seen[i] = map[string]bool{}
	}
	for ai, s := range lz.actions {
		if s == nil {
			continue // never applicable
		}
		np := d.Actions[ai].NumParams
		key := map[string]bool{}
		for _, e := range s.effects {
			c := newComposer(func(t hddl.Term) (int32, int) {
				switch {
				case !t.IsVar():
					return int32(-1 - t.Obj()), -1
				case t.Var() < np:
					return int32(t.Var()), -1
				}
				return 0, t.Var()
			})
			p := effectPattern{pred: int32(e.pred), del: e.del, args: make([]int32, len(e.args))}
			for i, t := range e.args {
				p.args[i] = c.term(t)
			}
			p.needs = c.needs(lz, s, nil)
			var ok bool
			if p.guards, ok = c.eqGuards(s, nil); !ok {
				continue
			}
			p.canon()
			if k := p.key(); !key[k] {
				key[k] = true
				le.act[ai] = append(le.act[ai], p)
			}
		}
	}
	// up the hierarchy to a fixpoint: patterns are only added, and
	// there are finitely many of them
	scopes := make([]*methodScope, len(d.Methods))
	for mi := range d.Methods {
		if len(lz.methods[mi]) > 0 { // else never applicable
			scopes[mi] = newMethodScope(lz, mi)
		}
	}
	for changed := true; changed; {
		changed = false
		for mi := range d.Methods {
			ms := scopes[mi]
			if ms == nil || !ms.possible {
				continue
			}
			m := &d.Methods[mi]
			for _, st := range m.Network.Subtasks {
				var from []effectPattern
				if st.Task.Primitive {
					from = le.act[st.Task.Index]
				} else {
					from = le.task[st.Task.Index]
				}
				for _, q := range from {
					p, ok := le.lift(q, st, ms)
					if ok && le.add(m.Task, p) {
						changed = true
					}
				}
			}
		}
	}
	return le
}

// methodScope is what carrying a pattern up through a method needs: the
// task's parameter each method variable is (or -1), the method's
// precondition (nil for a disjunction) and its conditions on the task's
// arguments (possible false when they can never hold).
type methodScope struct {
	param    []int32
	sc       *lazySchema
	guards   []argGuard
	possible bool
}

func newMethodScope(lz *Lazy, mi int) *methodScope {
	m := &lz.d.Methods[mi]
	ms := &methodScope{param: make([]int32, len(m.Vars)), possible: true}
	for i := range ms.param {
		ms.param[i] = -1
	}
	// the method's task names a variable twice, or an object
	for j, t := range m.TaskArgs {
		var g argGuard
		keep, ok := false, true
		switch {
		case !t.IsVar():
			g, keep, ok = newGuard(int32(j), int32(-1-t.Obj()), false)
		case ms.param[t.Var()] < 0:
			ms.param[t.Var()] = int32(j)
		default:
			g, keep, ok = newGuard(ms.param[t.Var()], int32(j), false)
		}
		ms.possible = ms.possible && ok
		if keep {
			ms.guards = append(ms.guards, g)
		}
	}
	if len(lz.methods[mi]) == 1 {
		ms.sc = lz.methods[mi][0]
		// and the equalities of its precondition over the task's
		// arguments
		var ok bool
		ms.guards, ok = newComposer(ms.scope).eqGuards(ms.sc, ms.guards)
		ms.possible = ms.possible && ok
	}
	return ms
}

// scope maps a method's term to the task's parameter or object it is,
// or to a variable of the method's own.
func (ms *methodScope) scope(t hddl.Term) (int32, int) {
	switch {
	case !t.IsVar():
		return int32(-1 - t.Obj()), -1
	case ms.param[t.Var()] >= 0:
		return ms.param[t.Var()], -1
	}
	return 0, t.Var()
}

// lift carries pattern q of subtask st of a method (ms) up to the
// method's task; false when the pattern's guards cannot hold there.
func (le *liftedEffects) lift(q effectPattern, st hddl.Subtask, ms *methodScope) (effectPattern, bool) {
	c := newComposer(ms.scope)
	old := map[int32]int32{}
	conv := func(a int32) int32 {
		switch {
		case a == anyArg:
			return anyArg
		case isLocal(a):
			if x, ok := old[a]; ok {
				return x
			}
			x := c.fresh()
			old[a] = x
			return x
		case a < 0:
			return a
		}
		return c.term(st.Args[a])
	}
	p := effectPattern{pred: q.pred, del: q.del, args: make([]int32, len(q.args))}
	for i, a := range q.args {
		p.args[i] = conv(a)
	}
	for _, n := range q.needs {
		na := needAtom{pred: n.pred, args: make([]int32, len(n.args))}
		for i, a := range n.args {
			na.args[i] = conv(a)
		}
		p.needs = append(p.needs, na)
	}
	if ms.sc != nil {
		p.needs = c.needs(le.lz, ms.sc, p.needs)
	}
	p.guards = append(p.guards, ms.guards...)
	for _, g := range q.guards {
		ng, keep, ok := newGuard(guardConv(g.a, conv), guardConv(g.b, conv), g.neq)
		if !ok {
			return effectPattern{}, false
		}
		if keep {
			p.guards = append(p.guards, ng)
		}
	}
	p.canon()
	return p, true
}

// guardConv carries a guard's argument a (a parameter, or an object) up
// as conv does a pattern's.
func guardConv(a int32, conv func(int32) int32) int32 {
	if a < 0 {
		return a
	}
	return conv(a)
}

// eqGuards appends to gs the equalities and inequalities of sc's
// precondition between arguments the pattern's scope has (parameters or
// objects); false when one between two objects fails.
func (c *composer) eqGuards(sc *lazySchema, gs []argGuard) ([]argGuard, bool) {
	for _, l := range sc.eq {
		x, vx := c.scope(l.args[0])
		y, vy := c.scope(l.args[1])
		if vx >= 0 || vy >= 0 {
			continue
		}
		g, keep, ok := newGuard(x, y, l.neg)
		if !ok {
			return gs, false
		}
		if keep {
			gs = append(gs, g)
		}
	}
	return gs, true
}

// add adds pattern p to compound task t's, unless it has it; beyond
// maxEffectPatterns, p widened to its predicate alone.
func (le *liftedEffects) add(t int, p effectPattern) bool {
	if len(le.task[t]) >= maxEffectPatterns {
		p = effectPattern{pred: p.pred, del: p.del, args: slices.Repeat([]int32{anyArg}, len(p.args))}
	}
	k := p.key()
	if le.seen[t][k] {
		return false
	}
	le.seen[t][k] = true
	le.task[t] = append(le.task[t], p)
	return true
}

// composer maps a scope's terms into a pattern's arguments: an object or
// parameter as its scope tells, any other variable to a local of the
// pattern, the same for the same variable.
type composer struct {
	scope  func(hddl.Term) (int32, int) // the argument, or -1 and a variable for a local
	locals map[int]int32
	n      int
}

func newComposer(scope func(hddl.Term) (int32, int)) *composer {
	return &composer{scope: scope, locals: map[int]int32{}}
}

func (c *composer) fresh() int32 {
	if c.n >= maxLocals {
		return anyArg
	}
	c.n++
	return localArg(c.n - 1)
}

func (c *composer) term(t hddl.Term) int32 {
	a, v := c.scope(t)
	if v < 0 {
		return a
	}
	if x, ok := c.locals[v]; ok {
		return x
	}
	x := c.fresh()
	c.locals[v] = x
	return x
}

// needs appends to ns the atoms of one-way predicates in sc's
// precondition whose variables the pattern already has.
func (c *composer) needs(lz *Lazy, sc *lazySchema, ns []needAtom) []needAtom {
	for _, l := range sc.pos {
		if !lz.oneWay(l.pred) {
			continue
		}
		na := needAtom{pred: int32(l.pred), args: make([]int32, len(l.args))}
		ok := true
		for i, t := range l.args {
			a, v := c.scope(t)
			if v >= 0 {
				x, in := c.locals[v]
				if !in {
					ok = false
					break
				}
				a = x
			}
			na.args[i] = a
		}
		if ok {
			ns = append(ns, na)
		}
	}
	return ns
}

// canon puts a pattern in a canonical form: needs sorted without
// repeats, a local met once anyArg (a need with one dropped), locals
// numbered in order of appearance.
func (p *effectPattern) canon() {
	count := map[int32]int{}
	for _, a := range p.args {
		count[a]++
	}
	for _, n := range p.needs {
		for _, a := range n.args {
			count[a]++
		}
	}
	renum := map[int32]int32{}
	conv := func(a int32) int32 {
		if !isLocal(a) {
			return a
		}
		if count[a] < 2 {
			return anyArg
		}
		if x, ok := renum[a]; ok {
			return x
		}
		x := localArg(len(renum))
		renum[a] = x
		return x
	}
	for i, a := range p.args {
		p.args[i] = conv(a)
	}
	needs := p.needs[:0]
	for _, n := range p.needs {
		keep := true
		for i, a := range n.args {
			if n.args[i] = conv(a); n.args[i] == anyArg {
				keep = false
			}
		}
		if keep {
			needs = append(needs, n)
		}
	}
	slices.SortFunc(needs, func(x, y needAtom) int {
		if x.pred != y.pred {
			return int(x.pred - y.pred)
		}
		return slices.Compare(x.args, y.args)
	})
	p.needs = slices.CompactFunc(needs, func(x, y needAtom) bool { return x.pred == y.pred && slices.Equal(x.args, y.args) })
	if len(p.needs) == 0 {
		p.needs = nil
	}
	slices.SortFunc(p.guards, func(x, y argGuard) int {
		switch {
		case x.a != y.a:
			return int(x.a - y.a)
		case x.b != y.b:
			return int(x.b - y.b)
		case x.neq != y.neq:
			if x.neq {
				return 1
			}
			return -1
		}
		return 0
	})
	p.guards = slices.Compact(p.guards)
	if len(p.guards) == 0 {
		p.guards = nil
	}
}

func (p *effectPattern) key() string {
	b := make([]byte, 0, 8+4*len(p.args))
	put := func(x int32) { b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24)) }
	put(p.pred)
	if p.del {
		put(1)
	} else {
		put(0)
	}
	for _, a := range p.args {
		put(a)
	}
	for _, n := range p.needs {
		put(-2)
		put(n.pred)
		for _, a := range n.args {
			put(a)
		}
	}
	for _, g := range p.guards {
		if g.neq {
			put(-4)
		} else {
			put(-3)
		}
		put(g.a)
		put(g.b)
	}
	return string(b)
}

// of returns the patterns of a lifted task.
func (le *liftedEffects) of(ref hddl.TaskRef) []effectPattern {
	if ref.Primitive {
		return le.act[ref.Index]
	}
	return le.task[ref.Index]
}

// matches reports whether fact f fits the pattern under the task's
// arguments arg(i) (-1: open), binding its locals into loc (maxLocals
// entries, -1: unbound; nil: not kept).
func (p *effectPattern) matches(arg func(i int) int32, f *Fact, loc []int32) bool {
	for _, g := range p.guards {
		if !g.holds(arg) {
			return false
		}
	}
	var own [maxLocals]int32
	if loc == nil {
		loc = own[:]
	}
	// only the locals the pattern names are read (by needsHold too):
	// reset those
	for _, a := range p.args {
		if isLocal(a) {
			loc[a-anyArg-1] = -1
		}
	}
	for _, n := range p.needs {
		for _, a := range n.args {
			if isLocal(a) {
				loc[a-anyArg-1] = -1
			}
		}
	}
	for i, a := range p.args {
		o := int32(f.Args[i])
		switch {
		case a == anyArg:
		case isLocal(a):
			j := a - anyArg - 1
			if loc[j] >= 0 && loc[j] != o {
				return false
			}
			loc[j] = o
		case a < 0:
			if -1-a != o {
				return false
			}
		default:
			if x := arg(int(a)); x >= 0 && x != o {
				return false
			}
		}
	}
	return true
}

// needsHold reports whether the pattern's needs may hold in state s,
// under the task's arguments arg(i) and the locals loc its match bound:
// a need with an argument not known is taken to.
func (lz *Lazy) needsHold(p *effectPattern, arg func(i int) int32, loc []int32, s *State) bool {
	var tup [8]int32
	for _, n := range p.needs {
		args := tup[:0]
		known := true
		for _, a := range n.args {
			var o int32
			switch {
			case isLocal(a):
				o = loc[a-anyArg-1]
			case a < 0:
				o = -1 - a
			default:
				o = arg(int(a))
			}
			if o < 0 {
				known = false
				break
			}
			args = append(args, o)
		}
		if !known {
			continue
		}
		if f := lz.find(int(n.pred), args); f < 0 || !s.Has(f) {
			return false
		}
	}
	return true
}

// addable reports whether some action may add the fact pred(args): an
// add effect of its predicate whose constants are its own and whose
// variables' types admit its objects (a finer look than Lazy.added, per
// predicate: in IPC Depots, a truck's drive adds at, which no pallet can
// ever be), and, where reachability was run (reach), a fact it reaches.
// Answers for facts made are kept.
func (lz *Lazy) addable(pred int, args []int32) bool {
	if lz.reach != nil {
		if _, ok := lz.reach[pred].find(args); !ok {
			return false
		}
	}
	if lz.addAny(pred) {
		return true
	}
	f := lz.find(pred, args)
	if f >= 0 && int(f) < len(lz.addOK) && lz.addOK[f] != 0 {
		return lz.addOK[f] > 0
	}
	ok := false
	if lz.added[pred] {
		for _, s := range lz.actions {
			if s != nil && slices.ContainsFunc(s.effects, func(e effect) bool { return !e.del && lz.effectFits(s, e, pred, args) }) {
				ok = true
				break
			}
		}
	}
	if f >= 0 {
		for len(lz.addOK) <= int(f) {
			lz.addOK = append(lz.addOK, 0)
		}
		lz.addOK[f] = -1
		if ok {
			lz.addOK[f] = 1
		}
	}
	return ok
}

// addAny reports whether some action may add predicate p for any
// objects of its parameters' types: an add effect whose arguments are
// distinct variables, each of a type the parameter's type is below (then
// addable need not look at a fact's objects).
func (lz *Lazy) addAny(p int) bool {
	if lz.addAnyOf == nil {
		lz.addAnyOf = make([]int8, len(lz.d.Predicates))
	}
	if lz.addAnyOf[p] != 0 {
		return lz.addAnyOf[p] > 0
	}
	params := lz.d.Predicates[p].Params
	covers := func(s *lazySchema, e effect) bool {
		if e.del || e.pred != p {
			return false
		}
		for i, t := range e.args {
			if !t.IsVar() || slices.Contains(e.args[:i], t) || !lz.d.IsSubtype(params[i].Type, s.vars[t.Var()].Type) {
				return false
			}
		}
		return true
	}
	lz.addAnyOf[p] = -1
	for _, s := range lz.actions {
		if s != nil && slices.ContainsFunc(s.effects, func(e effect) bool { return covers(s, e) }) {
			lz.addAnyOf[p] = 1
			break
		}
	}
	return lz.addAnyOf[p] > 0
}

// addableFact is addable for a fact made.
func (lz *Lazy) addableFact(f FactID) bool {
	if lz.reach == nil && lz.addAny(lz.facts[f].Pred) {
		return true
	}
	if int(f) < len(lz.addOK) && lz.addOK[f] != 0 {
		return lz.addOK[f] > 0
	}
	fact := &lz.facts[f]
	args := make([]int32, len(fact.Args))
	for i, o := range fact.Args {
		args[i] = int32(o)
	}
	return lz.addable(fact.Pred, args)
}

// effectFits reports whether effect e of action schema s may be the fact
// pred(args): its predicate, its constants, its variables of the
// objects' types, one object per variable.
func (lz *Lazy) effectFits(s *lazySchema, e effect, pred int, args []int32) bool {
	if e.pred != pred {
		return false
	}
	for i, t := range e.args {
		o := args[i]
		if !t.IsVar() {
			if int32(t.Obj()) != o {
				return false
			}
			continue
		}
		if !lz.isOfType(int(o), s.vars[t.Var()].Type) {
			return false
		}
		for j := range i {
			if e.args[j] == t && args[j] != o {
				return false
			}
		}
	}
	return true
}

// fluentsMayHold reports whether the fluent atoms of schema sc's
// precondition that binding b grounds may each ever hold: in the initial
// state, or addable.
func (lz *Lazy) fluentsMayHold(sc *lazySchema, b []int32) bool {
	if lz.initOn == nil {
		lz.initOn = map[FactID]bool{}
		for _, g := range lz.init {
			lz.initOn[g] = true
		}
	}
	var tup [8]int32
	for _, l := range sc.pos {
		if lz.static[l.pred] || lz.reach == nil && lz.addAny(l.pred) {
			continue
		}
		args := tup[:0]
		bound := true
		for _, a := range l.args {
			v := lz.term(a, b)
			if v < 0 {
				bound = false // a variable no static atom binds
				break
			}
			args = append(args, v)
		}
		if !bound {
			continue
		}
		if f := lz.find(l.pred, args); f >= 0 && lz.initOn[f] {
			continue
		}
		if !lz.addable(l.pred, args) {
			return false
		}
	}
	return true
}
