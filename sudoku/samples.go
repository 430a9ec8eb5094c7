package sudoku

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed samples/*.txt
var samples embed.FS

// Samples returns the embedded default puzzle set: the paper's puzzle and
// a few puzzles of each size (4, 9, 16 and 25).
func Samples() []Puzzle {
	names, _ := fs.Glob(samples, "samples/*.txt")
	sort.Slice(names, func(i, j int) bool { return sizeOf(names[i]) < sizeOf(names[j]) })
	var out []Puzzle
	for _, n := range names {
		f, _ := samples.Open(n)
		ps, _ := Read(f, path.Base(n))
		f.Close()
		out = append(out, ps...)
	}
	for i := range out {
		if out[i].Line() == paperLine {
			out[i].Name = "paper"
		}
	}
	return out
}

const paperLine = "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."

func sizeOf(name string) int {
	n := 0
	for _, c := range strings.TrimPrefix(path.Base(name), "") {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
