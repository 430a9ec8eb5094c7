//go:build cadical

package satenc

// CaDiCaL, linked through its C API (ccadical.h of Debian's
// libcadical-dev), in binaries built with the tag cadical (make
// build-cadical). This file is the only one that uses cgo.

/*
#cgo LDFLAGS: -lcadical -lstdc++ -lm
#include <stdint.h>
#include <stdlib.h>
#include <ccadical.h>

// add_clauses adds n literals (clauses ended by 0) in one call.
static void add_lits(CCaDiCaL *s, const int *lits, int n) {
	for (int i = 0; i < n; i++) ccadical_add(s, lits[i]);
}

// values writes the value of variables 1..n to out (1 true, 0 false).
static void values(CCaDiCaL *s, unsigned char *out, int n) {
	for (int v = 1; v <= n; v++) out[v] = ccadical_val(s, v) > 0;
}

// learnt counts the clauses the solver learns.
static void count_learnt(void *state, int *clause) {
	(void) clause;
	(*(int64_t *) state)++;
}

static void count_learnt_in(CCaDiCaL *s, int64_t *counter) {
	ccadical_set_learn(s, counter, 1 << 30, count_learnt);
}

// The search also stops when *flag is set: a budget's timer sets it, and
// it is cleared before every search (ccadical_terminate, which the
// context uses, may not be undone).
static int flag_set(void *flag) {
	return __atomic_load_n((int *) flag, __ATOMIC_RELAXED);
}

static void stop_on(CCaDiCaL *s, int *flag) {
	ccadical_set_terminate(s, flag, flag_set);
}

static void set_flag(int *flag, int v) {
	__atomic_store_n(flag, v, __ATOMIC_RELAXED);
}
*/
import "C"

import (
	"context"
	"errors"
	"sync"
	"time"
	"unsafe"
)

// Cadical is the linked CaDiCaL. It is incremental: one solver keeps the
// formula and what it learnt across the layers of an encoding, and a
// solve stops soon after its context ends (through ccadical_terminate).
type Cadical struct{}

// Name is "cadical (linked)".
func (Cadical) Name() string { return "cadical (linked)" }

// Solve decides one formula in a fresh solver.
func (Cadical) Solve(ctx context.Context, cnf *CNF) (*Result, error) {
	s := newCadical()
	defer s.Close()
	for range cnf.NumVars {
		s.NewVar()
	}
	cnf.Clauses(func(cl []Lit) { s.AddClause(cl...) })
	sat, err := s.Solve(ctx)
	if err != nil {
		return nil, err
	}
	r := &Result{Sat: sat}
	if sat {
		r.Model = s.Model()
	}
	return r, nil
}

// Incremental returns a new linked solver.
func (Cadical) Incremental() Incremental { return newCadical() }

// Linked is the linked CaDiCaL in this build.
func Linked() Solver { return Cadical{} }

// Default is the solver of the SAT engine when none is named: the linked
// CaDiCaL in this build.
func Default() Solver { return Cadical{} }

type cadical struct {
	s       *C.CCaDiCaL
	numVars int
	buf     []C.int // literals not yet handed over
	model   []bool
	learnt  *C.int64_t // C memory: the solver writes it from its callback
	budget  *C.int     // C memory: set when a search's time budget is spent
	mu      sync.Mutex // guards learnt against Close
	// running, after a solve stopped by its context, receives once the
	// search has wound down
	running chan C.int
}

func newCadical() *cadical {
	c := &cadical{s: C.ccadical_init()}
	c.setOption("quiet", 1) // it would write to standard output
	// decide variables false first, as gophersat does: most variables of
	// a planning formula (an action at a step, a method for a task) are
	// false in a plan. On IPC Elevator s20-0 at depth 8, CaDiCaL's
	// default (true first) found no model in 30 s; false first, 1.3 s
	c.setOption("phase", 0)
	c.learnt = (*C.int64_t)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int64_t(0)))))
	C.count_learnt_in(c.s, c.learnt)
	c.budget = (*C.int)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int(0)))))
	C.stop_on(c.s, c.budget)
	return c
}

func (c *cadical) setOption(name string, v int) {
	n := C.CString(name)
	C.ccadical_set_option(c.s, n, C.int(v))
	C.free(unsafe.Pointer(n))
}

func (c *cadical) Name() string { return Cadical{}.Name() }

func (c *cadical) NewVar() Var {
	c.numVars++
	return Var(c.numVars)
}

func (c *cadical) AddClause(lits ...Lit) {
	for _, l := range lits {
		if v := int(l.Var()); v > c.numVars {
			c.numVars = v
		}
		c.buf = append(c.buf, C.int(l))
	}
	c.buf = append(c.buf, 0)
	if len(c.buf) >= 1<<16 {
		c.flush()
	}
}

func (c *cadical) flush() {
	if len(c.buf) > 0 {
		C.add_lits(c.s, &c.buf[0], C.int(len(c.buf)))
		c.buf = c.buf[:0]
	}
}

// errStopped is returned by a CaDiCaL search that ended without an
// answer while its context lasted (never expected).
var errStopped = errors.New("cadical stopped without an answer")

// errStoppedBefore is returned by a solve asked of a solver whose
// previous search was stopped by its context: it may still be winding
// down, and it takes no more work.
var errStoppedBefore = errors.New("cadical: an earlier search of this solver was stopped by its context")

func (c *cadical) Solve(ctx context.Context, assumptions ...Lit) (bool, error) {
	sat, _, err := c.SolveWithin(ctx, 0, assumptions...)
	return sat, err
}

// SolveWithin is Solve within about d (0: no limit): decided is false when
// the time ran out first. The solver keeps what it learnt either way, and
// takes more clauses and searches afterwards.
func (c *cadical) SolveWithin(ctx context.Context, d time.Duration, assumptions ...Lit) (sat, decided bool, err error) {
	if c.running != nil {
		return false, false, errStoppedBefore
	}
	c.flush()
	C.set_flag(c.budget, 0)
	if d > 0 && sliceConflicts > 0 {
		c.limitConflicts(sliceConflicts)
	} else if d > 0 {
		b := c.budget
		timer := time.AfterFunc(d, func() { C.set_flag(b, 1) })
		// the solve below returns before Close can free the flag, but a
		// search stopped by the context winds down later: stop the timer
		// first either way
		defer timer.Stop()
	}
	for _, a := range assumptions {
		C.ccadical_assume(c.s, C.int(a))
	}
	// CaDiCaL looks at its terminate flag between the steps of a phase,
	// but some phases end with work in proportion to the formula
	// (elimination on Logistics-Learned 39-1, 11 M clauses, went on for
	// 0.73 s after ccadical_terminate). So the search runs on its own
	// goroutine, and a solve whose context ends returns at once; the
	// stopped search winds down in the background and Close waits for it
	// before freeing the solver.
	res := make(chan C.int, 1)
	s := c.s
	go func() { res <- C.ccadical_solve(s) }()
	var r C.int
	select {
	case r = <-res:
	case <-ctx.Done():
		C.ccadical_terminate(c.s)
		c.running = res
		return false, false, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return false, false, err
	}
	switch r {
	case 10:
		c.model = make([]bool, c.numVars+1)
		if c.numVars > 0 {
			vals := make([]C.uchar, c.numVars+1)
			C.values(c.s, &vals[0], C.int(c.numVars))
			for v := 1; v <= c.numVars; v++ {
				c.model[v] = vals[v] != 0
			}
		}
		return true, true, nil
	case 20:
		return false, true, nil
	}
	if d > 0 && (sliceConflicts > 0 || C.flag_set(unsafe.Pointer(c.budget)) != 0) {
		return false, false, nil
	}
	return false, false, errStopped
}

// sliceConflicts, when positive, bounds a search given a time budget by
// this many conflicts instead (a test's deterministic slices).
var sliceConflicts = 0

func (c *cadical) limitConflicts(n int) {
	name := C.CString("conflicts")
	C.ccadical_limit(c.s, name, C.int(n))
	C.free(unsafe.Pointer(name))
}

func (c *cadical) Model() []bool { return c.model }

// Learnt is the number of clauses the solver has learnt.
func (c *cadical) Learnt() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.learnt == nil {
		return 0
	}
	return int64(*c.learnt)
}

// Close frees the solver on its own goroutine, once a stopped search has
// wound down: millions of clauses take CaDiCaL seconds to free
// (Barman-BDI pfile20: 0.6 s for 2 GB), and a search stopped by its
// context must return at once.
func (c *cadical) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s == nil {
		return
	}
	s, learnt, budget, running := c.s, c.learnt, c.budget, c.running
	c.s, c.learnt, c.budget = nil, nil, nil
	release := func() {
		if running != nil {
			<-running
		}
		C.ccadical_release(s)
		C.free(unsafe.Pointer(learnt))
		C.free(unsafe.Pointer(budget))
	}
	go release()
}
