package hddl

import (
	"strings"
)

// ---------------------------------------------------------------- formulas

// formula converts a syntax formula; nil or "()" gives nil (true).
func (c *checker) formula(f *formula, sc *scope, ctx formulaCtx) *Formula {
	if f == nil {
		return nil
	}
	out := c.formula1(f, sc, ctx, false)
	if out != nil && out.Kind == FTrue {
		return nil
	}
	return out
}

func (c *checker) formula1(f *formula, sc *scope, ctx formulaCtx, inWhen bool) *Formula {
	pos := posOf(f.Pos)
	if f.Num != nil {
		c.errorf(f.Pos, "a numeric expression is only allowed as an action's cost, (increase (total-cost) N) at the top of its effect")
		return &Formula{Kind: FTrue, Pos: pos}
	}
	if f.Pred != nil {
		return c.atom(f, sc, ctx)
	}
	if f.Op == "" {
		return &Formula{Kind: FTrue, Pos: pos}
	}
	op := strings.ToLower(f.Op)
	out := &Formula{Pos: pos}
	want := -1 // number of operands, -1 for any
	switch op {
	case "and":
		out.Kind = FAnd
	case "or":
		out.Kind = FOr
	case "not":
		out.Kind, want = FNot, 1
	case "imply":
		out.Kind, want = FImply, 2
	case "when":
		out.Kind, want = FWhen, 2
	case "forall":
		out.Kind, want = FForall, 1
	case "exists":
		out.Kind, want = FExists, 1
	}
	if ctx == ctxEffect && (op == "or" || op == "imply" || op == "exists") {
		c.errorf(f.Pos, "%q is not allowed in an effect", op)
		return out
	}
	if op == "when" && (ctx != ctxEffect || inWhen) {
		if inWhen {
			c.errorf(f.Pos, "\"when\" cannot be nested in a conditional effect")
		} else {
			c.errorf(f.Pos, "\"when\" is only allowed in an effect, not in %s", ctxNames[ctx])
		}
		return out
	}
	if want >= 0 && len(f.Subs) != want {
		c.errorf(f.Pos, "%q expects %d operand%s, got %d", op, want, plural(want), len(f.Subs))
		return out
	}
	var restore []func()
	if out.Kind == FForall || out.Kind == FExists {
		for _, p := range c.params(f.QVars) {
			prev, had := sc.add(p)
			out.Vars = append(out.Vars, len(sc.vars)-1)
			name := p.Name
			restore = append(restore, func() {
				if had {
					sc.index[name] = prev
				} else {
					delete(sc.index, name)
				}
			})
		}
		if len(out.Vars) == 0 {
			c.errorf(f.Pos, "%q needs at least one variable", op)
		}
	}
	for i, s := range f.Subs {
		subCtx := ctx
		if out.Kind == FWhen && i == 0 {
			subCtx = ctxPrecondition
		}
		if ctx == ctxEffect && out.Kind == FNot && s.Pred == nil {
			c.errorf(s.Pos, "only an atom can be negated in an effect")
			continue
		}
		sub := c.formula1(s, sc, subCtx, inWhen || out.Kind == FWhen)
		if sub != nil {
			out.Subs = append(out.Subs, sub)
		}
	}
	for i := len(restore) - 1; i >= 0; i-- {
		restore[i]()
	}
	return out
}

func (c *checker) atom(f *formula, sc *scope, ctx formulaCtx) *Formula {
	d := c.d
	pos := posOf(f.Pos)
	if f.Pred.Value == "=" {
		if ctx == ctxEffect {
			c.errorf(f.Pred.Pos, "\"=\" is not allowed in an effect")
		}
		out := &Formula{Kind: FEqual, Pos: pos}
		for _, a := range f.Args {
			out.Args = append(out.Args, c.term(a, sc))
		}
		if len(f.Args) != 2 {
			c.arityError(f.Pred.Pos, "\"=\"", 2, len(f.Args))
		}
		return out
	}
	i, ok := d.predIndex[f.Pred.Value]
	if !ok {
		c.errorf(f.Pred.Pos, "unknown predicate %s/%d", f.Pred.Value, len(f.Args))
		for _, a := range f.Args {
			c.term(a, sc)
		}
		return &Formula{Kind: FTrue, Pos: pos}
	}
	return &Formula{Kind: FAtom, Pred: i, Args: c.args(f.Pred.Pos, f.Args, sc, d.Predicates[i].Params, "predicate "+f.Pred.Value), Pos: pos}
}
