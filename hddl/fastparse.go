package hddl

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The fast path. participle reads a file through a PeekingLexer that holds
// every token of it (lexer.Upgrade), and walks its grammar by reflection;
// together they were most of the time a Sudoku problem took to parse. For
// a well-formed file, parseFast builds the same syntax tree by recursive
// descent over a stream of tokens, with the hand-written productions that
// participle calls too (productions.go, formula.go).
//
// The grammar of record stays the participle grammar of syntax.go: the
// fast path gives up at the first token it does not expect, and the file
// is then parsed again by participle, whose error (or, for input the fast
// path does not cover, whose tree) is the answer. TestFastParse checks that
// both parsers build equal trees for every file both accept.

// stream is a token source with one token of lookahead, read from the
// scanner as the parse goes. A pointer that Peek or Next returned stays
// valid for the next len(ring)-1 tokens; the productions hold one for at
// most two.
type stream struct {
	sc   *scanner
	ring [16]lexer.Token
	i    int
	err  error // a lexing error: the fast path gives up
	// the syntax tree's identifiers (nextIdent): one allocation each was
	// a third of parsing a Sudoku problem's
	idents identBlocks
}

// identBlocks cuts identifiers from blocks: a new block when one is full,
// so that those given out stay put.
type identBlocks struct{ cur []ident }

// next makes the identifier of token t.
func (b *identBlocks) next(t *lexer.Token) *ident {
	if len(b.cur) == cap(b.cur) {
		b.cur = make([]ident, 0, slab(cap(b.cur)))
	}
	b.cur = append(b.cur, ident{Pos: t.Pos, Value: t.Value})
	return &b.cur[len(b.cur)-1]
}

func newStream(sc *scanner) *stream {
	s := &stream{sc: sc}
	s.fill(0)
	return s
}

func (s *stream) fill(i int) {
	t, err := s.sc.Next()
	if err != nil {
		s.err = err
		t = lexer.EOFToken(s.sc.pos(s.sc.off))
	}
	s.ring[i] = t
}

func (s *stream) Peek() *lexer.Token { return &s.ring[s.i] }

func (s *stream) Next() *lexer.Token {
	t := &s.ring[s.i]
	if t.Type == lexer.EOF {
		return t
	}
	s.i = (s.i + 1) % len(s.ring)
	s.fill(s.i)
	return t
}

// fastParser reads one file; ok turns false at the first surprise.
type fastParser struct {
	lex *stream
	ok  bool
}

// parseFast returns the syntax tree of src, or false when the fast path
// cannot read it (the caller then asks participle).
func parseFast(filename, src string) (*syntaxFile, bool) {
	p := &fastParser{lex: newStream(&scanner{filename: filename, src: src, line: 1}), ok: true}
	f := p.file()
	if !p.ok || p.lex.err != nil || p.lex.Peek().Type != lexer.EOF {
		return nil, false
	}
	return f, true
}

// expect consumes a token of type typ (and, when word is not empty, that
// word, case-insensitively) and returns it.
func (p *fastParser) expect(typ lexer.TokenType, word string) *lexer.Token {
	t := p.lex.Peek()
	if !p.ok || t.Type != typ || word != "" && !strings.EqualFold(t.Value, word) {
		p.ok = false
		return t
	}
	return p.lex.Next()
}

// check records the error of a production.
func (p *fastParser) check(err error) {
	if err != nil {
		p.ok = false
	}
}

func (p *fastParser) ident() *ident {
	t := p.lex.Peek()
	if !p.ok || !isIdent(t) {
		p.ok = false
		return nil
	}
	return nextIdent(p.lex)
}

func (p *fastParser) keyword() *keyword {
	t := p.expect(tokKeyword, "")
	return &keyword{Pos: t.Pos, Value: t.Value}
}

// file reads '(' 'define' '(' ('domain' | 'problem') name ')' ('(' section ')')* ')'.
func (p *fastParser) file() *syntaxFile {
	open := p.expect(tokLParen, "")
	f := &syntaxFile{Pos: open.Pos}
	p.expect(tokName, "define")
	p.expect(tokLParen, "")
	kind := p.lex.Peek()
	if !p.ok || kind.Type != tokName || !strings.EqualFold(kind.Value, "domain") && !strings.EqualFold(kind.Value, "problem") {
		p.ok = false
		return nil
	}
	f.Kind = p.lex.Next().Value
	f.Name = p.ident()
	p.expect(tokRParen, "")
	for p.ok && p.lex.Peek().Type == tokLParen {
		p.lex.Next()
		f.Sections = append(f.Sections, p.section())
		p.expect(tokRParen, "")
	}
	p.expect(tokRParen, "")
	return f
}

// section reads one section after its "(", by its keyword, trying the
// alternatives of the union in syntax.go in their order.
func (p *fastParser) section() section {
	k := p.lex.Peek()
	if !p.ok || k.Type != tokKeyword {
		p.ok = false
		return nil
	}
	pos := k.Pos
	switch strings.ToLower(k.Value) {
	case ":requirements":
		p.lex.Next()
		s := &requirementsSection{Pos: pos}
		for p.ok && p.lex.Peek().Type == tokKeyword {
			s.Keys = append(s.Keys, p.keyword())
		}
		return s
	case ":types":
		p.lex.Next()
		return &typesSection{Pos: pos, Groups: p.typedGroups()}
	case ":constants":
		p.lex.Next()
		return &constantsSection{Pos: pos, Groups: p.typedGroups()}
	case ":objects":
		p.lex.Next()
		return &objectsSection{Pos: pos, Groups: p.typedGroups()}
	case ":predicates":
		p.lex.Next()
		s := &predicatesSection{Pos: pos}
		for p.ok && p.lex.Peek().Type == tokLParen {
			open := p.lex.Next()
			d := &predDecl{Pos: open.Pos, Name: p.ident(), Params: p.typedGroups()}
			p.expect(tokRParen, "")
			s.Preds = append(s.Preds, d)
		}
		return s
	case ":domain":
		p.lex.Next()
		return &domainRefSection{Pos: pos, Name: p.ident()}
	case ":task", ":action", ":method":
		s := &taskSection{Pos: pos, Kind: p.lex.Next().Value, Name: p.ident()}
		s.Items = p.items()
		return s
	case ":htn":
		p.lex.Next()
		return &htnSection{Pos: pos, Items: p.items()}
	case ":init":
		p.lex.Next()
		if p.lex.Peek().Type != tokInitBody {
			p.ok = false
			return nil
		}
		atoms, err := readInitBody(p.lex.Next())
		p.check(err)
		return &initSection{Pos: pos, Atoms: atoms}
	case ":goal":
		p.lex.Next()
		s := &goalSection{Pos: pos}
		if p.lex.Peek().Type == tokLParen {
			s.Goal = p.formula()
		}
		return s
	}
	s := &unknownSection{Pos: pos, Key: p.keyword()}
	for p.ok && p.lex.Peek().Type != tokRParen {
		s.Body = append(s.Body, p.sexpr(0))
	}
	return s
}

// typedGroups reads typedGroup*.
func (p *fastParser) typedGroups() []*typedGroup {
	var gs []*typedGroup
	for p.ok && isIdent(p.lex.Peek()) {
		g := &typedGroup{}
		p.check(g.parse(p.lex))
		gs = append(gs, g)
	}
	return gs
}

func (p *fastParser) formula() expr {
	if !p.ok || p.lex.Peek().Type != tokLParen {
		p.ok = false
		return nil
	}
	f, err := readFormula(p.lex, 0)
	p.check(err)
	if f == nil {
		return nil
	}
	return f
}

// items reads item* up to the section's ")".
func (p *fastParser) items() []*item {
	var out []*item
	for p.ok && p.lex.Peek().Type == tokKeyword {
		out = append(out, p.item())
	}
	return out
}

// item reads one ":keyword value" pair, the alternatives of item in
// syntax.go in their order. Each alternative but the last wants "(" after
// its keyword; without one, participle falls through to the last, a
// keyword and an optional sexpr, and so does item.
func (p *fastParser) item() *item {
	k := p.lex.Next()
	it := &item{Pos: k.Pos}
	kw := keyword{Pos: k.Pos, Value: k.Value}
	lower := strings.ToLower(k.Value)
	switch lower {
	case ":parameters", ":task", ":precondition", ":effect", ":subtasks", ":tasks",
		":ordered-subtasks", ":ordered-tasks", ":ordering", ":constraints":
		if p.lex.Peek().Type != tokLParen {
			lower = ""
		}
	}
	switch lower {
	case ":parameters":
		it.Parameters = true
		p.expect(tokLParen, "")
		it.Params = p.typedGroups()
		p.expect(tokRParen, "")
	case ":task":
		p.expect(tokLParen, "")
		name := p.ident()
		if name == nil {
			return it
		}
		c := &call{Pos: name.Pos, Name: name}
		for p.ok && isIdent(p.lex.Peek()) {
			c.Args = append(c.Args, nextIdent(p.lex))
		}
		it.Task = c
		p.expect(tokRParen, "")
	case ":precondition":
		it.Precondition = p.formula()
	case ":effect":
		it.Effect = p.formula()
	case ":subtasks", ":tasks", ":ordered-subtasks", ":ordered-tasks":
		it.SubtaskKey = kw.Value
		it.Subtasks = &subtaskList{}
		p.check(it.Subtasks.parse(p.lex))
	case ":ordering":
		it.Ordering = &orderingList{}
		p.check(it.Ordering.parse(p.lex))
	case ":constraints":
		it.Constraints = p.formula()
	default:
		it.Other = &kw
		switch p.lex.Peek().Type { // an sexpr, if one starts here (greedy, as participle)
		case tokLParen, tokName, tokVar, tokKeyword, tokDash, tokOp:
			it.OtherValue = p.sexpr(0)
		}
	}
	return it
}

// sexpr reads '(' sexpr* ')' or one atom (Name, Var, Keyword, Dash, Op).
func (p *fastParser) sexpr(depth int) *sexpr {
	t := p.lex.Peek()
	if !p.ok || depth > maxDepth {
		p.ok = false
		return nil
	}
	s := &sexpr{Pos: t.Pos}
	switch t.Type {
	case tokLParen:
		p.lex.Next()
		for p.ok && p.lex.Peek().Type != tokRParen {
			s.List = append(s.List, p.sexpr(depth+1))
		}
		p.expect(tokRParen, "")
	case tokName, tokVar, tokKeyword, tokDash, tokOp:
		s.Atom = p.lex.Next().Value
	default:
		p.ok = false
	}
	return s
}
