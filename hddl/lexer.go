package hddl

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types produced by the HDDL lexer. Whitespace (including CR) and
// ";" comments are skipped and never reach the parser.
const (
	tokLParen lexer.TokenType = iota + 1
	tokRParen
	tokDash
	tokKeyword // :requirements, :method, ...
	tokVar     // ?x
	tokName    // names, numbers
	tokOp      // = < > <= >=
	// tokInitBody is the raw text of an :init section, between ":init" and
	// its closing parenthesis. A large problem is mostly :init atoms, and
	// reading them from one token instead of four per atom makes the whole
	// file several times faster to parse (see readInitBody).
	tokInitBody
)

// hddlLexer is a hand-written lexer for HDDL. It is small (s-expressions
// have six kinds of token) and an order of magnitude faster than a
// regexp-based participle lexer on the 30 MB of IPC benchmark files.
type hddlLexer struct{}

var lexDef = hddlLexer{}

func (hddlLexer) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":      lexer.EOF,
		"LParen":   tokLParen,
		"RParen":   tokRParen,
		"Dash":     tokDash,
		"Keyword":  tokKeyword,
		"Var":      tokVar,
		"Name":     tokName,
		"Op":       tokOp,
		"InitBody": tokInitBody,
	}
}

func (d hddlLexer) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexBytes(filename, b)
}

func (d hddlLexer) LexString(filename string, s string) (lexer.Lexer, error) {
	return &scanner{filename: filename, src: s, line: 1, lineStart: 0}, nil
}

func (d hddlLexer) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	return d.LexString(filename, string(b))
}

// scanner walks the source once. Columns are 1-based byte offsets within the
// line, as in go/token.
type scanner struct {
	filename  string
	src       string
	off       int
	line      int
	lineStart int
	depth     int
	prev      lexer.TokenType // type of the previous token
	initBody  bool            // the next token is the body of an :init section
}

// maxNesting bounds parenthesis nesting so that no input can exhaust the
// parser's stack.
const maxNesting = 2000

func isNameByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case c == '-' || c == '_' || c == '.':
		return true
	case c >= utf8.RuneSelf:
		return true
	}
	return false
}

func (s *scanner) pos(off int) lexer.Position {
	return lexer.Position{Filename: s.filename, Offset: off, Line: s.line, Column: off - s.lineStart + 1}
}

// Next returns the next token, or a positioned error for a byte that cannot
// start any token.
func (s *scanner) Next() (lexer.Token, error) {
	t, err := s.next()
	if err == nil {
		if t.Type == tokKeyword && s.prev == tokLParen && len(t.Value) == 5 && strings.EqualFold(t.Value, ":init") {
			s.initBody = true
		}
		s.prev = t.Type
	}
	return t, err
}

func (s *scanner) next() (lexer.Token, error) {
	if s.initBody {
		s.initBody = false
		return s.skipBalanced(), nil
	}
	src := s.src
	for s.off < len(src) {
		c := src[s.off]
		switch {
		case c == '\n':
			s.off++
			s.line++
			s.lineStart = s.off
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.off++
			continue
		case c == ';':
			for s.off < len(src) && src[s.off] != '\n' {
				s.off++
			}
			continue
		}
		start := s.off
		p := s.pos(start)
		switch {
		case c == '(':
			s.off++
			s.depth++
			if s.depth > maxNesting {
				return lexer.Token{}, &Error{Pos: posOf(p), Msg: fmt.Sprintf("parentheses nested more than %d deep", maxNesting)}
			}
			return lexer.Token{Type: tokLParen, Value: "(", Pos: p}, nil
		case c == ')':
			s.off++
			s.depth--
			return lexer.Token{Type: tokRParen, Value: ")", Pos: p}, nil
		case c == '-':
			// A dash at the start of a token is always the type separator,
			// also when glued to the type name ("?x -Type").
			s.off++
			return lexer.Token{Type: tokDash, Value: "-", Pos: p}, nil
		case c == '=' || c == '<' || c == '>':
			s.off++
			if s.off < len(src) && src[s.off] == '=' && c != '=' {
				s.off++
			}
			return lexer.Token{Type: tokOp, Value: src[start:s.off], Pos: p}, nil
		case c == ':' || c == '?':
			s.off++
			for s.off < len(src) && isNameByte(src[s.off]) {
				s.off++
			}
			if s.off == start+1 {
				what := "keyword"
				if c == '?' {
					what = "variable name"
				}
				return lexer.Token{}, &Error{Pos: posOf(p), Msg: fmt.Sprintf("expected %s after %q, found %s", what, string(c), describeByte(src, s.off))}
			}
			typ := tokKeyword
			if c == '?' {
				typ = tokVar
			}
			return lexer.Token{Type: typ, Value: src[start:s.off], Pos: p}, nil
		case isNameByte(c):
			for s.off < len(src) && isNameByte(src[s.off]) {
				s.off++
			}
			if !utf8.ValidString(src[start:s.off]) {
				return lexer.Token{}, &Error{Pos: posOf(p), Msg: "invalid UTF-8 in name"}
			}
			return lexer.Token{Type: tokName, Value: src[start:s.off], Pos: p}, nil
		default:
			return lexer.Token{}, &Error{Pos: posOf(p), Msg: fmt.Sprintf("unexpected character %q", rune(c))}
		}
	}
	return lexer.EOFToken(s.pos(s.off)), nil
}

// skipBalanced returns the text up to (not including) the parenthesis that
// closes the current list, as one tokInitBody token.
func (s *scanner) skipBalanced() lexer.Token {
	start := s.off
	p := s.pos(start)
	depth := 0
	for s.off < len(s.src) {
		switch s.src[s.off] {
		case '\n':
			s.line++
			s.lineStart = s.off + 1
		case ';':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			continue
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return lexer.Token{Type: tokInitBody, Value: s.src[start:s.off], Pos: p}
			}
			depth--
		}
		s.off++
	}
	return lexer.Token{Type: tokInitBody, Value: s.src[start:s.off], Pos: p}
}

func describeByte(src string, off int) string {
	if off >= len(src) {
		return "end of file"
	}
	c := src[off]
	switch c {
	case ' ', '\t', '\r', '\n':
		return "white space"
	}
	return fmt.Sprintf("%q", rune(c))
}
