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
// The reach is kept by reference counting over the task graph, which is a
// DAG when the network cannot recur: ref[id] counts the alive network
// nodes of task id and the occurrences of id among the subtasks of the
// live methods of tasks in reach; id is in reach while ref[id] > 0.
// addCnt[f] counts the live actions in reach that add f. Both follow the
// network's nodes and the kills, and are restored with them on undo.
type reach struct {
	ref    []int32 // per TaskID
	addCnt []int32 // per fact
	// counted[m]: method m's subtasks hold references (m live, its task
	// in reach); adding[a]: action a's add effects are counted (a live,
	// in reach). Kept explicitly so that a kill in the middle of a
	// cascade counts each method and action once.
	counted []bool
	adding  []bool
	// task[m] is method m's task (a compact copy: inReach runs over long
	// lists of methods, most of them out of reach)
	task []int32
}

func newReach(v *view) *reach {
	r := &reach{
		ref:     make([]int32, v.t.NumTasks()),
		addCnt:  make([]int32, v.nFacts),
		counted: make([]bool, len(v.meths)),
		adding:  make([]bool, v.nA),
		task:    make([]int32, len(v.meths)),
	}
	for m := range v.meths {
		r.task[m] = int32(v.meths[m].Task)
	}
	return r
}

// incRef and decRef add and remove a reference to task id.
func (s *dfs) incRef(id int32) {
	r := s.reach
	if r.ref[id]++; r.ref[id] == 1 {
		s.reachTask(id, true)
	}
}

func (s *dfs) decRef(id int32) {
	r := s.reach
	if r.ref[id]--; r.ref[id] == 0 {
		s.reachTask(id, false)
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

func (s *dfs) reachSubtasks(m int32, in bool) {
	s.reach.counted[m] = in
	s.refSubtasks(m, in)
}

// refSubtasks adds (or removes) a reference to each subtask of method m.
func (s *dfs) refSubtasks(m int32, in bool) {
	for _, t := range s.v.meths[m].Subtasks {
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
		s.refSubtasks(m, in)
	}
}
