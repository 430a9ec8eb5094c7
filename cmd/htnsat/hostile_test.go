package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHostile runs every case of testdata/hostile (see its README): the
// command must exit with the code the case wants and print each line it
// names.
func TestHostile(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "testdata", "hostile", "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) { runHostile(t, root, dir) })
	}
	if n < 20 {
		t.Fatalf("only %d cases under testdata/hostile", n)
	}
}

func runHostile(t *testing.T, root, dir string) {
	read := func(name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return string(b), err == nil
	}
	cmdline, ok := read("cmd")
	if !ok {
		t.Fatal("no cmd file")
	}
	want, ok := read("want")
	if !ok {
		t.Fatal("no want file")
	}
	tmp := t.TempDir()
	expand := strings.NewReplacer("{root}", root, "{dir}", dir, "{tmp}", tmp).Replace
	args := strings.Fields(expand(strings.TrimSpace(cmdline)))
	lines := strings.Split(strings.TrimSpace(want), "\n")
	code, err := strconv.Atoi(strings.TrimPrefix(lines[0], "exit "))
	if err != nil {
		t.Fatalf("want file: %q is not \"exit N\"", lines[0])
	}
	var stdin io.Reader = strings.NewReader("")
	if s, ok := read("stdin"); ok {
		stdin = strings.NewReader(s)
	}
	if from, ok := read("stdin-from"); ok {
		f, err := os.Open(strings.TrimSpace(from))
		if err != nil {
			t.Skip(err)
		}
		defer f.Close()
		stdin = f
	}
	var out bytes.Buffer
	var stdout io.Writer = &out
	if to, ok := read("stdout-to"); ok {
		f, err := os.OpenFile(strings.TrimSpace(to), os.O_WRONLY, 0)
		if err != nil {
			t.Skip(err)
		}
		defer f.Close()
		stdout = f
	}
	var errb bytes.Buffer
	got := run(context.Background(), args, &ioStreams{In: stdin, Out: stdout, Err: &errb})
	printed := out.String() + errb.String()
	if got != code {
		t.Errorf("htnsat %s: exit %d, want %d\n%s", cmdline, got, code, excerptOf(printed))
	}
	for _, l := range lines[1:] {
		if l = expand(l); l != "" && !strings.Contains(printed, l) {
			t.Errorf("htnsat %s: output lacks %q:\n%s", cmdline, l, excerptOf(printed))
		}
	}
	if len(printed) > 64<<10 {
		t.Errorf("htnsat %s printed %d bytes", cmdline, len(printed))
	}
}

func excerptOf(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}
