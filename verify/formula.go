package verify

import (
	"errors"
	"fmt"
	"strings"

	"github.com/htnsat/htnsat/hddl"
)

// Formulas evaluated in the states of the plan.

// holds evaluates a formula in state at, under binding b. The scope's
// variable types come from v.scope (set by the caller).
func (v *verifier) holds(f *hddl.Formula, b []int32, at int) (bool, error) {
	if f == nil {
		return true, nil
	}
	switch f.Kind {
	case hddl.FTrue:
		return true, nil
	case hddl.FAtom:
		return v.value(v.atomID(f.Pred, v.ground(f.Args, b)), at), nil
	case hddl.FEqual:
		g := v.ground(f.Args, b)
		return g[0] == g[1], nil
	case hddl.FNot:
		ok, err := v.holds(f.Subs[0], b, at)
		return !ok, err
	case hddl.FAnd:
		for _, sub := range f.Subs {
			if ok, err := v.holds(sub, b, at); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case hddl.FOr:
		for _, sub := range f.Subs {
			if ok, err := v.holds(sub, b, at); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case hddl.FImply:
		ok, err := v.holds(f.Subs[0], b, at)
		if err != nil || !ok {
			return true, err
		}
		return v.holds(f.Subs[1], b, at)
	case hddl.FForall, hddl.FExists:
		want := f.Kind == hddl.FExists
		found := !want
		err := v.each(f.Vars, b, func() error {
			ok, err := v.holds(f.Subs[0], b, at)
			if err != nil {
				return err
			}
			if ok == want {
				found = want
				return errStop
			}
			return nil
		})
		if err != nil && err != errStop {
			return false, err
		}
		return found, nil
	}
	return false, fmt.Errorf("cannot evaluate %s", f.Kind)
}

// errStop ends the enumeration of a quantifier's bindings once one decides
// it.
var errStop = errors.New("stop")

// why names the first literal of a conjunction that fails, for messages.
func (v *verifier) why(f *hddl.Formula, b []int32, at int) string {
	if f == nil {
		return ""
	}
	subs := []*hddl.Formula{f}
	if f.Kind == hddl.FAnd {
		subs = f.Subs
	}
	for _, s := range subs {
		if ok, err := v.holds(s, b, at); err == nil && !ok {
			return ": " + v.formulaString(s, b) + " is false"
		}
	}
	return ""
}

func (v *verifier) formulaString(f *hddl.Formula, b []int32) string {
	term := func(t hddl.Term) string {
		switch {
		case !t.IsVar():
			return v.p.Objects[t.Obj()].Name
		case b != nil && t.Var() < len(b) && b[t.Var()] >= 0:
			return v.p.Objects[b[t.Var()]].Name
		}
		return v.scope[t.Var()].Name
	}
	switch f.Kind {
	case hddl.FAtom, hddl.FEqual:
		name := "="
		if f.Kind == hddl.FAtom {
			name = v.d.Predicates[f.Pred].Name
		}
		parts := []string{name}
		for _, a := range f.Args {
			parts = append(parts, term(a))
		}
		return "(" + strings.Join(parts, " ") + ")"
	case hddl.FNot:
		return "(not " + v.formulaString(f.Subs[0], b) + ")"
	}
	return "(" + f.Kind.String() + " ...)"
}

// satisfy finds values for the method variables the plan left unbound such
// that the precondition holds in state at: positive atoms of the top-level
// conjunction are matched against the atoms true in the state, and only a
// variable that no such atom mentions is tried over its type.
func (v *verifier) satisfy(f *hddl.Formula, b []int32, at int) (bool, error) {
	if f == nil {
		return true, nil
	}
	conj, ok := v.conjs[f]
	if !ok {
		var flatten func(*hddl.Formula)
		flatten = func(g *hddl.Formula) {
			if g.Kind == hddl.FAnd {
				for _, s := range g.Subs {
					flatten(s)
				}
				return
			}
			conj = append(conj, g)
		}
		flatten(f)
		v.conjs[f] = conj
	}
	unbound := func(g *hddl.Formula) int {
		n := 0
		for _, t := range g.Args {
			if t.IsVar() && b[t.Var()] < 0 {
				n++
			}
		}
		return n
	}
	mt := &matcher{v: v, vars: v.scope, b: b, trail: v.trail[:0]}
	defer func() { v.trail = mt.trail[:0] }() // reused by the next call
	var rec func() (bool, error)
	rec = func() (bool, error) {
		if err := v.tick(); err != nil {
			return false, err
		}
		// the positive atom with the fewest candidates binds next: the
		// atoms of its predicate with the value of a bound argument
		var best *hddl.Formula
		var bestC []int32
		bestN := -1
		for _, g := range conj {
			if g.Kind != hddl.FAtom || unbound(g) == 0 {
				continue
			}
			cands := v.byPred[g.Pred]
			for pos, t := range g.Args {
				o := int32(-1)
				if !t.IsVar() {
					o = int32(t.Obj())
				} else if b[t.Var()] >= 0 {
					o = b[t.Var()]
				}
				if o >= 0 {
					if c := v.withArg(g.Pred, pos, o); len(c) < len(cands) {
						cands = c
					}
				}
			}
			if n := len(cands); bestN < 0 || n < bestN {
				best, bestC, bestN = g, cands, n
			}
		}
		if best == nil {
			// variables no positive atom mentions: their types
			for x := range b {
				if b[x] < 0 && v.mentions(f, x) {
					return v.tryType(x, b, func() (bool, error) { return rec() })
				}
			}
			return v.holds(f, b, at)
		}
		for _, id := range bestC {
			if !v.value(id, at) {
				continue
			}
			mark := len(mt.trail)
			if mt.unify(best.Args, v.atomArgs[id]) {
				if ok, err := rec(); err != nil || ok {
					return ok, err
				}
			}
			mt.undo(mark)
		}
		return false, nil
	}
	return rec()
}

func (v *verifier) tryType(x int, b []int32, fn func() (bool, error)) (bool, error) {
	for _, o := range v.objectsOf(v.scope[x].Type) {
		b[x] = int32(o)
		if ok, err := fn(); err != nil || ok {
			return ok, err
		}
	}
	b[x] = -1
	return false, nil
}

// mentions reports whether variable x occurs free in f.
func (v *verifier) mentions(f *hddl.Formula, x int) bool {
	for _, t := range f.Args {
		if t.IsVar() && t.Var() == x {
			return true
		}
	}
	for _, q := range f.Vars {
		if q == x {
			return false
		}
	}
	for _, s := range f.Subs {
		if v.mentions(s, x) {
			return true
		}
	}
	return false
}
