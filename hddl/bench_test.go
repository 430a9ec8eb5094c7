package hddl

import (
	"os"
	"testing"

	"github.com/htnsat/htnsat/domains"
)

// BenchmarkParseSudokuDomain measures parsing and checking the paper's
// domain.
func BenchmarkParseSudokuDomain(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(domains.Sudoku)))
	for b.Loop() {
		if _, err := ParseDomain("sudoku.hddl", domains.Sudoku); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLargestIPC measures parsing and checking the largest
// problem file of the shared IPC set (a Minecraft problem of about 1 MB).
func BenchmarkParseLargestIPC(b *testing.B) {
	ins := ipcInstances(b)
	best := ins[0]
	var size int64
	for _, in := range ins {
		if st, err := os.Stat(in.ProblemFile); err == nil && st.Size() > size {
			best, size = in, st.Size()
		}
	}
	d, err := LoadDomain(best.DomainFile)
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(best.ProblemFile)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s (%d bytes)", best.Name(), size)
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		if _, err := ParseProblem(best.ProblemFile, src, d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseIPCAll parses and checks every domain and problem of the
// shared IPC set once per iteration (each domain file once).
func BenchmarkParseIPCAll(b *testing.B) {
	ins := ipcInstances(b)
	srcs := map[string][]byte{}
	var total int64
	for _, in := range ins {
		for _, f := range []string{in.DomainFile, in.ProblemFile} {
			if _, ok := srcs[f]; !ok {
				s, err := os.ReadFile(f)
				if err != nil {
					b.Fatal(err)
				}
				srcs[f] = s
				total += int64(len(s))
			}
		}
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		doms := map[string]*Domain{}
		for _, in := range ins {
			d, ok := doms[in.DomainFile]
			if !ok {
				var err error
				if d, err = ParseDomain(in.DomainFile, srcs[in.DomainFile]); err != nil {
					b.Fatal(err)
				}
				doms[in.DomainFile] = d
			}
			if _, err := ParseProblem(in.ProblemFile, srcs[in.ProblemFile], d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseSudokuProblem measures parsing and checking a 9×9 problem
// of the unordered style (46 fill tasks with ids and orderings), what
// every HTN Sudoku solve parses.
func BenchmarkParseSudokuProblem(b *testing.B) {
	d, err := ParseDomain("sudoku.hddl", domains.Sudoku)
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile("../testdata/sudoku/paper-unordered.hddl")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := ParseProblem("paper-unordered.hddl", src, d); err != nil {
			b.Fatal(err)
		}
	}
}
