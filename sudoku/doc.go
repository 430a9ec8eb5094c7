// Package sudoku reads Sudoku puzzles in the common text formats, writes
// them as HDDL problems for the paper's domain (any size n = k², k = 2..6),
// reads solved grids back from plans, and solves puzzles through a direct
// SAT encoding as the baseline for the HTN engines.
//
// It builds on hddl, ground, htn and satenc and adds no planning logic of
// its own: the HTN engines solve Sudoku as they solve any HDDL problem.
package sudoku
