// Package domains embeds the HDDL files that ship with htnsat.
package domains

import _ "embed"

// Sudoku is the paper's Sudoku domain (Listing 6) with only the
// PDF-extraction damage repaired.
//
//go:embed sudoku.hddl
var Sudoku []byte

// SudokuFile is the name under which Sudoku is reported in messages.
const SudokuFile = "domains/sudoku.hddl"
