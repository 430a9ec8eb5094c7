package ground

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/htnsat/htnsat/hddl"
)

// A query asks for every binding of a schema's variables that satisfies
// some atoms (tuples of relations), filters (equalities, inequalities and
// negated static atoms) and the variables' types, as a database answers a
// join: atoms are visited in a greedy order (those with bound columns and
// small relations first), each through an index on a bound column, and a
// variable that no atom binds is enumerated over its type only at the end.

type atom struct {
	rel  *relation
	args []hddl.Term
	desc string // for messages: "(inc ?c0 ?c1)"
}

type filterKind uint8

const (
	fEqual    filterKind = iota // args[0] == args[1]
	fNotEqual                   // args[0] != args[1]
	fNotIn                      // the tuple of args is not in rel
	// fCanBeFalse: the fluent fact of pred over args can be false in some
	// reachable state (see grounder.canBeFalse)
	fCanBeFalse
)

type filter struct {
	kind filterKind
	rel  *relation
	pred int // fCanBeFalse
	args []hddl.Term
}

type query struct {
	name    string // "method m-check-row", for budget messages
	vars    []hddl.Param
	atoms   []atom
	filters []filter
	// need[v] says that variable v must be bound in every answer; a
	// variable that is not needed and not bound by an atom takes the first
	// object of its type (it cannot change the result).
	need []bool
	// skip[v] says that variable v takes no value at all (a quantified
	// variable that normalisation replaced by objects).
	skip []bool
}

// planScratch holds plan's working blocks between plans: queries are
// made and planned by the thousand.
var planScratch = sync.Pool{New: func() any { return new(planBlocks) }}

type planBlocks struct {
	ints  []int
	flags []bool
}

type stepKind uint8

const (
	stepAtom stepKind = iota
	stepEnum          // enumerate a variable over its type
	stepAny           // bind an unneeded variable to one object of its type
	stepCopy          // bind a variable equal to a bound term
)

type step struct {
	kind   stepKind
	atom   int
	v      int       // stepEnum, stepAny, stepCopy
	from   hddl.Term // stepCopy
	checks []int     // filters that become checkable after this step
	typed  []int     // variables this atom binds whose type must be checked
	// live lists the variables this atom binds that the answer needs or a
	// later step reads, when some it binds are neither (dead): tuples that
	// agree on the live ones lead to the same answers, so only the first
	// is followed (nil: every variable it binds is live)
	live []int
}

type joinPlan struct {
	q     *query
	pre   []int // filters checkable before any step
	steps []step
	// enumerated lists the variables bound by enumeration over their type,
	// for budget messages.
	enumerated []int
	// enumSize is the product of the sizes of their types (saturating):
	// the most bindings one run can produce.
	enumSize int64
	// rels are the relations of the atoms, each once, and sizes their
	// sizes when the plan was made
	rels  []*relation
	sizes []int
}

// stale reports whether a relation of the plan has grown enough since it
// was made (more than doubled) that another order may be better: during a
// fixpoint, a plan made when a relation was nearly empty visits it first.
func (pl *joinPlan) stale() bool {
	for i, r := range pl.rels {
		if r.size() > 2*pl.sizes[i]+16 {
			return true
		}
	}
	return false
}

// plan orders the atoms greedily given the variables bound beforehand.
// Its bookkeeping is incremental (what waits on each variable), so that a
// query of many atoms and filters (a universal precondition expanded over
// its objects) is planned in time about linear in its size.
func (q *query) plan(bound []bool) *joinPlan {
	pl, _ := q.planCtx(context.Background(), bound)
	return pl
}

// planCtx is plan polling ctx as it goes: planning a query of hundreds
// of thousands of atoms takes a tenth of a second. A plan is made in
// steps (planner): equalities that copy a bound value, then the atoms all
// of whose variables are bound (checks), then the atom with a bound
// column and the fewest expected matches, again and again; the variables
// no atom binds are enumerated last (enumerateRest).
func (q *query) planCtx(ctx context.Context, bound []bool) (*joinPlan, error) {
	pb := planScratch.Get().(*planBlocks)
	defer planScratch.Put(pb)
	pn := newPlanner(ctx, q, bound, pb)
	pl := pn.pl
	pl.pre = pn.attach()
	for {
		if pn.stopped() {
			return nil, ctx.Err()
		}
		if pn.copyStep() {
			continue
		}
		if len(pn.checkable) > 0 {
			if !pn.checkSteps() {
				return nil, ctx.Err()
			}
			continue
		}
		if !pn.atomStep() {
			break
		}
	}
	pn.enumerateRest()
	if !pl.markLive(pn.stopped) {
		return nil, ctx.Err()
	}
	return pl, nil
}

// planner is the bookkeeping of planCtx: the variables bound so far, what
// waits on each unbound variable (the filters and atoms that mention it,
// once per mention: fList[fAt[v]:fAt[v+1]] and aList likewise), how many
// mentions each still waits for, and the filters and atoms that have
// become checkable; all of it cut from one block, as plans are made often.
type planner struct {
	ctx                  context.Context
	q                    *query
	pl                   *joinPlan
	work                 int
	b                    []bool
	fAt, aAt             []int
	fList, aList         []int
	filterWait, atomWait []int
	ready, eqs           []int
	checkable, open      []int // open: atoms with an unbound variable, in order
	done, used           []bool
}

func newPlanner(ctx context.Context, q *query, bound []bool, pb *planBlocks) *planner {
	pn := &planner{ctx: ctx, q: q, pl: &joinPlan{q: q}, b: append([]bool(nil), bound...)}
	pl := pn.pl
	for _, a := range q.atoms {
		if !slices.Contains(pl.rels, a.rel) { // relations are per predicate: few
			pl.rels = append(pl.rels, a.rel)
			pl.sizes = append(pl.sizes, a.rel.size())
		}
	}
	nv, nf, na := len(q.vars), len(q.filters), len(q.atoms)
	mf, ma := 0, 0
	for _, f := range q.filters {
		mf += len(f.args)
	}
	for _, a := range q.atoms {
		ma += len(a.args)
	}
	need := 4*(nv+1) + mf + ma + 3*nf + 3*na
	if cap(pb.ints) < need {
		pb.ints = make([]int, need)
	}
	block := pb.ints[:need]
	clear(block)
	carve := func(n int) []int {
		s := block[:n:n]
		block = block[n:]
		return s
	}
	var fNext, aNext []int
	pn.fAt, pn.aAt, fNext, aNext = carve(nv+1), carve(nv+1), carve(nv+1), carve(nv+1)
	pn.fList, pn.aList = carve(mf), carve(ma)
	pn.filterWait, pn.atomWait = carve(nf), carve(na)
	pn.ready, pn.eqs = carve(nf)[:0], carve(nf)[:0]
	pn.checkable, pn.open = carve(na)[:0], carve(na)[:0]
	for _, f := range q.filters {
		for _, t := range f.args {
			if !pn.isBound(t) {
				pn.fAt[t.Var()+1]++
			}
		}
	}
	for _, a := range q.atoms {
		for _, t := range a.args {
			if !pn.isBound(t) {
				pn.aAt[t.Var()+1]++
			}
		}
	}
	for v := range nv {
		pn.fAt[v+1] += pn.fAt[v]
		pn.aAt[v+1] += pn.aAt[v]
	}
	copy(fNext, pn.fAt)
	copy(aNext, pn.aAt)
	for i, f := range q.filters {
		for _, t := range f.args {
			if !pn.isBound(t) {
				pn.fList[fNext[t.Var()]] = i
				fNext[t.Var()]++
				pn.filterWait[i]++
			}
		}
		if pn.filterWait[i] == 0 {
			pn.ready = append(pn.ready, i)
		}
		if f.kind == fEqual {
			pn.eqs = append(pn.eqs, i)
		}
	}
	for i, a := range q.atoms {
		for _, t := range a.args {
			if !pn.isBound(t) {
				pn.aList[aNext[t.Var()]] = i
				aNext[t.Var()]++
				pn.atomWait[i]++
			}
		}
		if pn.atomWait[i] == 0 {
			pn.checkable = append(pn.checkable, i)
		} else {
			pn.open = append(pn.open, i)
		}
	}
	if cap(pb.flags) < nf+na {
		pb.flags = make([]bool, nf+na)
	}
	flags := pb.flags[:nf+na]
	clear(flags)
	pn.done, pn.used = flags[:nf], flags[nf:]
	return pn
}

// stopped polls the context every 4,096 calls.
func (pn *planner) stopped() bool {
	pn.work++
	return pn.work&4095 == 0 && pn.ctx.Err() != nil
}

func (pn *planner) isBound(t hddl.Term) bool { return !t.IsVar() || pn.b[t.Var()] }

// bind marks variable v bound and frees what waited on it.
func (pn *planner) bind(v int) {
	if pn.b[v] {
		return
	}
	pn.b[v] = true
	for _, i := range pn.fList[pn.fAt[v]:pn.fAt[v+1]] {
		if pn.filterWait[i]--; pn.filterWait[i] == 0 {
			pn.ready = append(pn.ready, i)
		}
	}
	for _, i := range pn.aList[pn.aAt[v]:pn.aAt[v+1]] {
		if pn.atomWait[i]--; pn.atomWait[i] == 0 {
			pn.checkable = append(pn.checkable, i)
		}
	}
}

// attach takes the filters that have become checkable, in order.
func (pn *planner) attach() []int {
	var out []int
	for _, i := range pn.ready {
		if !pn.done[i] {
			pn.done[i] = true
			out = append(out, i)
		}
	}
	pn.ready = pn.ready[:0]
	slices.Sort(out)
	return out
}

// copyStep adds a step where an equality with one side bound binds the
// other side for free, if there is one.
func (pn *planner) copyStep() bool {
	i, v, from, ok := pn.q.copyStep(pn.b, pn.done, pn.eqs)
	if !ok {
		return false
	}
	pn.done[i] = true
	pn.bind(v)
	pn.pl.steps = append(pn.pl.steps, step{kind: stepCopy, v: v, from: from, checks: pn.attach()})
	return true
}

// checkSteps adds the fully bound atoms as checks, fewest expected
// matches first (the relation's size over the distinct values of its
// columns); false when the context ended.
func (pn *planner) checkSteps() bool {
	type check struct {
		atom int
		est  float64
	}
	var cs []check
	for _, i := range pn.checkable {
		if pn.used[i] {
			continue
		}
		pn.used[i] = true
		a := pn.q.atoms[i]
		est := float64(a.rel.size())
		for col := range a.args {
			est /= float64(max(a.rel.distinct(col), 1))
		}
		cs = append(cs, check{i, est})
	}
	pn.checkable = pn.checkable[:0]
	slices.SortStableFunc(cs, func(x, y check) int { return cmp.Compare(x.est, y.est) })
	for _, c := range cs {
		if pn.stopped() {
			return false
		}
		pn.pl.steps = append(pn.pl.steps, step{kind: stepAtom, atom: c.atom, checks: pn.attach()})
	}
	return true
}

// atomStep adds the next atom that binds variables: one with a bound
// column, fewest expected matches first, the one binding more variables
// on a tie; else the smallest relation. False when no atom is left.
func (pn *planner) atomStep() bool {
	q := pn.q
	best, bestClass, bestNew := -1, 0, 0
	bestEst := 0.0
	kept := pn.open[:0]
	for _, i := range pn.open {
		if pn.used[i] || pn.atomWait[i] == 0 {
			continue
		}
		kept = append(kept, i)
		a := q.atoms[i]
		nb, fresh := 0, 0
		est := float64(a.rel.size())
		for col, t := range a.args {
			if pn.isBound(t) {
				nb++
				est /= float64(max(a.rel.distinct(col), 1))
			} else if !slices.ContainsFunc(a.args[:col], func(u hddl.Term) bool { return u == t }) {
				fresh++
			}
		}
		class := 0
		if nb > 0 {
			class = 1
		} else {
			fresh = 0 // smallest relation first, however many it binds
		}
		better := best < 0 || class > bestClass ||
			class == bestClass && (est < bestEst || est == bestEst && fresh > bestNew)
		if better {
			best, bestClass, bestNew, bestEst = i, class, fresh, est
		}
	}
	pn.open = kept
	if best < 0 {
		return false
	}
	pn.used[best] = true
	st := step{kind: stepAtom, atom: best}
	for _, t := range q.atoms[best].args {
		if t.IsVar() && !pn.b[t.Var()] {
			st.typed = append(st.typed, t.Var())
			pn.bind(t.Var())
		}
	}
	st.checks = pn.attach()
	pn.pl.steps = append(pn.pl.steps, st)
	return true
}

// enumerateRest adds the variables no atom binds: the needed ones are
// enumerated (smallest type first, so that filters prune early), the
// others bound to any object.
func (pn *planner) enumerateRest() {
	q := pn.q
	var rest []int
	for v := range q.vars {
		if !pn.b[v] && !q.skip[v] {
			rest = append(rest, v)
		}
	}
	slices.SortStableFunc(rest, func(a, b int) int {
		switch {
		case q.need[a] && !q.need[b]:
			return -1
		case q.need[b] && !q.need[a]:
			return 1
		}
		return 0
	})
	for _, v := range rest {
		kind := stepAny
		if q.need[v] {
			kind = stepEnum
			pn.pl.enumerated = append(pn.pl.enumerated, v)
		}
		pn.bind(v)
		pn.pl.steps = append(pn.pl.steps, step{kind: kind, v: v, checks: pn.attach()})
	}
}

// markLive finds, for every atom step, the variables it binds that are
// dead: not needed in the answer and read by no later step. A method's
// bottom-up rule needs only its task's arguments, so the variables that
// only its subtasks mention are dead once their atom has matched, and
// following every tuple of that atom would multiply the work by the number
// of their values for nothing.
func (pl *joinPlan) markLive(stopped func() bool) bool {
	q := pl.q
	read := make([]bool, len(q.vars)) // read by a step after the current one
	for v := range q.vars {
		read[v] = q.need[v]
	}
	mark := func(args []hddl.Term) {
		for _, t := range args {
			if t.IsVar() {
				read[t.Var()] = true
			}
		}
	}
	for s := len(pl.steps) - 1; s >= 0; s-- {
		if stopped() {
			return false
		}
		st := &pl.steps[s]
		if st.kind == stepAtom {
			var live []int
			dead := false
			for _, v := range st.typed {
				if read[v] {
					live = append(live, v)
				} else {
					dead = true
				}
			}
			if dead {
				st.live = append([]int{}, live...)
			}
			mark(q.atoms[st.atom].args)
		}
		for _, i := range st.checks {
			mark(q.filters[i].args)
		}
		switch st.kind {
		case stepCopy:
			read[st.v] = true
			mark([]hddl.Term{st.from})
		case stepEnum, stepAny:
			read[st.v] = true
		}
	}
	return true
}

// mentions counts, per variable of q, the atoms and filters that
// mention it (each mention once), with the needed variables counted once
// more: liveColumns reads it for every atom, so that a query of many
// atoms (a universal precondition expanded over its objects) costs time
// linear in its size, not quadratic.
func (q *query) mentions() []int {
	n := make([]int, len(q.vars))
	for v := range q.vars {
		if q.need[v] {
			n[v]++
		}
	}
	count := func(args []hddl.Term) {
		for _, t := range args {
			if t.IsVar() {
				n[t.Var()]++
			}
		}
	}
	for _, a := range q.atoms {
		count(a.args)
	}
	for _, f := range q.filters {
		count(f.args)
	}
	return n
}

// liveColumns returns the columns of atom i whose variables matter beyond
// the atom: needed in the answer, or mentioned by another atom or a
// filter (mentions is q.mentions()). ok is true when every variable
// column does.
func (q *query) liveColumns(i int, mentions []int) (live []int, ok bool) {
	args := q.atoms[i].args
	own := func(v int) int { // mentions of v inside atom i
		n := 0
		for _, t := range args {
			if t.IsVar() && t.Var() == v {
				n++
			}
		}
		return n
	}
	ok = true
	for c, t := range args {
		if !t.IsVar() {
			continue
		}
		if mentions[t.Var()] > own(t.Var()) {
			live = append(live, c)
		} else {
			ok = false
		}
	}
	return live, ok
}

// copyStep finds a positive equality between a bound term and an unbound
// variable.
func (q *query) copyStep(b []bool, done []bool, eqs []int) (int, int, hddl.Term, bool) {
	for _, i := range eqs {
		f := q.filters[i]
		if done[i] {
			continue
		}
		x, y := f.args[0], f.args[1]
		xb := !x.IsVar() || b[x.Var()]
		yb := !y.IsVar() || b[y.Var()]
		switch {
		case xb && !yb:
			return i, y.Var(), x, true
		case yb && !xb:
			return i, x.Var(), y, true
		}
	}
	return 0, 0, 0, false
}

// joiner evaluates query plans with a shared budget.
type joiner struct {
	ctx      context.Context
	objOf    func(t int) []int   // objects of a type
	isOfType func(o, t int) bool // object o has type t
	// canBeFalse reports whether a fluent fact can be false (fCanBeFalse)
	canBeFalse func(pred int, tup []int32) bool
	steps      int64 // work done, counted against maxSteps
	maxSteps   int64
	err        error
	// runs is the pool of joinRuns (runs nest: an answer's handler may
	// start another join)
	runs []*joinRun
}

// tick counts work and reports whether to stop.
func (j *joiner) tick(n int64) bool {
	j.steps += n
	if j.steps&0xffff < n || n > 0xffff {
		if err := j.ctx.Err(); err != nil {
			j.err = err
			return true
		}
	}
	return false
}

func (j *joiner) tooLarge(q *query, pl *joinPlan) error {
	var names []string
	for _, v := range pl.enumerated {
		names = append(names, q.vars[v].Name)
	}
	msg := fmt.Sprintf("%s needs more than %d join steps", q.name, j.maxSteps)
	if pl.enumSize > j.maxSteps {
		msg = fmt.Sprintf("%s would enumerate %s bindings (budget: %d join steps)", q.name, bigCount(pl.enumSize), j.maxSteps)
	}
	if len(names) > 0 {
		msg += fmt.Sprintf("; its parameters %s are bound by no precondition and are enumerated over their types", strings.Join(names, " "))
	}
	return fmt.Errorf("%w: %s", ErrTooLarge, msg)
}

func bigCount(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9e18"
	}
	return fmt.Sprintf("%.3g", float64(n))
}

// run calls emit for every answer of q that extends binding (-1 marks an
// unbound variable). emit may stop the run by returning an error. binding
// is restored before run returns.
func (j *joiner) run(pl *joinPlan, binding []int32, emit func([]int32) error) error {
	q := pl.q
	if pl.enumSize == 0 {
		pl.enumSize = 1
		for _, v := range pl.enumerated {
			pl.enumSize = satMul(pl.enumSize, int64(len(j.objOf(q.vars[v].Type))))
		}
	}
	if pl.enumSize > j.maxSteps {
		// fail fast: enumerating these variables alone exceeds the budget
		return j.tooLarge(q, pl)
	}
	var r *joinRun
	if k := len(j.runs); k > 0 {
		r = j.runs[k-1]
		j.runs = j.runs[:k-1]
		*r = joinRun{j: j, pl: pl, q: q, b: binding, emit: emit, tup: r.tup[:0]}
	} else {
		r = &joinRun{j: j, pl: pl, q: q, b: binding, emit: emit, tup: make([]int32, 0, 8)}
	}
	defer func() {
		r.emit, r.b = nil, nil
		j.runs = append(j.runs, r)
	}()
	if !r.check(pl.pre) {
		return nil
	}
	return r.step(0)
}

// joinRun is one evaluation of a plan: the binding it extends, step by
// step, and where its answers go.
type joinRun struct {
	j    *joiner
	pl   *joinPlan
	q    *query
	b    []int32
	emit func([]int32) error
	tup  []int32 // scratch
}

func (r *joinRun) val(t hddl.Term) int32 {
	if t.IsVar() {
		return r.b[t.Var()]
	}
	return int32(t.Obj())
}

// check evaluates the filters ids under the binding.
func (r *joinRun) check(ids []int) bool {
	for _, i := range ids {
		f := &r.q.filters[i]
		switch f.kind {
		case fEqual:
			if r.val(f.args[0]) != r.val(f.args[1]) {
				return false
			}
		case fNotEqual:
			if r.val(f.args[0]) == r.val(f.args[1]) {
				return false
			}
		case fNotIn:
			r.tup = r.tup[:0]
			for _, a := range f.args {
				r.tup = append(r.tup, r.val(a))
			}
			if _, ok := f.rel.find(r.tup); ok {
				return false
			}
		case fCanBeFalse:
			r.tup = r.tup[:0]
			for _, a := range f.args {
				r.tup = append(r.tup, r.val(a))
			}
			if !r.j.canBeFalse(f.pred, r.tup) {
				return false
			}
		}
	}
	return true
}

// step runs the plan from step s on.
func (r *joinRun) step(s int) error {
	if s == len(r.pl.steps) {
		return r.emit(r.b)
	}
	st := &r.pl.steps[s]
	switch st.kind {
	case stepCopy:
		return r.copyVar(st, s)
	case stepEnum, stepAny:
		return r.enumVar(st, s)
	}
	if len(st.typed) == 0 {
		return r.member(st, s)
	}
	return r.matchAtom(st, s)
}

// copyVar binds a variable to the bound term an equality sets it to.
func (r *joinRun) copyVar(st *step, s int) error {
	r.b[st.v] = r.val(st.from)
	defer func() { r.b[st.v] = -1 }()
	if r.j.isOfType(int(r.b[st.v]), r.q.vars[st.v].Type) && r.check(st.checks) {
		return r.step(s + 1)
	}
	return nil
}

// enumVar binds a variable to every object of its type (stepEnum), or to
// the first one (stepAny: the answer does not need it).
func (r *joinRun) enumVar(st *step, s int) error {
	objs := r.j.objOf(r.q.vars[st.v].Type)
	if st.kind == stepAny && len(objs) > 1 {
		objs = objs[:1]
	}
	if r.j.tick(int64(len(objs))) {
		return r.j.err
	}
	if r.j.steps > r.j.maxSteps {
		return r.j.tooLarge(r.q, r.pl)
	}
	defer func() { r.b[st.v] = -1 }()
	for _, o := range objs {
		r.b[st.v] = int32(o)
		if r.check(st.checks) {
			if err := r.step(s + 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// member tests an atom whose every column is bound.
func (r *joinRun) member(st *step, s int) error {
	a := &r.q.atoms[st.atom]
	r.tup = r.tup[:0]
	for _, t := range a.args {
		r.tup = append(r.tup, r.val(t))
	}
	if r.j.tick(1) {
		return r.j.err
	}
	if _, ok := a.rel.find(r.tup); ok && r.check(st.checks) {
		return r.step(s + 1)
	}
	return nil
}

// candidates returns the tuples of atom a that can match the binding:
// through an index on its bound columns together, or all of them (all)
// when no column is bound.
func (r *joinRun) candidates(a *atom) (cands []int32, all bool) {
	var colBuf [8]int
	var valBuf [8]int32
	cols, vals := colBuf[:0], valBuf[:0]
	var mask uint64
	for col, t := range a.args {
		if t.IsVar() && r.b[t.Var()] < 0 {
			continue
		}
		cols = append(cols, col)
		vals = append(vals, r.val(t))
		mask |= 1 << uint(col)
	}
	switch {
	case len(cols) == 0:
		return nil, true
	case len(cols) == 1 || len(a.args) > 64:
		// one column, or too many for a mask: the smallest single index
		all = true
		for i, col := range cols {
			l := a.rel.lookup(col, vals[i])
			if all || len(l) < len(cands) {
				cands, all = l, false
			}
			if len(cands) == 0 {
				return nil, false
			}
		}
		return cands, false
	}
	// every bound column at once, through an index on all of them
	return a.rel.lookupCols(mask, cols, vals), false
}

// bind binds the unbound variables of atom a to tuple t, checking the
// bound ones and the new ones' types. On failure the binding may be
// partly changed; the caller unbinds st.typed.
func (r *joinRun) bind(a *atom, st *step, t []int32) bool {
	for col, term := range a.args {
		if !term.IsVar() {
			if int32(term.Obj()) != t[col] {
				return false
			}
			continue
		}
		v := term.Var()
		switch {
		case r.b[v] < 0:
			r.b[v] = t[col]
		case r.b[v] != t[col]:
			return false
		}
	}
	for _, v := range st.typed {
		if !r.j.isOfType(int(r.b[v]), r.q.vars[v].Type) {
			return false
		}
	}
	return true
}

// matchAtom binds the unbound variables of an atom to each matching tuple
// in turn. When some variables it binds are dead (see markLive), tuples
// that agree on the live ones are followed once.
func (r *joinRun) matchAtom(st *step, s int) error {
	a := &r.q.atoms[st.atom]
	cands, all := r.candidates(a)
	n := len(cands)
	if all {
		n = a.rel.size()
	}
	if n == 0 {
		return nil
	}
	var seen map[string]struct{}
	if st.live != nil {
		seen = map[string]struct{}{}
	}
	if r.j.tick(int64(n)) {
		return r.j.err
	}
	if r.j.steps > r.j.maxSteps {
		return r.j.tooLarge(r.q, r.pl)
	}
	unbind := func() {
		for _, v := range st.typed {
			r.b[v] = -1
		}
	}
	for k := 0; k < n; k++ {
		ti := int32(k)
		if !all {
			ti = cands[k]
		}
		ok := r.bind(a, st, a.rel.tuple(ti))
		if ok && seen != nil {
			key := make([]byte, 0, 4*len(st.live))
			for _, v := range st.live {
				x := r.b[v]
				key = append(key, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
			}
			if _, dup := seen[string(key)]; dup {
				ok = false
			} else if r.check(st.checks) {
				seen[string(key)] = struct{}{}
			}
		}
		if ok && r.check(st.checks) {
			if err := r.step(s + 1); err != nil {
				unbind()
				return err
			}
		}
		unbind()
	}
	return nil
}

// satMul multiplies non-negative numbers, saturating at MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
