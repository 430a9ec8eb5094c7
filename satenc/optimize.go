package satenc

import (
	"context"
	"fmt"
	"time"

	"github.com/htnsat/htnsat/ground"
)

// Improve searches for plans of t cheaper than bound, as Lilotane
// improves its first plan (Schreiber, "Lilotane: A Lifted SAT-based
// Approach to Hierarchical Planning", JAIR 2021): one incremental formula,
// grown from depth layers, gets a counter of the cost of the actions of
// its last layer (a totalizer, Bailleux and Boufkhad, CP 2003, cut at the
// bound; an action of cost c counts c times), and each search assumes the
// count below the cost of the best plan so far. Each cheaper plan goes to
// found; when a depth holds none, the next layer is added, where a
// cheaper plan may need more decompositions. bound, if set, is read
// before each search: the cost of the best plan known elsewhere (another
// engine's), which then bounds this one too.
//
// It returns when ctx ends (nil error), when found fails, or when the
// whole decomposition tree of a task without recursion holds nothing
// cheaper: then optimal is true, unless partial orders were linearised
// (a plan in another order may be cheaper). A recursive task is never
// proven: st.Exhausted is the deepest depth shown to hold nothing cheaper.
func Improve(ctx context.Context, t *ground.Task, cfg Config, depth int, cost int64, bound func() int64, found func(*ground.Solution, int64) error) (optimal bool, st *Stats, err error) {
	if cfg.Solver == nil {
		cfg.Solver = Default()
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 256
	}
	st = &Stats{Solver: cfg.Solver.Name(), Linear: !t.TotallyOrdered(), Learnt: -1, Incremental: true}
	need := t.Depth()
	st.Recursive = need < 0
	last := need
	switch {
	case cfg.Depth > 0:
		// the depth asked for, and no deeper
		last = cfg.Depth
	case need < 0:
		last = cfg.MaxDepth
	}
	s := NewIncremental(cfg.Solver)
	defer s.Close()
	t0 := time.Now()
	enc, err := NewEncoding(ctx, t, s, cfg.Options)
	for err == nil && enc.Depth < min(depth, last) {
		err = enc.AddLayer()
	}
	st.Encode += time.Since(t0)
	if err != nil {
		return false, st, ended(err)
	}
	for {
		if bound != nil {
			cost = min(cost, bound())
		}
		if cost <= 0 {
			return true, st, nil
		}
		t0 := time.Now()
		final, err := enc.Final()
		var atLeast []Lit
		if err == nil {
			atLeast, err = enc.costCounter(int(min(cost, 1<<20)))
		}
		st.Encode += time.Since(t0)
		if err != nil {
			return false, st, ended(err)
		}
		st.Depth, st.Vars, st.Clauses = enc.Depth, enc.NumVars, enc.Clauses
		cfg.trace(st, "improve: depth %d, below cost %d: encoded in %s", enc.Depth, cost, since(t0))
		for {
			if bound != nil {
				cost = min(cost, bound())
			}
			if cost <= 0 {
				return true, st, nil
			}
			assume := []Lit{atLeast[min(cost, int64(len(atLeast)))-1].Var().Neg()}
			if final != 0 {
				assume = append(assume, final)
			}
			t1 := time.Now()
			st.Tries++
			sat, err := s.Solve(ctx, assume...)
			st.Solve += time.Since(t1)
			if err != nil {
				return false, st, ended(err)
			}
			cfg.trace(st, "improve: depth %d, below cost %d: %s in %s", enc.Depth, cost, outcome(sat, true), since(t1))
			if !sat {
				break
			}
			sol, err := decode(enc, s.Model(), cfg, st)
			if err != nil {
				return false, st, err
			}
			c := solutionCost(t, sol)
			if c >= cost {
				return false, st, fmt.Errorf("satenc: the cost counter let through a plan of cost %d, not below %d", c, cost)
			}
			cost = c
			if err := found(sol, c); err != nil {
				return false, st, err
			}
		}
		st.Exhausted = enc.Depth
		if enc.Depth >= last {
			return need > 0 && enc.Depth >= need && !st.Linear, st, nil
		}
		t0 = time.Now()
		err = enc.AddLayer()
		st.Encode += time.Since(t0)
		if err != nil {
			return false, st, ended(err)
		}
	}
}

// ended makes an error of the context's end nil: the improving search
// stops there, keeping its plans.
func ended(err error) error {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return nil
	}
	return err
}

// solutionCost is the cost of a solution's actions.
func solutionCost(t *ground.Task, sol *ground.Solution) int64 {
	var c int64
	for _, n := range sol.Order {
		c += int64(t.ActionCost(sol.Nodes[n].Task))
	}
	return c
}

// costCounter encodes a counter of the cost of the actions of the last
// layer, cut at limit: it returns the literals r[j-1], j = 1..limit,
// such that actions costing j or more in all make r[j-1] true (assuming
// r[j-1] false keeps the cost below j). Each vertex counts, in unary, the
// cost of the action it holds (a vertex holds at most one task); a
// balanced tree of totalizer nodes adds the counts up. A node's clauses
// number the product of its inputs' lengths, each cut at limit, so the
// counter is refused (ErrTooLarge) when the unary inputs times the limit
// pass maxCounter.
func (e *Encoding) costCounter(limit int) ([]Lit, error) {
	units := 0
	for _, vi := range e.layers[len(e.layers)-1] {
		most := 0
		for _, tk := range e.verts[vi].tasks {
			if int(tk) < len(e.t.Actions) {
				most = max(most, min(e.t.ActionCost(tk), limit))
			}
		}
		units += most
	}
	if int64(units)*int64(limit) > maxCounter {
		return nil, fmt.Errorf("%w: a counter of %d cost units below %d", ErrTooLarge, units, limit)
	}
	var counts [][]Lit
	for _, vi := range e.layers[len(e.layers)-1] {
		v := &e.verts[vi]
		var units []Lit
		for k, tk := range v.tasks {
			if int(tk) >= len(e.t.Actions) {
				continue
			}
			c := min(e.t.ActionCost(tk), limit)
			for len(units) < c {
				units = append(units, e.newVar(kindAux, vi, 0).Pos())
			}
			for _, u := range units[:c] {
				e.add(v.taskVar[k].Neg(), u)
			}
		}
		if len(units) > 0 {
			counts = append(counts, units)
		}
	}
	if len(counts) == 0 {
		// nothing can cost anything: a count that is never reached
		x := e.newVar(kindAux, 0, 0)
		e.add(x.Neg())
		counts = append(counts, []Lit{x.Pos()})
	}
	for len(counts) > 1 {
		var next [][]Lit
		for i := 0; i+1 < len(counts); i += 2 {
			next = append(next, e.sumCounts(counts[i], counts[i+1], limit))
		}
		if len(counts)%2 == 1 {
			next = append(next, counts[len(counts)-1])
		}
		counts = next
	}
	out := counts[0]
	for len(out) < limit {
		// the count cannot reach this far: false for good
		x := e.newVar(kindAux, 0, 0)
		e.add(x.Neg())
		out = append(out, x.Pos())
	}
	return out, e.err
}

// maxCounter bounds the unary inputs of a cost counter times its limit
// (about the number of its clauses).
const maxCounter = 50_000_000

// sumCounts is a totalizer node: unary counts a and b (a[i-1]: at least
// i) give r, at least i+j when a says i and b says j, cut at limit.
func (e *Encoding) sumCounts(a, b []Lit, limit int) []Lit {
	r := make([]Lit, min(len(a)+len(b), limit))
	for i := range r {
		r[i] = e.newVar(kindAux, 0, 0).Pos()
	}
	for i := 0; i <= len(a); i++ {
		for j := 0; j <= len(b); j++ {
			// a count of i forces a[0..i-1] (by induction from the
			// vertices up), so sums beyond the limit need no clause of
			// their own: a smaller pair reaching the limit covers them
			if i+j == 0 || i+j > limit {
				continue
			}
			k := i + j - 1
			switch {
			case i == 0:
				e.add(b[j-1].Var().Neg(), r[k])
			case j == 0:
				e.add(a[i-1].Var().Neg(), r[k])
			default:
				e.add(a[i-1].Var().Neg(), b[j-1].Var().Neg(), r[k])
			}
		}
	}
	return r
}
