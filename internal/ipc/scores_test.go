package ipc

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScores: coverage, agile and satisficing scores per domain, as the
// competition computed them (the means over a domain's problems, unsolved
// counting 0; the reference cost the best of the runs).
func TestScores(t *testing.T) {
	if Agile(0.5, 60) != 1 || Agile(60, 60) != 0 || math.Abs(Agile(math.Sqrt(1800), 1800)-0.5) > 1e-12 {
		t.Errorf("agile: %v %v %v", Agile(0.5, 60), Agile(60, 60), Agile(math.Sqrt(1800), 1800))
	}
	solved := func(sec, cost float64) Result {
		return Result{Status: "solved", Seconds: sec, Report: map[string]any{"plan_cost": cost, "plan_length": cost}}
	}
	a := Rows{Name: "a", Rows: map[string]Result{
		"total-order/D/p1.hddl": solved(0.5, 10), "total-order/D/p2.hddl": solved(60, 20),
		"partial-order/E/p1.hddl": {Status: "timeout", Seconds: 60},
	}}
	b := Rows{Name: "b", Rows: map[string]Result{
		"total-order/D/p1.hddl": solved(2, 5), "partial-order/E/p1.hddl": solved(1, 3),
	}}
	s := Scores([]Rows{a, b}, 60)
	d := domainOf(s[0], "total-order", "D")
	if d.Problems != 2 || d.Solved != 2 || d.Agile != 0.5 || d.Quality != 0.75 {
		t.Errorf("a on D: %+v, want 2 solved, agile 0.5, quality (0.5+1)/2", d)
	}
	d = domainOf(s[1], "total-order", "D")
	if d.Solved != 1 || math.Abs(d.Agile-Agile(2, 60)/2) > 1e-12 || d.Quality != 0.5 {
		t.Errorf("b on D: %+v", d)
	}
	if e := domainOf(s[0], "partial-order", "E"); e.Solved != 0 || e.Agile != 0 {
		t.Errorf("a on E: %+v", e)
	}
}

// TestPublished: the competition's tables are read, their domain names
// matched to our folders', and printed beside a run.
func TestPublished(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) { os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644) }
	for _, tr := range []string{"TO", "PO"} {
		write(tr+"-TABLE-coverage.csv", "planner,total,Freecell-Learned-ECAI-16 ;60,lamps ;30\nX,30,20,10\nY,25,5,20\n")
		write(tr+"-TABLE-agile.csv", "planner,total,Freecell Learned,lamps\nX,0.9,0.5,0.4\nY,1.1,0.3,0.8\n")
		write(tr+"-TABLE-satisficing.csv", "planner,total,Freecell Learned,lamps\nX,1.5,0.9,0.6\nY,1.0,0.5,0.5\n")
	}
	p, err := ReadPublished(dir)
	if err != nil {
		t.Fatal(err)
	}
	if v := p.value("total-order", "agile", "Y", "Lamps"); v != 0.8 {
		t.Errorf("Y's agile on Lamps: %v", v)
	}
	if v, who := p.best("total-order", "coverage", "Freecell-Learned-ECAI-16"); v != 20 || who != "X" {
		t.Errorf("best coverage on Freecell: %v %s", v, who)
	}
	if w := p.winner("total-order", "agile"); w != "Y" {
		t.Errorf("agile winner %s", w)
	}
	run := Rows{Name: "ours", Rows: map[string]Result{"total-order/Lamps/pfile01.pddl": {Status: "solved", Seconds: 0.2}}}
	var out strings.Builder
	if err := ScoreTables(&out, []Rows{run}, 60, p, "60 s"); err != nil {
		t.Fatal(err)
	}
	if n := p.problems("total-order", "Freecell-Learned-ECAI-16"); n != 60 {
		t.Errorf("the competition's Freecell problems: %d, want 60", n)
	}
	for _, want := range []string{"| Lamps | 1 (theirs 30) | 1 | 10 | 20 (Y) |", "| Lamps | 1 (theirs 30) | 1.00 | 0.80 | 0.80 (Y) |", "Y (IPC 2023 winner)", "T = 60 s", "upper bound"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the tables lack %q:\n%s", want, out.String())
		}
	}
	write("TO-TABLE-agile.csv", "planner,total,a\nX,zero,1\n")
	if _, err := ReadPublished(dir); err == nil {
		t.Error("a table with a word for a number was read")
	}
}
