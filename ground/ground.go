package ground

import (
	"context"
	"fmt"
	"sync"
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
	// GrowRoom is the room for actions a growing task starts with (Grow;
	// zero means growRoom). It doubles as the actions outgrow it.
	GrowRoom int
	// NoReach leaves out a growing task's reachability pass (NewGrow),
	// whose facts filter the instances it serves: a search that must be
	// quick to start skips it.
	NoReach bool
}

// DefaultMaxGround is the default budget of ground actions plus methods.
const DefaultMaxGround = 3_000_000

// ErrUnsolvable is wrapped by the error of a problem that grounding shows
// to have no solution (an initial task or a goal that can never be met).
// It is plan.ErrUnsolvable.
var ErrUnsolvable = plan.ErrUnsolvable

// ErrTooLarge is wrapped by the error of a grounding that exceeds its
// budget (Options.MaxGround). It wraps plan.ErrTooLarge.
var ErrTooLarge = fmt.Errorf("grounding %w", plan.ErrTooLarge)

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

type grounder struct {
	ctx  context.Context
	err  error // the context's, once a loop saw it end (see stopped)
	p    *hddl.Problem
	d    *hddl.Domain
	opt  Options
	norm *normalizer
	j    *joiner
	// reachable counts the reachable action instances (over their bound
	// parameters, for actions with free parameters), against MaxGround
	reachable int
	effKey    []int32 // scratch of newEffectKey
	rel       *relevance
	stats     *Stats

	static  []bool      // per predicate: no action changes it
	rels    []*relation // per predicate: static facts, or reachable fluent facts
	factIDs [][]int32   // per fluent predicate: tuple index -> fact id
	facts   []Fact      // fluent facts by id
	initSet []bool      // per fact: true initially (grows with facts)
	// delRel, per fluent predicate that some precondition negates: the
	// initially true facts that a reachable action deletes (nil for the
	// other predicates); initOf lists the initially true facts by predicate
	delRel []*relation
	initOf [][]int32

	types

	actions [][]*schema // per lifted action: its disjuncts (0 or 1)
	methods [][]*schema // per lifted method: its disjuncts
	// actRel per lifted action: the tuples of its reachable instances over
	// its kept parameters (all of them unless some are free); methods join
	// over it. actFull, for actions with free parameters only, holds the
	// full parameter tuples of the instances made on demand; actGID maps a
	// tuple index of actFull (or of actRel) to the ground action, -1 until
	// one is asked for.
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

	// slabs for the small slices kept per ground task and method
	// (arguments, bindings, subtasks), so each is not an allocation
	ints    slab[int32]
	refs    slab[gRef]
	objArgs slab[int]
	// freeBindings is the pool of scratch
	freeBindings [][]int32
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
	schema *schema // nil for the methods of a choice or split task
	// split and owner, for the methods of a split task: the split, and the
	// method schema it was split from (binding then covers its variables)
	split    *split
	owner    *schema
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
	g := newGrounder(ctx, p, opt)
	s := scratchPool.Get().(*scratch)
	g.facts, g.gActs, g.gTasks, g.gMethods = s.facts, s.gActs, s.gTasks, s.gMethods
	t, err := g.run()
	g.stats.JoinSteps = g.j.steps
	s.keep(g)
	scratchPool.Put(s)
	return t, g.stats, err
}

// newGrounder prepares a grounding of p under opt (budgets set).
func newGrounder(ctx context.Context, p *hddl.Problem, opt Options) *grounder {
	g := &grounder{
		ctx:   ctx,
		p:     p,
		d:     p.Domain,
		opt:   opt,
		norm:  &normalizer{ctx: ctx, p: p, types: map[int][]int{}, budget: int64(opt.MaxGround)},
		stats: &Stats{},
		types: newTypes(p),
	}
	g.j = &joiner{ctx: ctx, objOf: g.objectsOf, isOfType: g.isOfType, canBeFalse: g.canBeFalse, maxSteps: opt.MaxSteps}
	return g
}

// scratch holds the grounder's lists of reachable facts, actions, tasks
// and methods for the next grounding in the process: the Task is built
// from copies of them, and growing them anew was a fifth of the bytes
// grounding a 9x9 Sudoku allocates (BenchmarkGroundPaper).
type scratch struct {
	facts    []Fact
	gActs    []gAction
	gTasks   []gTask
	gMethods []gMethod
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxScratch is the longest list kept for the next grounding: a large
// problem's lists are left to the collector rather than held through
// its search.
const maxScratch = 1 << 14

// keep takes g's lists, emptied, if they are short enough to keep.
func (s *scratch) keep(g *grounder) {
	s.facts = reuse(g.facts)
	s.gActs = reuse(g.gActs)
	s.gTasks = reuse(g.gTasks)
	s.gMethods = reuse(g.gMethods)
}

// reuse is xs emptied and cleared (so that it holds no pointers), or nil
// if it is too long to keep.
func reuse[T any](xs []T) []T {
	if cap(xs) > maxScratch {
		return nil
	}
	clear(xs)
	return xs[:0]
}

func (g *grounder) run() (*Task, error) {
	start := time.Now()
	if err := g.prepare(); err != nil {
		return nil, err
	}
	start = g.stats.stage("normalise", start)
	g.rel = g.relevance()
	if g.err != nil {
		return nil, g.err
	}
	start = g.stats.stage("relevance", start)
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

// types answers which objects a type has, once per type.
type types struct {
	p     *hddl.Problem
	objs  [][]int  // per type, once asked for
	masks [][]bool // per type, once asked for
}

func newTypes(p *hddl.Problem) types {
	return types{p: p, objs: make([][]int, len(p.Domain.Types)), masks: make([][]bool, len(p.Domain.Types))}
}

// objectsOf lists the objects of type t (its subtypes' included).
func (ty *types) objectsOf(t int) []int {
	if objs := ty.objs[t]; objs != nil {
		return objs
	}
	objs := ty.p.ObjectsOfType(t)
	if objs == nil {
		objs = []int{}
	}
	ty.objs[t] = objs
	return objs
}

// isOfType reports whether object o is of type t.
func (ty *types) isOfType(o, t int) bool {
	m := ty.masks[t]
	if m == nil {
		m = make([]bool, len(ty.p.Objects))
		for _, x := range ty.objectsOf(t) {
			m[x] = true
		}
		ty.masks[t] = m
	}
	return o >= 0 && o < len(m) && m[o]
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
	return fmt.Errorf("%w: more than %d ground actions and methods (the budget) while instantiating %s%s", ErrTooLarge, g.opt.MaxGround, s.name, g.sizeNote(s))
}

// sizeNote estimates, for the error of a grounding over its budget, how
// large the full grounding would be: the instances the types of the
// refused schema's parameters allow, and those of every action and method
// together. It is an upper bound (the reachability analysis keeps fewer),
// and the order of magnitude that matters.
func (g *grounder) sizeNote(s *schema) string {
	d := g.d
	product := func(ps []hddl.Param) float64 {
		n := 1.0
		for _, p := range ps {
			n *= float64(len(g.objectsOf(p.Type)))
		}
		return n
	}
	total := 0.0
	for i := range d.Actions {
		total += product(d.Actions[i].Params())
	}
	for i := range d.Methods {
		total += product(d.Methods[i].Params())
	}
	return fmt.Sprintf(" (its parameters' types allow %s instances; all actions and methods together up to %s)", approx(product(s.vars[:s.nparams])), approx(total))
}

// approx writes a count exactly up to a billion, in scientific notation
// beyond.
func approx(x float64) string {
	if x < 1e9 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1e", x)
}
