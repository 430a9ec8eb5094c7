// Package satenc compiles a ground HTN task into propositional logic and
// decodes a model back into a plan.
//
// Encode builds a path decomposition tree in the style of totSAT (Behnke,
// Höller and Biundo, 2018): every vertex has a variable per task and
// method that may sit there, a method's subtasks fill the children of its
// vertex, and the leaves, in order, are the time steps, with a variable
// per fact and step (shared while no action of the step can change it),
// frame axioms, action and method preconditions, and at-most-one
// constraints (sequential counters). Variables equal by construction
// share a number, clauses are simplified by the unit clauses of the
// initial state, and the choice groups of the task (ground.ChoiceGroups)
// add at-least-once clauses. The encoder takes the task as given: tasks
// with a single method are inlined and pure tests folded upstream
// (ground.Compact), once for every engine.
// Partially ordered networks are linearised in one valid order
// (ground.Linearize): every plan found is valid, but a problem that needs
// another order is reported as inconclusive (plan.ErrInconclusive), never
// as unsolvable.
//
// Clauses go to a Sink: an in-memory CNF, a DIMACSWriter that streams to a
// temporary file, or a solver. Solve deepens the tree for recursive tasks,
// growing one formula layer by layer, and solves it with a Solver:
// Gophersat in-process (units propagated first on large formulas,
// simplify.go), External, any DIMACS solver run as a process and killed
// when the context ends (both given the whole formula at each depth), or
// the linked CaDiCaL, which keeps it and what it learnt across depths.
// Encoding.Decode turns a model into a ground.Solution, checked afterwards by
// the independent verifier.
//
// gophersat is imported by gophersat.go alone. This package reads the
// ground task and produces ground solutions; it knows nothing of Sudoku or of
// the progression planner.
package satenc
