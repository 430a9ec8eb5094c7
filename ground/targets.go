package ground

import (
	"encoding/binary"
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// Targets over a growing task: what a recursive task is for, and how
// near to it a method takes the state, read off the lifted domain (the
// search over a whole ground task reads them off its ground actions:
// htn's target order).
//
// A lifted task of a cycle of the task graph that one of its methods ends
// at once (a method without subtasks) is done when that method's
// precondition holds: its fluent atoms, under a ground task's arguments,
// are the task's targets (IPC Logistics-Learned: (ACHIEVE-AT0 p l) ends
// when (AT p l) holds). A fact's distance to them is the fewest
// transitions from it to one of them, breadth first backwards: a lifted
// action whose precondition has an atom it deletes moves from each
// instance of that atom to the matching instance of each atom it adds,
// under the bindings of its other variables its static precondition
// allows ((IN p t) to (AT p l) by unloading t at l, for each truck t
// whose unloading at l the static facts allow). A method's distance is
// the least over the facts its subtasks outside the task's cycle may add
// (their actions' effects, or the lifted effect patterns of compound
// ones: liftedEffects).

// Unreached is the distance (Grow.Distance) of a method whose subtasks
// add no fact near the targets.
const Unreached = 1 << 30

// maxTargetFacts bounds the facts whose distance to a task's targets is
// counted (those further count as unreached), and maxTargetSteps the
// bindings the backward pass enumerates for one task's targets.
const (
	maxTargetFacts = 1 << 12
	maxTargetSteps = 1 << 18
)

// Targets are the targets of a recursive task of a growing task, with the
// facts near them.
type Targets struct {
	task int        // the lifted compound task
	near []nearFact // nearest first
	// dist by fact key (Lazy.factKeyOf)
	dist map[string]int32
}

type nearFact struct {
	f Fact
	d int32
}

// liftedTargets is what Grow.Targets needs of the lifted domain, made
// when first asked.
type liftedTargets struct {
	// reach[a][b]: compound task b lies below compound task a (through
	// one method or more)
	reach [][]bool
	// ends[a]: the methods of compound task a without subtasks, when a
	// is recursive (nil else)
	ends [][]int
	// into[p]: the lifted transitions into an atom of predicate p
	into [][]transition
	// of holds the targets of ground tasks met, by key (nil: none),
	// and byCompound the answer for each compound task asked about
	of         map[string]*Targets
	byCompound []knownTargets
}

// transition: action act moves from its precondition atom from (which it
// deletes) to its add effect to.
type transition struct {
	act  int
	from lit
	to   effect
}

// newLiftedTargets indexes the task graph and the transitions of lz's
// domain.
func newLiftedTargets(lz *Lazy) *liftedTargets {
	d := lz.d
	n := len(d.Tasks)
	lt := &liftedTargets{reach: make([][]bool, n), ends: make([][]int, n), into: make([][]transition, len(d.Predicates)), of: map[string]*Targets{}}
	below := make([][]int, n)
	for mi := range d.Methods {
		m := &d.Methods[mi]
		for _, st := range m.Network.Subtasks {
			if !st.Task.Primitive && !slices.Contains(below[m.Task], st.Task.Index) {
				below[m.Task] = append(below[m.Task], st.Task.Index)
			}
		}
	}
	for a := range n {
		r := make([]bool, n)
		stack := slices.Clone(below[a])
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !r[b] {
				r[b] = true
				stack = append(stack, below[b]...)
			}
		}
		lt.reach[a] = r
	}
	for mi := range d.Methods {
		m := &d.Methods[mi]
		if len(m.Network.Subtasks) == 0 && lt.reach[m.Task][m.Task] && len(lz.methods[mi]) > 0 {
			lt.ends[m.Task] = append(lt.ends[m.Task], mi)
		}
	}
	for ai, sc := range lz.actions {
		if sc == nil {
			continue
		}
		for _, from := range sc.pos {
			deleted := slices.ContainsFunc(sc.effects, func(e effect) bool {
				return e.del && e.pred == from.pred && slices.Equal(e.args, from.args)
			})
			if !deleted {
				continue
			}
			for _, e := range sc.effects {
				if !e.del {
					lt.into[e.pred] = append(lt.into[e.pred], transition{act: ai, from: from, to: e})
				}
			}
		}
	}
	return lt
}

// cycle reports whether compound tasks a and b lie on a common cycle of
// the task graph (or are the same).
func (lt *liftedTargets) cycle(a, b int) bool {
	return a == b || lt.reach[a][b] && lt.reach[b][a]
}

// Targets returns the targets of compound task id of the growing task
// with the facts near them, or nil when it has none: it is not
// recursive, no method ends it at once, or those that do have no fluent
// precondition its arguments fix. A synthetic task standing for the rest
// of a method's network has the targets of that method's task.
func (g *Grow) Targets(id TaskID) *Targets {
	lz := g.lz
	if int(id) < len(g.Task.Actions) {
		return nil
	}
	if g.targets == nil {
		g.targets = newLiftedTargets(lz)
	}
	// asked at every node of the search: kept by compound task (its
	// index in Task.Compounds does not move when the IDs do)
	lt := g.targets
	c := int(id) - len(g.Task.Actions)
	if c < len(lt.byCompound) && lt.byCompound[c].known {
		return lt.byCompound[c].t
	}
	for len(lt.byCompound) <= c {
		lt.byCompound = append(lt.byCompound, knownTargets{})
	}
	var t *Targets
	if task, args := g.liftedTask(id); task >= 0 && lt.ends[task] != nil {
		key := string(lz.keyOf(uint32(task), args))
		var ok bool
		if t, ok = lt.of[key]; !ok {
			t = g.newTargets(task, args)
			lt.of[key] = t
		}
	}
	lt.byCompound[c] = knownTargets{t: t, known: true}
	return t
}

// knownTargets is a compound task's answer of Grow.Targets, once known.
type knownTargets struct {
	t     *Targets
	known bool
}

// liftedTask returns the lifted compound task of compound task id with
// its arguments, that of the method a synthetic rest stands in for, or
// -1.
func (g *Grow) liftedTask(id TaskID) (int, []int32) {
	lz := g.lz
	lid := g.lzOf[int(id)-len(g.Task.Actions)]
	if lid >= 0 {
		t := &lz.tasks[lid]
		return t.Ref.Index, intsToInt32s(t.Args)
	}
	r := &g.synth[-1-lid]
	if r.k < 0 || r.meth < 0 || r.one {
		return -1, nil
	}
	m := &lz.d.Methods[r.meth]
	args := make([]int32, len(m.TaskArgs))
	for i, a := range m.TaskArgs {
		if args[i] = lz.term(a, r.sub); args[i] < 0 {
			return -1, nil
		}
	}
	return m.Task, args
}

// keyOfFact is factKeyOf for a Fact.
func (lz *Lazy) keyOfFact(f *Fact) string {
	k := binary.LittleEndian.AppendUint32(lz.key[:0], uint32(f.Pred))
	for _, a := range f.Args {
		k = binary.LittleEndian.AppendUint32(k, uint32(a))
	}
	lz.key = k
	return string(k)
}

// newTargets computes the targets of lifted task task under args, and
// the facts near them.
func (g *Grow) newTargets(task int, args []int32) *Targets {
	lz := g.lz
	t := &Targets{task: task, dist: map[string]int32{}}
	for _, mi := range g.targets.ends[task] {
		m := &lz.d.Methods[mi]
		for _, sc := range lz.methods[mi] {
			b, ok := lz.head(m, sc, args)
			if !ok {
				continue
			}
			for _, l := range sc.pos {
				if lz.static[l.pred] {
					continue
				}
				f := Fact{Pred: l.pred, Args: make([]int, len(l.args))}
				bound := true
				for i, a := range l.args {
					o := lz.term(a, b)
					bound = bound && o >= 0
					f.Args[i] = int(o)
				}
				if bound {
					t.reached(lz, f, 0)
				}
			}
		}
	}
	if len(t.near) == 0 {
		return nil
	}
	steps := 0
	for i := 0; i < len(t.near) && len(t.near) < maxTargetFacts && steps < maxTargetSteps && !lz.stopped; i++ {
		x := t.near[i]
		g.back(x.f, func(f Fact) bool {
			steps++
			t.reached(lz, f, x.d+1)
			return len(t.near) < maxTargetFacts && steps < maxTargetSteps
		})
	}
	return t
}

// reached records fact f at distance d unless it is known already.
func (t *Targets) reached(lz *Lazy, f Fact, d int32) {
	k := lz.keyOfFact(&f)
	if _, ok := t.dist[k]; ok {
		return
	}
	t.dist[k] = d
	t.near = append(t.near, nearFact{f, d})
}

// back tells each fact some action moves from to fact f (see Targets),
// while yield asks for more.
func (g *Grow) back(f Fact, yield func(Fact) bool) {
	lz := g.lz
	for _, tr := range g.targets.into[f.Pred] {
		sc := lz.actions[tr.act]
		b := make([]int32, len(sc.vars))
		for i := range b {
			b[i] = -1
		}
		ok := true
		for i, a := range tr.to.args {
			o := int32(f.Args[i])
			if !a.IsVar() {
				ok = ok && int32(a.Obj()) == o
				continue
			}
			v := a.Var()
			if b[v] >= 0 && b[v] != o || !lz.isOfType(int(o), sc.vars[v].Type) {
				ok = false
				break
			}
			b[v] = o
		}
		if !ok {
			continue
		}
		need := make([]bool, len(sc.vars))
		for _, a := range tr.from.args {
			if a.IsVar() {
				need[a.Var()] = true
			}
		}
		more := true
		bd := &binder{lz: lz, s: sc, b: b, need: need, done: make([]bool, len(sc.pos))}
		bd.yield = func(b []int32) bool {
			if !lz.fluentsMayHold(sc, b) {
				return true
			}
			from := Fact{Pred: tr.from.pred, Args: make([]int, len(tr.from.args))}
			for i, a := range tr.from.args {
				from.Args[i] = int(lz.term(a, b))
			}
			more = yield(from)
			return more
		}
		bd.run()
		if !more || lz.stopped {
			return
		}
	}
}

// Distance returns how near the targets t method m of the growing task
// may take the state: -1 for a method without subtasks (it ends its
// task), else the least distance of a fact one of its subtasks outside
// the cycle of t's task may add, or Unreached.
func (g *Grow) Distance(t *Targets, m MethodID) int32 {
	sts := g.Task.Methods[m].Subtasks
	if len(sts) == 0 {
		return -1
	}
	lz := g.lz
	if g.effects == nil {
		g.effects = newLiftedEffects(lz)
	}
	best := int32(Unreached)
	var loc [maxLocals]int32
	for _, st := range sts {
		g.visit(st, func(add, _ []FactID) {
			for _, f := range add {
				fa := &lz.facts[f]
				if d, ok := t.dist[lz.keyOfFact(fa)]; ok && d < best {
					best = d
				}
			}
		}, func(ref hddl.TaskRef, arg func(i int) int32) {
			if !ref.Primitive && g.targets.cycle(ref.Index, t.task) {
				return
			}
			for _, p := range g.effects.of(ref) {
				if p.del {
					continue
				}
				for i := range t.near {
					x := &t.near[i]
					if x.d >= best {
						break
					}
					if int32(x.f.Pred) == p.pred && p.matches(arg, &x.f, loc[:]) {
						best = x.d
						break
					}
				}
			}
		})
	}
	return best
}
