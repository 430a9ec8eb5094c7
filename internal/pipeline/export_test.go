package pipeline

// SetOneCoreShare sets the share of the time Auto on one core gives
// progression before the SAT engine, and returns a function that puts
// it back.
func SetOneCoreShare(f float64) (restore func()) {
	old := oneCoreShare
	oneCoreShare = f
	return func() { oneCoreShare = old }
}
