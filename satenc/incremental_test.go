package satenc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/hddl"
	"github.com/htnsat/htnsat/internal/testutil"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/verify"
)

// recursiveIPC are small recursive IPC problems and the depth their first
// plan needs.
var recursiveIPC = []struct{ domain, problem string }{
	{"Blocksworld-GTOHP", "p01"},
	{"Towers", "pfile_01"},
	{"Satellite-GTOHP", "p01"},
	{"AssemblyHierarchical", "genericLinearProblem_depth02"},
}

func loadIPC(t *testing.T, domain, problem string) (*hddl.Problem, *ground.Folding) {
	t.Helper()
	dir := testutil.IPCDir(t, "total-order", domain)
	df := filepath.Join(dir, "domain.hddl")
	if _, err := os.Stat(df); err != nil {
		df = filepath.Join(dir, problem+"-domain.hddl")
	}
	p, task := testutil.LoadTask(t, df, filepath.Join(dir, problem+".hddl"))
	return p, testutil.Compact(t, task)
}

// recordingSink keeps every clause as a sorted key, by the layer being
// added when it came.
type recordingSink struct {
	satenc.CNF
	layer int
	seen  map[string]int // clause -> layer of its first addition
	dups  []string
	name  func(satenc.Var) string
}

func (r *recordingSink) AddClause(lits ...satenc.Lit) {
	r.CNF.AddClause(lits...)
	c := slices.Clone(lits)
	slices.Sort(c)
	key := fmt.Sprint(c)
	if l, ok := r.seen[key]; ok && l != r.layer {
		var names []string
		for _, x := range c {
			names = append(names, fmt.Sprintf("%d: %s", x, r.name(x.Var())))
		}
		r.dups = append(r.dups, fmt.Sprintf("%v (layer %d, again at layer %d)", names, l+1, r.layer+1))
	}
	r.seen[key] = r.layer
}

// TestIncrementalLayers grows the formula of recursive problems layer by
// layer as the engine does. Each layer adds only its new part: over the
// layers, fewer clauses than the one-shot formulas of every depth, and
// few that an earlier layer added already (a vertex that shares its
// parent's variables and states repeats some of its constraints; under a
// tenth). The formula so
// far under Final is satisfiable exactly at the depths where the one-shot
// encoding of that depth is, and the plan of the first such depth
// verifies.
func TestIncrementalLayers(t *testing.T) {
	for _, c := range recursiveIPC {
		p, f := loadIPC(t, c.domain, c.problem)
		task := f.Task
		rec := &recordingSink{seen: map[string]int{}}
		s := satenc.NewIncremental(satenc.Gophersat{})
		ctx := context.Background()
		enc, err := satenc.NewEncoding(ctx, task, teeSink{rec, s}, satenc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec.name = enc.VarName
		found, scratch := 0, 0
		for depth := 1; depth <= 12 && found == 0; depth++ {
			rec.layer = depth - 1
			if depth > 1 {
				if err := enc.AddLayer(); err != nil {
					t.Fatal(err)
				}
			}
			sat, oneShot := solveLayer(t, enc, s, task, depth)
			scratch += oneShot
			if sat {
				found = depth
				sol, err := enc.Decode(s.Model())
				if err != nil {
					t.Fatal(err)
				}
				if err := verify.Verify(ctx, p, f.Unfold(sol).ToPlan(f.Orig)); err != nil {
					t.Errorf("%s %s: %v", c.domain, c.problem, err)
				}
			}
		}
		if found == 0 {
			t.Errorf("%s %s: no plan up to depth 12", c.domain, c.problem)
		}
		if err := satenc.CheckAlignments(enc); err != nil {
			t.Errorf("%s %s: %v", c.domain, c.problem, err)
		}
		if rec.NumClauses != enc.Clauses {
			t.Errorf("%s %s: the sink got %d clauses, the encoding counted %d", c.domain, c.problem, rec.NumClauses, enc.Clauses)
		}
		// solving every depth from scratch sends the solver every layer again
		if found >= 3 && rec.NumClauses >= scratch {
			t.Errorf("%s %s: %d clauses over the layers, %d from scratch", c.domain, c.problem, rec.NumClauses, scratch)
		}
		if len(rec.dups)*10 > rec.NumClauses {
			t.Errorf("%s %s: %d of %d clauses added again, first %s", c.domain, c.problem, len(rec.dups), rec.NumClauses, rec.dups[0])
		}
		t.Logf("%s %s: plan at depth %d, %d clauses over the layers (%d repeated), %d from scratch", c.domain, c.problem, found, enc.Clauses, len(rec.dups), scratch)
	}
}

// teeSink sends clauses to two sinks with the same variables.
type teeSink struct{ a, b satenc.Sink }

func (s teeSink) NewVar() satenc.Var {
	v := s.a.NewVar()
	if w := s.b.NewVar(); w != v {
		panic("teeSink: the sinks disagree on variables")
	}
	return v
}

func (s teeSink) AddClause(lits ...satenc.Lit) {
	s.a.AddClause(lits...)
	s.b.AddClause(lits...)
}

// TestIncrementalSkippedLayers encodes the states of every other layer
// only (an encoding may skip layers): at those depths the formula so far
// is still satisfiable exactly when the one-shot formula is.
func TestIncrementalSkippedLayers(t *testing.T) {
	for _, c := range recursiveIPC {
		_, f := loadIPC(t, c.domain, c.problem)
		ctx := context.Background()
		s := satenc.NewIncremental(satenc.Gophersat{})
		enc, err := satenc.NewEncoding(ctx, f.Task, s, satenc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for depth := 1; depth <= 9; depth++ {
			if depth > 1 {
				if err := enc.AddLayer(); err != nil {
					t.Fatal(err)
				}
			}
			if depth%2 == 0 {
				continue
			}
			if sat, _ := solveLayer(t, enc, s, f.Task, depth); sat {
				if _, err := enc.Decode(s.Model()); err != nil {
					t.Errorf("%s %s depth %d: %v", c.domain, c.problem, depth, err)
				}
				break
			}
		}
	}
}

// solveLayer asks s whether the formula so far describes a plan at the
// encoding's last layer, checks that the one-shot formula of that depth
// agrees, and returns the answer and the one-shot formula's size.
func solveLayer(t *testing.T, enc *satenc.Encoding, s satenc.Incremental, task *ground.Task, depth int) (bool, int) {
	t.Helper()
	ctx := context.Background()
	final, err := enc.Final()
	if err != nil {
		t.Fatal(err)
	}
	var as []satenc.Lit
	if final != 0 {
		as = append(as, final)
	}
	sat, err := s.Solve(ctx, as...)
	if err != nil {
		t.Fatal(err)
	}
	one := &satenc.CNF{}
	if _, err := satenc.Encode(ctx, task, depth, one, satenc.Options{}); err != nil {
		t.Fatal(err)
	}
	res, err := satenc.Gophersat{}.Solve(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sat != sat {
		t.Errorf("%s depth %d: incremental %v, one-shot %v", task.Problem.Name, depth, sat, res.Sat)
	}
	return sat, one.NumClauses
}

// TestEncodeComplete: the formula Encode writes is complete, and its
// Encoding refuses to grow (what a next layer needs is freed).
func TestEncodeComplete(t *testing.T) {
	_, task := sudokuTask(t, paperPuzzle, sudoku.Unordered)
	enc, err := satenc.Encode(context.Background(), task.Task, task.Task.Depth(), &satenc.CNF{}, satenc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.AddLayer(); err == nil {
		t.Error("an Encoding made by Encode grew another layer")
	}
}

// recordingSolver is gophersat recording every formula it is given.
type recordingSolver struct {
	satenc.Gophersat
	calls [][]satenc.Lit
}

func (r *recordingSolver) Solve(ctx context.Context, cnf *satenc.CNF) (*satenc.Result, error) {
	var lits []satenc.Lit
	cnf.Clauses(func(cl []satenc.Lit) { lits = append(append(lits, cl...), 0) })
	r.calls = append(r.calls, lits)
	return r.Gophersat.Solve(ctx, cnf)
}

// TestLayersWithoutReencoding checks that the engine, with a solver that
// starts afresh at every call (gophersat), grows one formula over the
// depths of a recursive task instead of encoding each depth again: every
// formula it hands the solver, less its last clause (the assumption that
// the last layer is final), begins the next one. With NoIncremental each
// depth is encoded on its own, and the formulas do not continue each
// other (the states of a layer are encoded only when it is the last).
func TestLayersWithoutReencoding(t *testing.T) {
	checked := 0
	for _, c := range recursiveIPC {
		p, f := loadIPC(t, c.domain, c.problem)
		for _, fresh := range []bool{false, true} {
			r := &recordingSolver{}
			sol, st, err := satenc.Solve(context.Background(), f.Task, satenc.Config{Solver: r, NoIncremental: fresh})
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.Verify(context.Background(), p, f.Unfold(sol).ToPlan(f.Orig)); err != nil {
				t.Errorf("%s %s: %v", c.domain, c.problem, err)
			}
			if len(r.calls) < 2 {
				continue // solved at the first depth asked
			}
			checked++
			continued := 0
			for i := 1; i < len(r.calls); i++ {
				prev := r.calls[i-1]
				// drop the last clause: one literal and its 0
				if prev = prev[:len(prev)-2]; len(r.calls[i]) > len(prev) && slices.Equal(r.calls[i][:len(prev)], prev) {
					continued++
				}
			}
			if !fresh && continued != len(r.calls)-1 {
				t.Errorf("%s %s: %d of %d formulas continue the one before", c.domain, c.problem, continued, len(r.calls)-1)
			}
			if fresh && continued != 0 {
				t.Errorf("%s %s, NoIncremental: %d of %d formulas continue the one before", c.domain, c.problem, continued, len(r.calls)-1)
			}
			t.Logf("%s %s, NoIncremental %v: depth %d, %d formulas, %d continued", c.domain, c.problem, fresh, st.Depth, len(r.calls), continued)
		}
	}
	if checked < 2 {
		t.Fatalf("%d runs went beyond their first depth: the test shows nothing", checked)
	}
}

// TestTrace checks Config.Trace: on a recursive task, a line for each
// depth encoded (in order) and each search asked (of a depth encoded), the
// last one saying the formula was satisfiable at the depth the stats
// report. The default solver: gophersat, or the linked CaDiCaL and its
// horizons.
func TestTrace(t *testing.T) {
	_, f := loadIPC(t, "Robot", "pfile_02_001")
	var b strings.Builder
	_, st, err := satenc.Solve(context.Background(), f.Task, satenc.Config{Trace: &b})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	encoded, asked, last := 0, 0, 0
	for _, l := range lines {
		var at float64
		var d int
		var rest string
		if _, err := fmt.Sscanf(l, "sat %fs depth %d: %s", &at, &d, &rest); err != nil {
			t.Fatalf("trace line %q: %v", l, err)
		}
		switch rest {
		case "encoded", "opened,":
			encoded++
			if d <= last {
				t.Errorf("depth %d encoded after depth %d", d, last)
			}
			last = d
		case "unsatisfiable", "satisfiable", "undecided":
			asked++
			if d > last {
				t.Errorf("depth %d asked while depth %d is the last encoded", d, last)
			}
		default:
			t.Errorf("trace line %q", l)
		}
	}
	if want := fmt.Sprintf("depth %d: satisfiable", st.Depth); !strings.Contains(lines[len(lines)-1], want) {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
	if encoded < 2 || asked != st.Tries {
		t.Errorf("%d depths encoded, %d asked, stats say %d tries (want at least 2)", encoded, asked, st.Tries)
	}
}
