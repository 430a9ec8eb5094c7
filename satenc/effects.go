package satenc

import (
	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
)

// possibleEffects are, per compound task, the facts that some action of
// some decomposition of it adds or deletes: what a vertex holding the task
// may change before it is decomposed. They are computed once, as a least
// fixpoint over the methods (recursive tasks included).
type possibleEffects struct {
	t    *ground.Task
	bits []sets.Bits // per compound task
	list [][]ground.FactID
}

func newPossibleEffects(t *ground.Task) *possibleEffects {
	nc := len(t.Compounds)
	pe := &possibleEffects{t: t, bits: make([]sets.Bits, nc), list: make([][]ground.FactID, nc)}
	for i := range pe.bits {
		pe.bits[i] = sets.NewBits(len(t.Facts))
	}
	// users[c]: the compound tasks with a method that has c as a subtask
	users := make([][]int32, nc)
	na := len(t.Actions)
	for m := range t.Methods {
		owner := int32(int(t.Methods[m].Task) - na)
		for _, s := range t.Methods[m].Subtasks {
			if !t.IsPrimitive(s) {
				users[int(s)-na] = append(users[int(s)-na], owner)
			}
		}
	}
	queued := make([]bool, nc)
	var queue []int32
	for c := range nc {
		queue = append(queue, int32(c))
		queued[c] = true
	}
	for len(queue) > 0 {
		c := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		queued[c] = false
		b := pe.bits[c]
		changed := false
		for _, m := range t.Compound(t.CompoundID(int(c))).Methods {
			for _, s := range t.Methods[m].Subtasks {
				if t.IsPrimitive(s) {
					a := &t.Actions[s]
					for _, fs := range [][]ground.FactID{a.Add, a.Del} {
						for _, f := range fs {
							if !b.Has(int(f)) {
								b.Add(int(f))
								changed = true
							}
						}
					}
					continue
				}
				changed = b.Union(pe.bits[int(s)-na]) || changed
			}
		}
		if changed {
			for _, u := range users[c] {
				if !queued[u] {
					queued[u] = true
					queue = append(queue, u)
				}
			}
		}
	}
	return pe
}

// of lists the possible effects of compound task tk.
func (pe *possibleEffects) of(tk ground.TaskID) []ground.FactID {
	c := int(tk) - len(pe.t.Actions)
	if pe.list[c] == nil {
		l := []ground.FactID{}
		for _, f := range pe.bits[c].Members() {
			l = append(l, ground.FactID(f))
		}
		pe.list[c] = l
	}
	return pe.list[c]
}
