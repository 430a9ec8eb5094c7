package ground

import (
	"context"

	"github.com/htnsat/htnsat/hddl"
)

// JoinSteps counts the join steps the grounding on demand has made (a
// measure of its work, for tests).
func (lz *Lazy) JoinSteps() uint64 { return lz.ticks }

// NewLazy lets the external tests ask a grounding on demand for method
// instances directly, as Grow does.
func NewLazy(ctx context.Context, p *hddl.Problem, opt Options) (*Lazy, error) {
	return newLazy(ctx, p, opt)
}
