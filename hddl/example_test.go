package hddl_test

import (
	"fmt"

	"github.com/htnsat/htnsat/hddl"
)

// A domain with one compound task, go, achieved by one method that takes
// a single step.
const moveDomain = `(define (domain move)
  (:types place)
  (:predicates (at ?p - place))
  (:task go :parameters (?to - place))
  (:method m-go
    :parameters (?from ?to - place)
    :task (go ?to)
    :precondition (at ?from)
    :ordered-subtasks (step ?from ?to))
  (:action step
    :parameters (?from ?to - place)
    :precondition (at ?from)
    :effect (and (not (at ?from)) (at ?to))))
`

const moveProblem = `(define (problem commute) (:domain move)
  (:objects home work - place)
  (:htn :ordered-subtasks (go work))
  (:init (at home)))
`

func ExampleParseDomain() {
	d, err := hddl.ParseDomain("move.hddl", []byte(moveDomain))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := hddl.ParseProblem("commute.hddl", []byte(moveProblem), d)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Name, len(d.Tasks), "task,", len(d.Methods), "method,", len(d.Actions), "action")
	fmt.Println(p.Name, len(p.Objects), "objects")
	// Output:
	// move 1 task, 1 method, 1 action
	// commute 2 objects
}

// Errors name the file, line and column, and say what was expected.
func ExampleParseDomain_error() {
	_, err := hddl.ParseDomain("bad.hddl", []byte("(define (domain bad)\n  (:action a :parameters (?x) :effect (p ?x)))\n"))
	fmt.Println(err)
	// Output:
	// bad.hddl:2:40: unknown predicate p/1
}
