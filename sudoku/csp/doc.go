// Package csp is the constraint view of a Sudoku grid: one variable per
// cell with its domain of digits, one all-different constraint per row,
// column and box (and per extra region a variant adds), and the
// propagators of the SOLVER hint panel (Howell, Woodward, Choueiry, Bessiere;
// Reeson et al., "An Interactive Constraint-Based Approach to Sudoku", AAAI 2007): forward checking (FC), arc consistency on the binary
// ≠ decomposition (AC), generalised arc consistency on each all-different
// constraint (GAC, Régin's matching algorithm), and their singleton
// strengthenings SAC and SGAC, each on one constraint or variable or on
// all. On top of them: hints by level and condition (Hints), a difficulty
// rating (Rate) and solution counting by search (Count).
//
// It reads grids from sudoku and knows nothing of planning.
package csp
