package verify_test

import (
	"context"
	"testing"

	"github.com/htnsat/htnsat/verify"
)

// BenchmarkVerifyPaper checks the paper puzzle's plan with the lifted
// verifier.
func BenchmarkVerifyPaper(b *testing.B) {
	p, pl := paperPlan(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := verify.Verify(context.Background(), p, pl); err != nil {
			b.Fatal(err)
		}
	}
}
