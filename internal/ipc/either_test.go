package ipc

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/internal/atomicfile"
	"github.com/htnsat/htnsat/internal/corpus"
)

// TestEitherTable counts, from two runs' CSV files, the problems each
// solved and those either solved, per domain and per track, on the
// problems both ran.
func TestEitherTable(t *testing.T) {
	dir := t.TempDir()
	res := func(track, dom, prob, status string) Result {
		return Result{Instance: corpus.Instance{Track: track, Domain: dom, ProblemFile: "/x/" + prob}, Status: status, Report: map[string]any{}}
	}
	a := []Result{
		res("total-order", "D", "p1.hddl", "solved"),
		res("total-order", "D", "p2.hddl", "timeout"),
		res("total-order", "D", "p3.hddl", "timeout"),
		res("total-order", "E", "p1.hddl", "solved"),
		res("partial-order", "D", "p1.hddl", "solved"), // not in b: left out
	}
	b := []Result{
		res("total-order", "D", "p1.hddl", "timeout"),
		res("total-order", "D", "p2.hddl", "solved"),
		res("total-order", "D", "p3.hddl", "memory"),
		res("total-order", "E", "p1.hddl", "solved"),
	}
	fa, fb := filepath.Join(dir, "progression.csv"), filepath.Join(dir, "sat.csv")
	if err := atomicfile.Write(context.Background(), fa, func(w io.Writer) error { return WriteCSV(w, a) }); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(context.Background(), fb, func(w io.Writer) error { return WriteCSV(w, b) }); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := EitherTable(&out, []string{fa, fb}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| track | domain | progression | sat | either |",
		"| total-order | D | 1/3 | 1/3 | 2/3 |",
		"| total-order | E | 1/1 | 1/1 | 1/1 |",
		"| total-order | **all (75.0%)** | 2/4 | 2/4 | 3/4 |",
	} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "partial-order") {
		t.Errorf("a problem only one run has is counted:\n%s", out.String())
	}
	if err := EitherTable(&out, []string{fa}); err == nil {
		t.Error("one file: no error")
	}
}
