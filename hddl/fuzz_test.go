package hddl

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/domains"
)

// FuzzParse feeds arbitrary bytes to the domain and problem readers. They
// must never panic or hang, every error must carry a position, whatever
// parses must survive printing and re-reading unchanged, and the fast path
// must agree with participle (sameParse). The seeds are the
// embedded domains, the shared fixtures under ../testdata and the error
// fixtures under testdata/errors.
func FuzzParse(f *testing.F) {
	f.Add(domains.Sudoku)
	seeds, _ := filepath.Glob("../testdata/*/*.hddl")
	more, _ := filepath.Glob("testdata/errors/*.hddl")
	for _, s := range append(seeds, more...) {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	sudoku, err := ParseDomain("sudoku.hddl", domains.Sudoku)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameParse(t, "fuzz.hddl", string(src))
		d, err := ParseDomain("fuzz.hddl", src)
		checkErr(t, err)
		if d != nil {
			text := DomainString(d)
			d2, err := ParseDomain("printed.hddl", []byte(text))
			if err != nil {
				t.Fatalf("printed domain does not parse: %v\n%s", err, text)
			}
			if !reflect.DeepEqual(stripped(d), stripped(d2)) {
				t.Fatalf("domain changed through print and parse:\n%s", text)
			}
		}
		p, err := ParseProblem("fuzz.hddl", src, sudoku)
		checkErr(t, err)
		if p != nil {
			text := ProblemString(p)
			p2, err := ParseProblem("printed.hddl", []byte(text), sudoku)
			if err != nil {
				t.Fatalf("printed problem does not parse: %v\n%s", err, text)
			}
			if !reflect.DeepEqual(stripped(p), stripped(p2)) {
				t.Fatalf("problem changed through print and parse:\n%s", text)
			}
		}
	})
}

func checkErr(t *testing.T, err error) {
	if err == nil {
		return
	}
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("error is a %T, not an ErrorList: %v", err, err)
	}
	for _, e := range list {
		if !e.Pos.IsValid() && !strings.Contains(e.Msg, "internal") {
			// every input problem has a line and column
			t.Fatalf("error without a position: %v", e)
		}
		if strings.Contains(e.Msg, "internal parser error") {
			t.Fatalf("parser library failure: %v", e)
		}
	}
}
