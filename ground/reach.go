package ground

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/htnsat/htnsat/hddl"
)

// rule is one query of a semi-naive fixpoint and what to do with its
// answers.
type rule struct {
	s     *schema // variables and name
	q     *query
	plans map[int]*joinPlan // by anchor atom, -1 for none
	emit  func(b []int32) error
	// groundLeft counts, during seminaive, the ground atoms of q over
	// growing relations whose tuple has not come yet, and its ground
	// negated atoms over facts true initially and not deleted yet: the
	// rule has no answer before the last one comes, and then runs once.
	// A universal precondition expanded over its objects has many ground
	// atoms, and a run (or a plan) at each would cost time quadratic in
	// them.
	groundLeft int
}

// tuple names a tuple of a relation that grows during a fixpoint.
type tuple struct {
	rel *relation
	idx int32
}

// seminaive evaluates rules to a fixpoint: a rule without atoms over a
// growing relation runs once; every new tuple of a growing relation (on
// *queue, where the rules' emit functions put new tuples) is then joined,
// as the anchor, with the tuples found before it, so each answer is found
// when the last tuple it needs arrives.
func (g *grounder) seminaive(rules []*rule, growing map[*relation]bool, queue *[]tuple) error {
	fp := &fixpoint{g: g, anchors: map[*relation][]*anchor{}, ground: map[*relation]map[string][]*anchor{}, vals: make([]int, 0, 8), live: make([]int, 0, 8)}
	for _, r := range rules {
		if err := fp.anchorRule(r, growing); err != nil {
			return err
		}
	}
	for n := 0; len(*queue) > 0; n++ {
		if n&1023 == 1023 && g.j.ctx.Err() != nil {
			return g.j.ctx.Err()
		}
		it := (*queue)[0]
		*queue = (*queue)[1:]
		if err := fp.arrive(it); err != nil {
			return err
		}
	}
	return nil
}

// anchor is an atom of a rule over a growing relation, or a filter
// whose fact a growing relation of deletions makes false, that a new
// tuple of the relation is joined through (seminaive).
type anchor struct {
	r      *rule
	atom   int // the anchor atom, or -1 for a filter
	filter int // the anchor fCanBeFalse filter, or -1 for an atom
	// live lists the columns of the atom whose variables matter
	// beyond it (needed, or in another atom or filter); when others
	// do not, a tuple that agrees with an earlier one on these
	// columns adds no answer and is skipped (seen)
	live []int
	seen map[string]struct{}
	// key is the plan's: the atom's or filter's (filterAnchor), or
	// -1 for a ground one, whose tuple binds nothing, so that the
	// plan without anchor serves it (it checks the atom, which
	// holds)
	key int
	seq int // the order of anchors made
}

// fixpoint is seminaive's state: the anchors by relation, the ground
// ones by relation and tuple (tupleKey), so that a tuple visits its own,
// not every ground atom of the relation, and scratch for keys.
type fixpoint struct {
	g       *grounder
	anchors map[*relation][]*anchor
	ground  map[*relation]map[string][]*anchor
	seq     int
	key     []byte
	vals    []int
	live    []int
}

// tupleKey writes the key of vals to fp.key, read as string(fp.key).
func (fp *fixpoint) tupleKey(vals []int) {
	fp.key = fp.key[:0]
	for _, x := range vals {
		fp.key = append(fp.key, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
}

// newAnchor makes an anchor of rule r, numbered in order.
func (fp *fixpoint) newAnchor(r *rule, atom, filter, key int) *anchor {
	an := &anchor{r: r, atom: atom, filter: filter, key: key, seq: fp.seq}
	fp.seq++
	return an
}

// addGround files an's ground atom or filter, over rel, by its tuple.
func (fp *fixpoint) addGround(rel *relation, args []hddl.Term, an *anchor) {
	an.key = -1
	an.r.groundLeft++
	fp.vals = fp.vals[:0]
	for _, t := range args {
		fp.vals = append(fp.vals, t.Obj())
	}
	if fp.ground[rel] == nil {
		fp.ground[rel] = map[string][]*anchor{}
	}
	fp.tupleKey(fp.vals)
	fp.ground[rel][string(fp.key)] = append(fp.ground[rel][string(fp.key)], an)
}

// anchorRule files the anchors of rule r: its atoms over growing
// relations, and its negated fluent atoms, which become true for a new
// binding when an initially true fact is deleted. A rule without any
// runs at once.
func (fp *fixpoint) anchorRule(r *rule, growing map[*relation]bool) error {
	g := fp.g
	r.groundLeft = 0
	anchored := false
	var mentions []int
	for i, a := range r.q.atoms {
		if i&4095 == 4095 && g.j.ctx.Err() != nil { // a universal precondition has many atoms
			return g.j.ctx.Err()
		}
		if !growing[a.rel] {
			continue
		}
		an := fp.newAnchor(r, i, -1, i)
		anchored = true
		if !slices.ContainsFunc(a.args, hddl.Term.IsVar) {
			fp.addGround(a.rel, a.args, an)
			continue
		}
		if mentions == nil {
			mentions = r.q.mentions()
		}
		if live, ok := r.q.liveColumns(i, mentions); !ok {
			an.live, an.seen = live, map[string]struct{}{}
		}
		fp.anchors[a.rel] = append(fp.anchors[a.rel], an)
	}
	for i, f := range r.q.filters {
		if i&4095 == 4095 && g.j.ctx.Err() != nil {
			return g.j.ctx.Err()
		}
		if f.kind != fCanBeFalse || !growing[g.delRel[f.pred]] {
			continue
		}
		an := fp.newAnchor(r, -1, i, filterAnchor(i))
		if !slices.ContainsFunc(f.args, hddl.Term.IsVar) {
			// a ground negated atom: its fact can be false for good
			// already, or once deleted, which is counted down
			tup := make([]int32, len(f.args))
			for j, t := range f.args {
				tup[j] = int32(t.Obj())
			}
			if !g.canBeFalse(f.pred, tup) {
				fp.addGround(g.delRel[f.pred], f.args, an)
			}
			continue
		}
		fp.anchors[g.delRel[f.pred]] = append(fp.anchors[g.delRel[f.pred]], an)
	}
	if anchored || r.groundLeft > 0 {
		return nil
	}
	b := g.scratch(len(r.s.vars))
	defer g.release(b)
	pl, err := r.plan(g.j.ctx, -1, b)
	if err != nil {
		return err
	}
	return g.j.run(pl, b, r.emit)
}

// arrive joins new tuple it with its relation's anchors: the ground ones
// of its own tuple and the others, in the order of the rules and their
// atoms.
func (fp *fixpoint) arrive(it tuple) error {
	g := fp.g
	vals := fp.vals[:0]
	for _, x := range it.rel.tuple(it.idx) {
		vals = append(vals, int(x))
	}
	fp.vals = vals
	var own []*anchor
	if gr := fp.ground[it.rel]; gr != nil {
		fp.tupleKey(vals)
		own = gr[string(fp.key)]
	}
	ans := fp.anchors[it.rel]
	if len(own) > 0 {
		ans = slices.Concat(own, ans)
		slices.SortFunc(ans, func(x, y *anchor) int { return x.seq - y.seq })
	}
	for _, an := range ans {
		b := g.scratch(len(an.r.s.vars))
		err := fp.visit(an, vals, b)
		g.release(b)
		if err != nil {
			return err
		}
	}
	return nil
}

// visit joins the tuple vals with anchor an, on binding b.
func (fp *fixpoint) visit(an *anchor, vals []int, b []int32) error {
	g, r := fp.g, an.r
	if an.filter >= 0 {
		if !g.unify(r.q.filters[an.filter].args, vals, b, r.s) {
			return nil
		}
	} else if !g.unify(r.q.atoms[an.atom].args, vals, b, r.s) {
		return nil
	}
	if an.key == -1 {
		if r.groundLeft--; r.groundLeft > 0 {
			return nil
		}
	} else if r.groundLeft > 0 {
		return nil
	}
	if an.seen != nil {
		fp.live = fp.live[:0]
		for _, c := range an.live {
			fp.live = append(fp.live, vals[c])
		}
		fp.tupleKey(fp.live)
		if _, dup := an.seen[string(fp.key)]; dup {
			return nil
		}
		an.seen[string(fp.key)] = struct{}{}
	}
	return g.runPlan(r, an.key, b)
}

// runPlan runs r's plan for the key on binding b.
func (g *grounder) runPlan(r *rule, key int, b []int32) error {
	pl, err := r.plan(g.j.ctx, key, b)
	if err != nil {
		return err
	}
	return g.j.run(pl, b, r.emit)
}

// filterAnchor is the plan key of a run anchored at filter i.
func filterAnchor(i int) int { return -2 - i }

// plan returns the cached plan of r for an anchor atom (-1 for none, or
// filterAnchor(i) for filter i): the anchor's tuple is given, so its
// variables are bound and the atom itself needs no visit.
func (r *rule) plan(ctx context.Context, anchorAtom int, binding []int32) (*joinPlan, error) {
	if pl, ok := r.plans[anchorAtom]; ok && !pl.stale() {
		return pl, nil
	}
	bound := make([]bool, len(binding))
	for i, x := range binding {
		bound[i] = x >= 0
	}
	q := r.q
	if anchorAtom >= 0 {
		cp := *q
		cp.atoms = append(append([]atom(nil), q.atoms[:anchorAtom]...), q.atoms[anchorAtom+1:]...)
		q = &cp
	}
	pl, err := q.planCtx(ctx, bound)
	if err != nil {
		return nil, err
	}
	r.plans[anchorAtom] = pl
	return pl, nil
}

// reach computes the delete-relaxed reachable fluent facts and the action
// instances whose preconditions they satisfy.
func (g *grounder) reach() error {
	var queue []tuple
	growing := map[*relation]bool{}
	for p, rel := range g.rels {
		if !g.static[p] {
			growing[rel] = true
		}
	}
	for _, rel := range g.delRel {
		if rel != nil {
			growing[rel] = true
		}
	}
	for _, f := range g.facts { // the initial facts, in order
		idx, _ := g.rels[f.Pred].find(intsToInt32s(f.Args))
		queue = append(queue, tuple{g.rels[f.Pred], idx})
	}
	var rules []*rule
	for _, ss := range g.actions {
		for _, s := range ss {
			s := s
			rules = append(rules, &rule{s: s, q: s.q, plans: s.plans, emit: func(b []int32) error {
				return g.addAction(s, b, &queue)
			}})
		}
	}
	return g.seminaive(rules, growing, &queue)
}

func intsToInt32s(xs []int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

// scratch returns a binding of n variables, all unbound, for use until it
// is given back with release: bindings are made for every join, and
// reusing them saves an allocation each (joins nest, so there is a pool).
func (g *grounder) scratch(n int) []int32 {
	var b []int32
	if k := len(g.freeBindings); k > 0 {
		b = g.freeBindings[k-1][:0]
		g.freeBindings = g.freeBindings[:k-1]
	}
	if cap(b) < n {
		b = make([]int32, n, max(n, 8))
	}
	b = b[:n]
	for i := range b {
		b[i] = -1
	}
	return b
}

// release gives back a binding of scratch.
func (g *grounder) release(b []int32) { g.freeBindings = append(g.freeBindings, b) }

// unify binds the terms args to the objects vals, checking constants,
// repeated variables and types. It reports failure without undoing.
func (g *grounder) unify(args []hddl.Term, vals []int, b []int32, s *schema) bool {
	for i, t := range args {
		v := int32(vals[i])
		if !t.IsVar() {
			if int32(t.Obj()) != v {
				return false
			}
			continue
		}
		x := t.Var()
		switch {
		case b[x] < 0:
			if !g.isOfType(int(v), s.vars[x].Type) {
				return false
			}
			b[x] = v
		case b[x] != v:
			return false
		}
	}
	return true
}

// addAction records a new reachable action instance, as a tuple of
// actRel, and queues the facts it adds. Its ground action is made only
// when a method or the initial network asks for it (action): most of the
// instances the delete relaxation reaches are never used by the
// hierarchy. An action with free parameters is recorded over its kept
// parameters only, and an effect that mentions free parameters adds its
// fact for every value of their types.
func (g *grounder) addAction(s *schema, b []int32, queue *[]tuple) error {
	key := b[:s.nparams]
	if s.free {
		key = make([]int32, len(s.kept))
		for i, v := range s.kept {
			key[i] = b[v]
		}
	}
	if !g.rel.relevant(s.lifted, key) {
		return nil
	}
	if _, isNew := g.actRel[s.lifted].add(key); !isNew {
		return nil
	}
	if !s.free {
		g.actGID[s.lifted] = append(g.actGID[s.lifted], -1) // made on demand
	}
	if g.reachable++; g.reachable > g.opt.MaxGround {
		// each stands for at least one ground action, were it asked for
		return fmt.Errorf("%w: more than %d reachable action instances (the budget) while instantiating %s%s", ErrTooLarge, g.opt.MaxGround, s.name, g.sizeNote(s))
	}
	tup := make([]int32, 0, 8)
	for ei, e := range s.effects {
		if e.del {
			if g.delRel[e.pred] != nil && (!s.free || g.newEffectKey(s, ei, b)) {
				g.deletes(s, e, b, queue)
			}
			continue
		}
		if s.free && !g.newEffectKey(s, ei, b) {
			continue
		}
		// count the facts before making them: an effect over parameters
		// that nothing binds adds one per combination of their values
		if n := g.bindings(s, e.args, b); n > g.maxFacts()-int64(len(g.facts)) {
			return fmt.Errorf("%w: an effect of %s would add %s facts (parameters %s bound by no precondition range over their types; the budget is %d facts)",
				ErrTooLarge, s.name, bigCount(n), g.unboundNames(s, e.args, b), g.maxFacts())
		}
		err := g.eachBinding(s, e.args, b, func(b []int32) error {
			if g.j.tick(1) {
				return g.j.err
			}
			if g.j.steps > g.j.maxSteps {
				return fmt.Errorf("%w: the effects of %s need more than %d join steps; its parameters bound by no precondition are enumerated over their types", ErrTooLarge, s.name, g.j.maxSteps)
			}
			tup = g.ground(e.args, b, tup[:0])
			if _, isNew := g.addFact(e.pred, tup); isNew {
				*queue = append(*queue, tuple{g.rels[e.pred], int32(g.rels[e.pred].size() - 1)})
				if int64(len(g.facts)) > g.maxFacts() {
					return fmt.Errorf("%w: more than %d reachable facts (while instantiating %s)", ErrTooLarge, g.maxFacts(), s.name)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// deletes records the initially true facts that the delete effect e of
// s under b can delete (those its bound arguments match, when some are
// unbound) and queues the new ones.
func (g *grounder) deletes(s *schema, e effect, b []int32, queue *[]tuple) {
	rel := g.delRel[e.pred]
	bound := true
	for _, t := range e.args {
		bound = bound && (!t.IsVar() || b[t.Var()] >= 0)
	}
	if bound {
		tup := g.ground(e.args, b, g.effKey[:0])
		g.effKey = tup
		if id := g.factOf(e.pred, tup); id >= 0 && g.initSet[id] {
			if _, isNew := rel.add(tup); isNew {
				*queue = append(*queue, tuple{rel, int32(rel.size() - 1)})
			}
		}
		return
	}
	vals := make([]int32, len(s.vars))
	for _, id := range g.initOf[e.pred] {
		copy(vals, b)
		args := g.facts[id].Args
		ok := true
		for i, t := range e.args {
			x := int32(args[i])
			switch {
			case !t.IsVar():
				ok = int32(t.Obj()) == x
			case vals[t.Var()] < 0:
				ok = g.isOfType(int(x), s.vars[t.Var()].Type)
				vals[t.Var()] = x
			default:
				ok = vals[t.Var()] == x
			}
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		tup := g.ground(e.args, vals, nil)
		if _, isNew := rel.add(tup); isNew {
			*queue = append(*queue, tuple{rel, int32(rel.size() - 1)})
		}
	}
}

// newEffectKey reports whether effect ei of s, which may mention free
// parameters, has not yet been enumerated with the values b gives its
// bound arguments: the facts it adds depend on those values only, however
// the action's other parameters are bound.
func (g *grounder) newEffectKey(s *schema, ei int, b []int32) bool {
	key := g.effKey[:0] // add copies it
	for _, t := range s.effects[ei].args {
		if t.IsVar() && b[t.Var()] >= 0 {
			key = append(key, b[t.Var()])
		}
	}
	g.effKey = key
	if s.effSeen == nil {
		s.effSeen = make([]*relation, len(s.effects))
	}
	if s.effSeen[ei] == nil {
		s.effSeen[ei] = newRelation(len(key))
	}
	_, isNew := s.effSeen[ei].add(key)
	return isNew
}

// newAction makes the ground action of schema s under binding b and
// returns its index in gActs.
func (g *grounder) newAction(s *schema, b []int32) (int32, error) {
	id := int32(len(g.gActs))
	g.gActs = append(g.gActs, gAction{schema: s, binding: slices.Clone(b)})
	return id, g.budget(s)
}

// maxFacts is the most reachable facts grounding may store: four times
// the budget of actions and methods.
func (g *grounder) maxFacts() int64 { return 4 * int64(g.opt.MaxGround) }

// bindings is the number of ways to bind the variables of args that b
// leaves unbound (saturating): the product of their types' sizes.
func (g *grounder) bindings(s *schema, args []hddl.Term, b []int32) int64 {
	n := int64(1)
	seen := map[int]bool{}
	for _, t := range args {
		if t.IsVar() && b[t.Var()] < 0 && !seen[t.Var()] {
			seen[t.Var()] = true
			n = satMul(n, int64(len(g.objectsOf(s.vars[t.Var()].Type))))
		}
	}
	return n
}

// unboundNames lists the variables of args that b leaves unbound.
func (g *grounder) unboundNames(s *schema, args []hddl.Term, b []int32) string {
	var names []string
	for _, t := range args {
		if t.IsVar() && b[t.Var()] < 0 && !slices.Contains(names, s.vars[t.Var()].Name) {
			names = append(names, s.vars[t.Var()].Name)
		}
	}
	return strings.Join(names, " ")
}

// eachBinding calls fn with b extended by every value, of its type, of
// each variable of args that b leaves unbound (b is restored after).
func (g *grounder) eachBinding(s *schema, args []hddl.Term, b []int32, fn func([]int32) error) error {
	for _, t := range args {
		if !t.IsVar() || b[t.Var()] >= 0 {
			continue
		}
		v := t.Var()
		for _, o := range g.objectsOf(s.vars[v].Type) {
			b[v] = int32(o)
			if err := g.eachBinding(s, args, b, fn); err != nil {
				b[v] = -1
				return err
			}
		}
		b[v] = -1
		return nil
	}
	return fn(b)
}

// ground evaluates terms under a binding into tup.
func (g *grounder) ground(args []hddl.Term, b []int32, tup []int32) []int32 {
	for _, t := range args {
		if t.IsVar() {
			if b[t.Var()] < 0 {
				panic(fmt.Sprintf("ground: unbound variable %d", t.Var()))
			}
			tup = append(tup, b[t.Var()])
		} else {
			tup = append(tup, int32(t.Obj()))
		}
	}
	return tup
}
