package ground

import (
	"slices"

	"github.com/htnsat/htnsat/internal/sets"
)

// A pure test is a compound task with exactly one method, which has no
// subtasks: it only checks that method's precondition where it stands
// (check-row of the Sudoku model). A test that every subtask ordered
// before it in a method is a folded test too can be checked where the
// method's precondition is, before any state change of the method, so
// its precondition joins the method's and the test leaves the network.
// Both engines then have fewer tasks to place: the progression search
// fewer nodes, the SAT encoding fewer vertices and steps.

// Folding is a task with its pure tests folded into the methods that use
// them, and the map back to the original task.
type Folding struct {
	// Task is the folded task. It has the facts, actions, compound tasks
	// and methods of Orig with the same IDs; a method that had tests has
	// them removed from its subtasks and their preconditions added to its
	// own.
	Task *Task
	// Orig is the task that was folded.
	Orig  *Task
	tests [][]foldedTest // per method: the tests folded into it
	kept  [][]int32      // per method with tests: the positions in Orig's method of the subtasks kept
}

type foldedTest struct {
	pos    int32 // position in Orig's method
	task   TaskID
	method MethodID // the test's only method
}

// FoldTests folds the pure tests of t. It never changes t.
func FoldTests(t *Task) *Folding {
	f := &Folding{Orig: t, tests: make([][]foldedTest, len(t.Methods)), kept: make([][]int32, len(t.Methods))}
	test := func(id TaskID) (MethodID, bool) {
		if t.IsPrimitive(id) {
			return 0, false
		}
		c := t.Compound(id)
		if len(c.Methods) != 1 || len(t.Methods[c.Methods[0]].Subtasks) != 0 {
			return 0, false
		}
		return c.Methods[0], true
	}
	ft := *t
	ft.memo = &memo{}
	ft.Methods = make([]Method, len(t.Methods))
	for mi := range t.Methods {
		m := &t.Methods[mi]
		ft.Methods[mi] = *m
		folded := foldable(m, test)
		if folded == nil {
			continue
		}
		nm := &ft.Methods[mi]
		pre := slices.Clone(m.Pre)
		neg := slices.Clone(m.NegPre)
		newIdx := make([]int32, len(m.Subtasks))
		nm.Subtasks = nil
		for k, s := range m.Subtasks {
			if folded[k] {
				tm, _ := test(s)
				f.tests[mi] = append(f.tests[mi], foldedTest{pos: int32(k), task: s, method: tm})
				pre = append(pre, t.Methods[tm].Pre...)
				neg = append(neg, t.Methods[tm].NegPre...)
				newIdx[k] = -1
				continue
			}
			newIdx[k] = int32(len(nm.Subtasks))
			nm.Subtasks = append(nm.Subtasks, s)
			f.kept[mi] = append(f.kept[mi], int32(k))
		}
		nm.Ordering = nil
		if m.Total {
			for i := 1; i < len(nm.Subtasks); i++ {
				nm.Ordering = append(nm.Ordering, Order{Before: int32(i - 1), After: int32(i)})
			}
		} else {
			for _, o := range m.Ordering {
				if a, b := newIdx[o.Before], newIdx[o.After]; a >= 0 && b >= 0 {
					nm.Ordering = append(nm.Ordering, Order{Before: a, After: b})
				}
			}
		}
		nm.Pre, nm.NegPre = sets.Dedup(pre), sets.Dedup(neg)
	}
	f.Task = &ft
	return f
}

// NoFolding is the folding of t that folds nothing: its Task is t and
// Unfold returns solutions unchanged.
func NoFolding(t *Task) *Folding { return &Folding{Task: t, Orig: t} }

// foldable marks the subtasks of m that fold: tests whose predecessors
// (all of them, transitively) fold too. In a chain these are the tests
// that come first. It returns nil when none folds.
func foldable(m *Method, test func(TaskID) (MethodID, bool)) []bool {
	n := len(m.Subtasks)
	if n == 0 {
		return nil
	}
	folded := make([]bool, n)
	any := false
	if m.Total {
		for k, s := range m.Subtasks {
			if _, ok := test(s); !ok {
				break
			}
			folded[k], any = true, true
		}
	} else {
		// a test folds when its direct predecessors all fold; direct ones
		// suffice, since each of them folds only if its own do
		preds := make([][]int32, n)
		for _, o := range m.Ordering {
			preds[o.After] = append(preds[o.After], o.Before)
		}
		order, err := Linearize(n, m.Ordering)
		if err != nil {
			return nil
		}
		for _, k := range order {
			if _, ok := test(m.Subtasks[k]); !ok {
				continue
			}
			all := true
			for _, p := range preds[k] {
				all = all && folded[p]
			}
			if all {
				folded[k], any = true, true
			}
		}
	}
	if !any {
		return nil
	}
	return folded
}

// Unfold turns a solution of the folded task into one of the original:
// each folded test is put back as a subtask, decomposed by its only
// method, at its place in its method.
func (f *Folding) Unfold(sol *Solution) *Solution {
	if f.tests == nil {
		return sol
	}
	out := &Solution{Roots: sol.Roots, Order: sol.Order, Nodes: slices.Clone(sol.Nodes)}
	for i := range sol.Nodes {
		m, kids := sol.Nodes[i].Method, sol.Nodes[i].Children
		if m < 0 || f.tests[m] == nil {
			continue
		}
		children := make([]int32, len(f.Orig.Methods[m].Subtasks))
		for k, pos := range f.kept[m] {
			children[pos] = kids[k]
		}
		for _, ft := range f.tests[m] {
			children[ft.pos] = int32(len(out.Nodes))
			out.Nodes = append(out.Nodes, SolNode{Task: ft.task, Method: ft.method})
		}
		out.Nodes[i].Children = children
	}
	return out
}
