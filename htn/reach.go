package htn

import "github.com/htnsat/htnsat/ground"

// Reach: which facts the tasks left can still add.
//
// Below a search node only the actions its network can decompose into can
// run: the live methods and actions reachable in the task graph from the
// network's tasks (the node's reach). A fact that is false now and that
// no action in reach adds stays false in every plan below the node, so
// whatever needs it is dead there: the methods and actions with it among
// their preconditions are killed as those on a fact no action of the
// domain adds are (view.preUsers), and a goal it is is lost. Kills
// shrink the reach in turn, so that a fact only a finished task's actions
// could add (a part already cut from the wrong wood, a treatment only its
// own processing could undo) ends its users at once, not where the search
// would meet them.
//
// The reach is kept by reference counting over the task graph's strongly
// connected components (units: each action is one, and each component of
// compound tasks, view.comp, which is a single task when the network
// cannot recur). The units form a DAG, so counting is exact over it:
// ref[u] counts the alive network nodes of u's tasks and the occurrences
// of u's tasks among the subtasks of the live methods of tasks in reach
// that lie in another unit; u's tasks are in reach while ref[u] > 0. In a
// recursive network a component counts as a whole: once one of its tasks
// is in reach all are, even where the methods that lead from one to
// another were killed. That over-approximates the reach, which keeps every
// kill it makes sound. addCnt[f] counts the live actions in reach that add
// f. Both follow the network's nodes and the kills, and are restored with
// them on undo.
type reach struct {
	ref    []int32 // per unit
	addCnt []int32 // per fact
	// counted[m]: method m's subtasks hold references (m live, its task
	// in reach); adding[a]: action a's add effects are counted (a live,
	// in reach). Kept explicitly so that a kill in the middle of a
	// cascade counts each method and action once.
	counted []bool
	adding  []bool
	// task[m] is the unit of method m's task (a compact copy: inReach
	// runs over long lists of methods, most of them out of reach)
	task []int32
	// In a recursive network (all nil otherwise): unit[id] is task id's
	// unit (otherwise task id is its own), members[u-nA] the compound
	// tasks of unit u, and ext[m] the subtasks of method m in other units
	// than its task's.
	unit    []int32
	members [][]int32
	ext     [][]ground.TaskID
}

func newReach(v *view) *reach {
	nT := v.t.NumTasks()
	r := &reach{
		ref:     make([]int32, nT),
		addCnt:  make([]int32, v.nFacts),
		counted: make([]bool, len(v.meths)),
		adding:  make([]bool, v.nA),
		task:    make([]int32, len(v.meths)),
	}
	if v.comp != nil {
		r.ref = make([]int32, v.nA+v.nComp)
		r.unit = make([]int32, nT)
		r.members = make([][]int32, v.nComp)
		for id := range r.unit {
			r.unit[id] = int32(id)
			if id >= v.nA {
				c := v.comp[id-v.nA]
				r.unit[id] = int32(v.nA) + c
				r.members[c] = append(r.members[c], int32(id))
			}
		}
		r.ext = make([][]ground.TaskID, len(v.meths))
		for m := range v.meths {
			r.ext[m] = v.meths[m].Subtasks
			if v.recursing[m] {
				u := r.unit[v.meths[m].Task]
				r.ext[m] = nil
				for _, st := range v.meths[m].Subtasks {
					if r.unit[st] != u {
						r.ext[m] = append(r.ext[m], st)
					}
				}
			}
		}
	}
	for m := range v.meths {
		r.task[m] = r.unitOf(int32(v.meths[m].Task))
	}
	return r
}

// unitOf is task id's unit.
func (r *reach) unitOf(id int32) int32 {
	if r.unit == nil {
		return id
	}
	return r.unit[id]
}

// incRef and decRef add and remove a reference to task id's unit.
func (s *dfs) incRef(id int32) {
	r := s.reach
	u := r.unitOf(id)
	if r.ref[u]++; r.ref[u] == 1 {
		s.reachUnit(u, true)
	}
}

func (s *dfs) decRef(id int32) {
	r := s.reach
	u := r.unitOf(id)
	if r.ref[u]--; r.ref[u] == 0 {
		s.reachUnit(u, false)
	}
}

// reachUnit counts (in) or uncounts what the tasks of unit u bring into
// reach.
func (s *dfs) reachUnit(u int32, in bool) {
	if s.reach.unit == nil || int(u) < s.v.nA {
		s.reachTask(u, in)
		return
	}
	for _, id := range s.reach.members[int(u)-s.v.nA] {
		s.reachTask(id, in)
	}
}

// reachTask counts (in) or uncounts what task id brings into reach: an
// action's add effects, or the subtasks of a compound task's live methods.
func (s *dfs) reachTask(id int32, in bool) {
	if int(id) < s.v.nA {
		if in != s.reach.adding[id] && (!in || !s.actDead[id]) {
			s.reachAdds(id, in)
		}
		return
	}
	for _, m := range s.v.taskMeths[int(id)-s.v.nA] {
		if in != s.reach.counted[m] && (!in || !s.methDead[m]) {
			s.reachSubtasks(m, in)
		}
	}
}

// reachSubtasks counts (or uncounts) method m: a reference to each of
// its subtasks in another unit.
func (s *dfs) reachSubtasks(m int32, in bool) {
	r := s.reach
	r.counted[m] = in
	sub := s.v.meths[m].Subtasks
	if r.ext != nil {
		sub = r.ext[m]
	}
	s.refTasks(sub, in)
}

// refTasks adds (or removes) a reference to each task of ts.
func (s *dfs) refTasks(ts []ground.TaskID, in bool) {
	for _, t := range ts {
		if in {
			s.incRef(int32(t))
		} else {
			s.decRef(int32(t))
		}
	}
}

// reachAdds counts or uncounts the add effects of action a. A fact that
// is false and loses its last adder is lost, except while a step is
// undone: the node it returns to had its kills made already.
func (s *dfs) reachAdds(a int32, in bool) {
	r := s.reach
	r.adding[a] = in
	for _, f := range s.v.t.Actions[a].Add {
		if in {
			r.addCnt[f]++
			continue
		}
		if r.addCnt[f]--; r.addCnt[f] == 0 && !s.undoing && !s.has(f) {
			s.lose(f)
		}
	}
}

// lose kills what needs fact f, false for good below this node (in
// reach, see inReach).
func (s *dfs) lose(f ground.FactID) {
	s.stats.Lost++
	s.killAll(s.v.preUsers[f])
}

// inReach reports whether method or action reference ref is in reach.
// With a reach, only those are killed (killAll, taskDied): the reach
// never grows on the way down, so the others can never run below the
// node anyway, and a task left without methods outside it is in no
// network to come.
func (s *dfs) inReach(ref int32) bool {
	if ref >= 0 {
		return s.reach.ref[s.reach.task[ref]] > 0
	}
	return s.reach.ref[-1-ref] > 0
}

// reachKilled and reachRevived follow a kill (or its undo) of method or
// action reference ref into the reach.
func (s *dfs) reachKilled(ref int32) {
	if ref >= 0 {
		if s.reach.counted[ref] {
			s.reachSubtasks(ref, false)
		}
		return
	}
	if a := -1 - ref; s.reach.adding[a] {
		s.reachAdds(a, false)
	}
}

func (s *dfs) reachRevived(ref int32) {
	r := s.reach
	if ref >= 0 {
		if !r.counted[ref] && r.ref[r.task[ref]] > 0 {
			s.reachSubtasks(ref, true)
		}
		return
	}
	if a := -1 - ref; !r.adding[a] && r.ref[a] > 0 {
		s.reachAdds(a, true)
	}
}

// reachLost reports whether goal fact f is false and nothing left can
// add it.
func (s *dfs) reachLost(f ground.FactID) bool {
	return s.reach != nil && s.reach.addCnt[f] == 0 && !s.has(f)
}

// hold adds (or drops) a reference to each subtask of method m while its
// task's node is replaced by them, so that they do not leave the reach
// for a moment, which would lose facts they add.
func (s *dfs) hold(m int32, in bool) {
	if s.reach != nil {
		s.refTasks(s.v.meths[m].Subtasks, in)
	}
}
