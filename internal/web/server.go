// Package web is the local page of htnsat serve: a JSON API under /api/
// over the Sudoku engines, the hint panel and the exports, and a page
// (static/, embedded: it works offline) that loads, solves, steps through
// plans, and lets a person play with undo, hints and conflict checks.
//
// Safe by construction: a gate (gate.go) answers only hosts that cannot be
// rebound to another site and API requests of the page's own origin;
// request bodies are capped, puzzles too (up to 25x25); each solve runs
// under a time limit and is cancelled when the client goes away; every
// request that computes takes a slot first (at most MaxSolves solves,
// hints and counts, and MaxLight other computations at once; the others
// get 503, as every request does while the process is short of memory);
// no request names a file (puzzle sets are chosen by the names the server
// lists, and read once); and every error is a JSON object with a message.
package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/satenc"
	"github.com/htnsat/htnsat/sudoku"
	"github.com/htnsat/htnsat/sudoku/csp"
	"github.com/htnsat/htnsat/sudoku/variant"
)

//go:embed static
var static embed.FS

// Limits of the server.
const (
	MaxBody    = 1 << 20 // bytes of a request body
	MaxSize    = 25      // the largest grid side served
	MaxCount   = 1000    // the largest solution count asked
	MaxSetRead = 64 << 20
	// MaxLight is how many parses, exports and set reads run at once;
	// a request waits up to LightWait for a slot.
	MaxLight  = 4
	LightWait = 2 * time.Second
	// MaxCached is the most puzzle set text kept in memory.
	MaxCached = 256 << 20
)

// Options configure a server.
type Options struct {
	// SetsDir is a directory of puzzle files (the shared sets); the page
	// lists its files by name. Empty: the embedded samples only.
	SetsDir string
	// SolveTimeout bounds each solve, hint or count (default 30 s).
	SolveTimeout time.Duration
	// MaxSolves is how many solves may run at once (default 2).
	MaxSolves int
	// Engine options (solvers, HTN switches).
	Engines compare.Options
	// Hosts are host names the server answers besides IP addresses and
	// localhost (see gate.go).
	Hosts []string
	// Memory, when set, tells the process's memory and its budget (the
	// command's memory guard): above three quarters of the budget,
	// requests that compute get 503.
	Memory plan.MemoryGauge
}

// Server serves the page and the API.
type Server struct {
	opt    Options
	solves *pool // solve, hint, count
	light  *pool // parse, hddl, cnf, set
	mux    *http.ServeMux
	sets   map[string]string // name -> path
	// cache holds the sets read so far, as one-line puzzles
	cacheMu sync.Mutex
	cache   map[string][]string
	cached  int64
	// run solves one puzzle (compare.RunEngine; the tests put a solve
	// that lasts until its context ends in its place).
	run func(context.Context, sudoku.Puzzle, compare.Engine, compare.Options) compare.Run
}

// New returns a server.
func New(opt Options) (*Server, error) {
	if opt.SolveTimeout <= 0 {
		opt.SolveTimeout = 30 * time.Second
	}
	if opt.MaxSolves <= 0 {
		opt.MaxSolves = 2
	}
	s := &Server{opt: opt, solves: newPool(opt.MaxSolves, 0, "solves"), light: newPool(MaxLight, LightWait, "computations"),
		mux: http.NewServeMux(), sets: map[string]string{}, cache: map[string][]string{}, run: compare.RunEngine}
	if opt.SetsDir != "" {
		err := filepath.WalkDir(opt.SetsDir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".txt") {
				rel, _ := filepath.Rel(opt.SetsDir, path)
				// a folder named for a size the page cannot show
				// (36x36, 49x49) is left out of the list
				var n, m int
				if _, err := fmt.Sscanf(filepath.Base(filepath.Dir(path)), "%dx%d", &n, &m); err == nil && n > MaxSize {
					return nil
				}
				s.sets[filepath.ToSlash(rel)] = path
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("puzzle sets: %w", err)
		}
	}
	sub, _ := fs.Sub(static, "static")
	files := http.FileServer(http.FS(sub))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: the page is read with GET", r.Method, r.URL.Path))
			return
		}
		files.ServeHTTP(w, r)
	})
	s.mux.HandleFunc("POST /api/solve", s.api(s.solve))
	s.mux.HandleFunc("POST /api/hint", s.api(s.hint))
	s.mux.HandleFunc("POST /api/count", s.api(s.count))
	s.mux.HandleFunc("POST /api/parse", s.api(s.parse))
	s.mux.HandleFunc("POST /api/hddl", s.api(s.hddl))
	s.mux.HandleFunc("POST /api/cnf", s.api(s.cnf))
	s.mux.HandleFunc("POST /api/picture", s.api(s.picture))
	s.mux.HandleFunc("GET /api/sets", s.api(s.listSets))
	s.mux.HandleFunc("GET /api/set", s.api(s.getSet))
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Errorf("no API %s %s (the endpoints: docs/web-api.md)", r.Method, r.URL.Path))
	})
	return s, nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if code, err := s.gate(r); err != nil {
		writeError(w, code, err)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// httpError is an error with its status code.
type httpError struct {
	code int
	err  error
}

func (e *httpError) Error() string { return e.err.Error() }

func bad(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Errorf(format, args...)}
}

func writeError(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// api wraps a handler: it reads the whole body (capped at MaxBody, and
// within the request's time: a client that sends its body slowly holds
// no slot and no more than SolveTimeout), decodes nothing itself, and
// writes the answer or the error as JSON.
func (s *Server) api(h func(r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		deadline := time.Now().Add(s.opt.SolveTimeout)
		body, err := readBody(w, r, deadline)
		if err != nil {
			var mb *http.MaxBytesError
			switch {
			case errors.As(err, &mb):
				writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("the request is larger than %d bytes", MaxBody))
			default:
				writeError(w, http.StatusRequestTimeout, fmt.Errorf("the request's body did not arrive within %s: %v", s.opt.SolveTimeout, err))
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r = r.WithContext(context.WithValue(r.Context(), deadlineKey{}, deadline))
		out, err := h(r)
		if err != nil {
			var he *httpError
			var mb *http.MaxBytesError
			switch {
			case errors.As(err, &he):
				writeError(w, he.code, he.err)
			case errors.As(err, &mb):
				writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("the request is larger than %d bytes", MaxBody))
			case errors.Is(err, context.DeadlineExceeded):
				writeError(w, http.StatusGatewayTimeout, fmt.Errorf("out of time (%s)", s.opt.SolveTimeout))
			default:
				writeError(w, http.StatusInternalServerError, err)
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", " ")
		enc.Encode(out)
	}
}

// deadlineKey keys the time a request must be answered by in its
// context: SolveTimeout after it arrived, its body's reading included.
type deadlineKey struct{}

// readBody reads r's body, at most MaxBody bytes, by deadline (where the
// connection allows a deadline: a test's recorder does not).
func readBody(w http.ResponseWriter, r *http.Request, deadline time.Time) ([]byte, error) {
	rc := http.NewResponseController(w)
	set := rc.SetReadDeadline(deadline) == nil
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		// the deadline stays, and the connection closes after the
		// answer: the server would otherwise read the rest of the body
		// before answering, as long as the client sends it
		w.Header().Set("Connection", "close")
		return nil, err
	}
	if set {
		// the connection reads on (the next request, a client gone):
		// without this deadline
		rc.SetReadDeadline(time.Time{})
	}
	return b, nil
}

// request is what the POST endpoints read.
type request struct {
	Puzzle string `json:"puzzle"`
	Engine string `json:"engine"`
	Style  string `json:"style"`
	Level  string `json:"level"`
	Limit  int    `json:"limit"`
	Kind   string `json:"kind"`
	// /api/picture: a variant in the f-puzzles layout (instead of
	// puzzle), whether to solve it, and the format (svg or png)
	FPuzzles string `json:"fpuzzles"`
	Solve    bool   `json:"solve"`
	Format   string `json:"format"`
}

// readRequest reads the JSON body of a POST endpoint.
func readRequest(r *http.Request) (request, error) {
	var q request
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return q, err
		}
		return q, bad("the body is not the JSON object expected: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return q, bad("the body holds more than one JSON object")
	}
	return q, nil
}

// decode reads the request and its one puzzle: the one-line form the page
// sends (not checked for repeated digits: a player's grid may have them,
// which /api/count reports), or any form the reader accepts.
func decode(r *http.Request) (request, sudoku.Grid, error) {
	q, err := readRequest(r)
	if err != nil {
		return q, sudoku.Grid{}, err
	}
	if g, err := sudoku.ParseLine(q.Puzzle); err == nil && g.Size() <= MaxSize {
		return q, g, nil
	}
	p, err := sudoku.ParsePuzzle(q.Puzzle)
	if err != nil {
		return q, sudoku.Grid{}, bad("puzzle: %v", err)
	}
	if p.Size() > MaxSize {
		return q, sudoku.Grid{}, bad("a %dx%d grid: the page serves up to %dx%d", p.Size(), p.Size(), MaxSize, MaxSize)
	}
	return q, p.Grid, nil
}

// limited takes a slot of p (503 when none is free in time, or when the
// process is short of memory) and returns the request's context under
// the solve time limit, and the function that frees both. Handlers take
// it before they read the body.
func (s *Server) limited(r *http.Request, p *pool) (context.Context, func(), error) {
	if g := s.opt.Memory; g != nil {
		if used, lim := g(); lim > 0 && used > lim/4*3 {
			return nil, nil, &httpError{http.StatusServiceUnavailable, fmt.Errorf("the server is short of memory (%d MiB used of %d): try again shortly", used>>20, lim>>20)}
		}
	}
	free, err := p.take(r.Context())
	if err != nil {
		return nil, nil, err
	}
	deadline, ok := r.Context().Value(deadlineKey{}).(time.Time)
	if !ok {
		deadline = time.Now().Add(s.opt.SolveTimeout)
	}
	ctx, cancel := context.WithDeadline(r.Context(), deadline)
	return ctx, func() { cancel(); free() }, nil
}

// Step is one action of a plan as the page replays it.
type Step struct {
	Action string   `json:"action"`
	Cell   int      `json:"cell"`  // row-major index, -1 for an action that fills no cell
	Digit  int      `json:"digit"` // 0 when Cell is -1
	Path   []string `json:"path"`  // the tasks above the action, root first
}

type solveAnswer struct {
	Engine   string             `json:"engine"`
	Status   string             `json:"status"`
	Verified bool               `json:"verified"`
	Solution string             `json:"solution,omitempty"`
	Plan     string             `json:"plan,omitempty"`
	Steps    []Step             `json:"steps,omitempty"`
	StagesMS map[string]float64 `json:"stages_ms"`
	TotalMS  float64            `json:"total_ms"`
	Size     string             `json:"size,omitempty"`
	Error    string             `json:"error,omitempty"`
}

func (s *Server) solve(r *http.Request) (any, error) {
	ctx, done, err := s.limited(r, s.solves)
	if err != nil {
		return nil, err
	}
	defer done()
	q, g, err := decode(r)
	if err != nil {
		return nil, err
	}
	// no engine: what "htnsat plan" does by default, both HTN engines
	e := compare.Auto
	if q.Engine != "" {
		if e, err = compare.ParseEngine(q.Engine); err != nil {
			return nil, bad("%v", err)
		}
	}
	opt := s.opt.Engines
	if q.Style != "" {
		if opt.Style, err = sudoku.ParseStyle(q.Style); err != nil {
			return nil, bad("%v", err)
		}
	}
	run := s.run(ctx, sudoku.Puzzle{Grid: g, Name: "page"}, e, opt)
	a := solveAnswer{Engine: string(e), Status: string(run.Status), Verified: run.Verified, StagesMS: map[string]float64{},
		TotalMS: ms(run.Total), Error: run.Error}
	for st, d := range run.Stages {
		a.StagesMS[st] = ms(d)
	}
	if run.Verified {
		a.Solution = run.Solution.Line()
	}
	switch {
	case run.Vars > 0:
		a.Size = fmt.Sprintf("%d vars, %d clauses", run.Vars, run.Clauses)
	case e == compare.Progression:
		a.Size = fmt.Sprintf("%d nodes", run.Nodes)
	}
	if run.Plan != nil {
		a.Plan = run.Plan.String()
		a.Steps = steps(run.Plan, g.Size())
	}
	return a, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// steps lists the plan's actions with the cells they fill and the tasks
// above them.
func steps(p *plan.Plan, n int) []Step {
	parent := map[int]int{}
	label := map[int]string{}
	for _, d := range p.Decomps {
		label[d.ID] = strings.TrimSpace(d.Task+" "+strings.Join(d.Args, " ")) + " → " + d.Method
		for _, c := range d.Subtasks {
			parent[c] = d.ID
		}
	}
	var out []Step
	for _, a := range p.Actions {
		st := Step{Action: strings.TrimSpace(a.Name + " " + strings.Join(a.Args, " ")), Cell: -1}
		if strings.HasPrefix(a.Name, "FILL-CELL") && len(a.Args) >= 4 {
			c, err1 := strconv.Atoi(strings.TrimPrefix(a.Args[1], "c"))
			r, err2 := strconv.Atoi(strings.TrimPrefix(a.Args[2], "r"))
			d, err3 := strconv.Atoi(strings.TrimPrefix(a.Args[3], "d"))
			if err1 == nil && err2 == nil && err3 == nil && r >= 0 && r < n && c >= 0 && c < n {
				st.Cell, st.Digit = r*n+c, d
			}
		}
		seen := map[int]bool{}
		for id, ok := parent[a.ID]; ok && !seen[id]; id, ok = parent[id] {
			seen[id] = true
			st.Path = append([]string{label[id]}, st.Path...)
		}
		out = append(out, st)
	}
	return out
}

type hintAnswer struct {
	Levels  []csp.LevelHints `json:"levels"`
	Domains [][]int          `json:"domains"` // per cell, the digits left at the last level run
}

func (s *Server) hint(r *http.Request) (any, error) {
	ctx, done, err := s.limited(r, s.solves)
	if err != nil {
		return nil, err
	}
	defer done()
	q, g, err := decode(r)
	if err != nil {
		return nil, err
	}
	last := csp.SGACAll
	if q.Level != "" {
		if last, err = csp.ParseLevel(q.Level); err != nil {
			return nil, bad("%v", err)
		}
	}
	m := csp.NewModel(g.Box)
	hs, err := m.Hints(ctx, g, last)
	if err != nil {
		return nil, err
	}
	doms := m.Initial(g)
	if len(hs) > 0 && hs[len(hs)-1].Domains() != nil {
		doms = hs[len(hs)-1].Domains()
	}
	a := hintAnswer{Levels: hs}
	for _, d := range doms {
		a.Domains = append(a.Domains, d.Digits())
	}
	return a, nil
}

func (s *Server) count(r *http.Request) (any, error) {
	ctx, done, err := s.limited(r, s.solves)
	if err != nil {
		return nil, err
	}
	defer done()
	q, g, err := decode(r)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit == 0 {
		limit = 2
	}
	if limit < 1 || limit > MaxCount {
		return nil, bad("limit %d: from 1 to %d (0 or none: 2)", limit, MaxCount)
	}
	conflicts := conflictsOf(g)
	if len(conflicts) > 0 {
		return map[string]any{"solutions": 0, "conflicts": conflicts}, nil
	}
	res, err := csp.NewModel(g.Box).Search(ctx, g, limit, csp.GACAll)
	if err != nil {
		return nil, err
	}
	return map[string]any{"solutions": res.Solutions, "limit": limit, "conflicts": []int{}}, nil
}

// conflictsOf lists the cells whose digit another cell of a row, column or
// box repeats.
func conflictsOf(g sudoku.Grid) []int {
	m := csp.NewModel(g.Box)
	bad := map[int]bool{}
	for _, u := range m.Units {
		where := map[int]int{}
		for _, c := range u.Cells {
			if d := g.Cells[c]; d != 0 {
				if o, ok := where[d]; ok {
					bad[o], bad[c] = true, true
				}
				where[d] = c
			}
		}
	}
	out := []int{}
	for c := range bad {
		out = append(out, c)
	}
	sort.Ints(out)
	return out
}

// parse reads puzzles in any accepted form (a pasted puzzle, or a whole
// puzzle file the page uploads) and answers their one-line forms: the
// first as "puzzle", all of them (at most 10,000) as "puzzles".
func (s *Server) parse(r *http.Request) (any, error) {
	_, done, err := s.limited(r, s.light)
	if err != nil {
		return nil, err
	}
	defer done()
	q, err := readRequest(r)
	if err != nil {
		return nil, err
	}
	var lines []string
	if g, err := sudoku.ParseLine(q.Puzzle); err == nil && g.Size() <= MaxSize {
		lines = []string{g.Line()}
	} else {
		ps, errs := sudoku.Read(strings.NewReader(q.Puzzle), "puzzle")
		for _, p := range ps {
			if p.Size() <= MaxSize && len(lines) < 10000 {
				lines = append(lines, p.Line())
			}
		}
		if len(lines) == 0 {
			if len(errs) > 0 {
				return nil, bad("%v", errs[0])
			}
			return nil, bad("no puzzle (up to %dx%d) in the text", MaxSize, MaxSize)
		}
	}
	g, _ := sudoku.ParseLine(lines[0])
	return map[string]any{"puzzle": lines[0], "size": g.Size(), "puzzles": lines}, nil
}

func (s *Server) hddl(r *http.Request) (any, error) {
	_, done, err := s.limited(r, s.light)
	if err != nil {
		return nil, err
	}
	defer done()
	q, g, err := decode(r)
	if err != nil {
		return nil, err
	}
	st := sudoku.Unordered
	if q.Style != "" {
		if st, err = sudoku.ParseStyle(q.Style); err != nil {
			return nil, bad("%v", err)
		}
	}
	dom, _, err := sudoku.DomainText(g.Box)
	if err != nil {
		return nil, bad("%v", err)
	}
	prob, err := sudoku.ProblemText(g, st, "")
	if err != nil {
		return nil, bad("%v", err)
	}
	return map[string]string{"domain": string(dom), "problem": string(prob)}, nil
}

// picture draws a puzzle (a grid, or a variant in the f-puzzles layout
// with its clues) and, asked to, its solution found by direct SAT, as an
// SVG or PNG data URL.
func (s *Server) picture(r *http.Request) (any, error) {
	ctx, done, err := s.limited(r, s.solves)
	if err != nil {
		return nil, err
	}
	defer done()
	q, err := readRequest(r)
	if err != nil {
		return nil, err
	}
	asPNG := false
	switch q.Format {
	case "", "svg":
	case "png":
		asPNG = true
	default:
		return nil, bad("format %q: svg or png", q.Format)
	}
	var v *variant.Puzzle
	if q.FPuzzles != "" {
		if v, err = variant.ReadFPuzzles(strings.NewReader(q.FPuzzles)); err != nil {
			return nil, bad("f-puzzles: %v", err)
		}
	} else {
		p, err := sudoku.ParsePuzzle(q.Puzzle)
		if err != nil {
			return nil, bad("puzzle: %v", err)
		}
		v = &variant.Puzzle{Grid: p.Grid}
	}
	if v.Size() > MaxSize {
		return nil, bad("a %dx%d grid: the page serves up to %dx%d", v.Size(), v.Size(), MaxSize, MaxSize)
	}
	answer := map[string]any{"status": "not solved"}
	var sol *sudoku.Grid
	if q.Solve {
		res, err := variant.Solve(ctx, v, nil, 1)
		switch {
		case err != nil && ctx.Err() != nil:
			answer["status"] = "timeout"
		case err != nil:
			answer["status"] = "unsolvable"
		default:
			sol = &res.Solution
			answer["status"], answer["solution"] = "solved", res.Solution.Line()
		}
	}
	var b bytes.Buffer
	if err := variant.WriteSheet(&b, []variant.Picture{{Title: v.Title, Puzzle: v, Solution: sol}}, 1, asPNG); err != nil {
		return nil, err
	}
	mime := "image/svg+xml"
	if asPNG {
		mime = "image/png"
	}
	w, h := variant.PictureSize(v, v.Title)
	answer["image"] = "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b.Bytes())
	answer["width"], answer["height"] = w, h
	answer["title"] = v.Title
	return answer, nil
}

func (s *Server) cnf(r *http.Request) (any, error) {
	_, done, err := s.limited(r, s.light)
	if err != nil {
		return nil, err
	}
	defer done()
	_, g, err := decode(r)
	if err != nil {
		return nil, err
	}
	enc, err := sudoku.EncodeDirect(g)
	if err != nil {
		return nil, bad("%v", err)
	}
	var b strings.Builder
	if err := satenc.WriteDIMACS(&b, enc.CNF, enc.CNF.NumVars, []string{"direct encoding of " + g.Line()}); err != nil {
		return nil, err
	}
	return map[string]string{"cnf": b.String()}, nil
}

func (s *Server) listSets(*http.Request) (any, error) {
	names := []string{}
	for n := range s.sets {
		names = append(names, n)
	}
	sort.Strings(names)
	samples := []string{}
	for _, p := range sudoku.Samples() {
		samples = append(samples, p.Line())
	}
	return map[string]any{"sets": names, "samples": samples}, nil
}

// getSet answers GET /api/set?name=N&index=I with puzzle I of the set N
// (N one of the names /api/sets lists).
func (s *Server) getSet(r *http.Request) (any, error) {
	name := r.URL.Query().Get("name")
	path, ok := s.sets[name]
	if !ok {
		return nil, &httpError{http.StatusNotFound, fmt.Errorf("no puzzle set %q (GET /api/sets lists them)", name)}
	}
	i, err := strconv.Atoi(r.URL.Query().Get("index"))
	if err != nil || i < 0 {
		return nil, bad("index %q: want a number from 0", r.URL.Query().Get("index"))
	}
	ctx, done, err := s.limited(r, s.light)
	if err != nil {
		return nil, err
	}
	defer done()
	lines, err := s.setLines(ctx, name, path)
	if err != nil {
		return nil, err
	}
	if i >= len(lines) {
		return nil, &httpError{http.StatusNotFound, fmt.Errorf("set %s has %d puzzles (up to %dx%d)", name, len(lines), MaxSize, MaxSize)}
	}
	return map[string]any{"puzzle": lines[i], "count": len(lines)}, nil
}

// setLines reads a puzzle set once (its puzzles up to MaxSize, as lines)
// and keeps it while the cache has room: requests for the same set wait
// for the one read.
func (s *Server) setLines(ctx context.Context, name, path string) ([]string, error) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if lines, ok := s.cache[name]; ok {
		return lines, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, errs := sudoku.ReadContext(ctx, io.LimitReader(f, MaxSetRead), name, 0)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(ps) == 0 && len(errs) > 0 {
		return nil, errs[0]
	}
	lines := []string{}
	size := int64(0)
	for _, p := range ps {
		if p.Size() <= MaxSize {
			l := p.Line()
			lines = append(lines, l)
			size += int64(len(l)) + 16
		}
	}
	if s.cached+size <= MaxCached {
		s.cache[name] = lines
		s.cached += size
	}
	return lines, nil
}
