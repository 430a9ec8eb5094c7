package hddl

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/internal/excerpt"

	"github.com/alecthomas/participle/v2/lexer"
)

// ---------------------------------------------------------------- tasks, actions, methods

// itemSet is the items of one body, by keyword (all subtask keywords
// count as "subtasks").
type itemSet map[string]*item

// items sorts the items of a body by keyword. It reports keywords that are
// not allowed there, malformed values and duplicates.
func (c *checker) items(its []*item, where string, allowed ...string) itemSet {
	set := itemSet{}
	for _, it := range its {
		key := itemKey(it)
		if it.Other != nil || !containsString(allowed, key) {
			c.badItem(it, where)
			continue
		}
		if set[key] != nil {
			c.errorf(it.Pos, "duplicate %s in %s", key, where)
			continue
		}
		set[key] = it
	}
	return set
}

func containsString(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// params returns the scope holding the :parameters of a body.
func (c *checker) paramScope(set itemSet) *scope {
	sc := newScope()
	if it := set[":parameters"]; it != nil {
		for _, p := range c.params(it.Params) {
			sc.add(p)
		}
	}
	return sc
}

// formulaItem returns the formula of an item, or nil.
func (set itemSet) formula(key string) *formula {
	it := set[key]
	if it == nil {
		return nil
	}
	switch key {
	case ":precondition":
		return it.Precondition.node()
	case ":effect":
		return it.Effect.node()
	case ":constraints":
		return it.Constraints.node()
	}
	return nil
}

func (set itemSet) ordering() *orderingList {
	if it := set[":ordering"]; it != nil {
		return it.Ordering
	}
	return nil
}

func (c *checker) taskBody(s *taskSection, t *Task) {
	set := c.items(s.Items, "task "+t.Name, ":parameters")
	t.Params = c.paramScope(set).vars
}

// itemValues says what each item keyword must be followed by.
var itemValues = map[string]string{
	":parameters":       "a parenthesised list of variables",
	":task":             "a parenthesised task",
	":precondition":     "a formula",
	":effect":           "a formula",
	":constraints":      "a formula",
	":subtasks":         "a parenthesised list of subtasks",
	":tasks":            "a parenthesised list of subtasks",
	":ordered-subtasks": "a parenthesised list of subtasks",
	":ordered-tasks":    "a parenthesised list of subtasks",
	":ordering":         "a parenthesised list of ordering constraints",
}

func (c *checker) badItem(it *item, where string) {
	key := it.Other.valueOr(itemKey(it))
	if want, ok := itemValues[strings.ToLower(key)]; ok && it.Other != nil {
		// a known keyword whose value did not have the right shape
		found, pos := "nothing", it.Pos
		if v := it.OtherValue; v != nil {
			found, pos = v.describe(), v.Pos
		}
		c.errorf(pos, "expected %s after %s, found %s", want, key, found)
		return
	}
	c.errorf(it.Pos, "%s is not allowed in %s", key, where)
}

// itemKey is the keyword of an item; every subtask keyword is "subtasks".
func itemKey(it *item) string {
	switch {
	case it.Parameters:
		return ":parameters"
	case it.Task != nil:
		return ":task"
	case it.Precondition != nil:
		return ":precondition"
	case it.Effect != nil:
		return ":effect"
	case it.SubtaskKey != "":
		return "subtasks"
	case it.Ordering != nil:
		return ":ordering"
	case it.Constraints != nil:
		return ":constraints"
	case it.Other != nil:
		return it.Other.Value
	}
	return "?"
}

func (c *checker) actionBody(s *taskSection, a *Action) {
	set := c.items(s.Items, "action "+a.Name, ":parameters", ":precondition", ":effect")
	sc := c.paramScope(set)
	a.NumParams = len(sc.vars)
	a.Precondition = c.formula(set.formula(":precondition"), sc, ctxPrecondition)
	eff := set.formula(":effect")
	a.Cost, eff = c.actionCost(eff)
	a.Effect = c.formula(eff, sc, ctxEffect)
	a.Vars = sc.vars
}

// actionCost takes the cost of an action, (increase (total-cost) N), out
// of the top of its effect (the effect alone, or a conjunct of it); what
// is left is the logical effect. A numeric effect anywhere else is an
// error of formula1.
func (c *checker) actionCost(eff *formula) (int, *formula) {
	if eff == nil {
		return 0, nil
	}
	take := func(f *formula) (int, bool) {
		if f.Num == nil {
			return 0, false
		}
		switch {
		case !strings.EqualFold(f.Op, "increase"):
			c.errorf(f.Pos, "numeric effects (%s) are not supported: htnsat takes (increase (total-cost) N), an action's cost", f.Op)
		case f.Pred.Value != "total-cost" || len(f.Args) > 0:
			c.errorf(f.Pred.Pos, "numeric fluents are not supported: htnsat takes (increase (total-cost) N), an action's cost, not %s", f.Pred.Value)
		default:
			n, err := strconv.Atoi(f.Num.Value)
			if err == nil && n > MaxCost || errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(f.Num.Value, "-") {
				c.errorf(f.Num.Pos, "the cost %s is above %d, the largest action cost htnsat takes", excerpt.Quote(f.Num.Value), MaxCost)
				return 0, true
			}
			if err != nil || n < 0 {
				c.errorf(f.Num.Pos, "the cost %s is not a whole number of 0 or more", excerpt.Quote(f.Num.Value))
				return 0, true
			}
			c.d.Costs = true
			return n, true
		}
		return 0, true
	}
	if n, ok := take(eff); ok {
		return n, nil
	}
	if !strings.EqualFold(eff.Op, "and") {
		return 0, eff
	}
	cost, rest := 0, *eff
	rest.Subs = nil
	for _, s := range eff.Subs {
		if n, ok := take(s); ok {
			cost += n
			continue
		}
		rest.Subs = append(rest.Subs, s)
	}
	return cost, &rest
}

func (c *checker) methodBody(s *taskSection, m *Method) {
	where := "method " + m.Name
	set := c.items(s.Items, where, ":parameters", ":task", ":precondition", ":constraints", "subtasks", ":ordering")
	sc := c.paramScope(set)
	m.NumParams = len(sc.vars)
	m.Task = -1
	if it := set[":task"]; it == nil {
		c.errorf(s.Pos, "method %s has no :task", m.Name)
	} else {
		c.methodTask(m, it.Task, sc)
	}
	m.Network = c.network(set["subtasks"], set.ordering(), sc, where)
	p := c.formula(set.formula(":precondition"), sc, ctxPrecondition)
	k := c.formula(set.formula(":constraints"), sc, ctxConstraints)
	m.Precondition = conjoin(p, k)
	m.Vars = sc.vars
}

// methodTask resolves the task a method decomposes.
func (c *checker) methodTask(m *Method, task *call, sc *scope) {
	d := c.d
	if i, ok := d.taskIndex[task.Name.Value]; ok {
		m.Task = i
		m.TaskArgs = c.args(task.Name.Pos, task.Args, sc, d.Tasks[i].Params, "task "+task.Name.Value)
	} else if _, ok := d.actionIndex[task.Name.Value]; ok {
		c.errorf(task.Name.Pos, "method %s decomposes %s, which is an action, not a compound task", m.Name, task.Name.Value)
	} else {
		c.errorf(task.Name.Pos, "unknown task %s", task.Name.Value)
	}
}

// conjoin returns the conjunction of a and b, flattening one level of
// "and" so that printing and re-reading gives the same formula.
func conjoin(a, b *Formula) *Formula {
	switch {
	case b == nil || b.Kind == FTrue:
		return a
	case a == nil || a.Kind == FTrue:
		return b
	}
	out := &Formula{Kind: FAnd, Pos: a.Pos}
	for _, f := range []*Formula{a, b} {
		if f.Kind == FAnd {
			out.Subs = append(out.Subs, f.Subs...)
		} else {
			out.Subs = append(out.Subs, f)
		}
	}
	return out
}

// args resolves the arguments of a task, subtask or atom named at position
// at and checks their number and types against params. An arity error
// points at the first argument, or at the name when there is none.
func (c *checker) args(at lexer.Position, ids []*ident, sc *scope, params []Param, what string) []Term {
	out := make([]Term, 0, len(ids))
	for _, id := range ids {
		out = append(out, c.term(id, sc))
	}
	if len(ids) != len(params) {
		pos := at
		if len(ids) > 0 {
			pos = ids[0].Pos
		}
		c.arityError(pos, what, len(params), len(ids))
		return out
	}
	c.checkTypes(ids, out, sc, params, what)
	return out
}

func (c *checker) arityError(pos lexer.Position, what string, want, got int) {
	c.errorf(pos, "%s expects %d argument%s, got %d", what, want, plural(want), got)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (c *checker) checkTypes(ids []*ident, terms []Term, sc *scope, params []Param, what string) {
	d := c.d
	for i, t := range terms {
		want := params[i].Type
		if t.IsVar() {
			if t.Var() >= len(sc.vars) {
				continue
			}
			got := sc.vars[t.Var()].Type
			if !c.compatible(got, want) {
				c.errorf(ids[i].Pos, "argument %d of %s must be of type %s, but %s is of type %s", i+1, what, d.Types[want].Name, ids[i].Value, d.Types[got].Name)
			}
			continue
		}
		if t == badTerm {
			continue
		}
		got := c.objectType(t.Obj())
		if !d.IsSubtype(got, want) {
			c.errorf(ids[i].Pos, "argument %d of %s must be of type %s, but %s is of type %s", i+1, what, d.Types[want].Name, ids[i].Value, d.Types[got].Name)
		}
	}
}

func (c *checker) objectType(i int) int {
	if c.p != nil {
		return c.p.Objects[i].Type
	}
	return c.d.Constants[i].Type
}

// badTerm stands for a name that could not be resolved (and was reported).
const badTerm Term = math.MinInt32

// term resolves a variable (in sc) or a constant/object. Unknown names are
// reported and resolved to a harmless placeholder.
func (c *checker) term(id *ident, sc *scope) Term {
	if strings.HasPrefix(id.Value, "?") {
		if i, ok := sc.index[id.Value]; ok {
			return VarTerm(i)
		}
		c.errorf(id.Pos, "unknown variable %s", id.Value)
		return badTerm
	}
	if c.p != nil {
		if i, ok := c.p.objIndex[id.Value]; ok {
			return ObjTerm(i)
		}
		c.errorf(id.Pos, "unknown object %s", id.Value)
		return badTerm
	}
	if i, ok := c.d.constIndex[id.Value]; ok {
		return ObjTerm(i)
	}
	c.errorf(id.Pos, "unknown constant %s", id.Value)
	return badTerm
}

// ---------------------------------------------------------------- networks

// network reads the subtasks and ordering of a method or of :htn.
func (c *checker) network(subs *item, ord *orderingList, sc *scope, where string) Network {
	var net Network
	ids := map[string]int{}
	ordered := false
	if subs != nil {
		ordered = strings.Contains(strings.ToLower(subs.SubtaskKey), "ordered")
		var bodies []*subtaskBody
		l := subs.Subtasks
		if l.Single != nil {
			bodies = append(bodies, l.Single)
		}
		for _, e := range l.Entries {
			bodies = append(bodies, e.Body)
		}
		for _, b := range bodies {
			st, ok := c.subtask(b, sc)
			if !ok {
				continue
			}
			if st.ID != "" {
				if prev, dup := ids[st.ID]; dup {
					c.errorf(b.First.Pos, "duplicate subtask id %s (first at %s)", st.ID, net.Subtasks[prev].Pos)
				} else {
					ids[st.ID] = len(net.Subtasks)
				}
			}
			net.Subtasks = append(net.Subtasks, st)
		}
	}
	var order []Order
	if ordered {
		for i := 1; i < len(net.Subtasks); i++ {
			order = append(order, Order{Before: i - 1, After: i, Pos: net.Subtasks[i].Pos})
		}
	}
	if ord != nil {
		var pairs []*orderBody
		if ord.Single != nil {
			pairs = append(pairs, ord.Single)
		}
		for _, p := range ord.Pairs {
			pairs = append(pairs, p.Body)
		}
		for _, p := range pairs {
			if p.Op != "<" && p.Op != ">" {
				c.errorf(p.Pos, "expected \"<\" in an ordering constraint, found %q", p.Op)
				continue
			}
			if len(p.IDs) != 2 {
				c.errorf(p.Pos, "an ordering constraint needs two subtask ids, got %d", len(p.IDs))
				continue
			}
			a, okA := c.subtaskID(p.IDs[0], ids)
			b, okB := c.subtaskID(p.IDs[1], ids)
			if !okA || !okB {
				continue
			}
			if p.Op == ">" {
				a, b = b, a
			}
			if a == b {
				c.errorf(p.Pos, "cyclic ordering %s < %s", p.IDs[0].Value, p.IDs[0].Value)
				continue
			}
			order = append(order, Order{Before: a, After: b, Pos: posOf(p.Pos)})
		}
	}
	return c.finishNetwork(net.Subtasks, order, where)
}

func (c *checker) subtaskID(id *ident, ids map[string]int) (int, bool) {
	i, ok := ids[id.Value]
	if !ok {
		c.errorf(id.Pos, "unknown subtask id %s", id.Value)
	}
	return i, ok
}

func (c *checker) subtask(b *subtaskBody, sc *scope) (Subtask, bool) {
	d := c.d
	name, args, id := b.First, b.Args, ""
	if b.Call != nil {
		id = b.First.Value
		name = b.Call.Name
		if len(b.Args) > 0 {
			c.errorf(b.Args[0].Pos, "expected \")\" after subtask %s, found %s", id, b.Args[0].Value)
		}
		args = b.Call.Args
	}
	st := Subtask{ID: id, Pos: posOf(b.First.Pos)}
	if i, ok := d.taskIndex[name.Value]; ok {
		st.Task = TaskRef{Index: i}
	} else if i, ok := d.actionIndex[name.Value]; ok {
		st.Task = TaskRef{Primitive: true, Index: i}
	} else {
		c.errorf(name.Pos, "unknown task %s", name.Value)
		for _, a := range args {
			c.term(a, sc)
		}
		return st, false
	}
	what := "task " + name.Value
	if st.Task.Primitive {
		what = "action " + name.Value
	}
	st.Args = c.args(name.Pos, args, sc, d.TaskParams(st.Task), what)
	st.Pos = posOf(name.Pos)
	if id != "" {
		st.Pos = posOf(b.First.Pos)
	}
	return st, true
}

// finishNetwork checks the ordering for cycles and, if it is total, stores
// the subtasks in that order.
func (c *checker) finishNetwork(subs []Subtask, order []Order, where string) Network {
	n := len(subs)
	succ := make([][]int, n)
	indeg := make([]int, n)
	seen := map[[2]int]bool{}
	var uniq []Order
	for _, o := range order {
		k := [2]int{o.Before, o.After}
		if seen[k] {
			continue
		}
		seen[k] = true
		uniq = append(uniq, o)
		succ[o.Before] = append(succ[o.Before], o.After)
		indeg[o.After]++
	}
	// Kahn's algorithm, smallest index first; the order is total iff at
	// every step exactly one task is ready.
	ready := []int{}
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	total := true
	var lin []int
	for len(ready) > 0 {
		if len(ready) > 1 {
			total = false
		}
		sort.Ints(ready)
		x := ready[0]
		ready = ready[1:]
		lin = append(lin, x)
		for _, y := range succ[x] {
			indeg[y]--
			if indeg[y] == 0 {
				ready = append(ready, y)
			}
		}
	}
	if len(lin) < n {
		c.reportCycle(subs, succ, indeg, where)
		return Network{Subtasks: subs, Ordering: uniq}
	}
	if !total {
		return Network{Subtasks: subs, Ordering: uniq}
	}
	net := Network{Total: true, Subtasks: make([]Subtask, n)}
	for i, x := range lin {
		net.Subtasks[i] = subs[x]
	}
	for i := 1; i < n; i++ {
		net.Ordering = append(net.Ordering, Order{Before: i - 1, After: i})
	}
	return net
}

func (c *checker) reportCycle(subs []Subtask, succ [][]int, indeg []int, where string) {
	// Find a cycle among the tasks left with a positive in-degree.
	n := len(subs)
	color := make([]int8, n)
	var path []int
	var cycle []int
	var dfs func(x int) bool
	dfs = func(x int) bool {
		color[x] = 1
		path = append(path, x)
		for _, y := range succ[x] {
			if color[y] == 1 {
				for i, p := range path {
					if p == y {
						cycle = append(append([]int(nil), path[i:]...), y)
					}
				}
				return true
			}
			if color[y] == 0 && dfs(y) {
				return true
			}
		}
		path = path[:len(path)-1]
		color[x] = 2
		return false
	}
	for i := 0; i < n && cycle == nil; i++ {
		if indeg[i] > 0 && color[i] == 0 {
			dfs(i)
		}
	}
	names := make([]string, len(cycle))
	for i, x := range cycle {
		names[i] = subs[x].ID
		if names[i] == "" {
			names[i] = fmt.Sprintf("#%d", x+1)
		}
	}
	pos := Pos{}
	if len(cycle) > 0 {
		pos = subs[cycle[0]].Pos
	}
	c.errs.Add(pos, "cyclic ordering %s in %s", strings.Join(names, " < "), where)
}
