package ground

// bottomUp computes, for every lifted task, the argument tuples for which
// some method can decompose it into reachable actions and possible
// compound tasks, ignoring negative preconditions and the order of
// subtasks: a Datalog fixpoint with one rule per method,
//
//	task(args) :- precondition atoms, subtask atoms,
//
// evaluated semi-naively like the reachability analysis. The relations
// then serve the top-down instantiation as join atoms, so that a method
// variable bound only by a compound subtask is bound by that task's
// possible instances instead of being enumerated over its type.
func (g *grounder) bottomUp() error {
	var queue []tuple
	growing := map[*relation]bool{}
	for t, rel := range g.buRel {
		if g.needBU[t] {
			growing[rel] = true
		}
	}
	var rules []*rule
	for mi, ss := range g.methods {
		m := &g.d.Methods[mi]
		if !g.needBU[m.Task] {
			continue
		}
		rel := g.buRel[m.Task]
		for _, s := range ss {
			// the same atoms and filters, but only the task's arguments need
			// values: other variables are existential
			q := *s.q
			q.need = make([]bool, len(s.vars))
			q.skip = make([]bool, len(s.vars))
			for v := range s.vars {
				q.skip[v] = true
			}
			for _, t := range m.TaskArgs {
				if t.IsVar() {
					q.need[t.Var()] = true
					q.skip[t.Var()] = false
				}
			}
			s := s
			tup := make([]int32, 0, len(m.TaskArgs))
			rules = append(rules, &rule{s: s, q: &q, plans: map[int]*joinPlan{}, emit: func(b []int32) error {
				tup = g.ground(m.TaskArgs, b, tup[:0])
				idx, isNew := rel.add(tup)
				if !isNew {
					return nil
				}
				g.stats.PossibleTasks++
				queue = append(queue, tuple{rel, idx})
				return g.budget(s)
			}})
		}
	}
	return g.seminaive(rules, growing, &queue)
}
