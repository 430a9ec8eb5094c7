package hddl

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// checker turns a syntax tree into a checked model, collecting every error
// it finds (the caller reports at most MaxErrors of them).
type checker struct {
	errs     ErrorList
	warns    []*Error
	d        *Domain
	p        *Problem // nil while checking a domain
	initArgs []int    // a slab for the arguments of :init atoms
}

func (c *checker) errorf(pos lexer.Position, format string, args ...any) {
	c.errs.Add(posOf(pos), format, args...)
}

func (c *checker) warnf(pos lexer.Position, format string, args ...any) {
	c.warns = append(c.warns, &Error{Pos: posOf(pos), Msg: "warning: " + fmt.Sprintf(format, args...)})
}

// scope is the variables visible in a formula or network. Quantifiers
// append variables and shadow outer ones until they are popped.
type scope struct {
	vars  []Param
	index map[string]int
}

func newScope() *scope { return &scope{index: map[string]int{}} }

func (s *scope) add(p Param) (prev int, had bool) {
	prev, had = s.index[p.Name]
	s.index[p.Name] = len(s.vars)
	s.vars = append(s.vars, p)
	return prev, had
}

type formulaCtx int

const (
	ctxPrecondition formulaCtx = iota
	ctxEffect
	ctxGoal
	ctxConstraints
)

var ctxNames = [...]string{"a precondition", "an effect", "a goal", "constraints"}

// ---------------------------------------------------------------- domain

func (c *checker) checkDomain(f *syntaxFile) {
	d := &Domain{
		Name:        f.Name.Value,
		File:        f.Pos.Filename,
		typeIndex:   map[string]int{"object": 0},
		constIndex:  map[string]int{},
		predIndex:   map[string]int{},
		taskIndex:   map[string]int{},
		actionIndex: map[string]int{},
		methodIndex: map[string]int{},
		Types:       []Type{{Name: "object"}},
	}
	c.d = d
	var typeSecs []*typesSection
	var constSecs []*constantsSection
	var predSecs []*predicatesSection
	var bodies []*taskSection
	for _, s := range f.Sections {
		switch s := s.(type) {
		case *requirementsSection:
			for _, k := range s.Keys {
				d.Requirements = append(d.Requirements, strings.ToLower(k.Value))
			}
		case *typesSection:
			typeSecs = append(typeSecs, s)
		case *constantsSection:
			constSecs = append(constSecs, s)
		case *predicatesSection:
			predSecs = append(predSecs, s)
		case *taskSection:
			bodies = append(bodies, s)
		case *unknownSection:
			c.unknownSection(s, "domain")
		default:
			c.errorf(s.sectionPos(), "section %s is not allowed in a domain", sectionName(s))
		}
	}
	for _, s := range typeSecs {
		c.declareTypes(s)
	}
	c.finishTypes()
	for _, s := range constSecs {
		for _, o := range c.objects(s.Groups, "constant") {
			c.declareObject(o, d.constIndex, &d.Constants, "constant")
		}
	}
	for _, s := range predSecs {
		for _, p := range s.Preds {
			name := p.Name.Value
			if prev, ok := d.predIndex[name]; ok {
				c.errorf(p.Name.Pos, "duplicate predicate %s (first declared at %s)", name, d.Predicates[prev].Pos)
				continue
			}
			d.predIndex[name] = len(d.Predicates)
			d.Predicates = append(d.Predicates, Predicate{Name: name, Params: c.params(p.Params), Pos: posOf(p.Name.Pos)})
		}
	}
	// Declare every task, action and method before reading any body, so
	// that sections may come in any order.
	for _, s := range bodies {
		name := s.Name.Value
		pos := posOf(s.Name.Pos)
		switch strings.ToLower(s.Kind) {
		case ":task":
			if c.clash(s.Name, "task") {
				continue
			}
			d.taskIndex[name] = len(d.Tasks)
			d.Tasks = append(d.Tasks, Task{Name: name, Pos: pos})
		case ":action":
			if c.clash(s.Name, "action") {
				continue
			}
			d.actionIndex[name] = len(d.Actions)
			d.Actions = append(d.Actions, Action{Name: name, Pos: pos})
		case ":method":
			if prev, ok := d.methodIndex[name]; ok {
				c.errorf(s.Name.Pos, "duplicate method %s (first declared at %s)", name, d.Methods[prev].Pos)
				continue
			}
			d.methodIndex[name] = len(d.Methods)
			d.Methods = append(d.Methods, Method{Name: name, Pos: pos})
		}
	}
	// Task and action parameters are needed by every method, so they come first.
	for _, s := range bodies {
		if strings.EqualFold(s.Kind, ":task") {
			if i, ok := d.taskIndex[s.Name.Value]; ok && d.Tasks[i].Pos == posOf(s.Name.Pos) {
				c.taskBody(s, &d.Tasks[i])
			}
		}
	}
	for _, s := range bodies {
		if strings.EqualFold(s.Kind, ":action") {
			if i, ok := d.actionIndex[s.Name.Value]; ok && d.Actions[i].Pos == posOf(s.Name.Pos) {
				c.actionBody(s, &d.Actions[i])
			}
		}
	}
	for _, s := range bodies {
		if strings.EqualFold(s.Kind, ":method") {
			if i, ok := d.methodIndex[s.Name.Value]; ok && d.Methods[i].Pos == posOf(s.Name.Pos) {
				c.methodBody(s, &d.Methods[i])
			}
		}
	}
	d.Warnings = c.warns
}

// clash reports (and returns true) if name is already a task or action.
func (c *checker) clash(id *ident, kind string) bool {
	d := c.d
	if i, ok := d.taskIndex[id.Value]; ok {
		c.errorf(id.Pos, "duplicate %s %s (already declared as a task at %s)", kind, id.Value, d.Tasks[i].Pos)
		return true
	}
	if i, ok := d.actionIndex[id.Value]; ok {
		c.errorf(id.Pos, "duplicate %s %s (already declared as an action at %s)", kind, id.Value, d.Actions[i].Pos)
		return true
	}
	return false
}

func sectionName(s section) string {
	switch s := s.(type) {
	case *requirementsSection:
		return ":requirements"
	case *typesSection:
		return ":types"
	case *constantsSection:
		return ":constants"
	case *objectsSection:
		return ":objects"
	case *predicatesSection:
		return ":predicates"
	case *domainRefSection:
		return ":domain"
	case *taskSection:
		return strings.ToLower(s.Kind)
	case *htnSection:
		return ":htn"
	case *initSection:
		return ":init"
	case *goalSection:
		return ":goal"
	case *unknownSection:
		return s.Key.Value
	}
	return "?"
}

var notSupportedSections = map[string]string{
	":functions":   "numeric fluents (:functions) are not supported",
	":metric":      "plan metrics (:metric) are not supported",
	":constraints": "PDDL3 trajectory constraints are not supported",
	":derived":     "derived predicates (:derived) are not supported",
}

func (c *checker) unknownSection(s *unknownSection, where string) {
	key := strings.ToLower(s.Key.Value)
	switch {
	case key == ":functions" && where == "domain":
		c.functions(s)
		return
	case key == ":metric" && where == "problem":
		c.metric(s)
		return
	}
	if msg, ok := notSupportedSections[key]; ok {
		c.errorf(s.Pos, "%s", msg)
		return
	}
	c.errorf(s.Pos, "unknown section %s in a %s", s.Key.Value, where)
}

// functions checks a domain's :functions: htnsat takes the one function of
// action costs, "(total-cost) - number", and no numeric fluent else.
func (c *checker) functions(s *unknownSection) {
	for i := 0; i < len(s.Body); i++ {
		b := s.Body[i]
		switch {
		case len(b.List) == 1 && b.List[0].Atom == "total-cost":
			c.d.Costs = true
		case b.List == nil && b.Atom == "-" && i+1 < len(s.Body) && s.Body[i+1].Atom == "number":
			i++ // the type of the function before
		default:
			c.errorf(b.Pos, "numeric fluents are not supported: :functions may declare (total-cost) - number, the actions' costs, and nothing else")
			return
		}
	}
}

// metric checks a problem's :metric: minimize (total-cost), the one metric
// htnsat knows (a plan's cost, or its length without costs).
func (c *checker) metric(s *unknownSection) {
	if len(s.Body) == 2 && strings.EqualFold(s.Body[0].Atom, "minimize") && len(s.Body[1].List) == 1 && s.Body[1].List[0].Atom == "total-cost" {
		return
	}
	c.errorf(s.Pos, "the only plan metric htnsat knows is (:metric minimize (total-cost))")
}
