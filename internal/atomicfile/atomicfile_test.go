package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteBytes(ctx, path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	// a producer that fails half way leaves the old content and no
	// temporary file
	boom := errors.New("boom")
	err := Write(ctx, path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if err != boom {
		t.Fatalf("error %v, want the producer's own", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Errorf("the target holds %q after a failed write", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1", len(entries))
	}
	missing := filepath.Join(dir, "missing", "x")
	err = WriteBytes(ctx, missing, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "writing "+missing+": ") || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("writing into a missing directory: %v", err)
	}
	if err := WriteBytes(ctx, dir, nil); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("writing to a directory: %v", err)
	}
}

// TestWriteKeepsMode: a file written again keeps its permissions.
func TestWriteKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ro.txt")
	for _, mode := range []os.FileMode{0o444, 0o600, 0o755} {
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := WriteBytes(context.Background(), path, []byte("new")); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("mode %v after writing a %v file", st.Mode().Perm(), mode)
		}
		if b, _ := os.ReadFile(path); string(b) != "new" {
			t.Errorf("content %q", b)
		}
	}
}

// TestWriteSymlink: a link is followed, not replaced, whether its target
// exists or not, and a relative link is read from the link's folder.
func TestWriteSymlink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(sub, "real.txt")
	os.WriteFile(real, []byte("old"), 0o644)
	cases := map[string]string{
		"abs":      real,
		"rel":      "sub/real.txt",
		"dangling": "sub/new.txt",
		"chain":    "abs",
	}
	for name, to := range cases {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Skip(err)
		}
	}
	for _, name := range []string{"abs", "rel", "dangling", "chain"} {
		link := filepath.Join(dir, name)
		if err := WriteBytes(ctx, link, []byte(name)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced (%v)", name, err)
		}
		if b, _ := os.ReadFile(link); string(b) != name {
			t.Errorf("%s: reads %q through the link", name, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(sub, "new.txt")); string(b) != "dangling" {
		t.Errorf("the dangling link's target holds %q", b)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(ctx, filepath.Join(dir, "loop"), nil); err == nil {
		t.Error("writing through a link to itself succeeded")
	}
}
