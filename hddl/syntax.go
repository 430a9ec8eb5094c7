package hddl

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The syntax tree, as participle grammar. It accepts a superset of HDDL:
// every section, item and connective has one generic shape here, and the
// checker (check.go) says what is allowed where, with positions. Keeping
// the grammar loose gives messages such as "'or' is not allowed in an
// effect" instead of a parser's list of expected tokens.

type syntaxFile struct {
	Pos      lexer.Position
	Kind     string    `parser:"'(' 'define' '(' @('domain' | 'problem')"`
	Name     *ident    `parser:"@@ ')'"`
	Sections []section `parser:"( '(' @@ ')' )* ')'"`
}

// ident is a name, variable or operator with its position.
type ident struct {
	Pos   lexer.Position
	Value string `parser:"@(Name | Var)"`
}

type keyword struct {
	Pos   lexer.Position
	Value string `parser:"@Keyword"`
}

// typedGroup is "a b c - t" or "?x ?y - (either t u)" or just "a b".
type typedGroup struct {
	Pos   lexer.Position
	Names []*ident `parser:"@@+"`
	Type  []*ident `parser:"( '-' ( @@"`
	Open  string   `parser:"      | '(' @'either'"`
	Alts  []*ident `parser:"        @@+ ')' ) )?"`
}

type section interface{ sectionPos() lexer.Position }

type requirementsSection struct {
	Pos  lexer.Position
	Keys []*keyword `parser:"':requirements' @@*"`
}

type typesSection struct {
	Pos    lexer.Position
	Groups []*typedGroup `parser:"':types' @@*"`
}

type constantsSection struct {
	Pos    lexer.Position
	Groups []*typedGroup `parser:"':constants' @@*"`
}

type objectsSection struct {
	Pos    lexer.Position
	Groups []*typedGroup `parser:"':objects' @@*"`
}

type predicatesSection struct {
	Pos   lexer.Position
	Preds []*predDecl `parser:"':predicates' @@*"`
}

type predDecl struct {
	Pos    lexer.Position
	Name   *ident        `parser:"'(' @@"`
	Params []*typedGroup `parser:"@@* ')'"`
}

type domainRefSection struct {
	Pos  lexer.Position
	Name *ident `parser:"':domain' @@"`
}

// taskSection is ":task", ":action" or ":method": a name and keyword items.
type taskSection struct {
	Pos   lexer.Position
	Kind  string  `parser:"@(':task' | ':action' | ':method')"`
	Name  *ident  `parser:"@@"`
	Items []*item `parser:"@@*"`
}

type htnSection struct {
	Pos   lexer.Position
	Items []*item `parser:"':htn' @@*"`
}

type initSection struct {
	Pos   lexer.Position
	Atoms exprList `parser:"':init' @@"`
}

type goalSection struct {
	Pos  lexer.Position
	Goal expr `parser:"':goal' @@?"`
}

// unknownSection keeps any other section (":functions", ":metric", ...) so
// that the checker can name it.
type unknownSection struct {
	Pos  lexer.Position
	Key  *keyword `parser:"@@"`
	Body []*sexpr `parser:"@@*"`
}

// sexpr is any balanced token sequence.
type sexpr struct {
	Pos  lexer.Position
	List []*sexpr `parser:"  '(' @@* ')'"`
	Atom string   `parser:"| @(Name | Var | Keyword | Dash | Op)"`
}

func (s *requirementsSection) sectionPos() lexer.Position { return s.Pos }
func (s *typesSection) sectionPos() lexer.Position        { return s.Pos }
func (s *constantsSection) sectionPos() lexer.Position    { return s.Pos }
func (s *objectsSection) sectionPos() lexer.Position      { return s.Pos }
func (s *predicatesSection) sectionPos() lexer.Position   { return s.Pos }
func (s *domainRefSection) sectionPos() lexer.Position    { return s.Pos }
func (s *taskSection) sectionPos() lexer.Position         { return s.Pos }
func (s *htnSection) sectionPos() lexer.Position          { return s.Pos }
func (s *initSection) sectionPos() lexer.Position         { return s.Pos }
func (s *goalSection) sectionPos() lexer.Position         { return s.Pos }
func (s *unknownSection) sectionPos() lexer.Position      { return s.Pos }

// item is one ":keyword value" pair inside a task, action, method or :htn.
type item struct {
	Pos          lexer.Position
	Parameters   bool          `parser:"(  @':parameters'"`
	Params       []*typedGroup `parser:"   '(' @@* ')'"`
	Task         *call         `parser:"| ':task' '(' @@ ')'"`
	Precondition expr          `parser:"| ':precondition' @@"`
	Effect       expr          `parser:"| ':effect' @@"`
	SubtaskKey   string        `parser:"| @(':subtasks' | ':tasks' | ':ordered-subtasks' | ':ordered-tasks')"`
	Subtasks     *subtaskList  `parser:"  @@"`
	Ordering     *orderingList `parser:"| ':ordering' @@"`
	Constraints  expr          `parser:"| ':constraints' @@"`
	Other        *keyword      `parser:"| @@"`
	OtherValue   *sexpr        `parser:"  @@? )"`
}

// call is a task name with arguments, without the parentheses.
type call struct {
	Pos  lexer.Position
	Name *ident   `parser:"@@"`
	Args []*ident `parser:"@@*"`
}

type subtaskList struct {
	Pos     lexer.Position
	And     bool            `parser:"'(' ( @'and'"`
	Entries []*subtaskEntry `parser:"      @@*"`
	Single  *subtaskBody    `parser:"    | @@ )? ')'"`
}

type subtaskEntry struct {
	Pos  lexer.Position
	Body *subtaskBody `parser:"'(' @@ ')'"`
}

// subtaskBody is "t (task args)" (with an id) or "task args".
type subtaskBody struct {
	Pos   lexer.Position
	First *ident   `parser:"@@"`
	Call  *call    `parser:"( '(' @@ ')' )?"`
	Args  []*ident `parser:"@@*"`
}

type orderingList struct {
	Pos    lexer.Position
	And    bool         `parser:"'(' ( @'and'"`
	Pairs  []*orderPair `parser:"      @@*"`
	Single *orderBody   `parser:"    | @@ )? ')'"`
}

type orderPair struct {
	Pos  lexer.Position
	Body *orderBody `parser:"'(' @@ ')'"`
}

type orderBody struct {
	Pos lexer.Position
	Op  string   `parser:"@('<' | '>' | Name)"`
	IDs []*ident `parser:"@@*"`
}

// formula is any logical expression: a connective with sub-formulas, a
// quantifier, or an atom "(p t1 ... tn)" (including "(= a b)"). Formulas
// are the bulk of every file (init atoms, preconditions, effects), so they
// are read by a hand-written participle production (formula.go).
type formula struct {
	Pos    lexer.Position
	Op     string        // and, or, not, imply, when, forall, exists (as written)
	Subs   []*formula    // operands, or the body of a quantifier
	QVars  []*typedGroup // quantified variables
	Pred   *ident        // the predicate of an atom ("=" included), or the function of a numeric effect
	Args   []*ident      // the arguments of an atom or of that function
	Num    *ident        // a numeric effect's value: (increase (total-cost) Num)
	EndPos lexer.Position
}

// parser builds the grammar on first use (about 0.8 ms), not at start-up:
// most htnsat commands never parse HDDL text.
var parser = sync.OnceValue(func() *participle.Parser[syntaxFile] {
	return participle.MustBuild[syntaxFile](
		participle.Lexer(lexDef),
		participle.CaseInsensitive("Name", "Keyword"),
		participle.ParseTypeWith(parseFormula),
		participle.ParseTypeWith(parseFormulaList),
		participle.Union[section](
			&requirementsSection{}, &typesSection{}, &constantsSection{}, &objectsSection{},
			&predicatesSection{}, &domainRefSection{}, &taskSection{}, &htnSection{},
			&initSection{}, &goalSection{}, &unknownSection{},
		),
	)
})

func (s *sexpr) describe() string {
	if s.List != nil || s.Atom == "" {
		return "a parenthesised list"
	}
	return s.Atom
}

// valueOr is the keyword's text, or def for a nil keyword.
func (k *keyword) valueOr(def string) string {
	if k == nil {
		return def
	}
	return k.Value
}
