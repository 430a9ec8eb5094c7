// Package htn plans on ground tasks by progression search.
//
// Solve searches over (state, task network) pairs: depth-first search with
// in-place changes and undo, and greedy best-first search and A*, which
// keep every open node. By default the three take turns on one core as a
// portfolio (portfolio.go); in a partial order the depth-first search and
// a second greedy search are serial (Options.Serial: a task once begun is
// finished before its siblings), their exhaustion proving nothing. Both
// kinds of search detect visited nodes; in an acyclic network the
// depth-first search records those it searched to the end, across
// restarts (Options.NoDuplicates). In recursive networks the depth-first
// search also deepens iteratively: on its path length and on
// how often a task may recur in its own decomposition without a state
// change (left recursion); with Options.RecursionBound, also on how deep a
// task may recur at all, and the portfolio runs it so beside the
// unbounded one on recursive networks. A run that cut a path at the
// length bound deepens after a budget of nodes rather than once it has
// searched under the bound to the end. The best-first searches are
// guided by the relaxed composition heuristic (rc.go: the hierarchy as a
// delete-free classical problem, additive costs from the node's state; a
// network it cannot reach is a dead end), or by the state-blind least
// number of actions the network still needs (admissible, A*'s default, and
// greedy search's on very large tasks). Totally and partially ordered
// networks are both handled; in a partial order, actions that can run run
// first (as in SHOP2), and a complete search follows if this eager one
// finds nothing.
//
// Each acceleration of the depth-first search can be switched off in
// Options (the zero value has them all on): dead-end detection that
// tracks methods whose preconditions can never hold again, because a fact
// no action deletes is true or one no action adds is false, and backtracks
// as soon as a task in the network has no live method left; Focus on the
// latest decomposition's tasks in a partial order; most-constrained-first
// choice of the compound task, weighted by the dead ends each task took
// part in; restarts with random tie-breaking after growing node budgets;
// a dead end as soon as a goal fact is unmet and no task left can meet it;
// and the choice groups of the task (ground.ChoiceGroups), which cut a
// branch when a value has no taker left and force a task when it has one.
//
// The search takes the task as given: compaction (tasks with a single
// method inlined, pure tests folded into method preconditions,
// ground.Compact) happens upstream, once for every engine.
// Solve returns a ground.Solution; its ToPlan writes it in the IPC 2020
// format, and package verify judges it against the lifted model.
//
// This package reads the ground task; it knows nothing of SAT, of plan
// verification or of Sudoku, and never changes the task it is given.
package htn
