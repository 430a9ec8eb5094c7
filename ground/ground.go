package ground

import (
	"context"
	"fmt"
	"time"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
)

// Options bound the work of Ground.
type Options struct {
	// MaxGround is the most ground actions plus methods that may be built
	// (before pruning). Zero means DefaultMaxGround.
	MaxGround int
	// MaxSteps bounds the tuples and objects the joins may visit. Zero
	// means a budget proportional to MaxGround.
	MaxSteps int64
}

// DefaultMaxGround is the default budget of ground actions plus methods.
const DefaultMaxGround = 3_000_000

// ErrUnsolvable is wrapped by the error of a problem that grounding shows
// to have no solution (an initial task or a goal that can never be met).
// It is plan.ErrUnsolvable.
var ErrUnsolvable = plan.ErrUnsolvable

// ErrTooLarge is wrapped by the error of a grounding that exceeds its
// budget. It is plan.ErrTooLarge.
var ErrTooLarge = plan.ErrTooLarge

// Stage is one timed step of grounding.
type Stage struct {
	Name     string
	Duration time.Duration
}

// Stats describes a grounding run.
type Stats struct {
	Stages []Stage
	// ReachableFacts is the number of fluent facts of the delete-relaxed
	// reachability analysis.
	ReachableFacts int
	// Built counts the ground actions and methods instantiated before
	// pruning; the Task holds what survived.
	BuiltActions, BuiltMethods, BuiltTasks int
	// PossibleTasks is the number of compound task instances that can be
	// decomposed into reachable actions, found bottom-up.
	PossibleTasks int
	// Instances counts the final ground instances of each lifted action and
	// method, by name.
	ActionInstances map[string]int
	MethodInstances map[string]int
	JoinSteps       int64
}

func (s *Stats) stage(name string, start time.Time) time.Time {
	now := time.Now()
	s.Stages = append(s.Stages, Stage{Name: name, Duration: now.Sub(start)})
	return now
}

// schema is a lifted action or method after normalisation: one disjunct
// of its precondition, as a query over its variables.
type schema struct {
	name    string // "action FILL-CELL" or "method m-check-row"
	lifted  int    // index of the lifted action or method
	vars    []hddl.Param
	nparams int
	pos     []lit // positive atoms
	neg     []lit // negative atoms
	q       *query
	// atomLit[i] is the index in pos of query atom i, or -1 for an atom
	// that is a primitive subtask.
	atomLit []int
	plans   map[int]*joinPlan // by anchor atom (-1: none) for actions, by 0 for methods
	effects []effect          // actions
	effSeen []*relation       // per effect of an action with free parameters: bound values enumerated (see newEffectKey)
	// kept lists an action's parameters that occur in its precondition;
	// the others are free (see freeParams). nil for methods.
	kept []int
	free bool // some parameter is free
	// splits are the groups of a method's variables split off into
	// synthetic tasks (split.go); main is then the query of the rest, and
	// splitOf[k] the split that replaces subtask k, or -1.
	splits  []*split
	main    *query
	splitOf []int
}

type grounder struct {
	ctx  context.Context
	p    *hddl.Problem
	d    *hddl.Domain
	opt  Options
	norm *normalizer
	j    *joiner
	// partial counts the reachable instances, over their bound parameters,
	// of actions with free parameters (see freeParams), against MaxGround
	partial int
	effKey  []int32 // scratch of newEffectKey
	stats   *Stats

	static  []bool      // per predicate: no action changes it
	rels    []*relation // per predicate: static facts, or reachable fluent facts
	factIDs [][]int32   // per fluent predicate: tuple index -> fact id
	facts   []Fact      // fluent facts by id
	initSet []bool      // per fact: true initially (grows with facts)

	typeObjs  [][]int  // per type, once asked for
	typeMasks [][]bool // per type, once asked for

	actions [][]*schema // per lifted action: its disjuncts (0 or 1)
	methods [][]*schema // per lifted method: its disjuncts
	// actRel per lifted action: the tuples of its reachable instances over
	// its kept parameters (all of them unless some are free); methods join
	// over it. actFull, for actions with free parameters only, holds the
	// full parameter tuples of the instances made on demand; actGID maps a
	// tuple index of actFull (or of actRel) to the ground action.
	actRel  []*relation
	actFull []*relation
	actGID  [][]int32
	gActs   []gAction

	taskRel []*relation // per lifted task: argument tuples of its instances
	taskGID [][]int32
	// buRel per lifted task: the argument tuples for which the task can be
	// decomposed into reachable actions (bottom-up, delete-relaxed)
	buRel    []*relation
	needBU   []bool // tasks whose bottom-up relation is computed and used
	gTasks   []gTask
	gMethods []gMethod

	initial      []gRef
	initialOrder []Order
	initialTotal bool
}

// gRef names a ground action (prim) or ground compound task by its index
// in gActs or gTasks.
type gRef struct {
	prim bool
	idx  int32
}

type gAction struct {
	schema  *schema
	binding []int32
	pre     []int32 // fact ids, filled after reachability
	negPre  []int32
	add     []int32
	del     []int32
}

type gTask struct {
	schema  int // lifted task, or -1 for a synthetic task
	args    []int32
	methods []int32
	split   *split  // for the synthetic task of a split method
	owner   *schema // the split method
}

type gMethod struct {
	schema   *schema // nil for the methods of a choice task
	binding  []int32
	task     int32
	pre      []int32
	negPre   []int32
	subtasks []gRef
	ordering []Order
	total    bool
}

// Ground builds the ground task of p: actions and methods instantiated by
// joins over the static facts, the delete-relaxed reachable facts and the
// reachable actions, restricted to what the initial task network can reach
// and pruned to a fixpoint. It fails with an error wrapping ErrTooLarge when
// the budget runs out, ErrUnsolvable when grounding proves the problem has
// no solution, and the context's error when ctx ends.
func Ground(ctx context.Context, p *hddl.Problem, opt Options) (*Task, *Stats, error) {
	if opt.MaxGround <= 0 {
		opt.MaxGround = DefaultMaxGround
	}
	if opt.MaxSteps <= 0 {
		opt.MaxSteps = 100 * int64(opt.MaxGround)
	}
	g := &grounder{
		ctx:       ctx,
		p:         p,
		d:         p.Domain,
		opt:       opt,
		norm:      &normalizer{p: p, types: map[int][]int{}},
		stats:     &Stats{},
		typeObjs:  make([][]int, len(p.Domain.Types)),
		typeMasks: make([][]bool, len(p.Domain.Types)),
	}
	g.j = &joiner{ctx: ctx, objOf: g.objectsOf, isOfType: g.isOfType, maxSteps: opt.MaxSteps}
	t, err := g.run()
	g.stats.JoinSteps = g.j.steps
	return t, g.stats, err
}

func (g *grounder) run() (*Task, error) {
	start := time.Now()
	if err := g.prepare(); err != nil {
		return nil, err
	}
	start = g.stats.stage("normalise", start)
	if err := g.reach(); err != nil {
		return nil, err
	}
	g.stats.ReachableFacts = len(g.facts)
	start = g.stats.stage("reachability", start)
	if err := g.bottomUp(); err != nil {
		return nil, err
	}
	start = g.stats.stage("bottom-up", start)
	if err := g.instantiate(); err != nil {
		return nil, err
	}
	g.stats.BuiltActions, g.stats.BuiltMethods, g.stats.BuiltTasks = len(g.gActs), len(g.gMethods), len(g.gTasks)
	start = g.stats.stage("instantiate", start)
	t, err := g.prune()
	g.stats.stage("prune", start)
	if err != nil {
		return nil, err
	}
	g.count(t)
	return t, nil
}

func (g *grounder) objectsOf(t int) []int {
	if objs := g.typeObjs[t]; objs != nil {
		return objs
	}
	objs := g.p.ObjectsOfType(t)
	if objs == nil {
		objs = []int{}
	}
	g.typeObjs[t] = objs
	return objs
}

func (g *grounder) isOfType(o, t int) bool {
	m := g.typeMasks[t]
	if m == nil {
		m = make([]bool, len(g.p.Objects))
		for _, x := range g.objectsOf(t) {
			m[x] = true
		}
		g.typeMasks[t] = m
	}
	return o >= 0 && o < len(m) && m[o]
}

// prepare finds the static predicates, loads the initial state and
// normalises every action and method.
func (g *grounder) prepare() error {
	d := g.d
	np := len(d.Predicates)
	g.static = make([]bool, np)
	for i := range g.static {
		g.static[i] = true
	}
	for ai := range d.Actions {
		g.norm.scopeVars = d.Actions[ai].Vars
		effs, err := g.norm.effects(d.Actions[ai].Effect, nil, nil)
		if err != nil {
			return fmt.Errorf("action %s: %w", d.Actions[ai].Name, err)
		}
		for _, e := range effs {
			g.static[e.pred] = false
		}
	}
	g.rels = make([]*relation, np)
	g.factIDs = make([][]int32, np)
	for i, pr := range d.Predicates {
		g.rels[i] = newRelation(len(pr.Params))
	}
	tup := make([]int32, 0, 8)
	for _, a := range g.p.Init {
		tup = tup[:0]
		for _, o := range a.Args {
			tup = append(tup, int32(o))
		}
		if g.static[a.Pred] {
			g.rels[a.Pred].add(tup)
		} else if id, isNew := g.addFact(a.Pred, tup); isNew {
			g.initSet[id] = true
		}
	}
	g.actions = make([][]*schema, len(d.Actions))
	g.actRel = make([]*relation, len(d.Actions))
	g.actFull = make([]*relation, len(d.Actions))
	g.actGID = make([][]int32, len(d.Actions))
	for ai := range d.Actions {
		a := &d.Actions[ai]
		ss, err := g.actionSchemas(ai)
		if err != nil {
			return err
		}
		g.actions[ai] = ss
		g.actRel[ai] = newRelation(a.NumParams)
		if len(ss) == 1 && ss[0].free {
			g.actRel[ai] = newRelation(len(ss[0].kept))
			g.actFull[ai] = newRelation(a.NumParams)
		}
	}
	g.taskRel = make([]*relation, len(d.Tasks))
	g.taskGID = make([][]int32, len(d.Tasks))
	g.buRel = make([]*relation, len(d.Tasks))
	for ti, t := range d.Tasks {
		g.taskRel[ti] = newRelation(len(t.Params))
		g.buRel[ti] = newRelation(len(t.Params))
	}
	dnfs := make([][]conj, len(d.Methods))
	for mi := range d.Methods {
		m := &d.Methods[mi]
		g.norm.scopeVars = m.Vars
		dnf, err := g.norm.dnf(m.Precondition, false, nil)
		if err != nil {
			return fmt.Errorf("method %s: %w", m.Name, err)
		}
		dnfs[mi] = dnf
	}
	g.needBU = g.demand(dnfs)
	g.methods = make([][]*schema, len(d.Methods))
	for mi := range d.Methods {
		g.methods[mi] = g.methodSchemas(mi, dnfs[mi])
	}
	return nil
}

// addFact adds a reachable fluent fact and returns its id.
func (g *grounder) addFact(pred int, tup []int32) (int32, bool) {
	ti, isNew := g.rels[pred].add(tup)
	if !isNew {
		return g.factIDs[pred][ti], false
	}
	id := int32(len(g.facts))
	args := make([]int, len(tup))
	for i, x := range tup {
		args[i] = int(x)
	}
	g.facts = append(g.facts, Fact{Pred: pred, Args: args})
	g.initSet = append(g.initSet, false)
	g.factIDs[pred] = append(g.factIDs[pred], id)
	return id, true
}

// factOf returns the id of a reachable fluent fact, or -1.
func (g *grounder) factOf(pred int, tup []int32) int32 {
	if ti, ok := g.rels[pred].find(tup); ok {
		return g.factIDs[pred][ti]
	}
	return -1
}

// newSchema builds the query of one disjunct: positive static and fluent
// atoms are joined, equalities and negated static atoms are filters,
// negated fluent atoms are kept for the ground precondition.
func (g *grounder) newSchema(name string, lifted int, vars []hddl.Param, nparams int, c conj) *schema {
	s := &schema{name: name, lifted: lifted, vars: vars, nparams: nparams, plans: map[int]*joinPlan{}}
	q := &query{name: name, vars: vars, need: make([]bool, len(vars)), skip: make([]bool, len(vars))}
	for _, l := range c {
		switch {
		case l.pred == eqPred && !l.neg:
			q.filters = append(q.filters, filter{kind: fEqual, args: l.args})
		case l.pred == eqPred:
			q.filters = append(q.filters, filter{kind: fNotEqual, args: l.args})
		case !l.neg:
			s.pos = append(s.pos, l)
			s.atomLit = append(s.atomLit, len(s.pos)-1)
			q.atoms = append(q.atoms, atom{rel: g.rels[l.pred], args: l.args, desc: g.d.Predicates[l.pred].Name})
		case g.static[l.pred]:
			q.filters = append(q.filters, filter{kind: fNotIn, rel: g.rels[l.pred], args: l.args})
		default:
			s.neg = append(s.neg, l)
		}
	}
	s.q = q
	return s
}

func (g *grounder) actionSchemas(ai int) ([]*schema, error) {
	a := &g.d.Actions[ai]
	g.norm.scopeVars = a.Vars
	dnf, err := g.norm.dnf(a.Precondition, false, nil)
	if err != nil {
		return nil, fmt.Errorf("action %s: %w", a.Name, err)
	}
	if len(dnf) > 1 {
		return nil, fmt.Errorf("%s: action %s: disjunctive preconditions of actions are %w", a.Pos, a.Name, errNotSupported)
	}
	effs, err := g.norm.effects(a.Effect, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("action %s: %w", a.Name, err)
	}
	var out []*schema
	for _, c := range dnf {
		s := g.newSchema("action "+a.Name, ai, a.Vars, a.NumParams, c)
		s.effects = effs
		s.kept, s.free = freeParams(s)
		for v := range a.Vars {
			s.q.need[v] = v < a.NumParams
			s.q.skip[v] = v >= a.NumParams
		}
		for v := 0; v < a.NumParams; v++ {
			s.q.need[v], s.q.skip[v] = false, true
		}
		for _, v := range s.kept {
			s.q.need[v], s.q.skip[v] = true, false
		}
		for _, l := range c {
			for _, t := range l.args {
				if t.IsVar() && t.Var() >= a.NumParams {
					return nil, fmt.Errorf("%s: action %s: existential preconditions of actions are %w", a.Pos, a.Name, errNotSupported)
				}
			}
		}
		out = append(out, s)
	}
	return out, nil
}

func (g *grounder) methodSchemas(mi int, dnf []conj) []*schema {
	m := &g.d.Methods[mi]
	var out []*schema
	for _, c := range dnf {
		s := g.newSchema("method "+m.Name, mi, m.Vars, m.NumParams, c)
		// subtasks are atoms over the reachable actions and, where they
		// bind variables, over the compound task instances that can be
		// decomposed bottom-up
		for _, st := range m.Network.Subtasks {
			switch {
			case st.Task.Primitive:
				s.q.atoms = append(s.q.atoms, atom{rel: g.actRel[st.Task.Index], args: g.keptArgs(st.Task.Index, st.Args), desc: g.d.Actions[st.Task.Index].Name})
				s.atomLit = append(s.atomLit, -1)
			case g.needBU[st.Task.Index]:
				s.q.atoms = append(s.q.atoms, atom{rel: g.buRel[st.Task.Index], args: st.Args, desc: g.d.Tasks[st.Task.Index].Name})
				s.atomLit = append(s.atomLit, -1)
			}
			for _, t := range st.Args {
				if t.IsVar() {
					s.q.need[t.Var()] = true
				}
			}
		}
		for _, t := range m.TaskArgs {
			if t.IsVar() {
				s.q.need[t.Var()] = true
			}
		}
		for _, l := range c {
			for _, t := range l.args {
				if t.IsVar() {
					s.q.need[t.Var()] = true
				}
			}
		}
		// quantified variables that were expanded away take no value
		for v := m.NumParams; v < len(m.Vars); v++ {
			s.q.skip[v] = !s.q.need[v]
		}
		g.splitMethod(s, m)
		out = append(out, s)
	}
	return out
}

// demand decides which tasks get a bottom-up relation: those whose
// instances bind a variable that nothing else binds, in a method's
// top-down query (where the task's arguments are bound) or in the initial
// network, and then, for the rules computing such a relation (where nothing
// is bound beforehand), the tasks that bind variables there. Elsewhere a
// compound subtask would only filter, and its relation, which counts every
// instance the task could have anywhere, could be far larger than the
// instances the hierarchy reaches (all houses of a Minecraft world).
func (g *grounder) demand(dnfs [][]conj) []bool {
	d := g.d
	need := make([]bool, len(d.Tasks))
	// bound returns the variables bound by atoms other than compound
	// subtasks, equalities with bound terms included
	bound := func(m *hddl.Method, c conj, topDown bool) []bool {
		b := make([]bool, len(m.Vars))
		if topDown {
			for _, t := range m.TaskArgs {
				if t.IsVar() {
					b[t.Var()] = true
				}
			}
		}
		for _, l := range c {
			if l.pred != eqPred && !l.neg {
				for _, t := range l.args {
					if t.IsVar() {
						b[t.Var()] = true
					}
				}
			}
		}
		for _, st := range m.Network.Subtasks {
			if st.Task.Primitive {
				for _, t := range g.keptArgs(st.Task.Index, st.Args) {
					if t.IsVar() {
						b[t.Var()] = true
					}
				}
			}
		}
		for changed := true; changed; {
			changed = false
			for _, l := range c {
				if l.pred != eqPred || l.neg {
					continue
				}
				x, y := l.args[0], l.args[1]
				xb, yb := !x.IsVar() || b[x.Var()], !y.IsVar() || b[y.Var()]
				if xb != yb {
					if x.IsVar() {
						b[x.Var()] = true
					}
					if y.IsVar() {
						b[y.Var()] = true
					}
					changed = true
				}
			}
		}
		return b
	}
	mark := func(m *hddl.Method, c conj, topDown bool) bool {
		b := bound(m, c, topDown)
		changed := false
		for _, st := range m.Network.Subtasks {
			if st.Task.Primitive || need[st.Task.Index] {
				continue
			}
			for _, t := range st.Args {
				if t.IsVar() && !b[t.Var()] {
					need[st.Task.Index] = true
					changed = true
					break
				}
			}
		}
		return changed
	}
	for mi := range d.Methods {
		for _, c := range dnfs[mi] {
			mark(&d.Methods[mi], c, true)
		}
	}
	// the initial network: free variables of compound tasks that no
	// primitive task of the network binds
	net := &g.p.Initial
	bnd := make([]bool, len(g.p.Vars))
	for _, st := range net.Subtasks {
		if st.Task.Primitive {
			for _, t := range g.keptArgs(st.Task.Index, st.Args) {
				if t.IsVar() {
					bnd[t.Var()] = true
				}
			}
		}
	}
	for _, st := range net.Subtasks {
		if st.Task.Primitive {
			continue
		}
		for _, t := range st.Args {
			if t.IsVar() && !bnd[t.Var()] {
				need[st.Task.Index] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for mi := range d.Methods {
			if !need[d.Methods[mi].Task] {
				continue
			}
			for _, c := range dnfs[mi] {
				if mark(&d.Methods[mi], c, false) {
					changed = true
				}
			}
		}
	}
	return need
}

// count fills the per-schema instance counts of the final task.
func (g *grounder) count(t *Task) {
	d := g.d
	g.stats.ActionInstances = map[string]int{}
	g.stats.MethodInstances = map[string]int{}
	for _, a := range d.Actions {
		g.stats.ActionInstances[a.Name] = 0
	}
	for _, m := range d.Methods {
		g.stats.MethodInstances[m.Name] = 0
	}
	for _, a := range t.Actions {
		g.stats.ActionInstances[d.Actions[a.Schema].Name]++
	}
	for _, m := range t.Methods {
		if m.Schema >= 0 {
			g.stats.MethodInstances[d.Methods[m.Schema].Name]++
		}
	}
}

// budget fails when the ground actions and methods built exceed
// MaxGround, or the possible task instances four times that.
func (g *grounder) budget(s *schema) error {
	if len(g.gActs)+len(g.gMethods) <= g.opt.MaxGround && g.stats.PossibleTasks <= 4*g.opt.MaxGround {
		return nil
	}
	return fmt.Errorf("grounding %w: more than %d ground actions and methods (the budget, Options.MaxGround) while instantiating %s", ErrTooLarge, g.opt.MaxGround, s.name)
}

// freeParams splits an action's parameters into those its precondition
// mentions (in a positive atom or an equality or static filter), which the
// reachability analysis binds by joins, and the free others. Generated
// domains have many free parameters that only carry a value into the
// effects (the ConstantVariable parameters of the IPC Woodworking
// domain): enumerating them over their types while searching for
// reachable actions multiplies the actions by the product of the types,
// although the methods that use the action fix them. So a free parameter
// is left unbound in the analysis (the facts its effects add are counted
// for every value of its type), and a ground action is made only when a
// method or the initial network asks for it with all its arguments.
func freeParams(s *schema) (kept []int, free bool) {
	used := make([]bool, s.nparams)
	mark := func(args []hddl.Term) {
		for _, t := range args {
			if t.IsVar() && t.Var() < s.nparams {
				used[t.Var()] = true
			}
		}
	}
	for _, a := range s.q.atoms {
		mark(a.args)
	}
	for _, f := range s.q.filters {
		mark(f.args)
	}
	for v, u := range used {
		if u {
			kept = append(kept, v)
		} else {
			free = true
		}
	}
	return kept, free
}

// keptArgs returns the arguments of a primitive subtask at the kept
// parameters of its action: the columns of actRel.
func (g *grounder) keptArgs(ai int, args []hddl.Term) []hddl.Term {
	ss := g.actions[ai]
	if len(ss) != 1 || !ss[0].free {
		return args
	}
	out := make([]hddl.Term, len(ss[0].kept))
	for i, v := range ss[0].kept {
		out[i] = args[v]
	}
	return out
}
