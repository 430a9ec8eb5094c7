package ipc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/internal/corpus"
)

func TestPandaTable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.csv")
	// the shared file has CRLF line ends and a blank row where pandaPI failed
	data := "track,domain,problem,facts,actions,methods,seconds\r\n" +
		"total-order,D,p1.hddl,10,20,100,0.50\r\n" +
		"total-order,D,p2.hddl,10,20,100,0.01\r\n" +
		"total-order,D,p3.hddl,,,,\r\n"
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadPandaPI(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || !rows[0].Grounded || rows[0].Seconds != 0.5 || rows[2].Grounded {
		t.Fatalf("rows %+v", rows)
	}
	in := func(p string) corpus.Instance {
		return corpus.Instance{Track: "total-order", Domain: "D", ProblemFile: "/x/" + p}
	}
	all := []corpus.Instance{in("p1.hddl"), in("p2.hddl"), in("p3.hddl"), in("p4.hddl")}
	sel, err := SelectPandaPI(all, all, rows)
	if err != nil || len(sel) != 3 {
		t.Fatalf("selected %v, %v", sel, err)
	}
	if _, err := SelectPandaPI(all[:1], all[:1], rows); err == nil {
		t.Error("a row naming an unknown problem is accepted")
	}
	rep := func(meths, secs float64) map[string]any {
		return map[string]any{"actions": 20.0, "compact_methods": meths, "ground_seconds": secs, "parse_seconds": 0.01}
	}
	results := []Result{
		{Instance: sel[0], Status: "ok", Report: rep(140, 0.2)}, // within 1.5x, faster
		{Instance: sel[1], Status: "ok", Report: rep(300, 0.2)}, // 3x and slower
		{Instance: sel[2], Status: "ok", Report: rep(5, 0.1)},   // only ours
	}
	var b strings.Builder
	PandaTable(&b, rows, results)
	out := b.String()
	for _, want := range []string{"| 140 | 1.40 | 0.20 | 0.01 |  |", "| 300 | 3.00 | 0.20 | 0.01 | methods slower |"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "2 problems grounded by both: 1 with more than 1.5 times pandaPI's methods (and 100 more), 1 with a slower grounding; 1 grounded only by htnsat, 0 only by pandaPI.") {
		t.Errorf("summary:\n%s", out)
	}
}
