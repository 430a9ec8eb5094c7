package ground

import (
	"math/bits"

	"github.com/htnsat/htnsat/hddl"
)

// Relevance: which action instances the hierarchy can ask for.
//
// The delete-relaxed reachability analysis knows nothing of the hierarchy:
// it reaches every action instance whose preconditions some actions can
// make true, although a plan holds only actions that methods, decomposed
// from the initial network down, put there. In IPC Transport a package is
// only ever dropped where a deliver task sends it, yet the relaxation drops
// every package everywhere, reaches picking it up everywhere, and the
// grounder builds 40 times the actions it keeps.
//
// So before the reachability analysis, patterns of task arguments are
// propagated down from the initial network through the lifted methods,
// preconditions aside: a method's variable takes the value its task's
// argument has in the pattern, or none (a wildcard) when the task leaves
// it open. The patterns of an action over-approximate the instances that
// any decomposition can produce, so an instance matching none of them is
// in no plan, and the analysis skips it together with the facts only it
// would add. Patterns are kept per shape (which arguments are given), and
// a pattern subsumed by a more general one is dropped. A budget bounds the
// work: past it, every instance counts as relevant.

// maxPatterns bounds the patterns the analysis may keep.
const maxPatterns = 200_000

// patterns are the argument patterns of one lifted task, by shape.
type patterns struct {
	arity  int
	shapes []uint64             // the shapes present, in order of appearance
	byMask map[uint64]*relation // shape -> projected values
	any    bool                 // the all-wildcard pattern is present
	cols   map[uint64][]int     // shape -> its columns
	buf    []int32              // scratch
}

func newPatterns(arity int) *patterns {
	return &patterns{arity: arity, byMask: map[uint64]*relation{}, cols: map[uint64][]int{}}
}

// match reports whether some pattern covers the tuple t (every given
// argument of the pattern equals t's).
func (ps *patterns) match(t []int32) bool {
	if ps.any {
		return true
	}
	for _, mask := range ps.shapes {
		if ps.has(mask, t) {
			return true
		}
	}
	return false
}

// has reports whether the pattern of shape mask that t's values at the
// shape's columns make is present.
func (ps *patterns) has(mask uint64, t []int32) bool {
	vals := ps.buf[:0]
	for _, c := range ps.cols[mask] {
		vals = append(vals, t[c])
	}
	ps.buf = vals
	_, ok := ps.byMask[mask].find(vals)
	return ok
}

// add inserts the pattern p (-1: a wildcard) and reports whether it is
// new: not covered by a pattern already present.
func (ps *patterns) add(p []int32) bool {
	if ps.any {
		return false
	}
	var mask uint64
	for i, x := range p {
		if x >= 0 {
			mask |= 1 << uint(i)
		}
	}
	if mask == 0 {
		ps.any = true
		return true
	}
	// covered by a pattern of a shape that gives a subset of p's arguments
	for _, m := range ps.shapes {
		if m&^mask == 0 && ps.has(m, p) {
			return false
		}
	}
	rel := ps.byMask[mask]
	if rel == nil {
		var cols []int
		for c := 0; c < ps.arity; c++ {
			if mask&(1<<uint(c)) != 0 {
				cols = append(cols, c)
			}
		}
		rel = newRelation(bits.OnesCount64(mask))
		ps.byMask[mask] = rel
		ps.cols[mask] = cols
		ps.shapes = append(ps.shapes, mask)
	}
	vals := make([]int32, 0, len(ps.cols[mask]))
	for _, c := range ps.cols[mask] {
		vals = append(vals, p[c])
	}
	rel.add(vals)
	return true
}

// relevance holds the patterns of every lifted action and task, or is
// nil when the analysis gave up (every instance is then relevant).
type relevance struct {
	actions []*patterns
}

// relevant reports whether an instance of action ai with the given
// parameters (over its kept parameters for an action with free ones) can
// be asked for by the hierarchy.
func (r *relevance) relevant(ai int, params []int32) bool {
	return r == nil || r.actions[ai] == nil || r.actions[ai].match(params)
}

// relevance propagates argument patterns from the initial network down
// through the lifted methods.
func (g *grounder) relevance() *relevance {
	d := g.d
	if len(d.Actions) > 0 && arityOver64(d) {
		return nil
	}
	tasks := make([]*patterns, len(d.Tasks))
	for i, t := range d.Tasks {
		tasks[i] = newPatterns(len(t.Params))
	}
	r := &relevance{actions: make([]*patterns, len(d.Actions))}
	for i, a := range d.Actions {
		n := a.NumParams
		if ss := g.actions[i]; len(ss) == 1 && ss[0].free {
			n = len(ss[0].kept)
		}
		r.actions[i] = newPatterns(n)
	}
	methodsOf := make([][]int, len(d.Tasks))
	for mi := range d.Methods {
		methodsOf[d.Methods[mi].Task] = append(methodsOf[d.Methods[mi].Task], mi)
	}
	type item struct {
		task int
		p    []int32
	}
	var queue []item
	count := 0
	over := false
	push := func(ref hddl.TaskRef, p []int32) {
		if over {
			return
		}
		if ref.Primitive {
			ai := ref.Index
			if ss := g.actions[ai]; len(ss) == 1 && ss[0].free {
				kp := make([]int32, len(ss[0].kept))
				for i, v := range ss[0].kept {
					kp[i] = p[v]
				}
				p = kp
			}
			if r.actions[ai].add(p) {
				count++
			}
		} else if tasks[ref.Index].add(p) {
			count++
			queue = append(queue, item{ref.Index, p})
		}
		if count > maxPatterns {
			over = true
		}
	}
	args := func(terms []hddl.Term, b []int32) []int32 {
		p := make([]int32, len(terms))
		for i, t := range terms {
			switch {
			case !t.IsVar():
				p[i] = int32(t.Obj())
			case b != nil && b[t.Var()] >= 0:
				p[i] = b[t.Var()]
			default:
				p[i] = -1
			}
		}
		return p
	}
	for _, st := range g.p.Initial.Subtasks {
		push(st.Task, args(st.Args, nil))
	}
	for n := 0; len(queue) > 0 && !over; n++ {
		if g.stopped(n) {
			return nil
		}
		it := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, mi := range methodsOf[it.task] {
			m := &d.Methods[mi]
			b := make([]int32, len(m.Vars))
			for i := range b {
				b[i] = -1
			}
			ok := true
			for i, t := range m.TaskArgs {
				x := it.p[i]
				switch {
				case x < 0:
				case !t.IsVar():
					ok = ok && int32(t.Obj()) == x
				case b[t.Var()] < 0:
					b[t.Var()] = x
				default:
					ok = ok && b[t.Var()] == x
				}
			}
			if !ok {
				continue
			}
			for _, st := range m.Network.Subtasks {
				push(st.Task, args(st.Args, b))
			}
		}
	}
	if over {
		return nil
	}
	return r
}

// arityOver64 reports whether some task or action has more than 64
// parameters (too many for a shape mask).
func arityOver64(d *hddl.Domain) bool {
	for _, a := range d.Actions {
		if a.NumParams > 64 {
			return true
		}
	}
	for _, t := range d.Tasks {
		if len(t.Params) > 64 {
			return true
		}
	}
	return false
}
