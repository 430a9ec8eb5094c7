package htn

import (
	"math"

	"github.com/htnsat/htnsat/ground"
)

// view is the search's reading of a ground task: the indexes that
// dead-end detection and the heuristics need. It is built once per task
// and never changed. The task's analyses (recursion, total order, the
// permanence of facts) come from package ground.
type view struct {
	t      *ground.Task
	nA     int // actions: TaskIDs below nA
	nFacts int
	meths  []ground.Method // the task's methods, by MethodID
	// taskMeths[c] lists the methods of compound task c (indexed from 0,
	// i.e. TaskID-nA).
	taskMeths [][]int32
	// users[id] lists the methods having task id as a subtask.
	users [][]int32
	// neverDel[f]: no action deletes f, so once true it stays true;
	// neverAdd[f]: no action adds f, so once false it stays false.
	neverDel, neverAdd []bool
	// killOnTrue[f] / killOnFalse[f]: what f becoming permanently true /
	// false makes inapplicable forever (a reference as in the trail).
	killOnTrue, killOnFalse [][]int32
	cost                    []int32 // least number of actions a task needs
	recursive               bool
	total                   bool // every network is totally ordered
}

// refs in trails and kill lists: methods as m >= 0, actions as -1-a.
func methodRef(m int32) int32 { return m }
func actionRef(a int32) int32 { return -1 - a }

func newView(t *ground.Task) *view {
	v := &view{t: t, nA: len(t.Actions), nFacts: len(t.Facts), meths: t.Methods}
	v.taskMeths = make([][]int32, len(t.Compounds))
	for c := range t.Compounds {
		ms := make([]int32, len(t.Compounds[c].Methods))
		for i, m := range t.Compounds[c].Methods {
			ms[i] = int32(m)
		}
		v.taskMeths[c] = ms
	}
	v.users = make([][]int32, t.NumTasks())
	for mi := range t.Methods {
		for _, s := range t.Methods[mi].Subtasks {
			v.users[s] = append(v.users[s], int32(mi))
		}
	}
	v.neverAdd, v.neverDel = t.Permanence()
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
		index(methodRef(int32(i)), v.meths[i].Pre, v.meths[i].NegPre)
	}
	v.costs()
	v.recursive = t.Recursive()
	v.total = t.TotallyOrdered()
	return v
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
		for i := range v.meths {
			m := &v.meths[i]
			var c int64
			for _, s := range m.Subtasks {
				c += int64(v.cost[s])
			}
			if c < int64(v.cost[m.Task]) {
				v.cost[m.Task] = int32(c)
				changed = true
			}
		}
	}
}
