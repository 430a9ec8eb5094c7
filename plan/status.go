package plan

import (
	"context"
	"errors"
	"slices"
)

// The sentinel errors of planning. Every stage (grounding, search,
// encoding, solving) wraps one of them, or a context error, so that
// StatusOf can classify any error it returns.
var (
	// ErrUnsolvable: the problem has no plan, and the stage proved it (a
	// complete search space was exhausted, a formula without
	// approximation was unsatisfiable, or grounding found an initial task
	// or goal that can never be met).
	ErrUnsolvable = errors.New("unsolvable")
	// ErrInconclusive: no plan was found, but the search was incomplete
	// (partial orders linearised, for example), so this proves nothing.
	ErrInconclusive = errors.New("no plan found, inconclusively")
	// ErrNodeLimit: a search hit its bound on nodes.
	ErrNodeLimit = errors.New("node limit reached")
	// ErrDepthLimit: no plan up to the deepest decomposition tried.
	ErrDepthLimit = errors.New("no plan up to the maximum depth")
	// ErrTooLarge: grounding or encoding outgrew its budget.
	ErrTooLarge = errors.New("too large")
	// ErrMemory: the heap outgrew its limit.
	ErrMemory = errors.New("memory limit exceeded")
)

// Status is the outcome of a run in one word, as the JSON reports, the
// CSV rows and the tables write it.
type Status string

// The statuses.
const (
	Solved       Status = "solved" // a plan, verified unless verification was off
	OK           Status = "ok"     // a stage that does not plan (grounding) finished
	Unsolvable   Status = "unsolvable"
	Inconclusive Status = "inconclusive"
	Timeout      Status = "timeout"
	Interrupted  Status = "interrupted"
	NodeLimit    Status = "node-limit"
	DepthLimit   Status = "depth-limit"
	TooLarge     Status = "too-large"
	Memory       Status = "memory"
	Failed       Status = "error"
)

// Statuses lists every status.
var Statuses = []Status{Solved, OK, Unsolvable, Inconclusive, Timeout, Interrupted, NodeLimit, DepthLimit, TooLarge, Memory, Failed}

// Known reports whether s is one of Statuses.
func (s Status) Known() bool { return slices.Contains(Statuses, s) }

// StatusOf classifies an error: nil is Solved; a context error is Timeout
// (deadline) or Interrupted (cancelled); a sentinel of this package gives
// its status; anything else (bad input, an invalid plan, a broken solver)
// is Failed.
func StatusOf(err error) Status {
	switch {
	case err == nil:
		return Solved
	case errors.Is(err, context.DeadlineExceeded):
		return Timeout
	case errors.Is(err, context.Canceled):
		return Interrupted
	case errors.Is(err, ErrMemory):
		return Memory
	case errors.Is(err, ErrTooLarge):
		return TooLarge
	case errors.Is(err, ErrNodeLimit):
		return NodeLimit
	case errors.Is(err, ErrDepthLimit):
		return DepthLimit
	case errors.Is(err, ErrInconclusive):
		return Inconclusive
	case errors.Is(err, ErrUnsolvable):
		return Unsolvable
	}
	return Failed
}

// Process exit codes, as README documents them.
const (
	ExitOK      = 0 // success
	ExitFailure = 1 // no plan, bad input, an invalid plan, any other error
	ExitUsage   = 2 // a bad command line
	ExitTimeout = 3 // the time limit expired, or the run was interrupted
)

// ExitCode is the exit code of a process whose run ended with status s.
func (s Status) ExitCode() int {
	switch s {
	case Solved, OK:
		return ExitOK
	case Timeout, Interrupted:
		return ExitTimeout
	}
	return ExitFailure
}

// WithCause replaces a context error by the cause the context was
// cancelled with, when there is one (a memory guard cancels with an error
// wrapping ErrMemory): engines see only that their context ended, the
// classifier should see why.
func WithCause(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
		return err
	}
	if c := context.Cause(ctx); c != nil && c != ctx.Err() {
		return c
	}
	return err
}
