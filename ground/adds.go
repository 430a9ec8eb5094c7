package ground

import (
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// effectPattern is a fact some decomposition of a lifted task may add
// (or delete), with its arguments as far as the task's own tell them:
// args[i] >= 0 is the task's parameter args[i], a value below anyArg+1
// an object (-1-object), anyArg any object.
type effectPattern struct {
	pred int32
	del  bool
	args []int32
}

// anyArg stands for an argument a task's parameters do not fix.
const anyArg = int32(-1 << 30)

// liftedEffects are the effect patterns of every lifted task: for a
// compound task, the union over its methods of their subtasks' patterns,
// each argument carried through the method's variables to the task's
// parameters where it can be, to a fixpoint. They over-approximate what
// any ground instance can make true or false below it, whatever the
// state: a ground task whose patterns do not match a fact can never add
// (delete) it, which is what the search over a growing task needs to
// tell a goal lost for good without grounding the task's decompositions.
type liftedEffects struct {
	act  [][]effectPattern // by lifted action
	task [][]effectPattern // by compound task
}

// newLiftedEffects computes the effect patterns of the domain of lz.
func newLiftedEffects(lz *Lazy) *liftedEffects {
	d := lz.d
	le := &liftedEffects{act: make([][]effectPattern, len(d.Actions)), task: make([][]effectPattern, len(d.Tasks))}
	seen := make([]map[string]bool, len(d.Tasks))
	for i := range seen {
		seen[i] = map[string]bool{}
	}
	for ai, s := range lz.actions {
		if s == nil {
			continue // never applicable
		}
		np := d.Actions[ai].NumParams
		key := map[string]bool{}
		for _, e := range s.effects {
			p := effectPattern{pred: int32(e.pred), del: e.del, args: make([]int32, len(e.args))}
			for i, t := range e.args {
				switch {
				case !t.IsVar():
					p.args[i] = int32(-1 - t.Obj())
				case t.Var() < np:
					p.args[i] = int32(t.Var())
				default:
					p.args[i] = anyArg
				}
			}
			if k := p.key(); !key[k] {
				key[k] = true
				le.act[ai] = append(le.act[ai], p)
			}
		}
	}
	// up the hierarchy to a fixpoint: patterns are only added, and
	// there are finitely many of them
	for changed := true; changed; {
		changed = false
		for mi := range d.Methods {
			m := &d.Methods[mi]
			if len(lz.methods[mi]) == 0 {
				continue // never applicable
			}
			// the task's parameter each method variable is, or -1
			param := make([]int32, len(m.Vars))
			for i := range param {
				param[i] = -1
			}
			for j, t := range m.TaskArgs {
				if t.IsVar() && param[t.Var()] < 0 {
					param[t.Var()] = int32(j)
				}
			}
			for _, st := range m.Network.Subtasks {
				var from []effectPattern
				if st.Task.Primitive {
					from = le.act[st.Task.Index]
				} else {
					from = le.task[st.Task.Index]
				}
				for _, q := range from {
					p := effectPattern{pred: q.pred, del: q.del, args: make([]int32, len(q.args))}
					for i, a := range q.args {
						p.args[i] = a
						if a < 0 {
							continue // an object, or any
						}
						switch t := st.Args[a]; {
						case !t.IsVar():
							p.args[i] = int32(-1 - t.Obj())
						case param[t.Var()] >= 0:
							p.args[i] = param[t.Var()]
						default:
							p.args[i] = anyArg
						}
					}
					if k := p.key(); !seen[m.Task][k] {
						seen[m.Task][k] = true
						le.task[m.Task] = append(le.task[m.Task], p)
						changed = true
					}
				}
			}
		}
	}
	return le
}

func (p *effectPattern) key() string {
	b := make([]byte, 0, 8+4*len(p.args))
	b = append(b, byte(p.pred), byte(p.pred>>8), byte(p.pred>>16), byte(p.pred>>24))
	if p.del {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	for _, a := range p.args {
		b = append(b, byte(a), byte(a>>8), byte(a>>16), byte(a>>24))
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
// arguments arg(i).
func (p *effectPattern) matches(arg func(i int) int32, f *Fact) bool {
	for i, a := range p.args {
		switch {
		case a == anyArg:
		case a < 0:
			if int(-1-a) != f.Args[i] {
				return false
			}
		default:
			if x := arg(int(a)); x >= 0 && int(x) != f.Args[i] {
				return false
			}
		}
	}
	return true
}

// addable reports whether some action may add the fact pred(args): an
// add effect of its predicate whose constants are its own and whose
// variables' types admit its objects (a finer look than Lazy.added, per
// predicate: in IPC Depots, a truck's drive adds at, which no pallet can
// ever be). Answers for facts made are kept.
func (lz *Lazy) addable(pred int, args []int32) bool {
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

// addableFact is addable for a fact made.
func (lz *Lazy) addableFact(f FactID) bool {
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
		if lz.static[l.pred] {
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
