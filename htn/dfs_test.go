package htn

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/testutil"
)

// loadView grounds a problem of testdata (uncompacted) for the searches.
func loadView(t testing.TB, dir string) *view {
	t.Helper()
	_, task := testutil.LoadTask(t, "../testdata/"+dir+"/domain.hddl", "../testdata/"+dir+"/problem.hddl")
	v, err := newView(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// serialSearch is a serial depth-first search of dir whose every step is
// checked: the node it acts on belongs to the latest open decomposition,
// i.e. no alive node has a later batch.
func serialSearch(t *testing.T, dir string, opt Options) (*dfs, bool, error) {
	t.Helper()
	v := loadView(t, dir)
	if v.total {
		t.Fatalf("%s: a totally ordered network", dir)
	}
	opt.Serial = true
	s := newDFS(context.Background(), v, opt, &Stats{}, nil)
	steps := 0
	s.hooks.undo = func(s *dfs, st step) {
		steps++
		b := s.nodes[st.node].batch
		for i := range s.nodes {
			if nd := &s.nodes[i]; nd.alive && nd.batch > b {
				t.Fatalf("step on node %d (batch %d) while node %d of batch %d is open", st.node, b, i, nd.batch)
			}
		}
	}
	ok, err := s.run()
	// undo the plan's steps too, so that they are checked
	for len(s.path) > 0 {
		s.undo()
	}
	if steps == 0 {
		t.Fatal("no step was checked")
	}
	return s, ok, err
}

func TestSerial(t *testing.T) {
	t.Run("transport", func(t *testing.T) {
		// unordered deliveries by one truck, done one after another
		s, ok, err := serialSearch(t, "transport", Options{MaxNodes: 2_000})
		if !ok || err != nil {
			t.Fatalf("no plan in %d nodes: %v", s.stats.Nodes, err)
		}
		t.Logf("%d nodes", s.stats.Nodes)
		// the best-first search's serial successors
		st := &Stats{}
		sol, _, err := bestFirst(context.Background(), s.v, Options{Serial: true, MaxNodes: 2_000}, GBFS, st, nil)
		if err != nil {
			t.Fatalf("serial gbfs: no plan in %d nodes: %v", st.Nodes, err)
		}
		t.Logf("serial gbfs: %d actions, %d nodes", len(sol.Order), st.Nodes)
	})
	t.Run("interleave", func(t *testing.T) {
		// the only plan interleaves the two tasks: the serial space is
		// empty, which must not be reported as a proof
		s, ok, err := serialSearch(t, "interleave", Options{})
		if ok || err != nil {
			t.Fatalf("serial search: %v, %v; want exhausted", ok, err)
		}
		if _, _, err := bestFirst(context.Background(), s.v, Options{Serial: true}, GBFS, &Stats{}, nil); err != ErrNoPlan {
			t.Fatalf("serial gbfs: %v, want exhausted", err)
		}
		t.Logf("serial search exhausted after %d nodes", s.stats.Nodes)
		for _, search := range []Search{DFS, GBFS, AStar, Auto} {
			sol, st, err := Solve(context.Background(), loadView(t, "interleave").t, Options{Search: search, Serial: true})
			if err != nil {
				t.Fatalf("%v: %v", search, err)
			}
			if len(sol.Order) != 3 {
				t.Errorf("%v: %d actions, want a1 b1 a2", search, len(sol.Order))
			}
			t.Logf("%v: %s", search, st.Search)
		}
	})
}

func TestGoalLost(t *testing.T) {
	v := loadView(t, "goal")
	// without the goal order, which would try m-a-make first
	// (TestGoalOrder)
	s := newDFS(context.Background(), v, Options{NoRestarts: true, NoValueOrder: true, MaxNodes: 200}, &Stats{}, nil)
	// the counts of the tasks that may reach each goal stay those of the
	// network
	s.hooks.check = func(s *dfs) {
		want := make([]int32, len(s.v.goals))
		for i := range s.nodes {
			if nd := &s.nodes[i]; nd.alive && nd.kind == nodeTask {
				for j := range s.v.goals {
					if s.v.reachable(nd.id)[j>>6]&(1<<(j&63)) != 0 {
						want[j]++
					}
				}
			}
		}
		if !slices.Equal(want, s.goalBy) {
			t.Fatalf("after %d nodes: goal counts %v, want %v", s.stats.Nodes, s.goalBy[:len(s.v.goals)], want[:len(s.v.goals)])
		}
	}
	ok, err := s.run()
	if !ok || err != nil {
		// without the goal check the search tries the 2^12 ways of the
		// (c) tasks after the wrong method of (a)
		t.Fatalf("no plan in %d nodes: %v", s.stats.Nodes, err)
	}
	if s.stats.DeadEnds == 0 {
		t.Error("no dead end: the lost goal was not seen")
	}
	t.Logf("%d nodes, %d dead ends", s.stats.Nodes, s.stats.DeadEnds)
}

// TestGoalOrder: the goal order tries first the method of (a) that
// reaches the goal, and no node is a dead end.
func TestGoalOrder(t *testing.T) {
	v := loadView(t, "goal")
	s := newDFS(context.Background(), v, Options{NoRestarts: true, MaxNodes: 200}, &Stats{}, nil)
	ok, err := s.run()
	if !ok || err != nil {
		t.Fatalf("no plan in %d nodes: %v", s.stats.Nodes, err)
	}
	if s.stats.DeadEnds != 0 {
		t.Errorf("%d dead ends: the method reaching the goal was not tried first", s.stats.DeadEnds)
	}
	var names []string
	for _, st := range s.path {
		if st.method >= 0 {
			names = append(names, s.v.t.MethodName(ground.MethodID(st.method)))
		}
	}
	if len(names) == 0 || !strings.HasPrefix(names[0], "m-a-make") {
		t.Errorf("decompositions %v, want m-a-make first", names)
	}
}

// TestGoalOrderWide: a goal state of more than 64 facts (several words
// of goal masks). Each part is painted one of three colours, the goal
// fixes each part's colour, and painting is for good: the goal order
// paints every part its goal's colour at the first try.
func TestGoalOrderWide(t *testing.T) {
	const parts = 150
	var objs, tasks, goal, init strings.Builder
	for i := range parts {
		fmt.Fprintf(&objs, " p%d", i)
		fmt.Fprintf(&tasks, " (paint p%d)", i)
		fmt.Fprintf(&goal, " (painted p%d c%d)", i, (i*7)%3)
		fmt.Fprintf(&init, " (fresh p%d)", i)
	}
	domain := `(define (domain paint)
  (:requirements :hierarchy :typing)
  (:types part colour)
  (:constants c0 c1 c2 - colour)
  (:predicates (fresh ?p - part) (painted ?p - part ?c - colour))
  (:task paint :parameters (?p - part))
  (:method m-paint :parameters (?p - part ?c - colour) :task (paint ?p)
    :ordered-subtasks (and (apply ?p ?c)))
  (:action apply :parameters (?p - part ?c - colour)
    :precondition (fresh ?p) :effect (and (not (fresh ?p)) (painted ?p ?c))))`
	problem := fmt.Sprintf(`(define (problem wide) (:domain paint)
  (:objects%s - part)
  (:htn :ordered-subtasks (and%s))
  (:init%s)
  (:goal (and%s)))`, objs.String(), tasks.String(), init.String(), goal.String())
	p := testutil.ParseHDDL(t, domain, problem)
	v, err := newView(context.Background(), testutil.Ground(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.goals) != parts || v.goalW != (parts+63)/64 {
		t.Fatalf("%d goals in %d words, want %d", len(v.goals), v.goalW, parts)
	}
	for _, opt := range []Options{{NoRestarts: true}, {NoRestarts: true, NoValueOrder: true}} {
		s := newDFS(context.Background(), v, opt, &Stats{}, nil)
		ok, err := s.run()
		if !ok || err != nil {
			t.Fatalf("%+v: no plan in %d nodes: %v", opt, s.stats.Nodes, err)
		}
		switch {
		case !opt.NoValueOrder && s.stats.DeadEnds != 0:
			t.Errorf("goal order: %d dead ends, want none", s.stats.DeadEnds)
		case opt.NoValueOrder && s.stats.DeadEnds == 0:
			t.Errorf("domain order: no dead end (the test does not test the goal order)")
		}
	}
}

// lift is a recursive domain whose goto task has a method per pair of
// floors (from, to), of which only those from the lift's floor apply: as
// Elevator-Learned's moves, most methods of a task fail in any state.
const liftDomain = `(define (domain lift)
  (:types floor)
  (:predicates (at ?f - floor) (served ?f - floor))
  (:task visit :parameters (?f - floor))
  (:task goto :parameters (?f - floor))
  (:method m-visit :parameters (?f - floor) :task (visit ?f)
    :ordered-subtasks (and (goto ?f) (serve ?f)))
  (:method m-here :parameters (?f - floor) :task (goto ?f)
    :precondition (at ?f) :ordered-subtasks (and))
  (:method m-move :parameters (?f ?from ?to - floor) :task (goto ?f)
    :precondition (and (at ?from) (not (at ?f)))
    :ordered-subtasks (and (move ?from ?to) (goto ?f)))
  (:action move :parameters (?from ?to - floor)
    :precondition (at ?from) :effect (and (not (at ?from)) (at ?to)))
  (:action serve :parameters (?f - floor)
    :precondition (at ?f) :effect (served ?f)))`

func liftProblem(floors int, visits []int) string {
	var b strings.Builder
	b.WriteString("(define (problem p) (:domain lift) (:objects")
	for i := range floors {
		fmt.Fprintf(&b, " f%d", i)
	}
	b.WriteString(" - floor) (:htn :ordered-subtasks (and")
	for _, f := range visits {
		fmt.Fprintf(&b, " (visit f%d)", f)
	}
	b.WriteString(")) (:init (at f0)))")
	return b.String()
}

// liftTask grounds the lift domain with floors floors and the visits in
// order, the lift starting at floor 0.
func liftTask(t *testing.T, floors int, visits []int) (*hddl.Problem, *ground.Task) {
	t.Helper()
	p := testutil.ParseHDDL(t, liftDomain, liftProblem(floors, visits))
	return p, testutil.Ground(t, p)
}

// TestApplicableMethods checks that the depth-first search, in eager
// mode, decomposes a task whose turn it is only by methods whose
// precondition holds, and, when that task is all the front holds, whose
// first action applies: no search node starts with a failing check in
// its front, or with nothing but an action that cannot apply, which
// would be a node spent on nothing. The second lift leaves the move's
// precondition to the action (as IPC Towers does): each of the twelve
// bindings of ?from would cost a node.
func TestApplicableMethods(t *testing.T) {
	domains := map[string]string{
		"lift":                        liftDomain,
		"lift-no-method-precondition": strings.Replace(liftDomain, ":precondition (and (at ?from) (not (at ?f)))", ":precondition (not (at ?f))", 1),
	}
	for name, domain := range domains {
		t.Run(name, func(t *testing.T) {
			if name != "lift" && domain == liftDomain {
				t.Fatal("the domain was not changed")
			}
			p := testutil.ParseHDDL(t, domain, liftProblem(12, []int{11, 3, 7, 0, 11, 5}))
			v, err := newView(context.Background(), testutil.Ground(t, p))
			if err != nil {
				t.Fatal(err)
			}
			if !v.recursive || !v.total {
				t.Fatalf("recursive %v, total %v: want a recursive, totally ordered task", v.recursive, v.total)
			}
			s := newDFS(context.Background(), v, Options{NoRestarts: true, MaxNodes: 20_000}, &Stats{}, nil)
			wasted := 0
			s.hooks.check = func(s *dfs) {
				for _, n := range s.front.Members {
					if nd := &s.nodes[n]; nd.kind == nodeCheck && !s.holds(s.v.meths[nd.id].Pre, s.v.meths[nd.id].NegPre) {
						wasted++
					}
				}
				if len(s.front.Members) == 1 {
					nd := &s.nodes[s.front.Members[0]]
					if a := nd.id; nd.kind == nodeTask && int(a) < s.v.nA && !s.holds(s.v.t.Actions[a].Pre, s.v.t.Actions[a].NegPre) {
						wasted++
					}
				}
				// the index of alive nodes is the alive flags
				alive := 0
				for i := range s.nodes {
					if s.nodes[i].alive {
						alive++
						if !s.alive.Has(int32(i)) {
							t.Fatalf("node %d alive but not indexed", i)
						}
					}
				}
				if alive != len(s.alive.Members) {
					t.Fatalf("%d alive nodes, %d indexed", alive, len(s.alive.Members))
				}
			}
			ok, err := s.run()
			if !ok || err != nil {
				t.Fatalf("no plan in %d nodes: %v", s.stats.Nodes, err)
			}
			if wasted > 0 {
				t.Errorf("%d of %d search nodes began with a failing method precondition or first action", wasted, s.stats.Nodes)
			}
			t.Logf("%d nodes, %d duplicates", s.stats.Nodes, s.stats.Duplicates)
			// the best-first searches skip such methods too: the same
			// plan in as many nodes as the moves' bindings allow
			st := &Stats{}
			if _, _, err := bestFirst(context.Background(), v, Options{MaxNodes: 20_000}, GBFS, st, nil); err != nil {
				t.Fatalf("gbfs: %v", err)
			}
			t.Logf("gbfs: %d nodes", st.Nodes)
		})
	}
}

// TestRecursionBound checks Options.RecursionBound: the lift's goto (a
// move to any floor, then goto again) reaches its floor in one move,
// where the depth-first search in the methods' order, without the bound,
// first wanders through the floors between; the portfolio runs both. The
// target order goes straight there without the bound.
func TestRecursionBound(t *testing.T) {
	p, task := liftTask(t, 12, []int{11, 3, 7, 0, 11, 5, 5, 9})
	moves := func(opt Options) int {
		opt.MaxNodes = 20_000
		sol, st, err := Solve(context.Background(), task, opt)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range sol.Actions() {
			if p.Domain.Actions[task.Actions[a].Schema].Name == "move" {
				n++
			}
		}
		t.Logf("bound %v: %d actions, %d nodes", opt.RecursionBound, len(sol.Order), st.Nodes)
		return n
	}
	// one move per visit to another floor
	const want = 7
	if n := moves(Options{Search: DFS, RecursionBound: true, NoValueOrder: true}); n != want {
		t.Errorf("bounded: %d moves, want %d", n, want)
	}
	// the target order (target.go) sees the floor a move arrives at
	if n := moves(Options{Search: DFS}); n != want {
		t.Errorf("target order: %d moves, want %d", n, want)
	}
	if n := moves(Options{Search: DFS, NoValueOrder: true}); n <= want {
		t.Errorf("unbounded: %d moves, want the wandering search's more than %d (the test shows nothing)", n, want)
	}
}
