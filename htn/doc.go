// Package htn plans on ground tasks by progression search and checks plans
// against the lifted model.
//
// Solve searches over (state, task network) pairs: depth-first with
// in-place changes and undo (the default for problems without recursion),
// greedy best-first or A* with the least number of actions the network
// still needs as heuristic, with duplicate detection where tasks recurse.
// Totally and partially ordered networks are both handled; in a partial
// order, actions that can run run first (as in SHOP2; a complete search
// follows if this eager one finds nothing). Each generic acceleration can
// be switched off in Options: pure tests (compound tasks whose only method
// has no subtasks) folded into the preconditions of the methods that use
// them; dead-end detection that tracks methods whose preconditions can
// never hold again, because a fact no action deletes is true or one no
// action adds is false, and backtracks as soon as a task in the network
// has no live method left; most-constrained-first choice of the compound
// task, weighted by the dead ends each task took part in; restarts with
// random tie-breaking after growing node budgets; and the choice groups of
// the task (ground.ChoiceGroups), which cut a branch when a value has no
// taker left and force a task when it has one.
//
// Solve returns a ground.Solution; its ToPlan writes it in the IPC 2020
// format, and package verify judges it against the lifted model.
//
// This package reads the ground task; it knows nothing of SAT, of plan
// verification or of Sudoku, and never changes the task it is given.
package htn
