package plan_test

import (
	"strconv"
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
	if p, err := plan.Read(strings.NewReader("; costly\n; costs: none\n; the cost 3\n==>\n0 a\nroot\n<==\n")); err != nil || p.Costed {
		t.Errorf("comments that state no cost: %+v, %v", p, err)
	}
	// a cost line written otherwise is an error at its line, not a
	// comment that claims nothing
	for _, l := range []string{"; cost -8", "; cost 8 extra", "; cost 1e1", "; cost 8.0", "; cost 0x8", "; COST 8", "; Cost 8",
		"; cost +8", "; cost", "; cost =", "; cost 99999999999999999999"} {
		_, err := plan.Read(strings.NewReader("; a plan\n" + l + "\n==>\n0 a\nroot\n<==\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "plan line 2: ") {
			t.Errorf("%q: %v, want an error at line 2", l, err)
		}
	}
	if _, err := plan.Read(strings.NewReader("; cost 8\n; cost 9\n==>\n0 a\nroot\n<==\n")); err == nil || !strings.Contains(err.Error(), "line 2: a second cost line") {
		t.Errorf("two cost lines: %v", err)
	}
}

// TestReadIDs: an id used twice is an error that names both lines,
// whether ids are small and dense or scattered and huge.
func TestReadIDs(t *testing.T) {
	for _, ids := range [][2]int{{0, 0}, {7, 7}, {1 << 40, 1 << 40}, {5, 1 << 40}} {
		var b strings.Builder
		b.WriteString("==>\n")
		for i := range 1000 {
			b.WriteString(itoa(1000+i) + " a\n")
		}
		b.WriteString(itoa(ids[0]) + " a\n")
		b.WriteString(itoa(1<<41) + " a\n")
		b.WriteString(itoa(ids[1]) + " a\nroot\n<==\n")
		_, err := plan.Read(strings.NewReader(b.String()))
		if ids[0] == ids[1] {
			if err == nil || !strings.Contains(err.Error(), "already used on line 1002") {
				t.Errorf("ids %v: %v", ids, err)
			}
		} else if err != nil {
			t.Errorf("ids %v: %v", ids, err)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
