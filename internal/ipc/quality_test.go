package ipc

import (
	"bytes"
	"strings"
	"testing"
)

// TestQualityTable: a problem's best cost is the least any run found; a
// run scores best/cost per problem it solved, summed per domain; only
// problems every run has count; an optimising run's first plans are a
// run of their own.
func TestQualityTable(t *testing.T) {
	row := func(status string, cost, first, optimal float64) Result {
		return Result{Status: status, Report: map[string]any{"plan_cost": cost, "plan_length": cost, "first_plan_cost": first, "optimal": optimal}}
	}
	opt := Rows{Name: "opt", Rows: map[string]Result{
		"total-order/A/p1": row("solved", 10, 20, 1),
		"total-order/A/p2": row("solved", 8, 8, 0),
		"total-order/B/p1": row("timeout", 0, 0, 0),
		"total-order/B/p9": row("solved", 1, 1, 1), // not in the other run
	}}
	peer := Rows{Name: "peer", Rows: map[string]Result{
		"total-order/A/p1": row("solved", 12, 0, 0),
		"total-order/A/p2": row("solved", 4, 0, 0),
		"total-order/B/p1": row("solved", 5, 0, 0),
	}}
	var b bytes.Buffer
	if err := QualityTable(&b, []Rows{opt, peer}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := map[string]string{
		// opt: 10/10 + 4/8; its first plans: 10/20 + 4/8; peer: 10/12 + 4/4
		"| total-order | A | 2 |":       "| 2 | 1.50 | 1 | 9 | 2 | 1.00 | 0 | 14 | 2 | 1.83 | 0 | 8 |",
		"| total-order | B | 1 |":       "| 0 | 0.00 | 0 | - | 0 | 0.00 | 0 | - | 1 | 1.00 | 0 | 5 |",
		"| total-order | **all** | 3 |": "| 2 | 1.50 | 1 | 9 | 2 | 1.00 | 0 | 14 | 3 | 2.83 | 0 | 5 |",
	}
	for prefix, rest := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				found = true
				if got := strings.TrimPrefix(l, prefix); got != rest[1:] {
					t.Errorf("%s\n got %s\nwant %s", prefix, got, rest)
				}
			}
		}
		if !found {
			t.Errorf("no row %s in\n%s", prefix, b.String())
		}
	}
	if !strings.Contains(lines[0], "opt (first plans): solved") {
		t.Errorf("no column of the first plans: %s", lines[0])
	}
	if Score(0, 0) != 1 || Score(4, 8) != 0.5 || Score(5, 4) != 1 {
		t.Error("Score")
	}
}
