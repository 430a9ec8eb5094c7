package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIPCLayouts: the layouts of IPC 2020 and 2023 (one domain.hddl, a
// <problem>-domain.hddl beside each problem, a shared domain of another
// name, .pddl problems) are read, and what cannot be paired is skipped
// with its reason, never guessed.
func TestIPCLayouts(t *testing.T) {
	root := t.TempDir()
	files := []string{
		"total-order/Plain/domain.hddl", "total-order/Plain/p01.hddl", "total-order/Plain/p02.hddl",
		"total-order/Lamps/domain.hddl", "total-order/Lamps/pfile01.pddl", "total-order/Lamps/pfile02.pddl",
		"total-order/Monroe/pfile01-x-domain.hddl", "total-order/Monroe/pfile01-x.hddl", "total-order/Monroe/pfile02-y-domain.hddl", "total-order/Monroe/pfile02-y.hddl",
		"partial-order/Cockpit/UL_domain.hddl", "partial-order/Cockpit/pfile01.hddl", "partial-order/Cockpit/README.md",
		"partial-order/Two/a-domain.hddl", "partial-order/Two/domain.hddl", "partial-order/Two/p1.hddl",
		"partial-order/None/p1.hddl",
		"partial-order/stray.txt",
	}
	for _, f := range files {
		path := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, nil, 0o644)
	}
	ins, skipped, err := IPC(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range ins {
		got = append(got, in.Name()+" <- "+filepath.Base(in.DomainFile))
	}
	want := []string{
		"total-order/Lamps/pfile01 <- domain.hddl", "total-order/Lamps/pfile02 <- domain.hddl",
		"total-order/Monroe/pfile01-x <- pfile01-x-domain.hddl", "total-order/Monroe/pfile02-y <- pfile02-y-domain.hddl",
		"total-order/Plain/p01 <- domain.hddl", "total-order/Plain/p02 <- domain.hddl",
		"partial-order/Cockpit/pfile01 <- UL_domain.hddl",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("instances:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	why := map[string]string{}
	for _, s := range skipped {
		rel, _ := filepath.Rel(root, s.File)
		why[rel] = s.Why
	}
	for file, reason := range map[string]string{
		"partial-order/Cockpit/README.md": "not an HDDL file",
		"partial-order/Two/p1.hddl":       "several domain files",
		"partial-order/None/p1.hddl":      "no domain file",
		"partial-order/stray.txt":         "not a domain folder",
	} {
		if !strings.Contains(why[file], reason) {
			t.Errorf("%s: skipped as %q, want %q", file, why[file], reason)
		}
	}
	if len(skipped) != 4 {
		t.Errorf("skipped %v", skipped)
	}
	if _, _, err := IPC(t.TempDir()); err == nil {
		t.Error("a folder without tracks was read")
	}
}
