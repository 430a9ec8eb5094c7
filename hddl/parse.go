package hddl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/htnsat/htnsat/internal/input"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// parseSyntax reads one file into a syntax tree: by the fast path when it
// can (fastparse.go), else by participle. Every failure, including a panic
// inside the parser library, comes back as a positioned *Error.
func parseSyntax(filename string, src []byte) (*syntaxFile, error) {
	text := string(input.TrimBOM(src))
	if f, ok := parseFast(filename, text); ok {
		return f, nil
	}
	return parseSlow(filename, text)
}

// parseSlow reads one file with participle, the grammar of record.
func parseSlow(filename, src string) (f *syntaxFile, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, &Error{Pos: Pos{File: filename}, Msg: fmt.Sprintf("internal parser error: %v", r)}
		}
	}()
	lex, err := lexDef.LexString(filename, src)
	if err != nil {
		return nil, convertError(filename, err)
	}
	peek, err := lexer.Upgrade(lex)
	if err != nil {
		return nil, convertError(filename, err)
	}
	f, err = parser().ParseFromLexer(peek)
	if err != nil {
		return nil, convertError(filename, err)
	}
	return f, nil
}

// convertError turns a lexer or participle error into an *Error whose
// message reads "expected X, found Y".
func convertError(filename string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ut *participle.UnexpectedTokenError
	if errors.As(err, &ut) {
		expect := ut.Expect
		if expect == "" {
			// participle leaves Expect empty for the node-based form;
			// recover it from the message "unexpected token X (expected Y)".
			msg := ut.Message()
			if i := strings.LastIndex(msg, "(expected "); i >= 0 {
				expect = strings.TrimSuffix(msg[i+len("(expected "):], ")")
			}
		}
		tok := ut.Unexpected
		switch {
		case expect != "":
			expect = readableExpect(firstExpected(expect))
		case tok.Type == lexer.EOF:
			expect = "\"(define\""
		default:
			expect = "end of file"
		}
		return &Error{Pos: posOf(tok.Pos), Msg: "expected " + expect + ", found " + describe(&tok)}
	}
	var pe participle.Error
	if errors.As(err, &pe) {
		return &Error{Pos: posOf(pe.Position()), Msg: pe.Message()}
	}
	return &Error{Pos: Pos{File: filename}, Msg: err.Error()}
}

// firstExpected returns the first element of participle's EBNF for what
// it expected: the rest of the sequence is noise in an error message.
func firstExpected(ebnf string) string {
	s := strings.TrimSpace(ebnf)
	if strings.HasPrefix(s, "(") {
		depth := 0
		for i, r := range s {
			switch r {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return strings.TrimSpace(s[1:i])
				}
			}
		}
		return s
	}
	if i := strings.IndexByte(s, ' '); i > 0 && !strings.HasPrefix(s[i:], " | ") {
		return s[:i]
	}
	return s
}

// readableExpect rewrites participle's EBNF fragments in plain words.
var readableExpect = strings.NewReplacer(
	"<name>", "a name",
	"<var>", "a variable",
	"<keyword>", "a keyword",
	"<lparen>", "\"(\"",
	"<rparen>", "\")\"",
	"<dash>", "\"-\"",
	"<op>", "an operator",
	"Ident", "a name",
	"Section", "a section",
	"Item", "a keyword",
	"Keyword", "a keyword",
	" | ", " or ",
).Replace

// ParseDomain parses and checks a domain. The error, if any, is an
// ErrorList of positioned errors.
func ParseDomain(filename string, src []byte) (*Domain, error) {
	f, err := parseSyntax(filename, src)
	if err != nil {
		return nil, ErrorList{err.(*Error)}.Err()
	}
	if !strings.EqualFold(f.Kind, "domain") {
		return nil, ErrorList{{Pos: posOf(f.Pos), Msg: "expected a domain, found a problem"}}
	}
	c := &checker{}
	c.checkDomain(f)
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	return c.d, nil
}

// ParseProblem parses and checks a problem of domain d.
func ParseProblem(filename string, src []byte, d *Domain) (*Problem, error) {
	f, err := parseSyntax(filename, src)
	if err != nil {
		return nil, ErrorList{err.(*Error)}.Err()
	}
	if !strings.EqualFold(f.Kind, "problem") {
		return nil, ErrorList{{Pos: posOf(f.Pos), Msg: "expected a problem, found a domain"}}
	}
	c := &checker{d: d}
	c.checkProblem(f)
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	return c.p, nil
}

// MaxFileSize is the largest HDDL file LoadDomain and LoadProblem read
// (128 MiB; the largest IPC 2020 problem is 31 MB).
const MaxFileSize = 128 << 20

// ErrFileTooLarge is wrapped by the error of a file larger than
// MaxFileSize (or an endless one, such as /dev/zero).
var ErrFileTooLarge = input.ErrTooLarge

// readFile reads at most MaxFileSize bytes of a file, failing on more;
// reading (and opening a FIFO) stops when ctx ends.
func readFile(ctx context.Context, path string) ([]byte, error) {
	return input.ReadFile(ctx, path, MaxFileSize)
}

// LoadDomain reads and checks a domain file.
func LoadDomain(path string) (*Domain, error) {
	return loadDomain(context.Background(), path)
}

func loadDomain(ctx context.Context, path string) (*Domain, error) {
	src, err := readFile(ctx, path)
	if err != nil {
		return nil, err
	}
	return ParseDomain(path, src)
}

// LoadProblem reads and checks a problem file of domain d.
func LoadProblem(path string, d *Domain) (*Problem, error) {
	return loadProblem(context.Background(), path, d)
}

func loadProblem(ctx context.Context, path string, d *Domain) (*Problem, error) {
	src, err := readFile(ctx, path)
	if err != nil {
		return nil, err
	}
	return ParseProblem(path, src, d)
}

// Load reads a domain and a problem file.
func Load(domainPath, problemPath string) (*Domain, *Problem, error) {
	return LoadContext(context.Background(), domainPath, problemPath)
}

// LoadContext is Load whose reading stops when ctx ends (parsing and
// checking, bounded by the file size, run to their end).
func LoadContext(ctx context.Context, domainPath, problemPath string) (*Domain, *Problem, error) {
	d, err := loadDomain(ctx, domainPath)
	if err != nil {
		return nil, nil, err
	}
	p, err := loadProblem(ctx, problemPath, d)
	if err != nil {
		return d, nil, err
	}
	return d, p, nil
}
