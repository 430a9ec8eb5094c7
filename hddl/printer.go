package hddl

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// The printer writes a model back as canonical HDDL: lower-case keywords,
// names exactly as declared, one declaration per line, total orders as
// :ordered-subtasks. Reading the output again gives the same model.

type printer struct {
	w   *bufio.Writer
	d   *Domain
	obj func(i int) string
}

func (p *printer) s(parts ...string) {
	for _, x := range parts {
		p.w.WriteString(x)
	}
}

// WriteDomain writes d as HDDL.
func WriteDomain(w io.Writer, d *Domain) error {
	p := &printer{w: bufio.NewWriter(w), d: d, obj: func(i int) string { return d.Constants[i].Name }}
	p.s("(define (domain ", d.Name, ")\n")
	if len(d.Requirements) > 0 {
		p.s("  (:requirements ", strings.Join(d.Requirements, " "), ")\n")
	}
	p.types()
	if len(d.Constants) > 0 {
		p.s("  (:constants\n")
		for _, o := range d.Constants {
			p.s("    ", o.Name, " - ", d.Types[o.Type].Name, "\n")
		}
		p.s("  )\n")
	}
	if d.Costs {
		p.s("  (:functions (total-cost) - number)\n")
	}
	if len(d.Predicates) > 0 {
		p.s("  (:predicates\n")
		for _, pr := range d.Predicates {
			p.s("    (", pr.Name)
			p.params(pr.Params)
			p.s(")\n")
		}
		p.s("  )\n")
	}
	for _, t := range d.Tasks {
		p.s("  (:task ", t.Name, " :parameters ")
		p.paramList(t.Params)
		p.s(")\n")
	}
	for i := range d.Methods {
		p.method(&d.Methods[i])
	}
	for i := range d.Actions {
		p.action(&d.Actions[i])
	}
	p.s(")\n")
	return p.w.Flush()
}

func (p *printer) types() {
	d := p.d
	var lines []string
	for _, t := range d.Types[1:] {
		if t.Either != nil {
			continue
		}
		for _, par := range t.Parents {
			if d.Types[par].Either != nil {
				continue
			}
			lines = append(lines, t.Name+" - "+d.Types[par].Name)
		}
	}
	if len(lines) == 0 {
		return
	}
	p.s("  (:types\n")
	for _, l := range lines {
		p.s("    ", l, "\n")
	}
	p.s("  )\n")
}

// typeName is a type's name; "either" types are named "(either a b)".
func (p *printer) typeName(t int) string { return p.d.Types[t].Name }

// params writes " ?a - t ?b - u".
func (p *printer) params(ps []Param) {
	for _, v := range ps {
		p.s(" ", v.Name, " - ", p.typeName(v.Type))
	}
}

func (p *printer) paramList(ps []Param) {
	p.s("(")
	for i, v := range ps {
		if i > 0 {
			p.s(" ")
		}
		p.s(v.Name, " - ", p.typeName(v.Type))
	}
	p.s(")")
}

func (p *printer) term(t Term, vars []Param) string {
	if t.IsVar() {
		return vars[t.Var()].Name
	}
	return p.obj(t.Obj())
}

func (p *printer) call(name string, args []Term, vars []Param) {
	p.s("(", name)
	for _, a := range args {
		p.s(" ", p.term(a, vars))
	}
	p.s(")")
}

func (p *printer) formula(f *Formula, vars []Param) {
	switch f.Kind {
	case FTrue:
		p.s("()")
	case FAtom:
		p.call(p.d.Predicates[f.Pred].Name, f.Args, vars)
	case FEqual:
		p.call("=", f.Args, vars)
	case FForall, FExists:
		p.s("(", f.Kind.String(), " ")
		qs := make([]Param, len(f.Vars))
		for i, v := range f.Vars {
			qs[i] = vars[v]
		}
		p.paramList(qs)
		for _, sub := range f.Subs {
			p.s(" ")
			p.formula(sub, vars)
		}
		p.s(")")
	default:
		p.s("(", f.Kind.String())
		for _, sub := range f.Subs {
			p.s(" ")
			p.formula(sub, vars)
		}
		p.s(")")
	}
}

func (p *printer) action(a *Action) {
	p.s("  (:action ", a.Name, "\n    :parameters ")
	p.paramList(a.Params())
	if a.Precondition != nil {
		p.s("\n    :precondition ")
		p.formula(a.Precondition, a.Vars)
	}
	switch {
	case a.Cost > 0 && a.Effect != nil:
		// the cost joins the effect's conjuncts, as it was read (a
		// conjunction inside another would read back as another formula)
		p.s("\n    :effect (and")
		subs := []*Formula{a.Effect}
		if a.Effect.Kind == FAnd {
			subs = a.Effect.Subs
		}
		for _, sub := range subs {
			p.s(" ")
			p.formula(sub, a.Vars)
		}
		p.s(" (increase (total-cost) ", strconv.Itoa(a.Cost), "))")
	case a.Cost > 0:
		p.s("\n    :effect (increase (total-cost) ", strconv.Itoa(a.Cost), ")")
	case a.Effect != nil:
		p.s("\n    :effect ")
		p.formula(a.Effect, a.Vars)
	}
	p.s(")\n")
}

func (p *printer) method(m *Method) {
	d := p.d
	p.s("  (:method ", m.Name, "\n    :parameters ")
	p.paramList(m.Params())
	p.s("\n    :task ")
	p.call(d.Tasks[m.Task].Name, m.TaskArgs, m.Vars)
	if m.Precondition != nil {
		p.s("\n    :precondition ")
		p.formula(m.Precondition, m.Vars)
	}
	p.network(&m.Network, m.Vars, "    ")
	p.s(")\n")
}

// network writes the subtask and ordering items of a method or of :htn.
func (p *printer) network(n *Network, vars []Param, indent string) {
	if len(n.Subtasks) == 0 {
		return
	}
	key := ":subtasks"
	if n.Total {
		key = ":ordered-subtasks"
	}
	p.s("\n", indent, key, " (and")
	for _, st := range n.Subtasks {
		p.s("\n", indent, "  ")
		if st.ID != "" {
			p.s("(", st.ID, " ")
		}
		p.call(p.d.TaskName(st.Task), st.Args, vars)
		if st.ID != "" {
			p.s(")")
		}
	}
	p.s(")")
	if n.Total || len(n.Ordering) == 0 {
		return
	}
	p.s("\n", indent, ":ordering (and")
	for _, o := range n.Ordering {
		p.s("\n", indent, "  (< ", n.Subtasks[o.Before].ID, " ", n.Subtasks[o.After].ID, ")")
	}
	p.s(")")
}

// WriteProblem writes p as HDDL.
func WriteProblem(w io.Writer, pb *Problem) error {
	d := pb.Domain
	p := &printer{w: bufio.NewWriter(w), d: d, obj: func(i int) string { return pb.Objects[i].Name }}
	p.s("(define (problem ", pb.Name, ")\n")
	dn := pb.DomainName
	if dn == "" {
		dn = d.Name
	}
	p.s("  (:domain ", dn, ")\n")
	if len(pb.Objects) > len(d.Constants) {
		p.s("  (:objects\n")
		for _, o := range pb.Objects[len(d.Constants):] {
			p.s("    ", o.Name, " - ", d.Types[o.Type].Name, "\n")
		}
		p.s("  )\n")
	}
	if pb.HasHTN {
		p.s("  (:htn")
		if pb.NumParams > 0 {
			p.s("\n    :parameters ")
			p.paramList(pb.Vars[:pb.NumParams])
		}
		p.network(&pb.Initial, pb.Vars, "    ")
		if pb.Constraints != nil {
			p.s("\n    :constraints ")
			p.formula(pb.Constraints, pb.Vars)
		}
		p.s(")\n")
	}
	p.s("  (:init")
	for _, a := range pb.Init {
		p.s("\n    (", d.Predicates[a.Pred].Name)
		for _, o := range a.Args {
			p.s(" ", pb.Objects[o].Name)
		}
		p.s(")")
	}
	p.s(")\n")
	if pb.Goal != nil {
		p.s("  (:goal ")
		p.formula(pb.Goal, pb.GoalVars)
		p.s(")\n")
	}
	p.s(")\n")
	return p.w.Flush()
}

// DomainString returns d as HDDL text.
func DomainString(d *Domain) string {
	var b strings.Builder
	WriteDomain(&b, d)
	return b.String()
}

// ProblemString returns p as HDDL text.
func ProblemString(p *Problem) string {
	var b strings.Builder
	WriteProblem(&b, p)
	return b.String()
}
