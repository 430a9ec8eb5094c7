package hddl

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Hand-written productions for the lists that fill problem files: typed
// parameter groups, subtask lists and ordering lists (a 9×9 Sudoku problem
// has 46 of each entry; participle's reflection spent 80 % of its parse on
// them). Each implements participle.Parseable, so the grammar of record is
// still the struct tags of syntax.go: these methods read exactly what the
// tags there describe, and errors read "expected X, found Y" as
// participle's do after convertError.

func isIdent(t *lexer.Token) bool { return t.Type == tokName || t.Type == tokVar }

func nextIdent(lex tokens) *ident {
	t := lex.Next()
	if s, ok := lex.(*stream); ok {
		return s.idents.next(t)
	}
	return &ident{Pos: t.Pos, Value: t.Value}
}

// word reports whether t is the name w (case-insensitively, as the
// grammar's literals match).
func word(t *lexer.Token, w string) bool {
	return t.Type == tokName && strings.EqualFold(t.Value, w)
}

// tokens is what the hand-written productions read: participle's
// PeekingLexer, or the stream of the fast path (fastparse.go).
type tokens interface {
	Peek() *lexer.Token
	Next() *lexer.Token
}

// Parse reads "a b c", "a b - t" or "?x ?y - (either t u)".
func (g *typedGroup) Parse(lex *lexer.PeekingLexer) error { return g.parse(lex) }

func (g *typedGroup) parse(lex tokens) error {
	t := lex.Peek()
	if !isIdent(t) {
		return participle.NextMatch
	}
	g.Pos = t.Pos
	for isIdent(lex.Peek()) {
		g.Names = append(g.Names, nextIdent(lex))
	}
	if lex.Peek().Type != tokDash {
		return nil
	}
	lex.Next()
	t = lex.Peek()
	switch {
	case isIdent(t):
		g.Type = []*ident{nextIdent(lex)}
	case t.Type == tokLParen:
		lex.Next()
		if e := lex.Peek(); !word(e, "either") {
			return unexpected(e, "\"either\"")
		}
		g.Open = lex.Next().Value
		for isIdent(lex.Peek()) {
			g.Alts = append(g.Alts, nextIdent(lex))
		}
		if len(g.Alts) == 0 {
			return unexpected(lex.Peek(), "a name or a variable")
		}
		if e := lex.Peek(); e.Type != tokRParen {
			return unexpected(e, "\")\"")
		}
		lex.Next()
	default:
		return unexpected(t, "a name or a variable or \"(\"")
	}
	return nil
}

// readAndList reads the shape subtask and ordering lists share:
// "(" ( "and" ( "(" entry ")" )* | single )? ")". entry reads what is
// inside one pair of parentheses; starts tells whether a token can begin
// a single entry without "and". It returns participle.NextMatch, consuming
// nothing, when the next token is not "(".
func readAndList(lex tokens, and *bool, entry func(open lexer.Position) error, starts func(*lexer.Token) bool, single func() error) error {
	if lex.Peek().Type != tokLParen {
		return participle.NextMatch
	}
	lex.Next()
	switch t := lex.Peek(); {
	case word(t, "and"):
		lex.Next()
		*and = true
		for lex.Peek().Type == tokLParen {
			if err := entry(lex.Next().Pos); err != nil {
				return err
			}
			if c := lex.Peek(); c.Type != tokRParen {
				return unexpected(c, "\")\"")
			}
			lex.Next()
		}
	case starts(t):
		if err := single(); err != nil {
			return err
		}
	}
	if c := lex.Peek(); c.Type != tokRParen {
		return unexpected(c, "\")\"")
	}
	lex.Next()
	return nil
}

// Parse reads a subtask list: "()", "(and (t1 (task args)) (task args) ...)"
// or a single "(t1 (task args))" / "(task args)".
func (l *subtaskList) Parse(lex *lexer.PeekingLexer) error { return l.parse(lex) }

func (l *subtaskList) parse(lex tokens) error {
	l.Pos = lex.Peek().Pos
	return readAndList(lex, &l.And, func(open lexer.Position) error {
		b, err := readSubtaskBody(lex)
		l.Entries = append(l.Entries, &subtaskEntry{Pos: open, Body: b})
		return err
	}, isIdent, func() (err error) {
		l.Single, err = readSubtaskBody(lex)
		return err
	})
}

// readSubtaskBody reads "t (task args)" or "task args".
func readSubtaskBody(lex tokens) (*subtaskBody, error) {
	t := lex.Peek()
	if !isIdent(t) {
		return nil, unexpected(t, "a name or a variable")
	}
	b := &subtaskBody{Pos: t.Pos, First: nextIdent(lex)}
	if lex.Peek().Type == tokLParen {
		lex.Next()
		n := lex.Peek()
		if !isIdent(n) {
			return nil, unexpected(n, "a name or a variable")
		}
		c := &call{Pos: n.Pos, Name: nextIdent(lex)}
		for isIdent(lex.Peek()) {
			c.Args = append(c.Args, nextIdent(lex))
		}
		if e := lex.Peek(); e.Type != tokRParen {
			return nil, unexpected(e, "\")\"")
		}
		lex.Next()
		b.Call = c
	}
	for isIdent(lex.Peek()) {
		b.Args = append(b.Args, nextIdent(lex))
	}
	return b, nil
}

// Parse reads an ordering list: "()", "(and (< t1 t2) ...)" or a single
// "(< t1 t2)".
func (l *orderingList) Parse(lex *lexer.PeekingLexer) error { return l.parse(lex) }

func (l *orderingList) parse(lex tokens) error {
	l.Pos = lex.Peek().Pos
	return readAndList(lex, &l.And, func(open lexer.Position) error {
		b, err := readOrderBody(lex)
		l.Pairs = append(l.Pairs, &orderPair{Pos: open, Body: b})
		return err
	}, func(t *lexer.Token) bool { return t.Type == tokOp || t.Type == tokName }, func() (err error) {
		l.Single, err = readOrderBody(lex)
		return err
	})
}

// readOrderBody reads "< t1 t2" (or any name and ids, which the checker
// judges).
func readOrderBody(lex tokens) (*orderBody, error) {
	t := lex.Peek()
	if !(t.Type == tokName || t.Type == tokOp && (t.Value == "<" || t.Value == ">")) {
		return nil, unexpected(t, "\"<\" or \">\" or a name")
	}
	lex.Next()
	b := &orderBody{Pos: t.Pos, Op: t.Value}
	for isIdent(lex.Peek()) {
		b.IDs = append(b.IDs, nextIdent(lex))
	}
	return b, nil
}
