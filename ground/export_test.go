package ground

// JoinSteps counts the join steps the grounding on demand has made (a
// measure of its work, for tests).
func (lz *Lazy) JoinSteps() uint64 { return lz.ticks }
