package hddl

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// TestErrorFixtures checks that every file under testdata/errors fails
// with exactly the message in its .err file. Files named problem-* are
// problems of base-domain.hddl; the others are domains.
func TestErrorFixtures(t *testing.T) {
	dir := "testdata/errors"
	files, err := filepath.Glob(filepath.Join(dir, "*.hddl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	baseSrc, err := os.ReadFile(filepath.Join(dir, "base-domain.hddl"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := ParseDomain("base-domain.hddl", baseSrc)
	if err != nil {
		t.Fatalf("base domain: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if name == "base-domain.hddl" {
			continue
		}
		t.Run(strings.TrimSuffix(name, ".hddl"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(name, "problem-") {
				_, err = ParseProblem(name, src, base)
			} else {
				_, err = ParseDomain(name, src)
			}
			if err == nil {
				t.Fatalf("%s parsed without error", name)
			}
			golden := strings.TrimSuffix(f, ".hddl") + ".err"
			got := err.Error() + "\n"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("error for %s:\n got: %s\nwant: %s", name, got, want)
			}
		})
	}
}
