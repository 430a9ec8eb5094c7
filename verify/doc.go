// Package verify checks a plan in the IPC 2020 HTN format against a lifted
// HDDL problem, independently of the grounder and of the planners whose
// plans it judges: it imports only hddl and plan.
//
// The work is split by concern: tree.go rebuilds the decomposition tree
// from the plan's lines and matches every decomposition to its method;
// state.go executes the actions and keeps the states between them;
// formula.go evaluates preconditions, effects and goals in those states,
// finding values for method variables the plan does not bind; order.go
// places every task where its orderings and its method's precondition
// allow.
package verify
