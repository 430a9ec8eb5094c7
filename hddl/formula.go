package hddl

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/htnsat/htnsat/internal/excerpt"
)

// expr is the participle-facing type of a formula; *formula is its only
// implementation. participle.ParseTypeWith needs an interface type.
type expr interface{ node() *formula }

func (f *formula) node() *formula { return f }

// maxDepth bounds the nesting of formulas so that hostile input cannot
// exhaust the stack.
const maxDepth = 512

// connectives are the words that make a formula a compound one.
var connectives = map[string]bool{
	"and": true, "or": true, "not": true, "imply": true, "when": true,
	"forall": true, "exists": true,
}

// numericOps are the operators of numeric effects, told apart from a
// predicate of the same name by the "(" of their function term; htnsat
// takes (increase (total-cost) N) in an action's effect, the cost of the
// action, and no other.
var numericOps = map[string]bool{"increase": true, "decrease": true, "assign": true, "scale-up": true, "scale-down": true}

// parseFormula is the participle production for formulas:
//
//	formula = "(" ")"
//	        | "(" ("and"|"or"|"not"|"imply"|"when") formula* ")"
//	        | "(" ("forall"|"exists") "(" typedGroup* ")" formula* ")"
//	        | "(" (Name | "=") (Name | Var)* ")" .
//
// It returns participle.NextMatch, consuming nothing, when the next token is
// not "(".
func parseFormula(lex *lexer.PeekingLexer) (expr, error) {
	if lex.Peek().Type != tokLParen {
		return nil, participle.NextMatch
	}
	f, err := readFormula(lex, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// exprList is a run of formulas, read in one call: the :init section of a
// large problem holds most of its bytes, and one participle call per atom
// would cost more than reading the atoms.
type exprList interface{ nodes() []*formula }

type formulaList []*formula

func (l formulaList) nodes() []*formula { return l }

func parseFormulaList(lex *lexer.PeekingLexer) (exprList, error) {
	if lex.Peek().Type != tokInitBody {
		return nil, participle.NextMatch
	}
	body := lex.Next()
	return readInitBody(body)
}

// readInitBody reads the ground atoms of an :init section from its raw
// text, with positions in the original file.
func readInitBody(body *lexer.Token) (formulaList, error) {
	// Pad the first line so that columns come out as in the file.
	pad := body.Pos.Column - 1
	sc := &scanner{
		filename: body.Pos.Filename,
		src:      strings.Repeat(" ", pad) + body.Value,
		off:      pad,
		line:     body.Pos.Line,
	}
	// atoms, names and argument lists come from slabs: a large :init has
	// most of a problem's atoms, and one allocation each was most of the
	// parse's. The first slabs hold as many as the text has opening
	// parentheses (atoms) and words (names): exactly enough for a
	// well-formed body.
	atoms, words := countInit(body.Value)
	out := make(formulaList, 0, atoms)
	forms := make([]formula, 0, atoms)
	idents := identBlocks{cur: make([]ident, 0, words)}
	args := make([]*ident, 0, max(words-atoms, 0))
	var buf []*ident
	for {
		t, err := sc.next()
		if err != nil {
			return nil, err
		}
		switch t.Type {
		case lexer.EOF:
			return out, nil
		case tokLParen:
		default:
			return nil, unexpected(&t, "\"(\" and a ground atom")
		}
		if len(forms) == cap(forms) {
			forms = make([]formula, 0, slab(cap(forms)))
		}
		forms = append(forms, formula{Pos: t.Pos})
		f := &forms[len(forms)-1]
		head, err := sc.next()
		if err != nil {
			return nil, err
		}
		if head.Type != tokName && !(head.Type == tokOp && head.Value == "=") {
			return nil, unexpected(&head, "a predicate name")
		}
		if head.Value == "=" {
			if ok, err := skipTotalCost(sc); err != nil {
				return nil, err
			} else if ok {
				forms = forms[:len(forms)-1]
				continue
			}
		}
		f.Pred = idents.next(&head)
		buf = buf[:0]
		for {
			a, err := sc.next()
			if err != nil {
				return nil, err
			}
			if a.Type == tokRParen {
				f.EndPos = a.Pos
				break
			}
			if a.Type != tokName && a.Type != tokVar {
				what := "an object name or \")\""
				if connectives[strings.ToLower(head.Value)] || head.Value == "=" {
					what = "a ground atom (:init holds atoms only)"
				}
				return nil, unexpected(&a, what)
			}
			buf = append(buf, idents.next(&a))
		}
		if len(buf) > 0 {
			if cap(args)-len(args) < len(buf) {
				args = make([]*ident, 0, max(slab(cap(args)), len(buf)))
			}
			start := len(args)
			args = append(args, buf...)
			f.Args = args[start:len(args):len(args)]
		}
		out = append(out, f)
	}
}

// skipTotalCost reads "(total-cost) N)" after "(=" in :init, the start
// of the plan's cost, which a plan always starts at 0 for htnsat: ok says
// there was such an item (read), err a numeric fluent of another name.
func skipTotalCost(sc *scanner) (ok bool, err error) {
	save := *sc
	t, err := sc.next()
	if err != nil || t.Type != tokLParen {
		*sc = save
		return false, nil
	}
	fn, err := sc.next()
	if err != nil {
		return false, err
	}
	if fn.Type != tokName || fn.Value != "total-cost" {
		return false, &Error{Pos: posOf(fn.Pos), Msg: "numeric fluents are not supported: :init may set (total-cost), and nothing else numeric"}
	}
	for _, want := range []string{")", "value", ")"} {
		t, err := sc.next()
		if err != nil {
			return false, err
		}
		switch {
		case want == "value" && t.Type != tokName:
			return false, unexpected(&t, "the start of total-cost (a number)")
		case want == ")" && t.Type != tokRParen:
			return false, unexpected(&t, "\")\"")
		}
	}
	return true, nil
}

// countInit counts the opening parentheses and the words (runs of name
// bytes, variables and operators included) of an :init body, comments
// skipped.
func countInit(s string) (atoms, words int) {
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ';':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			in = false
		case c == '(':
			atoms++
			in = false
		case isNameByte(c) || c == '?' || c == '=':
			if !in {
				words++
			}
			in = true
		default:
			in = false
		}
	}
	return atoms, words
}

// slab is the size of the next slab after one of n: doubling from 32 to
// 4096, so that a small :init wastes little and a large one allocates
// rarely.
func slab(n int) int { return min(max(2*n, 32), 4096) }

func readFormula(lex tokens, depth int) (*formula, error) {
	open := lex.Next() // "("
	if depth > maxDepth {
		return nil, &Error{Pos: posOf(open.Pos), Msg: "formula nested too deeply"}
	}
	f := &formula{Pos: open.Pos}
	head := lex.Peek()
	switch {
	case head.Type == tokRParen:
		// "()": the empty conjunction
	case head.Type == tokName && connectives[strings.ToLower(head.Value)]:
		lex.Next()
		f.Op = head.Value
		if op := strings.ToLower(head.Value); op == "forall" || op == "exists" {
			vars, err := readTypedGroups(lex, head.Value)
			if err != nil {
				return nil, err
			}
			f.QVars = vars
		}
		for lex.Peek().Type == tokLParen {
			sub, err := readFormula(lex, depth+1)
			if err != nil {
				return nil, err
			}
			f.Subs = append(f.Subs, sub)
		}
	case head.Type == tokName || (head.Type == tokOp && head.Value == "="):
		lex.Next()
		if numericOps[strings.ToLower(head.Value)] && lex.Peek().Type == tokLParen {
			// (increase (f args) value): the checker says what it takes
			f.Op = head.Value
			lex.Next()
			fn := lex.Next()
			if fn.Type != tokName {
				return nil, unexpected(fn, "a function name")
			}
			f.Pred = &ident{Pos: fn.Pos, Value: fn.Value}
			for t := lex.Peek(); t.Type == tokName || t.Type == tokVar; t = lex.Peek() {
				lex.Next()
				f.Args = append(f.Args, &ident{Pos: t.Pos, Value: t.Value})
			}
			if cl := lex.Next(); cl.Type != tokRParen {
				return nil, unexpected(cl, "\")\" after the function's arguments")
			}
			v := lex.Next()
			if v.Type != tokName {
				return nil, &Error{Pos: posOf(v.Pos), Msg: "the value of " + head.Value + " must be a whole number of 0 or more (costs given by functions are not supported)"}
			}
			f.Num = &ident{Pos: v.Pos, Value: v.Value}
			end := lex.Peek()
			if end.Type != tokRParen {
				return nil, unexpected(end, "\")\"")
			}
			lex.Next()
			f.EndPos = end.Pos
			return f, nil
		}
		f.Pred = &ident{Pos: head.Pos, Value: head.Value}
		for t := lex.Peek(); t.Type == tokName || t.Type == tokVar; t = lex.Peek() {
			lex.Next()
			f.Args = append(f.Args, &ident{Pos: t.Pos, Value: t.Value})
		}
	default:
		return nil, unexpected(head, "a predicate name or a connective (and, or, not, imply, forall, exists, when)")
	}
	end := lex.Peek()
	if end.Type != tokRParen {
		what := "\")\""
		if f.Pred != nil {
			what = "an argument or \")\""
		} else if f.Op != "" {
			what = "\"(\" or \")\""
		}
		return nil, unexpected(end, what)
	}
	lex.Next()
	f.EndPos = end.Pos
	return f, nil
}

// readTypedGroups reads "(" typedGroup* ")" after forall/exists.
func readTypedGroups(lex tokens, quant string) ([]*typedGroup, error) {
	open := lex.Peek()
	if open.Type != tokLParen {
		return nil, unexpected(open, "\"(\" and the variables of "+quant)
	}
	lex.Next()
	var groups []*typedGroup
	var g *typedGroup
	for {
		t := lex.Next()
		switch t.Type {
		case tokVar, tokName:
			if g == nil {
				g = &typedGroup{Pos: t.Pos}
				groups = append(groups, g)
			}
			g.Names = append(g.Names, &ident{Pos: t.Pos, Value: t.Value})
		case tokDash:
			if g == nil {
				return nil, unexpected(t, "a variable")
			}
			ty := lex.Next()
			switch {
			case ty.Type == tokName:
				g.Type = []*ident{{Pos: ty.Pos, Value: ty.Value}}
			case ty.Type == tokLParen && strings.EqualFold(lex.Peek().Value, "either"):
				g.Open = lex.Next().Value
				for lex.Peek().Type == tokName {
					n := lex.Next()
					g.Alts = append(g.Alts, &ident{Pos: n.Pos, Value: n.Value})
				}
				if cl := lex.Next(); cl.Type != tokRParen {
					return nil, unexpected(cl, "a type name or \")\"")
				}
			default:
				return nil, unexpected(ty, "a type name after \"-\"")
			}
			g = nil
		case tokRParen:
			return groups, nil
		default:
			return nil, unexpected(t, "a variable, \"-\" or \")\"")
		}
	}
}

// unexpected builds the "expected X, found Y" error at token t.
func unexpected(t *lexer.Token, expected string) *Error {
	return &Error{Pos: posOf(t.Pos), Msg: "expected " + expected + ", found " + describe(t)}
}

func describe(t *lexer.Token) string {
	switch t.Type {
	case lexer.EOF:
		return "end of file"
	case tokName:
		return "name " + excerpt.Of(t.Value)
	case tokVar:
		return "variable " + excerpt.Of(t.Value)
	case tokKeyword:
		return "keyword " + excerpt.Of(t.Value)
	}
	return "\"" + excerpt.Of(t.Value) + "\""
}
