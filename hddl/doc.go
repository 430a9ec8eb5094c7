// Package hddl reads HDDL (the Hierarchical Domain Definition Language of
// the IPC 2020 HTN track) into a checked lifted model, and prints models
// back as canonical HDDL.
//
// Reading happens in two passes, as in go/parser and go/types: a participle
// grammar (syntax.go, with hand-written productions for formulas and :init
// atoms in formula.go) builds a syntax tree that knows positions but not
// names; the checker (check*.go) resolves every name to an index and checks
// arities, types, orderings and the use of each connective. Errors read
// "file:line:col: message" and are collected into an ErrorList, of which at
// most ten are reported.
//
// The package accepts the files as the IPC 2020 set writes them: keywords
// in any case, names case-sensitive (the task fill-cell and the action
// FILL-CELL are different symbols), subtasks with or without ids and "and",
// orderings in any order, :constraints, empty methods, sections in any
// order, undeclared parent types (declared implicitly, with a warning),
// CRLF line ends and "?x -type".
//
// The model (model.go) is immutable once built; the grounder and the plan
// verifier read it. This package owns syntax and names only: it does not
// ground, plan or know about Sudoku.
package hddl
