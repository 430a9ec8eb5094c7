package hddl

import (
	"fmt"
	"strings"
)

// ---------------------------------------------------------------- problem

func (c *checker) checkProblem(f *syntaxFile) {
	d := c.d
	p := &Problem{
		Name:     f.Name.Value,
		File:     f.Pos.Filename,
		Domain:   d,
		objIndex: map[string]int{},
	}
	c.p = p
	for i, o := range d.Constants {
		p.Objects = append(p.Objects, o)
		p.objIndex[o.Name] = i
	}
	var htn *htnSection
	var init *initSection
	var goal *goalSection
	var domRef *domainRefSection
	for _, s := range f.Sections {
		switch s := s.(type) {
		case *requirementsSection:
		case *domainRefSection:
			if domRef != nil {
				c.errorf(s.Pos, "duplicate :domain section")
			}
			domRef = s
		case *objectsSection:
			for _, o := range c.objects(s.Groups, "object") {
				c.declareObject(o, p.objIndex, &p.Objects, "object")
			}
		case *htnSection:
			if htn != nil {
				c.errorf(s.Pos, "duplicate :htn section")
			}
			htn = s
		case *initSection:
			if init != nil {
				c.errorf(s.Pos, "duplicate :init section")
			}
			init = s
		case *goalSection:
			if goal != nil {
				c.errorf(s.Pos, "duplicate :goal section")
			}
			goal = s
		case *unknownSection:
			c.unknownSection(s, "problem")
		default:
			c.errorf(s.sectionPos(), "section %s is not allowed in a problem", sectionName(s))
		}
	}
	if domRef == nil {
		c.errorf(f.Pos, "problem %s has no (:domain ...) section", p.Name)
	} else {
		p.DomainName = domRef.Name.Value
		if !strings.EqualFold(p.DomainName, d.Name) {
			c.warnf(domRef.Name.Pos, "problem is for domain %s, but the domain is %s", p.DomainName, d.Name)
		}
	}
	if init != nil && init.Atoms != nil {
		atoms := init.Atoms.nodes()
		p.Init = make([]Atom, 0, len(atoms))
		n := 0
		for _, a := range atoms {
			n += len(a.Args)
		}
		c.initArgs = make([]int, 0, n) // every atom's arguments, in one block
		for _, a := range atoms {
			c.initAtom(a)
		}
	}
	if htn != nil {
		p.HasHTN = true
		c.htn(htn)
	}
	if goal != nil {
		sc := newScope()
		p.Goal = c.formula(nodeOf(goal.Goal), sc, ctxGoal)
		p.GoalVars = sc.vars
	}
	if domRef != nil && !strings.EqualFold(p.DomainName, d.Name) && len(c.errs) > 0 {
		// the errors come from reading a problem against another
		// domain: say that, not each unknown name
		n := len(c.errs)
		c.errs = ErrorList{{Pos: posOf(domRef.Name.Pos), Msg: fmt.Sprintf(
			"problem is for domain %s, but the domain file defines %s (and %d errors follow from that): give the problem's own domain file",
			p.DomainName, d.Name, n)}}
	}
	p.Warnings = c.warns
}

func nodeOf(e expr) *formula {
	if e == nil {
		return nil
	}
	return e.node()
}

func (c *checker) initAtom(f *formula) {
	p := c.p
	if f.Pred == nil || f.Pred.Value == "=" {
		c.errorf(f.Pos, "expected a ground atom in :init")
		return
	}
	i, ok := c.d.predIndex[f.Pred.Value]
	if !ok {
		c.errorf(f.Pred.Pos, "unknown predicate %s/%d", f.Pred.Value, len(f.Args))
		return
	}
	// the common case, one check and no allocation but the atom's
	// arguments (from a slab): every argument a known object of the
	// parameter's type; anything else takes the general path, which
	// reports what is wrong
	params := c.d.Predicates[i].Params
	if len(f.Args) == len(params) {
		if len(c.initArgs)+len(params) > cap(c.initArgs) {
			c.initArgs = make([]int, 0, max(1024, len(params)))
		}
		start := len(c.initArgs)
		ok := true
		for k, id := range f.Args {
			o, known := p.objIndex[id.Value]
			if !known || !c.d.IsSubtype(p.Objects[o].Type, params[k].Type) {
				ok = false
				break
			}
			c.initArgs = append(c.initArgs, o)
		}
		if ok {
			p.Init = append(p.Init, Atom{Pred: i, Pos: posOf(f.Pos), Args: c.initArgs[start:len(c.initArgs):len(c.initArgs)]})
			return
		}
		c.initArgs = c.initArgs[:start]
	}
	terms := c.args(f.Pred.Pos, f.Args, newScope(), params, "predicate "+f.Pred.Value)
	a := Atom{Pred: i, Pos: posOf(f.Pos)}
	for _, t := range terms {
		if t.IsVar() || t == badTerm {
			return // already reported
		}
		a.Args = append(a.Args, t.Obj())
	}
	if len(a.Args) != len(params) {
		return
	}
	p.Init = append(p.Init, a)
}

func (c *checker) htn(s *htnSection) {
	p := c.p
	set := c.items(s.Items, ":htn", ":parameters", "subtasks", ":ordering", ":constraints")
	sc := c.paramScope(set)
	p.NumParams = len(sc.vars)
	p.Initial = c.network(set["subtasks"], set.ordering(), sc, "the initial task network")
	p.Constraints = c.formula(set.formula(":constraints"), sc, ctxConstraints)
	p.Vars = sc.vars
}
