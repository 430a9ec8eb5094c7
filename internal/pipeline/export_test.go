package pipeline

// SetOneCoreShare sets the share of the time Auto on one core gives
// progression (the SAT engine has the rest), and returns a function that
// puts it back.
func SetOneCoreShare(f float64) (restore func()) {
	old := oneCoreShare
	oneCoreShare = f
	return func() { oneCoreShare = old }
}

// SetOneCoreSATAt sets the share of the time after which Auto on one
// core gives the SAT engine its turn, and returns a function that puts
// it back.
func SetOneCoreSATAt(f float64) (restore func()) {
	old := oneCoreSATAt
	oneCoreSATAt = f
	return func() { oneCoreSATAt = old }
}
