package verify

import (
	"encoding/binary"
	"slices"

	"github.com/htnsat/htnsat/hddl"
)

// Ground atoms and the states of the plan. State i is the state before
// action i; state len(actions) is the final one. No state is copied: each
// atom keeps the list of its changes (the state from which on it has a new
// value), so that the value of an atom in any state is a binary search
// away, and the states of a plan cost memory in proportion to its effects.

// event says that an atom has value val from state at on.
type event struct {
	at  int32
	val bool
}

func (v *verifier) atomKey(pred int, args []int32) []byte {
	k := binary.AppendUvarint(v.key[:0], uint64(pred))
	for _, a := range args {
		k = binary.AppendUvarint(k, uint64(a))
	}
	v.key = k
	return k
}

// packedKey packs a ground atom into one integer when it fits: the
// predicate in 16 bits, then 48/n bits for each of n <= 4 arguments. Most
// atoms fit, and a map with integer keys is several times faster than one
// keyed by bytes.
func packedKey(pred int, args []int32) (uint64, bool) {
	n := len(args)
	if pred >= 1<<16 || n > 4 {
		return 0, false
	}
	k := uint64(pred)
	if n == 0 {
		return k << 48, true
	}
	bits := 48 / n
	for _, a := range args {
		if a < 0 || uint64(a) >= 1<<bits {
			return 0, false
		}
		k = k<<bits | uint64(a)
	}
	return k << (48 - bits*n), true
}

// lookup returns the id of a ground atom and whether it has one.
func (v *verifier) lookup(pred int, args []int32) (int32, bool) {
	if k, ok := packedKey(pred, args); ok {
		id, ok := v.packed[k]
		return id, ok
	}
	id, ok := v.atoms[string(v.atomKey(pred, args))]
	return id, ok
}

// atomID returns the id of a ground atom, or -1 if it was never true.
func (v *verifier) atomID(pred int, args []int32) int32 {
	if id, ok := v.lookup(pred, args); ok {
		return id
	}
	return -1
}

// intern returns the id of a ground atom, creating it (false initially).
func (v *verifier) intern(pred int, args []int32) int32 {
	if id, ok := v.lookup(pred, args); ok {
		return id
	}
	id := int32(len(v.atomArgs))
	if k, ok := packedKey(pred, args); ok {
		v.packed[k] = id
	} else {
		v.atoms[string(v.atomKey(pred, args))] = id
	}
	v.atomArgs = append(v.atomArgs, append(v.int32s(len(args))[:0], args...))
	v.byPred[pred] = append(v.byPred[pred], id)
	for pos, idx := range v.byArg[pred] {
		if idx != nil {
			idx[args[pos]] = append(idx[args[pos]], id)
		}
	}
	v.init = append(v.init, false)
	v.changes = append(v.changes, nil)
	v.cur = append(v.cur, false)
	return id
}

// withArg returns the atoms of pred whose argument pos is o, through an
// index built on first use and kept up to date by intern.
func (v *verifier) withArg(pred, pos int, o int32) []int32 {
	if v.byArg[pred] == nil {
		v.byArg[pred] = make([]map[int32][]int32, len(v.d.Predicates[pred].Params))
	}
	idx := v.byArg[pred][pos]
	if idx == nil {
		idx = map[int32][]int32{}
		for _, id := range v.byPred[pred] {
			a := v.atomArgs[id][pos]
			idx[a] = append(idx[a], id)
		}
		v.byArg[pred][pos] = idx
	}
	return idx[o]
}

// value is the value of atom id (-1: never true) in state at.
func (v *verifier) value(id int32, at int) bool {
	if id < 0 {
		return false
	}
	if at == v.now {
		return v.cur[id]
	}
	ev := v.changes[id]
	// the last change at or before at
	i, _ := slices.BinarySearchFunc(ev, int32(at)+1, func(e event, t int32) int { return int(e.at - t) })
	if i == 0 {
		return v.init[id]
	}
	return ev[i-1].val
}

func (v *verifier) objectsOf(t int) []int {
	if o, ok := v.typeObjs[t]; ok {
		return o
	}
	o := v.p.ObjectsOfType(t)
	v.typeObjs[t] = o
	return o
}

// simulate executes the actions from the initial state: each action's
// precondition must hold in the state before it, and its effects (deletes
// first, then adds) make the next state.
func (v *verifier) simulate() error {
	tup := make([]int32, 0, 8)
	for _, a := range v.p.Init {
		tup = tup[:0]
		for _, o := range a.Args {
			tup = append(tup, int32(o))
		}
		id := v.intern(a.Pred, tup)
		v.init[id], v.cur[id] = true, true
	}
	var adds, dels []int32
	for i, pa := range v.plan.Actions {
		if err := v.tick(); err != nil {
			return err
		}
		v.now = i
		n := v.nodes[pa.ID]
		a := &v.d.Actions[n.schema]
		v.scope = a.Vars
		b := make([]int32, len(a.Vars))
		for k := range b {
			b[k] = -1
		}
		copy(b, n.args)
		ok, err := v.holds(a.Precondition, b, i)
		if err != nil {
			return err
		}
		if !ok {
			return v.errf(pa.Line, "the precondition of %s does not hold%s", v.nodeName(n), v.why(a.Precondition, b, i))
		}
		adds, dels = adds[:0], dels[:0]
		if err := v.effects(a.Effect, b, i, &adds, &dels); err != nil {
			return err
		}
		next := int32(i + 1)
		for _, id := range dels {
			if v.cur[id] && !slices.Contains(adds, id) {
				v.cur[id] = false
				v.changes[id] = append(v.changes[id], event{next, false})
			}
		}
		for _, id := range adds {
			if !v.cur[id] {
				v.cur[id] = true
				v.changes[id] = append(v.changes[id], event{next, true})
			}
		}
	}
	v.final = len(v.plan.Actions)
	v.now = v.final
	return nil
}

func (v *verifier) ground(args []hddl.Term, b []int32) []int32 {
	out := make([]int32, len(args))
	for i, t := range args {
		if t.IsVar() {
			out[i] = b[t.Var()]
		} else {
			out[i] = int32(t.Obj())
		}
	}
	return out
}

// effects collects the atoms an action adds and deletes, evaluating
// conditional effects in state at.
func (v *verifier) effects(f *hddl.Formula, b []int32, at int, adds, dels *[]int32) error {
	if f == nil {
		return nil
	}
	switch f.Kind {
	case hddl.FAtom:
		*adds = append(*adds, v.intern(f.Pred, v.ground(f.Args, b)))
	case hddl.FNot:
		a := f.Subs[0]
		if id := v.atomID(a.Pred, v.ground(a.Args, b)); id >= 0 {
			*dels = append(*dels, id)
		}
	case hddl.FAnd:
		for _, s := range f.Subs {
			if err := v.effects(s, b, at, adds, dels); err != nil {
				return err
			}
		}
	case hddl.FForall:
		return v.each(f.Vars, b, func() error { return v.effects(f.Subs[0], b, at, adds, dels) })
	case hddl.FWhen:
		ok, err := v.holds(f.Subs[0], b, at)
		if err != nil || !ok {
			return err
		}
		return v.effects(f.Subs[1], b, at, adds, dels)
	}
	return nil
}

// each calls fn for every assignment of objects to vars (by type).
func (v *verifier) each(vars []int, b []int32, fn func() error) error {
	if len(vars) == 0 {
		return fn()
	}
	x := vars[0]
	for _, o := range v.objectsOf(v.scope[x].Type) {
		b[x] = int32(o)
		if err := v.each(vars[1:], b, fn); err != nil {
			b[x] = -1
			return err
		}
	}
	b[x] = -1
	return nil
}
