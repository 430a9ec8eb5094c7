package satenc

import (
	"fmt"
	"time"
)

// SetSkipPace sets the time budget of a layer to budget, or to the time
// spent so far divided by share if that is more, until restore is called.
func SetSkipPace(budget time.Duration, share time.Duration) (restore func()) {
	b, s := skipBudget, skipShare
	skipBudget, skipShare = budget, share
	return func() { skipBudget, skipShare = b, s }
}

// CheckAlignments reports the first vertex whose alignment is not a valid
// placement: each method's subtasks at increasing children, all within
// the vertex's width, one child per subtask.
func CheckAlignments(e *Encoding) error {
	for vi := range e.verts {
		v := &e.verts[vi]
		a := v.align
		if a == nil {
			return fmt.Errorf("vertex %d has no alignment", vi)
		}
		if a.slots != nil && len(a.slots) != len(v.methods) {
			return fmt.Errorf("vertex %d: %d placements for %d methods", vi, len(a.slots), len(v.methods))
		}
		for k, m := range v.methods {
			n := len(e.order[m])
			if a.slots != nil && a.slots[k] != nil && len(a.slots[k]) != n {
				return fmt.Errorf("vertex %d, method %d: %d children for %d subtasks", vi, m, len(a.slots[k]), n)
			}
			last := -1
			for j := range n {
				i := a.slot(k, j)
				if i <= last || i >= int(a.width) {
					return fmt.Errorf("vertex %d, method %d: subtask %d at child %d (after %d, width %d)", vi, m, j, i, last, a.width)
				}
				last = i
			}
		}
		if v.children != nil && len(v.children) != int(a.width) {
			return fmt.Errorf("vertex %d: %d children, width %d", vi, len(v.children), a.width)
		}
	}
	return nil
}

// SetHorizonSlice sets the shortest slice of time a horizon gets (see
// schedule) until restore is called.
func SetHorizonSlice(d time.Duration) (restore func()) {
	old := horizonSlice
	horizonSlice = d
	return func() { horizonSlice = old }
}
