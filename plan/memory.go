package plan

import "context"

// MemoryGauge reports the memory a process uses and the limit it runs
// under, in bytes (a memory guard's, see internal/memguard). Engines that
// can choose how much to build (the SAT engine's deeper layers) consult
// it to stay clear of the limit instead of being stopped at it.
type MemoryGauge func() (used, limit int64)

type gaugeKey struct{}

// WithMemoryGauge returns a context that carries g.
func WithMemoryGauge(ctx context.Context, g MemoryGauge) context.Context {
	return context.WithValue(ctx, gaugeKey{}, g)
}

// MemoryGaugeOf returns the gauge ctx carries, or nil.
func MemoryGaugeOf(ctx context.Context) MemoryGauge {
	g, _ := ctx.Value(gaugeKey{}).(MemoryGauge)
	return g
}
