package htn

import (
	"math"

	"github.com/htnsat/htnsat/ground"
)

// view is the search's reading of a ground task: methods with pure tests
// folded into their preconditions, and the indexes that dead-end detection
// and the heuristic need. It is built once per task and never changed.
type view struct {
	t      *ground.Task
	nA     int // actions: TaskIDs below nA
	nFacts int
	meths  []smethod
	// taskMeths[c] lists the search methods of compound task c (indexed
	// from 0, i.e. TaskID-nA).
	taskMeths [][]int32
	// users[id] lists the search methods having task id as a subtask.
	users [][]int32
	// neverDel[f]: no action deletes f, so once true it stays true;
	// neverAdd[f]: no action adds f, so once false it stays false.
	neverDel, neverAdd []bool
	// killOnTrue[f] / killOnFalse[f]: what f becoming permanently true /
	// false makes inapplicable forever (a reference as in the trail).
	killOnTrue, killOnFalse [][]int32
	cost                    []int32 // least number of actions a task needs
	recursive               bool
	total                   bool // every method and the initial network are totally ordered
}

// smethod is a ground method as the search sees it.
type smethod struct {
	orig     ground.MethodID
	task     ground.TaskID
	pre      []ground.FactID
	negPre   []ground.FactID
	subtasks []ground.TaskID
	ordering []ground.Order
	total    bool
	// folded lists the subtasks of the ground method that were pure tests
	// folded into pre/negPre: position in the ground method and the test's
	// only method, for writing the plan.
	folded []foldedTest
	// keep maps the search subtasks to their positions in the ground method.
	keep []int
}

type foldedTest struct {
	pos    int
	task   ground.TaskID
	method ground.MethodID
}

// refs in trails and kill lists: methods as m >= 0, actions as -1-a.
func methodRef(m int32) int32 { return m }
func actionRef(a int32) int32 { return -1 - a }

func newView(t *ground.Task, fold bool) *view {
	v := &view{t: t, nA: len(t.Actions), nFacts: len(t.Facts)}
	nt := t.NumTasks()
	// pure tests: compound tasks with exactly one method, which has no
	// subtasks (a choice of tests cannot be folded into one conjunction)
	isTest := func(id ground.TaskID) (ground.MethodID, bool) {
		if t.IsPrimitive(id) {
			return 0, false
		}
		c := t.Compound(id)
		if len(c.Methods) != 1 || len(t.Methods[c.Methods[0]].Subtasks) != 0 {
			return 0, false
		}
		return c.Methods[0], true
	}
	v.taskMeths = make([][]int32, len(t.Compounds))
	v.users = make([][]int32, nt)
	v.total = t.InitialTotal
	for mi := range t.Methods {
		gm := &t.Methods[mi]
		sm := smethod{orig: ground.MethodID(mi), task: gm.Task, total: gm.Total}
		pre := append([]ground.FactID(nil), gm.Pre...)
		neg := append([]ground.FactID(nil), gm.NegPre...)
		// a test is folded when every subtask before it is a folded test:
		// its precondition can then be checked where the method's
		// precondition is, before any state change of the method
		foldedAt := make([]bool, len(gm.Subtasks))
		if fold && gm.Total {
			// in a chain, the tests that come first
			for k, s := range gm.Subtasks {
				tm, ok := isTest(s)
				if !ok {
					break
				}
				foldedAt[k] = true
				pre = append(pre, t.Methods[tm].Pre...)
				neg = append(neg, t.Methods[tm].NegPre...)
				sm.folded = append(sm.folded, foldedTest{pos: k, task: s, method: tm})
			}
		} else if fold {
			preds := make([][]int32, len(gm.Subtasks))
			for _, o := range gm.Ordering {
				preds[o.After] = append(preds[o.After], o.Before)
			}
			for changed := true; changed; {
				changed = false
				for k, s := range gm.Subtasks {
					if foldedAt[k] {
						continue
					}
					tm, ok := isTest(s)
					if !ok {
						continue
					}
					all := true
					for _, p := range transPreds(k, preds) {
						if !foldedAt[p] {
							all = false
						}
					}
					if all {
						foldedAt[k] = true
						changed = true
						pre = append(pre, t.Methods[tm].Pre...)
						neg = append(neg, t.Methods[tm].NegPre...)
						sm.folded = append(sm.folded, foldedTest{pos: k, task: s, method: tm})
					}
				}
			}
		}
		newIdx := make([]int32, len(gm.Subtasks))
		for k, s := range gm.Subtasks {
			if foldedAt[k] {
				newIdx[k] = -1
				continue
			}
			newIdx[k] = int32(len(sm.subtasks))
			sm.subtasks = append(sm.subtasks, s)
			sm.keep = append(sm.keep, k)
		}
		for _, o := range gm.Ordering {
			a, b := newIdx[o.Before], newIdx[o.After]
			if a >= 0 && b >= 0 {
				sm.ordering = append(sm.ordering, ground.Order{Before: a, After: b})
			}
		}
		if len(sm.folded) > 0 && sm.total {
			// the kept subtasks of a chain form a chain again
			sm.ordering = sm.ordering[:0]
			for i := 1; i < len(sm.subtasks); i++ {
				sm.ordering = append(sm.ordering, ground.Order{Before: int32(i - 1), After: int32(i)})
			}
		}
		if !sm.total {
			v.total = false
		}
		sm.pre, sm.negPre = dedup(pre), dedup(neg)
		id := int32(len(v.meths))
		v.meths = append(v.meths, sm)
		v.taskMeths[int(gm.Task)-v.nA] = append(v.taskMeths[int(gm.Task)-v.nA], id)
		for _, s := range sm.subtasks {
			v.users[s] = append(v.users[s], id)
		}
	}
	// permanence of facts
	v.neverDel = make([]bool, v.nFacts)
	v.neverAdd = make([]bool, v.nFacts)
	for f := range v.neverDel {
		v.neverDel[f], v.neverAdd[f] = true, true
	}
	for _, a := range t.Actions {
		for _, f := range a.Add {
			v.neverAdd[f] = false
		}
		for _, f := range a.Del {
			v.neverDel[f] = false
		}
	}
	v.killOnTrue = make([][]int32, v.nFacts)
	v.killOnFalse = make([][]int32, v.nFacts)
	index := func(ref int32, pre, neg []ground.FactID) {
		for _, f := range pre {
			if v.neverAdd[f] {
				v.killOnFalse[f] = append(v.killOnFalse[f], ref)
			}
		}
		for _, f := range neg {
			if v.neverDel[f] {
				v.killOnTrue[f] = append(v.killOnTrue[f], ref)
			}
		}
	}
	for i, a := range t.Actions {
		index(actionRef(int32(i)), a.Pre, a.NegPre)
	}
	for i := range v.meths {
		index(methodRef(int32(i)), v.meths[i].pre, v.meths[i].negPre)
	}
	v.costs()
	v.recursive = v.findCycle()
	return v
}

func transPreds(k int, preds [][]int32) []int32 {
	var out []int32
	seen := map[int32]bool{}
	stack := append([]int32(nil), preds[k]...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		out = append(out, x)
		stack = append(stack, preds[x]...)
	}
	return out
}

func dedup(fs []ground.FactID) []ground.FactID {
	seen := map[ground.FactID]bool{}
	out := fs[:0]
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// costs computes the least number of actions each task decomposes into
// (ignoring preconditions): the admissible heuristic of the best-first
// searches, summed over the tasks of a network.
func (v *view) costs() {
	nt := v.t.NumTasks()
	v.cost = make([]int32, nt)
	for i := range v.cost {
		if i < v.nA {
			v.cost[i] = 1
		} else {
			v.cost[i] = math.MaxInt32
		}
	}
	for changed := true; changed; {
		changed = false
		for _, m := range v.meths {
			var c int64
			for _, s := range m.subtasks {
				c += int64(v.cost[s])
			}
			if c < int64(v.cost[m.task]) {
				v.cost[m.task] = int32(c)
				changed = true
			}
		}
	}
}

// findCycle reports whether some task can decompose into itself.
func (v *view) findCycle() bool {
	nt := v.t.NumTasks()
	color := make([]int8, nt)
	var visit func(id int) bool
	visit = func(id int) bool {
		if id < v.nA {
			return false
		}
		switch color[id] {
		case 1:
			return true
		case 2:
			return false
		}
		color[id] = 1
		for _, m := range v.taskMeths[id-v.nA] {
			for _, s := range v.meths[m].subtasks {
				if visit(int(s)) {
					return true
				}
			}
		}
		color[id] = 2
		return false
	}
	for id := v.nA; id < nt; id++ {
		if visit(id) {
			return true
		}
	}
	return false
}
