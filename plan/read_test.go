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
	}
	for name, text := range cases {
		if _, err := plan.Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}
