package satenc

import (
	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/internal/sets"
)

// possibleEffects are, per compound task, the facts that some action of
// some decomposition of it adds or deletes: what a vertex holding the task
// may change before it is decomposed. They are computed in one pass over
// the task graph's strongly connected components, bottom-up: the tasks of
// one component (mutually recursive) share one set, the union of their
// methods' actions' effects and of the sets of the components below.
type possibleEffects struct {
	t    *ground.Task
	comp []int32     // per compound task, its component
	bits []sets.Bits // per component
	list [][]ground.FactID
}

// newPossibleEffects computes the sets; it gives up (nil) once stopped
// reports true, which it asks every few thousand methods.
func newPossibleEffects(t *ground.Task, stopped func() bool) *possibleEffects {
	comp, n := t.Components()
	members := make([][]int32, n)
	for c, k := range comp {
		members[k] = append(members[k], int32(c))
	}
	pe := &possibleEffects{t: t, comp: comp, bits: make([]sets.Bits, n), list: make([][]ground.FactID, n)}
	na := len(t.Actions)
	work := 0
	for k := range n {
		b := sets.NewBits(len(t.Facts))
		for _, c := range members[k] {
			for _, m := range t.Compounds[c].Methods {
				if work++; work&4095 == 0 && stopped() {
					return nil
				}
				for _, s := range t.Methods[m].Subtasks {
					if t.IsPrimitive(s) {
						a := &t.Actions[s]
						for _, f := range a.Add {
							b.Add(int(f))
						}
						for _, f := range a.Del {
							b.Add(int(f))
						}
					} else if j := comp[int(s)-na]; int(j) != k {
						b.Union(pe.bits[j])
					}
				}
			}
		}
		pe.bits[k] = b
	}
	return pe
}

// of lists the possible effects of compound task tk.
func (pe *possibleEffects) of(tk ground.TaskID) []ground.FactID {
	c := pe.comp[int(tk)-len(pe.t.Actions)]
	if pe.list[c] == nil {
		l := []ground.FactID{}
		for _, f := range pe.bits[c].Members() {
			l = append(l, ground.FactID(f))
		}
		pe.list[c] = l
	}
	return pe.list[c]
}
