// Package ground turns a checked lifted HDDL problem into a ground task
// with dense integer IDs (FactID, TaskID, MethodID), the one input of the
// planners.
//
// Grounding is a database join, never a cross product: static predicates
// (no action changes them) are relations over the initial state; actions
// are instantiated by a semi-naive delete-relaxed reachability analysis
// whose every step joins a new fact with the facts found before it;
// compound tasks that must bind variables get a bottom-up relation of the
// instances that can be decomposed into reachable actions (a Datalog
// fixpoint); methods are instantiated top-down from the initial task
// network, their variables bound by the task, then by joins over their
// preconditions and subtasks, smallest relation first, and enumerated over
// their types only as a last resort. The free variables of the initial
// network become synthetic choice tasks, one per group of tasks that share
// variables. A fixpoint then prunes actions and methods whose
// preconditions can never hold, methods with an impossible subtask, tasks
// without a method and whatever the initial network no longer reaches;
// facts that are constant are compiled away.
//
// A budget (Options.MaxGround and the join steps derived from it) turns an
// explosion into ErrTooLarge within seconds, naming the method or action
// and the variables that nothing binds. This package reads the hddl model
// and knows nothing of search, SAT or Sudoku.
package ground
