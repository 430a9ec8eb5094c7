package csp

import (
	"context"
	"fmt"
	"strings"

	"github.com/htnsat/htnsat/sudoku"
)

// Level is a consistency level of the hint panel, weakest first. Each
// level starts from the domains of the last "on all" level before it, so
// a stronger level never prunes less: SAC and SGAC are kept generalised
// arc consistent between their singleton tests.
type Level int

const (
	FC       Level = iota // forward checking from the given digits, one pass
	AC                    // arc consistency on the binary ≠ constraints
	GACEach               // GAC on one all-different constraint at a time
	GACAll                // GAC on all constraints, to the fixpoint
	SACEach               // singleton tests over AC on one cell at a time
	SACAll                // SAC on all cells, to the fixpoint
	SGACEach              // singleton tests over GAC on one constraint's cells at a time
	SGACAll               // SGAC on all constraints, to the fixpoint
	NumLevels
)

var levelNames = [NumLevels]string{"fc", "ac", "gac-each", "gac", "sac-each", "sac", "sgac-each", "sgac"}

var levelTitles = [NumLevels]string{
	"FC", "AC", "GAC on each constraint", "GAC on all constraints",
	"SAC on each cell", "SAC on all cells", "SGAC on each constraint", "SGAC on all constraints",
}

func (l Level) String() string { return levelNames[l] }

// Each tells whether the level applies its propagator to one constraint
// or cell at a time (its hints are the union of what each step finds).
func (l Level) Each() bool { return l == GACEach || l == SACEach || l == SGACEach }

// Title is the level as the hint panel names it.
func (l Level) Title() string { return levelTitles[l] }

// ParseLevel reads a level name (fc, ac, gac-each, gac, sac-each, sac,
// sgac-each, sgac).
func ParseLevel(s string) (Level, error) {
	for l, n := range levelNames {
		if s == n {
			return Level(l), nil
		}
	}
	return 0, fmt.Errorf("unknown consistency level %q (want one of %s)", s, strings.Join(levelNames[:], ", "))
}

// Condition is what makes a cell a hint.
type Condition int

const (
	Singleton Condition = iota // one digit left in the cell's domain
	Vital                      // a digit possible in no other cell of one of the cell's units
)

// ParseCondition reads "singleton" or "vital".
func ParseCondition(s string) (Condition, error) {
	switch s {
	case "singleton":
		return Singleton, nil
	case "vital":
		return Vital, nil
	}
	return 0, fmt.Errorf("unknown hint condition %q (want singleton or vital)", s)
}

func (c Condition) String() string {
	if c == Vital {
		return "vital"
	}
	return "singleton"
}

// Hint is a blank cell that a level can fill: its digit and, for a vital
// hint, the unit in which no other cell can take it.
type Hint struct {
	Cell  string `json:"cell"`
	Digit int    `json:"digit"`
	Unit  string `json:"unit,omitempty"`
	index int
}

// LevelHints is what one level finds.
type LevelHints struct {
	Level      Level  `json:"-"`
	Name       string `json:"level"`
	Singletons []Hint `json:"singletons"`
	Vitals     []Hint `json:"vitals"`
	// Contradiction is set when the level proves the grid has no
	// solution ("r3c4 has no digit left", "row 2 cannot be completed").
	Contradiction string `json:"contradiction,omitempty"`
	state         State
}

// Domains is the state of the level: the digits left in each cell (for an
// "each" level, the state it started from).
func (h LevelHints) Domains() State { return h.state }

// Hints runs the levels from FC up to last on grid g and reports, for
// each, the blank cells that satisfy each condition. The levels stop at
// the first contradiction and after the first "on all" level that solves
// the grid.
func (m *Model) Hints(ctx context.Context, g sudoku.Grid, last Level) ([]LevelHints, error) {
	var out []LevelHints
	err := m.levels(ctx, g, last, func(l Level, states []State, steps []string, failed string) bool {
		lh := LevelHints{Level: l, Name: l.String(), Singletons: []Hint{}, Vitals: []Hint{}}
		if len(states) > 0 {
			lh.state = states[0]
		}
		if failed != "" {
			lh.Contradiction = failed
			out = append(out, lh)
			return false
		}
		seenS := map[int]bool{}
		seenV := map[[2]int]bool{}
		for _, s := range states {
			for _, h := range m.singletons(g, s) {
				if !seenS[h.index] {
					seenS[h.index] = true
					lh.Singletons = append(lh.Singletons, h)
				}
			}
			for _, h := range m.vitals(g, s) {
				if k := [2]int{h.index, h.Digit}; !seenV[k] {
					seenV[k] = true
					lh.Vitals = append(lh.Vitals, h)
				}
			}
		}
		sortHints(lh.Singletons)
		sortHints(lh.Vitals)
		out = append(out, lh)
		return true
	})
	return out, err
}

func sortHints(hs []Hint) {
	// insertion sort by cell then digit: the lists are short
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && (hs[j].index < hs[j-1].index || hs[j].index == hs[j-1].index && hs[j].Digit < hs[j-1].Digit); j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

func (m *Model) singletons(g sudoku.Grid, s State) []Hint {
	var out []Hint
	for c, d := range s {
		if g.Cells[c] == 0 {
			if v := d.Single(); v != 0 {
				out = append(out, Hint{Cell: m.CellName(c), Digit: v, index: c})
			}
		}
	}
	return out
}

func (m *Model) vitals(g sudoku.Grid, s State) []Hint {
	var out []Hint
	for _, u := range m.Units {
		// digits in exactly one cell of the unit: once and not twice
		var once, twice Dom
		for _, c := range u.Cells {
			twice |= once & s[c]
			once |= s[c]
		}
		only := once &^ twice
		for _, c := range u.Cells {
			if g.Cells[c] != 0 {
				continue
			}
			for _, v := range (s[c] & only).Digits() {
				out = append(out, Hint{Cell: m.CellName(c), Digit: v, Unit: u.Name, index: c})
			}
		}
	}
	return out
}

// levels runs the levels up to last, calling visit with each level's
// states (one for an "on all" level, one per step for an "each" level),
// the steps' names, and the contradiction found, if any; visit returns
// false to stop.
func (m *Model) levels(ctx context.Context, g sudoku.Grid, last Level, visit func(l Level, states []State, steps []string, failed string) bool) error {
	s := m.Initial(g)
	for l := FC; l <= last; l++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var states []State
		var steps []string
		failed := ""
		switch l {
		case FC:
			if !m.FC(g, s) {
				failed = m.CellName(s.Empty()) + " has no digit left"
			}
			states = []State{s}
		case AC:
			s = s.Clone()
			if !m.AC(s) {
				failed = "AC empties a domain"
			}
			states = []State{s}
		case GACAll:
			s = s.Clone()
			if !m.GAC(s) {
				failed = "GAC finds a unit that cannot be completed"
			}
			states = []State{s}
		case SACAll, SGACAll:
			s = s.Clone()
			run := m.SAC
			if l == SGACAll {
				run = m.SGAC
			}
			ok, err := run(ctx, s)
			if err != nil {
				return err
			}
			if !ok {
				failed = l.Title() + " empties a domain"
			}
			states = []State{s}
		case GACEach, SGACEach:
			// what the level before found stays found
			states = []State{s}
			for u := range m.Units {
				if err := ctx.Err(); err != nil {
					return err
				}
				t := s.Clone()
				ok := false
				if l == GACEach {
					ok = m.GACUnit(t, u)
				} else {
					var err error
					if ok, err = m.SGACUnit(ctx, t, u); err != nil {
						return err
					}
				}
				if !ok {
					failed = m.Units[u].Name + " cannot be completed"
					break
				}
				states, steps = append(states, t), append(steps, m.Units[u].Name)
			}
		case SACEach:
			states = []State{s}
			for c := range s {
				if err := ctx.Err(); err != nil {
					return err
				}
				if s[c].Count() < 2 {
					continue
				}
				t := s.Clone()
				if !m.SACCell(t, c) {
					failed = m.CellName(c) + " has no digit left"
					break
				}
				states, steps = append(states, t), append(steps, m.CellName(c))
			}
		}
		if !visit(l, states, steps, failed) || failed != "" || s.Solved() {
			return nil
		}
	}
	return nil
}

// Rating is the difficulty of a puzzle: the weakest level whose
// propagation alone solves it, or search.
type Rating struct {
	// Level is the name of the weakest level that solves the puzzle
	// ("fc", "ac", "gac", "sac", "sgac"), "search" when none does, or
	// "none" when a level proves there is no solution.
	Level string `json:"level"`
	// Nodes is the effort of a search maintaining SGAC to the first
	// solution, when the puzzle needs search.
	Nodes int64 `json:"nodes,omitempty"`
	// Solutions is the number of solutions up to 2 (a search maintaining
	// GAC): a proper puzzle has exactly one.
	Solutions int `json:"solutions"`
}

// RateLevels are the levels a rating can name: those with a fixpoint of
// their own (an "each" level, iterated, is its "all" level).
var RateLevels = []Level{FC, AC, GACAll, SACAll, SGACAll}

// Rate rates grid g.
func (m *Model) Rate(ctx context.Context, g sudoku.Grid) (Rating, error) {
	var r Rating
	err := m.levels(ctx, g, SGACAll, func(l Level, states []State, _ []string, failed string) bool {
		switch {
		case failed != "":
			r.Level = "none"
			return false
		case !l.Each() && states[0].Solved():
			r.Level = l.String()
			return false
		}
		return true
	})
	if err != nil {
		return r, err
	}
	count, err := m.Search(ctx, g, 2, GACAll)
	if err != nil {
		return r, err
	}
	r.Solutions = count.Solutions
	if r.Level != "" {
		return r, nil
	}
	if r.Solutions == 0 {
		r.Level = "none"
		return r, nil
	}
	res, err := m.Search(ctx, g, 1, SGACAll)
	if err != nil {
		return r, err
	}
	r.Level, r.Nodes = "search", res.Nodes
	return r, nil
}
