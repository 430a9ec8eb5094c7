package hddl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/htnsat/htnsat/internal/excerpt"
)

// Pos is a position in an input file. Line and Col are 1-based; Col counts
// bytes, as in go/token. The zero Pos means "no position" (for example for
// elements added by a program rather than read from a file).
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether the position refers to a place in a file.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

func posOf(p lexer.Position) Pos { return Pos{File: p.Filename, Line: p.Line, Col: p.Column} }

// Error is one problem with the input, at a position.
type Error struct {
	Pos Pos
	Msg string
}

// Error prints the position and the message; a message that quotes a
// long stretch of input is cut (see package excerpt).
func (e *Error) Error() string {
	msg := excerpt.Message(e.Msg)
	if e.Pos.IsValid() || e.Pos.File != "" {
		return e.Pos.String() + ": " + msg
	}
	return msg
}

// MaxErrors is how many errors an ErrorList reports at most.
const MaxErrors = 10

// ErrorList collects input errors. Err() sorts them by position, removes
// duplicates and returns them as one error, or nil if there are none.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Len is the number of errors collected so far.
func (l ErrorList) Len() int { return len(l) }

// Sort orders the list by file, line and column, keeping the order of
// errors at the same position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Error prints at most MaxErrors errors, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i == MaxErrors {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-MaxErrors)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns the sorted, de-duplicated list as an error, or nil.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	out := make(ErrorList, len(l))
	copy(out, l)
	out.Sort()
	uniq := out[:1]
	for _, e := range out[1:] {
		last := uniq[len(uniq)-1]
		if e.Pos == last.Pos && e.Msg == last.Msg {
			continue
		}
		uniq = append(uniq, e)
	}
	return uniq
}
