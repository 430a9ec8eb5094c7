package satenc

import "time"

// SetSkipPace sets the time budget of a layer to budget, or to the time
// spent so far divided by share if that is more, until restore is called.
func SetSkipPace(budget time.Duration, share time.Duration) (restore func()) {
	b, s := skipBudget, skipShare
	skipBudget, skipShare = budget, share
	return func() { skipBudget, skipShare = b, s }
}
