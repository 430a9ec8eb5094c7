package plan_test

import (
	"strings"
	"testing"

	"github.com/htnsat/htnsat/plan"
)

func TestReadPlanErrors(t *testing.T) {
	cases := map[string]string{
		"no start":      "0 a\n",
		"no end":        "==>\n0 a\nroot 0\n",
		"bad id":        "==>\nx a\nroot\n<==\n",
		"dup id":        "==>\n0 a\n0 b\nroot 0\n<==\n",
		"decomp before": "==>\n1 t -> m 0\nroot 1\n<==\n",
		"cost overflow": "; cost 99999999999999999999\n==>\n0 a\nroot\n<==\n",
	}
	for name, text := range cases {
		if _, err := plan.Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

// TestReadCost: "; cost N" before "==>" is the cost the plan claims; other
// comments there are ignored.
func TestReadCost(t *testing.T) {
	for text, want := range map[string]int{
		"; cost 12\n==>\n0 a\nroot\n<==\n":                     12,
		";; cost = 9223372036854775807\n==>\n0 a\nroot\n<==\n": 9223372036854775807,
	} {
		p, err := plan.Read(strings.NewReader(text))
		if err != nil || !p.Costed || p.Cost != want {
			t.Errorf("%q: %+v, %v; want cost %d", text, p, err, want)
		}
	}
	if p, err := plan.Read(strings.NewReader("; costly\n; cost -3\n==>\n0 a\nroot\n<==\n")); err != nil || p.Costed {
		t.Errorf("comments that state no cost: %+v, %v", p, err)
	}
}
