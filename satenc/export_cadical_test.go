//go:build cadical

package satenc

// SetSliceConflicts makes a search given a time budget stop after n
// conflicts instead, until restore is called.
func SetSliceConflicts(n int) (restore func()) {
	old := sliceConflicts
	sliceConflicts = n
	return func() { sliceConflicts = old }
}
