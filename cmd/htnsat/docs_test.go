package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDocCommands runs every command that README.md and docs/*.md give in
// a sh block, in order, from the repository's root, as a stranger would in
// a fresh clone: no benchmark folder beside it (HTNSAT_SHARED names none),
// bin/htnsat made by the README's own "make build". Each must exit 0 within
// a minute; a line that ends in "# long" (a server, the whole test suite,
// a download) is not run.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documentation's commands (-short)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append([]string{filepath.Join(root, "README.md")}, docs...)
	ran := 0
	for _, doc := range docs {
		for _, c := range shCommands(t, doc) {
			if strings.HasSuffix(strings.TrimSpace(c.text), "# long") || strings.Contains(c.text, "# long:") {
				continue
			}
			ran++
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			cmd := exec.CommandContext(ctx, "sh", "-c", c.text)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "HTNSAT_SHARED="+filepath.Join(t.TempDir(), "none"), "HTNSAT_TEST_MAIN=")
			out, err := cmd.CombinedOutput()
			cancel()
			if err != nil {
				t.Errorf("%s:%d: %s: %v\n%s", filepath.Base(doc), c.line, c.text, err, excerptOf(string(out)))
			}
		}
	}
	t.Logf("%d commands ran", ran)
	if ran < 8 {
		t.Errorf("only %d commands ran", ran)
	}
}

type docCommand struct {
	text string
	line int
}

// shCommands lists the lines of the sh blocks of a Markdown file, comment
// lines left out.
func shCommands(t *testing.T, path string) []docCommand {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docCommand
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "```"):
			in = !in && strings.TrimSpace(strings.TrimPrefix(l, "```")) == "sh"
		case in && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#"):
			out = append(out, docCommand{l, n})
		}
	}
	return out
}

// TestSplices: every block README.md and docs/*.md copy from results/
// (between "<!-- NAME:start" and "<!-- NAME:end -->") is that file,
// results/NAME.md in capitals, as it is now: a figure is written once, in
// results/, and two pages cannot say two things (scripts/figures.sh and
// the make targets that end with it write the blocks again).
func TestSplices(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append([]string{filepath.Join(root, "README.md")}, docs...)
	blocks := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		for i := 0; i < len(lines); i++ {
			name, ok := strings.CutPrefix(lines[i], "<!-- ")
			name, _, found := strings.Cut(name, ":start")
			if !ok || !found || strings.ContainsAny(name, " >") {
				continue
			}
			end := "<!-- " + name + ":end -->"
			j := i
			for j < len(lines) && strings.TrimSpace(lines[j]) != end {
				j++
			}
			if j == len(lines) {
				t.Errorf("%s:%d: no %q", filepath.Base(doc), i+1, end)
				continue
			}
			blocks++
			want, err := os.ReadFile(filepath.Join(root, "results", strings.ToUpper(name)+".md"))
			if err != nil {
				t.Errorf("%s:%d: block %s: %v", filepath.Base(doc), i+1, name, err)
				continue
			}
			if got := strings.Join(lines[i:j+1], ""); got != string(want) {
				t.Errorf("%s:%d: block %s differs from results/%s.md: run make figures (or the make target that writes it)", filepath.Base(doc), i+1, name, strings.ToUpper(name))
			}
			i = j
		}
	}
	if blocks < 5 {
		t.Errorf("only %d blocks from results/", blocks)
	}
}
