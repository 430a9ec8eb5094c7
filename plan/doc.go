// Package plan holds what every planner and the verifier share: plans in
// the IPC 2020 HTN plan format (Plan, Read, Write) and the vocabulary of
// outcomes (the sentinel errors that every stage wraps, Status and
// StatusOf, which map an error to one word and an exit code).
//
// It imports nothing of the project, so that the verifier, which reads
// plans, depends on neither the grounder nor the planners it judges.
package plan
