package verify_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/verify"
)

// FuzzVerify feeds arbitrary bytes to the plan reader and what it reads
// to the verifier, against the paper's Sudoku problem and a small typed
// one: neither may panic or hang, the reader's errors are *plan.Error, a
// plan that reads must survive writing and reading again, and the
// verifier's errors name a plan line or the plan. The seeds are the plans
// under testdata and ../testdata/hostile.
func FuzzVerify(f *testing.F) {
	for _, pattern := range []string{"testdata/*.plan", "../testdata/hostile/*/plan"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("==>\n0 FILL-CELL b1 c3 r0 d6\nroot 1\n1 fill-cell b1 c3 r0 d6 -> m-fill-cell 2 3 4 0\n<==\n"))
	var problems []*hddl.Problem
	for _, files := range [][2]string{
		{"../domains/sudoku.hddl", "../testdata/sudoku/paper-ordered.hddl"},
		{"testdata/typed-domain.hddl", "testdata/typed-problem.hddl"},
	} {
		_, p, err := hddl.Load(files[0], files[1])
		if err != nil {
			f.Fatal(err)
		}
		problems = append(problems, p)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		pl, err := plan.Read(strings.NewReader(string(src)))
		if err != nil {
			var pe *plan.Error
			if !errors.As(err, &pe) {
				t.Fatalf("read error %T: %v", err, err)
			}
			return
		}
		again, err := plan.Read(strings.NewReader(pl.String()))
		if err != nil || again.String() != pl.String() {
			t.Fatalf("the plan changed through writing and reading: %v", err)
		}
		for _, p := range problems {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := verify.Verify(ctx, p, pl)
			cancel()
			if err == nil {
				continue
			}
			var pe *plan.Error
			if !errors.As(err, &pe) {
				t.Fatalf("verify error %T: %v", err, err)
			}
		}
	})
}
