package verify

import (
	"encoding/binary"

	"github.com/htnsat/htnsat/hddl"
)

// Ground atoms, states and the execution of the plan's actions.

func (v *verifier) atomKey(pred int, args []int32) []byte {
	k := binary.AppendUvarint(v.key[:0], uint64(pred))
	for _, a := range args {
		k = binary.AppendUvarint(k, uint64(a))
	}
	v.key = k
	return k
}

// atomID returns the id of a ground atom, or -1 if it was never true.
func (v *verifier) atomID(pred int, args []int32) int32 {
	if id, ok := v.atoms[string(v.atomKey(pred, args))]; ok {
		return id
	}
	return -1
}

// intern returns the id of a ground atom, creating it.
func (v *verifier) intern(pred int, args []int32) int32 {
	k := v.atomKey(pred, args)
	if id, ok := v.atoms[string(k)]; ok {
		return id
	}
	id := int32(len(v.atomArgs))
	v.atoms[string(k)] = id
	v.atomArgs = append(v.atomArgs, append([]int32(nil), args...))
	v.byPred[pred] = append(v.byPred[pred], id)
	return id
}

func has(s []uint64, id int32) bool {
	w := int(id >> 6)
	return id >= 0 && w < len(s) && s[w]&(1<<(uint(id)&63)) != 0
}

func set(s []uint64, id int32, on bool) []uint64 {
	w := int(id >> 6)
	for len(s) <= w {
		s = append(s, 0)
	}
	if on {
		s[w] |= 1 << (uint(id) & 63)
	} else {
		s[w] &^= 1 << (uint(id) & 63)
	}
	return s
}

func (v *verifier) objectsOf(t int) []int {
	if o, ok := v.typeObjs[t]; ok {
		return o
	}
	o := v.p.ObjectsOfType(t)
	v.typeObjs[t] = o
	return o
}

// simulate executes the actions from the initial state, recording the
// state before each action and the final state.
func (v *verifier) simulate() error {
	var s []uint64
	tup := make([]int32, 0, 8)
	for _, a := range v.p.Init {
		tup = tup[:0]
		for _, o := range a.Args {
			tup = append(tup, int32(o))
		}
		s = set(s, v.intern(a.Pred, tup), true)
	}
	v.states = make([][]uint64, 0, len(v.plan.Actions)+1)
	for i, pa := range v.plan.Actions {
		v.states = append(v.states, s)
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
		var adds, dels []int32
		if err := v.effects(a.Effect, b, i, &adds, &dels); err != nil {
			return err
		}
		next := append([]uint64(nil), s...)
		for _, id := range dels {
			next = set(next, id, false)
		}
		for _, id := range adds {
			next = set(next, id, true)
		}
		s = next
	}
	v.states = append(v.states, s)
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
