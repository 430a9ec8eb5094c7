package sudoku

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the puzzle reader: it must not panic,
// every puzzle it returns must be a well-formed grid that breaks no rule,
// its errors must be *LineError, and no message may quote more than a
// short excerpt. The seeds are the embedded samples and a few of every
// form the reader accepts.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("samples/*.txt")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"1000002000300004\n",
		"3\n1...\n",
		"345000008\n000000000\n",
		"1.3.:1:1234341221434321\n",
		"0 1 2 3 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
		"+---+---+\n|1 .|. .|\n",
		"# comment\n\n" + strings.Repeat(".", 81) + " name\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ps, errs := Read(strings.NewReader(string(src)), "fuzz")
		for _, p := range ps {
			if err := p.Check(); err != nil {
				t.Fatalf("a puzzle that breaks a rule: %v", err)
			}
		}
		for _, err := range errs {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %T: %v", err, err)
			}
			if len(err.Error()) > 400 {
				t.Fatalf("a message of %d bytes", len(err.Error()))
			}
		}
	})
}
