package ground

import (
	"context"
	"fmt"

	"github.com/htnsat/htnsat/hddl"
)

// lit is a literal of a normalised lifted formula: an atom (pred >= 0) or
// an equality (pred == eqPred), possibly negated.
type lit struct {
	pred int
	args []hddl.Term
	neg  bool
}

const eqPred = -1

// conj is a conjunction of literals; a normalised formula is a list of
// them (its disjunctive normal form).
type conj []lit

// effect is one add or delete effect of a normalised action.
type effect struct {
	pred int
	args []hddl.Term
	del  bool
}

// maxDisjuncts bounds the DNF of one formula.
const maxDisjuncts = 256

// normalizer rewrites formulas of one problem: negation pushed to the
// atoms, forall over finite types expanded with objects, exists variables
// left free (they become extra variables of the schema), or and imply
// distributed into a DNF.
type normalizer struct {
	ctx       context.Context
	p         *hddl.Problem
	types     map[int][]int // type -> objects, cached
	scopeVars []hddl.Param  // the variables of the schema being normalised
	// made counts the instances of quantified formulas made, against
	// budget (Options.MaxGround)
	made, budget int64
}

// expansionShare is the part of the budget (Options.MaxGround) that one
// universal quantifier may expand to: 62,500 instances at the default
// budget. A precondition of many more literals is beyond what the
// reachability analysis handles (every new fact is tried against each of
// them); a Sudoku of side n needs n² (2,401 for 49x49).
const expansionShare = 48

// instance counts one more instance of the quantified formula f and
// looks at the context every 4,096: expanding is bounded by the budget
// and stops with the deadline.
func (n *normalizer) instance(f *hddl.Formula, count *int) error {
	*count++
	n.made++
	if n.budget > 0 && int64(*count) > n.budget/expansionShare {
		return fmt.Errorf("%w: the quantifier at %s expands to more than %d instances", ErrTooLarge, f.Pos, n.budget/expansionShare)
	}
	if n.budget > 0 && n.made > n.budget {
		return fmt.Errorf("%w: the quantifiers expand to more than %d instances in all", ErrTooLarge, n.budget)
	}
	if n.made&4095 == 0 && n.ctx != nil {
		return n.ctx.Err()
	}
	return nil
}

func (n *normalizer) objectsOf(t int) []int {
	if objs, ok := n.types[t]; ok {
		return objs
	}
	objs := n.p.ObjectsOfType(t)
	n.types[t] = objs
	return objs
}

// ErrNotSupported is wrapped by errors about HDDL features the grounder
// (or the grounding on demand) rejects.
var ErrNotSupported = fmt.Errorf("not supported")

// dnf returns the DNF of f (negated if neg) under the substitution sub of
// forall-expanded variables. A nil formula is true: one empty conjunction.
func (n *normalizer) dnf(f *hddl.Formula, neg bool, sub map[int]hddl.Term) ([]conj, error) {
	if f == nil {
		return []conj{nil}, nil
	}
	subst := func(args []hddl.Term) []hddl.Term { return substitute(args, sub) }
	switch f.Kind {
	case hddl.FTrue:
		if neg {
			return nil, nil
		}
		return []conj{nil}, nil
	case hddl.FAtom:
		return []conj{{{pred: f.Pred, args: subst(f.Args), neg: neg}}}, nil
	case hddl.FEqual:
		args := subst(f.Args)
		if !args[0].IsVar() && !args[1].IsVar() {
			// decided now
			if (args[0] == args[1]) != neg {
				return []conj{nil}, nil
			}
			return nil, nil
		}
		return []conj{{{pred: eqPred, args: args, neg: neg}}}, nil
	case hddl.FNot:
		return n.dnf(f.Subs[0], !neg, sub)
	case hddl.FAnd, hddl.FOr:
		if (f.Kind == hddl.FAnd) != neg {
			return n.product(f.Subs, neg, sub)
		}
		return n.union(f.Subs, neg, sub)
	case hddl.FImply:
		// a -> b  ==  (not a) or b
		na, err := n.dnf(f.Subs[0], !neg, sub)
		if err != nil {
			return nil, err
		}
		b, err := n.dnf(f.Subs[1], neg, sub)
		if err != nil {
			return nil, err
		}
		if neg {
			// not (a -> b) == a and not b
			return n.cross(na, b)
		}
		return n.limit(append(na, b...), f.Pos)
	case hddl.FForall, hddl.FExists:
		if (f.Kind == hddl.FForall) != neg {
			return n.expand(f, neg, sub)
		}
		// exists (or a negated forall): the variables stay free, unless
		// one has no object to take: then nothing satisfies it (the
		// variable may occur in no literal, and the join binds only
		// those that occur)
		for _, v := range f.Vars {
			if len(n.objectsOf(n.scopeVars[v].Type)) == 0 {
				return nil, nil
			}
		}
		inner := map[int]hddl.Term{}
		for k, v := range sub {
			inner[k] = v
		}
		for _, v := range f.Vars {
			delete(inner, v)
		}
		return n.dnf(f.Subs[0], neg, inner)
	}
	return nil, fmt.Errorf("%s: %q is %w in a precondition", f.Pos, f.Kind, ErrNotSupported)
}

func (n *normalizer) product(fs []*hddl.Formula, neg bool, sub map[int]hddl.Term) ([]conj, error) {
	acc := []conj{nil}
	for _, s := range fs {
		d, err := n.dnf(s, neg, sub)
		if err != nil {
			return nil, err
		}
		if acc, err = n.extend(acc, d); err != nil {
			return nil, err
		}
		if len(acc) == 0 {
			return nil, nil
		}
	}
	return acc, nil
}

func (n *normalizer) union(fs []*hddl.Formula, neg bool, sub map[int]hddl.Term) ([]conj, error) {
	var acc []conj
	for _, s := range fs {
		d, err := n.dnf(s, neg, sub)
		if err != nil {
			return nil, err
		}
		acc = append(acc, d...)
		if len(acc) > maxDisjuncts {
			return nil, fmt.Errorf("%s: precondition has more than %d disjuncts", s.Pos, maxDisjuncts)
		}
	}
	return acc, nil
}

// cross distributes a conjunction over two DNFs.
func (n *normalizer) cross(a, b []conj) ([]conj, error) {
	if len(a)*len(b) > maxDisjuncts {
		return nil, fmt.Errorf("precondition has more than %d disjuncts", maxDisjuncts)
	}
	out := make([]conj, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			c := make(conj, 0, len(x)+len(y))
			c = append(append(c, x...), y...)
			out = append(out, c)
		}
	}
	return out, nil
}

// extend is cross for an accumulator the caller owns: a single
// conjunction grows in place, so that a conjunction of many literals (a
// universal precondition over a grid) is built in linear, not quadratic,
// time and space.
func (n *normalizer) extend(acc, d []conj) ([]conj, error) {
	if len(acc) == 1 && len(d) == 1 {
		acc[0] = append(acc[0], d[0]...)
		return acc, nil
	}
	return n.cross(acc, d)
}

func (n *normalizer) limit(d []conj, pos hddl.Pos) ([]conj, error) {
	if len(d) > maxDisjuncts {
		return nil, fmt.Errorf("%s: precondition has more than %d disjuncts", pos, maxDisjuncts)
	}
	return d, nil
}

// expand replaces a universally quantified formula by the conjunction of
// its instances over every combination of objects of the variables' types.
func (n *normalizer) expand(f *hddl.Formula, neg bool, sub map[int]hddl.Term) ([]conj, error) {
	vars := f.Vars
	scope := n.scopeVars
	acc := []conj{nil}
	assign := map[int]hddl.Term{}
	for k, v := range sub {
		assign[k] = v
	}
	count := 0
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(vars) {
			if err := n.instance(f, &count); err != nil {
				return err
			}
			d, err := n.dnf(f.Subs[0], neg, assign)
			if err != nil {
				return err
			}
			acc, err = n.extend(acc, d)
			return err
		}
		for _, o := range n.objectsOf(scope[vars[i]].Type) {
			assign[vars[i]] = hddl.ObjTerm(o)
			if err := rec(i + 1); err != nil {
				return err
			}
			if len(acc) == 0 {
				return nil // false already
			}
		}
		return nil
	}
	if err := rec(0); err != nil {
		return nil, err
	}
	return acc, nil
}

// effects flattens an effect formula into add and delete effects, with
// forall effects expanded.
func (n *normalizer) effects(f *hddl.Formula, sub map[int]hddl.Term, out []effect) ([]effect, error) {
	if f == nil {
		return out, nil
	}
	subst := func(args []hddl.Term) []hddl.Term { return substitute(args, sub) }
	switch f.Kind {
	case hddl.FTrue:
		return out, nil
	case hddl.FAtom:
		return append(out, effect{pred: f.Pred, args: subst(f.Args)}), nil
	case hddl.FNot:
		a := f.Subs[0]
		if a.Kind != hddl.FAtom {
			return nil, fmt.Errorf("%s: only atoms can be deleted", a.Pos)
		}
		return append(out, effect{pred: a.Pred, args: subst(a.Args), del: true}), nil
	case hddl.FAnd:
		var err error
		for _, s := range f.Subs {
			if out, err = n.effects(s, sub, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	case hddl.FForall:
		assign := map[int]hddl.Term{}
		for k, v := range sub {
			assign[k] = v
		}
		count := 0
		var rec func(i int) error
		rec = func(i int) error {
			if i == len(f.Vars) {
				if err := n.instance(f, &count); err != nil {
					return err
				}
				var err error
				out, err = n.effects(f.Subs[0], assign, out)
				return err
			}
			for _, o := range n.objectsOf(n.scopeVars[f.Vars[i]].Type) {
				assign[f.Vars[i]] = hddl.ObjTerm(o)
				if err := rec(i + 1); err != nil {
					return err
				}
			}
			return nil
		}
		return out, rec(0)
	case hddl.FWhen:
		return nil, fmt.Errorf("%s: conditional effects (when) are %w", f.Pos, ErrNotSupported)
	}
	return nil, fmt.Errorf("%s: %q is %w in an effect", f.Pos, f.Kind, ErrNotSupported)
}

// substitute replaces the variables of args that sub maps.
func substitute(args []hddl.Term, sub map[int]hddl.Term) []hddl.Term {
	out := make([]hddl.Term, len(args))
	for i, a := range args {
		if a.IsVar() {
			if s, ok := sub[a.Var()]; ok {
				a = s
			}
		}
		out[i] = a
	}
	return out
}
