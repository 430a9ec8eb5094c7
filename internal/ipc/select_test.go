package ipc

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/htnsat/htnsat/internal/atomicfile"
	"github.com/htnsat/htnsat/internal/corpus"
)

// TestSelectFrom picks the problems of an earlier run's rows by status
// and time, in the selection's order, and refuses a pick that matches
// nothing or names no status.
func TestSelectFrom(t *testing.T) {
	in := func(dom, prob string) corpus.Instance {
		return corpus.Instance{Track: "total-order", Domain: dom, ProblemFile: "/x/" + prob}
	}
	sel := []corpus.Instance{in("D", "p1.hddl"), in("D", "p2.hddl"), in("D", "p3.hddl"), in("E", "p1.hddl"), in("E", "p2.hddl")}
	rows := []Result{
		{Instance: sel[0], Status: "solved", Seconds: 40},
		{Instance: sel[1], Status: "timeout", Seconds: 60.2},
		{Instance: sel[2], Status: "solved", Seconds: 0.5},
		{Instance: sel[3], Status: "memory", Seconds: 12},
		// E/p2 has no row
	}
	for i := range rows {
		rows[i].Report = map[string]any{}
	}
	file := filepath.Join(t.TempDir(), "run.csv")
	if err := atomicfile.Write(context.Background(), file, func(w io.Writer) error { return WriteCSV(w, rows) }); err != nil {
		t.Fatal(err)
	}
	read, err := ReadCSV(file)
	if err != nil {
		t.Fatal(err)
	}
	names := func(ins []corpus.Instance) []string {
		var out []string
		for _, in := range ins {
			out = append(out, Key(in))
		}
		return out
	}
	for _, c := range []struct {
		name string
		pick Pick
		want []string
	}{
		{"every row", Pick{}, []string{"total-order/D/p1.hddl", "total-order/D/p2.hddl", "total-order/D/p3.hddl", "total-order/E/p1.hddl"}},
		{"by status", Pick{Statuses: []string{"timeout", "memory"}}, []string{"total-order/D/p2.hddl", "total-order/E/p1.hddl"}},
		{"late", Pick{Over: 30 * time.Second}, []string{"total-order/D/p1.hddl", "total-order/D/p2.hddl"}},
		{"solved late", Pick{Statuses: []string{"solved"}, Over: 30 * time.Second}, []string{"total-order/D/p1.hddl"}},
	} {
		got, err := SelectFrom(sel, read, c.pick)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(names(got), c.want) {
			t.Errorf("%s: got %v, want %v", c.name, names(got), c.want)
		}
	}
	if _, err := SelectFrom(sel, read, Pick{Statuses: []string{"timeout"}, Over: time.Minute + time.Second}); err == nil {
		t.Error("a pick matching nothing: no error")
	}
	if _, err := SelectFrom(sel, read, Pick{Statuses: []string{"timed-out"}}); err == nil {
		t.Error("an unknown status: no error")
	}
}

// TestEvery keeps the first, the (k+1)-th, ... problem of each domain.
func TestEvery(t *testing.T) {
	var sel []corpus.Instance
	for _, d := range []string{"D", "E"} {
		for i := range 7 {
			sel = append(sel, corpus.Instance{Track: "total-order", Domain: d, ProblemFile: fmt.Sprintf("/x/p%d.hddl", i+1)})
		}
	}
	var got []string
	for _, in := range Every(sel, 3) {
		got = append(got, in.Domain+"/"+filepath.Base(in.ProblemFile))
	}
	want := []string{"D/p1.hddl", "D/p4.hddl", "D/p7.hddl", "E/p1.hddl", "E/p4.hddl", "E/p7.hddl"}
	if !slices.Equal(got, want) || len(Every(sel, 1)) != len(sel) {
		t.Errorf("got %v, want %v", got, want)
	}
}
