package pipeline_test

import (
	"container/heap"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
)

// TestDifferential plans small random HTN problems with every engine and
// search (and, on every third problem, with each external SAT solver
// installed), and checks each answer against an independent brute-force
// planner (lProblem.ground, then oracle): no engine may call a problem
// unsolvable that has a plan, find a plan for one that has none (every
// plan is verified besides), prove a plan optimal that costs more than
// the cheapest, or overrun its time limit. The engines share the parser
// and the grounder; the oracle grounds by every binding and evaluates
// formulas as they stand.
//
// The problems have a type and its subtype, constants and problem
// objects, predicates, actions and tasks of arity 0 to 2, method
// variables with equality to each other and to constants, methods for one
// constant instance of their task, a variable in the initial network with
// constraints, action costs, negative preconditions, effects that add and
// delete one fact, forall effects, method preconditions with or, imply,
// exists and forall, action preconditions with forall, partial orders,
// recursion, and goals with conjunctive formulas. Conditional effects
// (when), disjunctive action preconditions and disjunctive goals are left
// out: htnsat refuses them with an error.
//
// It found five bugs of types without objects and one of the network's
// constraints (see seeds). With those fixed, seeds 0-1,499 passed; each
// of three changes to the oracle (method preconditions ignored, adds
// before deletes, a quantifier that skips an object) made it fail within
// 300 seeds.
func TestDifferential(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	type config struct {
		name string
		cfg  pipeline.Config
		// total: the engine plans totally ordered problems only
		total bool
	}
	configs := []config{
		{"progression", pipeline.Config{Engine: pipeline.Progression}, false},
		{"dfs", pipeline.Config{Engine: pipeline.Progression, HTN: htn.Options{Search: htn.DFS}}, false},
		{"gbfs", pipeline.Config{Engine: pipeline.Progression, HTN: htn.Options{Search: htn.GBFS}}, false},
		{"astar", pipeline.Config{Engine: pipeline.Progression, HTN: htn.Options{Search: htn.AStar}}, false},
		{"htn-sat", pipeline.Config{Engine: pipeline.SAT}, false},
		{"auto", pipeline.Config{Engine: pipeline.Auto, Cores: 2}, false},
		{"auto-one-core", pipeline.Config{Engine: pipeline.Auto, Cores: 1}, false},
		{"lazy", pipeline.Config{Engine: pipeline.Lazy}, true},
		// the search over the task as it grows, not closed first
		{"lazy-growing", pipeline.Config{Engine: pipeline.Lazy, HTN: htn.Options{NoClose: true}}, true},
		{"optimal", pipeline.Config{Engine: pipeline.Progression, Optimal: true}, false},
		{"optimal-sat", pipeline.Config{Engine: pipeline.SAT, Optimal: true}, false},
		{"optimize", pipeline.Config{Engine: pipeline.Progression, Optimize: true}, false},
	}
	// the external SAT solvers that are installed (.ci/run installs
	// them), on every third problem: a process a formula costs time
	for _, cmd := range []string{"minisat", "picosat", "cadical -q"} {
		if _, err := exec.LookPath(strings.Fields(cmd)[0]); err == nil {
			configs = append(configs, config{"htn-sat " + cmd, pipeline.Config{Engine: pipeline.SAT, SAT: satenc.Config{Solver: satenc.External{Command: cmd}}}, false})
		}
	}
	// each run's limit; a run may overrun it by a second at most
	const limit = time.Second
	var exact, solvable, checked int
	statuses := map[plan.Status]int{}
	// the seeds that found bugs, beyond the first n (with this
	// generator): exists and negated forall over a type without objects
	// were true (174, 970); the verifier asked quantified variables for an
	// object (187, 1135); an initial network whose unused variable has no
	// object was planned (887, 1148); the lazy engine used a method whose
	// unused parameter has none (84, 238, 646, 1143, 1341), and so planned
	// such an initial network (527, 1038); constraints on a network
	// variable no task uses went unchecked (486, 634)
	seeds := []uint64{84, 174, 187, 238, 486, 527, 634, 646, 887, 970, 1038, 1135, 1143, 1148, 1341}
	for seed := range uint64(n) {
		if !slices.Contains(seeds, seed) {
			seeds = append(seeds, seed)
		}
	}
	for _, seed := range seeds {
		rp := randomProblem(rand.New(rand.NewPCG(seed, 0x5EED)))
		dom, prob := rp.hddl()
		d, err := hddl.ParseDomain("random.hddl", []byte(dom))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, dom)
		}
		p, err := hddl.ParseProblem("random-problem.hddl", []byte(prob), d)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, prob)
		}
		o := rp.ground().oracle()
		if o.exact {
			exact++
		}
		if o.cost >= 0 {
			solvable++
		}
		for _, c := range configs {
			if c.total && (!rp.total() || rp.wCons != 0) {
				continue
			}
			if strings.HasPrefix(c.name, "htn-sat ") && seed%3 != 0 {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			began := time.Now()
			res, err := pipeline.Run(ctx, p, c.cfg)
			took := time.Since(began)
			cancel()
			st := plan.StatusOf(err)
			checked++
			statuses[st]++
			fail := func(format string, args ...any) {
				t.Errorf("seed %d, %s: %s\n%s\n%s", seed, c.name, fmt.Sprintf(format, args...), dom, prob)
			}
			if took > limit+time.Second {
				fail("%v for a limit of %v (%s)", took.Round(time.Millisecond), limit, st)
			}
			switch {
			case st == plan.Solved && o.exact && o.cost < 0:
				fail("a plan (cost %d) where the oracle finds none", res.Plan.TotalCost())
			case st == plan.Solved && o.cost >= 0 && res.Optimal && res.Plan.TotalCost() != int64(o.cost):
				fail("a plan of cost %d proven optimal; the cheapest costs %d", res.Plan.TotalCost(), o.cost)
			case st == plan.Solved && o.exact && res.Plan.TotalCost() < int64(o.cost):
				fail("a plan of cost %d, below the oracle's cheapest %d", res.Plan.TotalCost(), o.cost)
			case st == plan.Unsolvable && o.cost >= 0:
				fail("unsolvable (%v); the oracle has a plan of cost %d: %s", err, o.cost, o.plan)
			case st == plan.Failed:
				fail("error: %v", err)
			}
			if st == plan.Solved && !res.Verified {
				fail("plan not verified")
			}
		}
	}
	n = len(seeds)
	t.Logf("%d problems (%d decided exactly by the oracle, %d with a plan), %d runs: %v", n, exact, solvable, checked, statuses)
	if exact < n/2 || solvable < n/10 || solvable > n-n/8 {
		t.Errorf("the generator makes too few decided or solvable problems (%d decided, %d solvable of %d)", exact, solvable, n)
	}
}

// The ground problem the oracle searches. Task ids below len(acts) are
// actions, the others compound tasks.
type rProblem struct {
	nP              int
	acts            []rAct
	nC              int
	names           []string // actions, then compound tasks
	meths           []rMeth
	init            uint
	goal, goalNeg   uint
	goalOK          func(uint) bool // the goal's formula, if any
	initial         []int
	initialOrdering [][2]int
}

type rAct struct {
	pre, neg, add, del uint
	cost               int
	// ok, if set, must hold too; cond, if set, gives the conditional
	// effects' adds and deletes in a state
	ok   func(uint) bool
	cond func(uint) (add, del uint)
}

type rMeth struct {
	task     int // compound index
	pre, neg uint
	ok       func(uint) bool
	subtasks []int
	ordering [][2]int // indices into subtasks
}

func (rp *rProblem) nA() int            { return len(rp.acts) }
func (rp *rProblem) name(id int) string { return rp.names[id] }

// chain reports whether the ordering is i<i+1 for every i (how the
// generator writes a total order).
func chain(n int, ord [][2]int) bool {
	if n <= 1 {
		return true
	}
	if len(ord) != n-1 {
		return false
	}
	for i, e := range ord {
		if e != [2]int{i, i + 1} {
			return false
		}
	}
	return true
}

// A lifted random problem: one type, nObj constants, predicates of arity
// 0 or 1, actions and compound tasks of at most one parameter (?x), and
// methods that may bind a second variable (?y), with equality between
// the two. A literal's or a subtask's argument is argNone (arity 0), a
// constant (0..nObj-1), varX or varY.
type lProblem struct {
	nObj    int
	nConst  int    // objects 0..nConst-1 are the domain's constants, the others the problem's
	sub     []bool // per object: of type sub (a subtype of obj)
	w, wSub bool   // the initial network has a variable ?w (of type sub)
	arity   []int
	acts    []lAct
	tasks   []bool // compound task i takes ?x
	tasks2  []bool // and ?x2
	meths   []lMeth
	init    []lLit // constants only, positive
	goal    []lLit // constants only
	goalF   *lForm // a further goal formula, or nil
	// constraint on the initial network's variable: 0 none, 1 (= ?w c),
	// 2 (not (= ?w c)) for the constant wC
	wCons, wC       int
	initial         []lSub // constants only
	initialOrdering [][2]int
}

const (
	argNone = -1
	varX    = 100
	varY    = 101
	varZ    = 102 // bound by a quantifier
	varW    = 103 // the initial network's variable
	varX2   = 104 // an action's or task's second parameter
)

type lLit struct {
	pred, arg, arg2 int // arg2: the second argument of a binary predicate, else argNone
	neg             bool
}

type lAct struct {
	param    bool
	param2   bool // a second parameter, ?x2 (only with the first)
	pre, eff []lLit
	preF     *lForm // a further precondition, or nil
	effs     []lEff // conditional or quantified effects
	cost     int
}

// lForm is a formula: a literal, or and, or, not, imply, exists or forall
// (over varZ, one quantifier deep) of its subformulas.
type lForm struct {
	op   string
	lit  lLit
	subs []*lForm
	sub  bool // a quantifier over the objects of type sub
}

// lEff is an effect: its literal, for every object as varZ when forall,
// when cond (nil: always) holds.
type lEff struct {
	forall, sub bool
	cond        *lForm
	lit         lLit
}

type lSub struct{ task, arg, arg2 int } // task: action index, or len(acts)+compound; arg2 for a second parameter

type lMeth struct {
	task    int // compound index
	preF    *lForm
	y, ySub bool
	eq      int // 0: none, 1: (= ?x ?y), 2: (not (= ?x ?y))
	// eqC: 0 none, 1 (= v c), 2 (not (= v c)) for variable eqV and the
	// constant c
	eqC, eqV, c int
	// taskC, if 0 or more, is the constant the method's task takes
	// instead of ?x: the method decomposes that instance alone
	taskC    int
	pre      []lLit
	subtasks []lSub
	ordering [][2]int
}

func randomProblem(r *rand.Rand) *lProblem {
	lp := &lProblem{nObj: 1 + r.IntN(3)}
	lp.nConst = 1 + r.IntN(lp.nObj)
	for range lp.nObj {
		lp.sub = append(lp.sub, r.IntN(2) == 0)
	}
	// pool: the objects an argument may name (the constants in the
	// domain, every object in the problem)
	pool := lp.nConst
	for range 2 + r.IntN(3) {
		lp.arity = append(lp.arity, r.IntN(3))
	}
	// arg picks an argument for a predicate or task of the given arity
	// among the variables in scope and the constants
	arg := func(arity int, vars ...int) int {
		if arity == 0 {
			return argNone
		}
		if len(vars) > 0 && r.IntN(3) > 0 {
			return vars[r.IntN(len(vars))]
		}
		return r.IntN(pool)
	}
	mkLit := func(pred int, neg bool, vars ...int) lLit {
		l := lLit{pred: pred, arg: arg(lp.arity[pred], vars...), arg2: argNone, neg: neg}
		if lp.arity[pred] == 2 {
			l.arg2 = arg(2, vars...)
		}
		return l
	}
	lits := func(p float64, negP float64, vars ...int) []lLit {
		var ls []lLit
		for pr, a := range lp.arity {
			if x := r.Float64(); x < p+negP {
				_ = a
				ls = append(ls, mkLit(pr, x >= p, vars...))
			}
		}
		return ls
	}
	// form makes a formula at most depth deep over the variables in
	// scope; quantified says a quantifier is already open
	// (conj: only and and forall, the forms an action's precondition may
	// take: the grounder refuses disjunctions there)
	var form func(depth int, quantified, conj bool, vars ...int) *lForm
	form = func(depth int, quantified, conj bool, vars ...int) *lForm {
		if depth == 0 || r.IntN(3) == 0 {
			pr := r.IntN(len(lp.arity))
			return &lForm{op: "lit", lit: mkLit(pr, r.IntN(3) == 0, vars...)}
		}
		ops := []string{"and", "or", "not", "imply"}
		if conj {
			ops = ops[:1]
		}
		if !quantified {
			ops = append(ops, "forall")
			if !conj {
				ops = append(ops, "exists")
			}
		}
		f := &lForm{op: ops[r.IntN(len(ops))]}
		switch f.op {
		case "not":
			f.subs = []*lForm{form(depth-1, quantified, conj, vars...)}
		case "exists", "forall":
			f.sub = r.IntN(2) == 0
			f.subs = []*lForm{form(depth-1, true, conj, append(slices.Clone(vars), varZ)...)}
		default:
			f.subs = []*lForm{form(depth-1, quantified, conj, vars...), form(depth-1, quantified, conj, vars...)}
		}
		return f
	}
	scope := func(on bool, v int) []int {
		if on {
			return []int{v}
		}
		return nil
	}
	for range 2 + r.IntN(3) {
		a := lAct{param: r.IntN(2) == 0, cost: 1 + r.IntN(3)}
		a.param2 = a.param && r.IntN(3) == 0
		vars := append(scope(a.param, varX), scope(a.param2, varX2)...)
		a.pre = lits(0.25, 0.15, vars...)
		a.eff = lits(0.35, 0.3, vars...)
		// now and then a second literal of one predicate, of the other
		// sign: with ?x bound to its constant, an action that adds and
		// deletes one fact (the add wins) or needs it true and false
		if len(a.eff) > 0 && r.IntN(3) == 0 {
			l := a.eff[r.IntN(len(a.eff))]
			a.eff = append(a.eff, mkLit(l.pred, !l.neg, vars...))
		}
		if len(a.pre) > 0 && r.IntN(4) == 0 {
			l := a.pre[r.IntN(len(a.pre))]
			a.pre = append(a.pre, mkLit(l.pred, !l.neg, vars...))
		}
		if r.IntN(3) == 0 {
			a.preF = form(2, false, true, vars...)
		}
		for range r.IntN(3) {
			// conditional effects (when) are refused with a clear
			// error (the grounder does not take them): cond stays nil
			e := lEff{forall: true, sub: r.IntN(2) == 0}
			evars := append(slices.Clone(vars), varZ)
			pr := r.IntN(len(lp.arity))
			e.lit = mkLit(pr, r.IntN(2) == 0, evars...)
			a.effs = append(a.effs, e)
		}
		lp.acts = append(lp.acts, a)
	}
	nA := len(lp.acts)
	for range 1 + r.IntN(3) {
		x := r.IntN(2) == 0
		lp.tasks = append(lp.tasks, x)
		lp.tasks2 = append(lp.tasks2, x && r.IntN(3) == 0)
	}
	nC := len(lp.tasks)
	taskArity := func(id int) int {
		switch {
		case id < nA && lp.acts[id].param2 || id >= nA && lp.tasks2[id-nA]:
			return 2
		case id < nA && lp.acts[id].param || id >= nA && lp.tasks[id-nA]:
			return 1
		}
		return 0
	}
	// sub makes a subtask of task id with arguments from the variables
	sub := func(id int, vars ...int) lSub {
		st := lSub{id, arg(taskArity(id), vars...), argNone}
		if taskArity(id) == 2 {
			st.arg2 = arg(2, vars...)
		}
		return st
	}
	order := func(n int) [][2]int {
		var ord [][2]int
		if r.IntN(2) == 0 { // total
			for i := 0; i+1 < n; i++ {
				ord = append(ord, [2]int{i, i + 1})
			}
			return ord
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if r.Float64() < 0.3 {
					ord = append(ord, [2]int{i, j})
				}
			}
		}
		return ord
	}
	recursive := r.IntN(3) == 0
	for c := range nC {
		for range 1 + r.IntN(3) {
			m := lMeth{task: c, y: r.IntN(3) == 0, taskC: -1}
			m.ySub = m.y && r.IntN(2) == 0
			if lp.tasks[c] && !lp.tasks2[c] && r.IntN(4) == 0 {
				m.taskC = r.IntN(lp.nConst)
			}
			x := lp.tasks[c] && m.taskC < 0
			vars := append(append(scope(x, varX), scope(lp.tasks2[c], varX2)...), scope(m.y, varY)...)
			if x && m.y {
				m.eq = r.IntN(3)
			}
			if len(vars) > 0 && r.IntN(4) == 0 {
				m.eqC, m.eqV, m.c = 1+r.IntN(2), vars[r.IntN(len(vars))], r.IntN(lp.nConst)
			}
			m.pre = lits(0.2, 0.1, vars...)
			if r.IntN(4) == 0 {
				m.preF = form(2, false, false, vars...)
			}
			for range r.IntN(4) {
				// without recursion a task decomposes into actions and
				// compound tasks of higher index only
				var id int
				if lo := c + 1; !recursive && (lo >= nC || r.IntN(2) == 0) {
					id = r.IntN(nA)
				} else if !recursive {
					id = nA + lo + r.IntN(nC-lo)
				} else {
					id = r.IntN(nA + nC)
				}
				m.subtasks = append(m.subtasks, sub(id, vars...))
			}
			m.ordering = order(len(m.subtasks))
			lp.meths = append(lp.meths, m)
		}
	}
	pool = lp.nObj
	lp.init = lits(0.4, 0)
	if r.IntN(3) == 0 {
		lp.goal = lits(0.3, 0.15)
		if r.IntN(2) == 0 {
			lp.goalF = form(2, false, true) // conjunctive: disjunctive goals are refused
		}
	}
	lp.w = r.IntN(4) == 0
	lp.wSub = lp.w && r.IntN(2) == 0
	if lp.w && r.IntN(2) == 0 {
		lp.wCons, lp.wC = 1+r.IntN(2), r.IntN(lp.nObj)
	}
	for range 1 + r.IntN(3) {
		id := nA + r.IntN(nC)
		if r.IntN(3) == 0 {
			id = r.IntN(nA)
		}
		lp.initial = append(lp.initial, sub(id, scope(lp.w, varW)...))
	}
	lp.initialOrdering = order(len(lp.initial))
	return lp
}

// total reports whether every network of the problem is totally ordered.
func (lp *lProblem) total() bool {
	if !chain(len(lp.initial), lp.initialOrdering) {
		return false
	}
	for _, m := range lp.meths {
		if !chain(len(m.subtasks), m.ordering) {
			return false
		}
	}
	return true
}

// hddl writes the domain and the problem.
func (lp *lProblem) hddl() (string, string) {
	term := func(a int) string {
		switch a {
		case varX:
			return " ?x"
		case varY:
			return " ?y"
		case varZ:
			return " ?z"
		case varW:
			return " ?w"
		case varX2:
			return " ?x2"
		case argNone:
			return ""
		}
		return fmt.Sprintf(" o%d", a)
	}
	lits := func(ls []lLit) string {
		var s []string
		for _, l := range ls {
			atom := fmt.Sprintf("(p%d%s%s)", l.pred, term(l.arg), term(l.arg2))
			if l.neg {
				atom = "(not " + atom + ")"
			}
			s = append(s, atom)
		}
		return strings.Join(s, " ")
	}
	var form func(f *lForm) string
	form = func(f *lForm) string {
		switch f.op {
		case "lit":
			return lits([]lLit{f.lit})
		case "exists", "forall":
			return fmt.Sprintf("(%s (?z - %s) %s)", f.op, typeName(f.sub), form(f.subs[0]))
		}
		var b strings.Builder
		b.WriteString("(" + f.op)
		for _, g := range f.subs {
			b.WriteString(" " + form(g))
		}
		return b.String() + ")"
	}
	nA := len(lp.acts)
	name := func(id int) string {
		if id < nA {
			return fmt.Sprintf("a%d", id)
		}
		return fmt.Sprintf("t%d", id-nA)
	}
	network := func(tasks []lSub, ord [][2]int) string {
		var b strings.Builder
		b.WriteString(":subtasks (and")
		for i, st := range tasks {
			fmt.Fprintf(&b, " (s%d (%s%s%s))", i, name(st.task), term(st.arg), term(st.arg2))
		}
		b.WriteString(")")
		if len(ord) > 0 {
			b.WriteString(" :ordering (and")
			for _, e := range ord {
				fmt.Fprintf(&b, " (< s%d s%d)", e[0], e[1])
			}
			b.WriteString(")")
		}
		return b.String()
	}
	// params writes ?x - obj if x, then ?y of its type if y
	params := func(x, x2, y, ySub bool) string {
		var s []string
		if x {
			s = append(s, "?x - obj")
		}
		if x2 {
			s = append(s, "?x2 - obj")
		}
		if y {
			s = append(s, "?y - "+typeName(ySub))
		}
		return "(" + strings.Join(s, " ") + ")"
	}
	objects := func(from, to int) string {
		var b strings.Builder
		for o := from; o < to; o++ {
			fmt.Fprintf(&b, " o%d - %s", o, typeName(lp.sub[o]))
		}
		return b.String()
	}
	var d strings.Builder
	d.WriteString("(define (domain random) (:requirements :hierarchy :typing :negative-preconditions :equality :action-costs :disjunctive-preconditions :quantified-preconditions :conditional-effects)\n (:types obj - object sub - obj) (:constants")
	d.WriteString(objects(0, lp.nConst))
	d.WriteString(")\n (:predicates")
	for i, a := range lp.arity {
		fmt.Fprintf(&d, " (p%d%s)", i, []string{"", " ?v - obj", " ?v ?u - obj"}[a])
	}
	d.WriteString(")\n (:functions (total-cost) - number)\n")
	for c, x := range lp.tasks {
		fmt.Fprintf(&d, " (:task t%d :parameters %s)\n", c, params(x, lp.tasks2[c], false, false))
	}
	for i, m := range lp.meths {
		x := lp.tasks[m.task] && m.taskC < 0
		x2 := lp.tasks2[m.task]
		targ := term(map[bool]int{true: varX, false: argNone}[x]) + term(map[bool]int{true: varX2, false: argNone}[x2])
		if m.taskC >= 0 {
			targ = term(m.taskC)
		}
		fmt.Fprintf(&d, " (:method m%d :parameters %s :task (t%d%s)", i, params(x, x2, m.y, m.ySub), m.task, targ)
		pre := lits(m.pre)
		if m.preF != nil {
			pre += " " + form(m.preF)
		}
		switch m.eq {
		case 1:
			pre += " (= ?x ?y)"
		case 2:
			pre += " (not (= ?x ?y))"
		}
		switch m.eqC {
		case 1:
			pre += fmt.Sprintf(" (=%s o%d)", term(m.eqV), m.c)
		case 2:
			pre += fmt.Sprintf(" (not (=%s o%d))", term(m.eqV), m.c)
		}
		if pre = strings.TrimSpace(pre); pre != "" {
			fmt.Fprintf(&d, " :precondition (and %s)", pre)
		}
		fmt.Fprintf(&d, " %s)\n", network(m.subtasks, m.ordering))
	}
	for i, a := range lp.acts {
		fmt.Fprintf(&d, " (:action a%d :parameters %s", i, params(a.param, a.param2, false, false))
		pre := lits(a.pre)
		if a.preF != nil {
			pre += " " + form(a.preF)
		}
		if pre = strings.TrimSpace(pre); pre != "" {
			fmt.Fprintf(&d, " :precondition (and %s)", pre)
		}
		eff := lits(a.eff)
		for _, e := range a.effs {
			x := lits([]lLit{e.lit})
			if e.cond != nil {
				x = fmt.Sprintf("(when %s %s)", form(e.cond), x)
			}
			if e.forall {
				x = fmt.Sprintf("(forall (?z - %s) %s)", typeName(e.sub), x)
			}
			eff += " " + x
		}
		fmt.Fprintf(&d, " :effect (and %s (increase (total-cost) %d)))\n", eff, a.cost)
	}
	d.WriteString(")\n")
	var p strings.Builder
	fmt.Fprintf(&p, "(define (problem q) (:domain random)\n (:objects%s)\n (:htn", objects(lp.nConst, lp.nObj))
	if lp.w {
		fmt.Fprintf(&p, " :parameters (?w - %s)", typeName(lp.wSub))
	}
	cons := ""
	switch lp.wCons {
	case 1:
		cons = fmt.Sprintf(" :constraints (= ?w o%d)", lp.wC)
	case 2:
		cons = fmt.Sprintf(" :constraints (not (= ?w o%d))", lp.wC)
	}
	fmt.Fprintf(&p, " %s%s)\n (:init %s (= (total-cost) 0))\n", network(lp.initial, lp.initialOrdering), cons, lits(lp.init))
	g := lits(lp.goal)
	if lp.goalF != nil {
		g += " " + form(lp.goalF)
	}
	if g = strings.TrimSpace(g); g != "" {
		fmt.Fprintf(&p, " (:goal (and %s))\n", g)
	}
	p.WriteString(" (:metric minimize (total-cost)))\n")
	return d.String(), p.String()
}

// ground instantiates the problem by every binding of every variable, with
// nothing left out: the oracle's own grounding, independent of package
// ground. Facts are bits (pred*nObj+first)*nObj+second (object 0 for an
// argument a predicate lacks).
func (lp *lProblem) ground() *rProblem {
	rp := &rProblem{nP: len(lp.arity) * lp.nObj * lp.nObj}
	nA := len(lp.acts)
	// objs lists the bindings of a variable (of type sub: the objects
	// of that type), or argNone alone when there is no variable
	objs := func(on bool, sub ...bool) []int {
		if !on {
			return []int{argNone}
		}
		var os []int
		for o := range lp.nObj {
			if len(sub) == 0 || !sub[0] || lp.sub[o] {
				os = append(os, o)
			}
		}
		return os
	}
	// x carries ?x and ?x2 packed (pack), so that the rest of the
	// grounding passes one value for a task's arguments
	bind := func(a, x, y int, z ...int) int {
		switch a {
		case varX:
			return first(x)
		case varX2:
			return second(x)
		case varY:
			return y
		case varZ:
			return z[0]
		}
		return a
	}
	fact := func(l lLit, x, y int, z ...int) uint {
		o := max(bind(l.arg, x, y, z...), 0)
		o2 := max(bind(l.arg2, x, y, z...), 0)
		return 1 << ((l.pred*lp.nObj+o)*lp.nObj + o2)
	}
	// eval evaluates f in state s with ?x, ?y (and ?z inside a
	// quantifier) bound
	var eval func(f *lForm, s uint, x, y int, z ...int) bool
	eval = func(f *lForm, s uint, x, y int, z ...int) bool {
		switch f.op {
		case "lit":
			return (s&fact(f.lit, x, y, z...) != 0) != f.lit.neg
		case "and":
			return eval(f.subs[0], s, x, y, z...) && eval(f.subs[1], s, x, y, z...)
		case "or":
			return eval(f.subs[0], s, x, y, z...) || eval(f.subs[1], s, x, y, z...)
		case "imply":
			return !eval(f.subs[0], s, x, y, z...) || eval(f.subs[1], s, x, y, z...)
		case "not":
			return !eval(f.subs[0], s, x, y, z...)
		}
		for _, o := range objs(true, f.sub) {
			if eval(f.subs[0], s, x, y, o) == (f.op == "exists") {
				return f.op == "exists"
			}
		}
		return f.op == "forall"
	}
	masks := func(ls []lLit, x, y int) (pos, neg uint) {
		for _, l := range ls {
			if l.neg {
				neg |= fact(l, x, y)
			} else {
				pos |= fact(l, x, y)
			}
		}
		return pos, neg
	}
	// ground task ids: actions first, then compound tasks
	actID := map[[2]int]int{}
	for i, a := range lp.acts {
		for _, x := range pairs(objs(a.param), objs(a.param2)) {
			actID[[2]int{i, x}] = len(rp.acts)
			pre, neg := masks(a.pre, x, argNone)
			add, del := masks(a.eff, x, argNone)
			ga := rAct{pre: pre, neg: neg, add: add, del: del, cost: a.cost}
			if f := a.preF; f != nil {
				ga.ok = func(s uint) bool { return eval(f, s, x, argNone) }
			}
			if effs := a.effs; len(effs) > 0 {
				ga.cond = func(s uint) (add, del uint) {
					for _, e := range effs {
						zs := []int{argNone}
						if e.forall {
							zs = objs(true, e.sub)
						}
						for _, z := range zs {
							if e.cond != nil && !eval(e.cond, s, x, argNone, z) {
								continue
							}
							if e.lit.neg {
								del |= fact(e.lit, x, argNone, z)
							} else {
								add |= fact(e.lit, x, argNone, z)
							}
						}
					}
					return add, del
				}
			}
			rp.acts = append(rp.acts, ga)
			rp.names = append(rp.names, fmt.Sprintf("a%d%s%s", i, objName(first(x)), objName(second(x))))
		}
	}
	compID := map[[2]int]int{}
	for c, on := range lp.tasks {
		for _, x := range pairs(objs(on), objs(lp.tasks2[c])) {
			compID[[2]int{c, x}] = rp.nC
			rp.nC++
			rp.names = append(rp.names, fmt.Sprintf("t%d%s%s", c, objName(first(x)), objName(second(x))))
		}
	}
	id := func(st lSub, x, y int) int {
		a := pack(bind(st.arg, x, y), bind(st.arg2, x, y))
		if st.task < nA {
			return actID[[2]int{st.task, a}]
		}
		return len(rp.acts) + compID[[2]int{st.task - nA, a}]
	}
	for _, m := range lp.meths {
		xs := pairs(objs(lp.tasks[m.task]), objs(lp.tasks2[m.task]))
		if m.taskC >= 0 {
			xs = []int{m.taskC}
		}
		for _, x := range xs {
			for _, y := range objs(m.y, m.ySub) {
				if fx := first(x); m.eq == 1 && fx != y || m.eq == 2 && fx == y {
					continue
				}
				if v := bind(m.eqV, x, y); m.eqC == 1 && v != m.c || m.eqC == 2 && v == m.c {
					continue
				}
				gm := rMeth{task: compID[[2]int{m.task, x}], ordering: m.ordering}
				gm.pre, gm.neg = masks(m.pre, x, y)
				if f := m.preF; f != nil {
					gm.ok = func(s uint) bool { return eval(f, s, x, y) }
				}
				for _, st := range m.subtasks {
					gm.subtasks = append(gm.subtasks, id(st, x, y))
				}
				rp.meths = append(rp.meths, gm)
			}
		}
	}
	rp.init, _ = masks(lp.init, argNone, argNone)
	rp.goal, rp.goalNeg = masks(lp.goal, argNone, argNone)
	if f := lp.goalF; f != nil {
		rp.goalOK = func(s uint) bool { return eval(f, s, argNone, argNone) }
	}
	if !lp.w {
		for _, st := range lp.initial {
			rp.initial = append(rp.initial, id(st, argNone, argNone))
		}
		rp.initialOrdering = lp.initialOrdering
		return rp
	}
	// a variable in the initial network: a root task with a method per
	// binding, whose subtasks are the network so bound
	root := rp.nC
	rp.nC++
	rp.names = append(rp.names, "root")
	for _, w := range objs(true, lp.wSub) {
		if lp.wCons == 1 && w != lp.wC || lp.wCons == 2 && w == lp.wC {
			continue
		}
		gm := rMeth{task: root, ordering: lp.initialOrdering}
		for _, st := range lp.initial {
			if st.arg == varW {
				st.arg = w
			}
			if st.arg2 == varW {
				st.arg2 = w
			}
			gm.subtasks = append(gm.subtasks, id(st, argNone, argNone))
		}
		rp.meths = append(rp.meths, gm)
	}
	rp.initial = []int{len(rp.acts) + root}
	return rp
}

// pack, first and second put the objects of a task's two parameters in
// one int (argNone: none, for either)
func pack(x, x2 int) int {
	if x < 0 {
		return argNone
	}
	return x + (x2+1)*256
}

func first(x int) int {
	if x < 0 {
		return argNone
	}
	return x % 256
}

func second(x int) int {
	if x < 0 {
		return argNone
	}
	return x/256 - 1
}

// pairs packs every pair of xs and x2s.
func pairs(xs, x2s []int) []int {
	var out []int
	for _, x := range xs {
		for _, x2 := range x2s {
			out = append(out, pack(x, x2))
		}
	}
	return out
}

func typeName(sub bool) string {
	if sub {
		return "sub"
	}
	return "obj"
}

func objName(x int) string {
	if x < 0 {
		return ""
	}
	return fmt.Sprintf(" o%d", x)
}

// The oracle: Dijkstra's search over states and task networks, with the
// semantics of the IPC 2020 HTN track. A first task (without
// predecessors) that is an action applies if its preconditions hold
// (deletes before adds); one that is compound is replaced by a method's
// subtasks, preceded by a check of the method's precondition, with the
// task's orderings inherited. Networks are capped at netCap tasks and the
// search at oracleNodes expansions; when neither cap cut it, the search is
// exact: cost is then the least cost of a plan, or -1 if there is none.
const (
	netCap      = 9
	oracleNodes = 200_000
)

type oNode struct {
	task  int  // task id, or -1 for a check
	check int  // method of a check
	preds uint // bits: indices of the network's nodes before this one
}

type oState struct {
	cost  int
	state uint
	net   []oNode
	plan  string
}

type oracleResult struct {
	exact bool
	cost  int // -1: no plan (found)
	plan  string
}

type oHeap []*oState

func (h oHeap) Len() int           { return len(h) }
func (h oHeap) Less(i, j int) bool { return h[i].cost < h[j].cost }
func (h oHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *oHeap) Push(x any)        { *h = append(*h, x.(*oState)) }
func (h *oHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (rp *rProblem) oracle() oracleResult {
	start := &oState{state: rp.init}
	for i, id := range rp.initial {
		n := oNode{task: id}
		for _, e := range rp.initialOrdering {
			if e[1] == i {
				n.preds |= 1 << e[0]
			}
		}
		start.net = append(start.net, n)
	}
	best := map[string]int{}
	open := &oHeap{start}
	exact := true
	holds := func(s, pos, neg uint) bool { return s&pos == pos && s&neg == 0 }
	for expanded := 0; open.Len() > 0; expanded++ {
		if expanded == oracleNodes {
			return oracleResult{exact: false, cost: -1}
		}
		x := heap.Pop(open).(*oState)
		if len(x.net) == 0 {
			if holds(x.state, rp.goal, rp.goalNeg) && (rp.goalOK == nil || rp.goalOK(x.state)) {
				return oracleResult{exact: true, cost: x.cost, plan: x.plan}
			}
			continue
		}
		k := key(x)
		if c, ok := best[k]; ok && c <= x.cost {
			continue
		}
		best[k] = x.cost
		push := func(y *oState) {
			if len(y.net) > netCap {
				exact = false
				return
			}
			heap.Push(open, y)
		}
		for i, n := range x.net {
			if n.preds != 0 {
				continue
			}
			switch {
			case n.task < 0: // a method's check
				m := rp.meths[n.check]
				if holds(x.state, m.pre, m.neg) && (m.ok == nil || m.ok(x.state)) {
					push(&oState{cost: x.cost, state: x.state, net: remove(x.net, i, nil), plan: x.plan})
				}
			case n.task < rp.nA():
				a := rp.acts[n.task]
				if holds(x.state, a.pre, a.neg) && (a.ok == nil || a.ok(x.state)) {
					// effects read the state before the action; deletes
					// go before adds
					add, del := a.add, a.del
					if a.cond != nil {
						ca, cd := a.cond(x.state)
						add, del = add|ca, del|cd
					}
					push(&oState{cost: x.cost + a.cost, state: x.state&^del | add, net: remove(x.net, i, nil), plan: x.plan + " " + rp.name(n.task)})
				}
			default:
				for mi, m := range rp.meths {
					if m.task != n.task-rp.nA() {
						continue
					}
					// the check first, then the subtasks in their order
					sub := []oNode{{task: -1, check: mi}}
					for j, id := range m.subtasks {
						s := oNode{task: id, preds: 1}
						for _, e := range m.ordering {
							if e[1] == j {
								s.preds |= 1 << (e[0] + 1)
							}
						}
						sub = append(sub, s)
					}
					push(&oState{cost: x.cost, state: x.state, net: remove(x.net, i, sub), plan: x.plan})
				}
			}
		}
	}
	if !exact {
		return oracleResult{exact: false, cost: -1}
	}
	return oracleResult{exact: true, cost: -1}
}

// remove takes node i out of net, putting sub (with predecessor bits
// among sub's own indices) in its place: sub's nodes come after i's
// predecessors, and i's successors after all of them.
func remove(net []oNode, i int, sub []oNode) []oNode {
	out := make([]oNode, 0, len(net)-1+len(sub))
	// old index -> new index
	idx := make([]int, len(net))
	for j := range net {
		if j == i {
			idx[j] = -1
			continue
		}
		idx[j] = len(out)
		out = append(out, net[j])
	}
	base := len(out)
	translate := func(p uint) uint {
		var q uint
		for p != 0 {
			j := bits.TrailingZeros(p)
			p &^= 1 << j
			if idx[j] >= 0 {
				q |= 1 << idx[j]
			}
		}
		return q
	}
	predsOfI := translate(net[i].preds)
	var subAll uint
	for k := range sub {
		subAll |= 1 << (base + k)
	}
	for j := range out {
		had := out[j].preds&(1<<i) != 0
		out[j].preds = translate(out[j].preds)
		if had {
			// after i: after everything that replaces it, and after i's
			// predecessors (when nothing replaces it)
			out[j].preds |= subAll | predsOfI
		}
	}
	for _, s := range sub {
		s.preds = s.preds<<base | predsOfI
		// sub's own bits were relative to sub
		out = append(out, s)
	}
	return out
}

// key writes a state and network as a string: the nodes sorted by what
// they are, then each one's predecessors by position in that order. Two
// networks alike up to the order of their nodes get the same key only if
// their orderings agree after sorting, which is all the memo needs (a
// missed duplicate costs time, never a wrong answer).
func key(x *oState) string {
	n := len(x.net)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		na, nb := x.net[a], x.net[b]
		if na.task != nb.task {
			return na.task - nb.task
		}
		return na.check - nb.check
	})
	pos := make([]int, n)
	for p, i := range order {
		pos[i] = p
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d|", x.state)
	for _, i := range order {
		nd := x.net[i]
		var preds []int
		for p := nd.preds; p != 0; {
			j := bits.TrailingZeros(p)
			p &^= 1 << j
			preds = append(preds, pos[j])
		}
		slices.Sort(preds)
		fmt.Fprintf(&b, "%d.%d%v;", nd.task, nd.check, preds)
	}
	return b.String()
}
