package web

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/sudoku"
)

const paper = "345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3.."

func newServer(t *testing.T, opt Options) *httptest.Server {
	t.Helper()
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, ts *httptest.Server, path, body string) (int, map[string]any) {
	t.Helper()
	r, err := http.Post(ts.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil {
		t.Fatalf("%s: the answer is not JSON: %v", path, err)
	}
	return r.StatusCode, out
}

// TestSolve: each engine solves the paper's puzzle; the HTN engines send
// the plan and one step per fill with its place in the tree.
func TestSolve(t *testing.T) {
	ts := newServer(t, Options{})
	want := "345691728612783549798245136964157283523864917871932465139528674457316892286479351"
	for _, e := range []string{"progression", "htn-sat", "direct-sat"} {
		code, out := post(t, ts, "/api/solve", `{"puzzle":"`+paper+`","engine":"`+e+`"}`)
		if code != 200 || out["status"] != "solved" || out["verified"] != true || out["solution"] != want {
			t.Fatalf("%s: %d %v", e, code, out)
		}
		if _, ok := out["stages_ms"].(map[string]any)["solve"]; e == "direct-sat" && !ok {
			t.Errorf("%s: no solve time: %v", e, out["stages_ms"])
		}
		if e == "direct-sat" {
			continue
		}
		if !strings.HasPrefix(out["plan"].(string), "==>\n") {
			t.Errorf("%s: plan %q", e, out["plan"])
		}
		steps := out["steps"].([]any)
		if len(steps) != 46 {
			t.Fatalf("%s: %d steps, want 46 blanks", e, len(steps))
		}
		s0 := steps[0].(map[string]any)
		cell := int(s0["cell"].(float64))
		if cell < 0 || want[cell] != byte('0'+int(s0["digit"].(float64))) || len(s0["path"].([]any)) == 0 {
			t.Errorf("%s: first step %v", e, s0)
		}
	}
}

// TestBadRequests: every malformed request gets a JSON error and the
// right status.
func TestBadRequests(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "one.txt"), []byte(paper+"\n"), 0o644)
	// a set of a size the page cannot show is not served
	os.MkdirAll(filepath.Join(dir, "36x36"), 0o755)
	os.WriteFile(filepath.Join(dir, "36x36", "big.txt"), []byte(strings.Repeat("0 ", 36*36)+"\n"), 0o644)
	ts := newServer(t, Options{SetsDir: dir})
	big := strings.Repeat(".", 36*36)
	cases := []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", "/api/solve", `{"puzzle":"` + paper + `","engine":"magic"}`, 400, "engine"},
		{"POST", "/api/solve", `{"puzzle":"12345","engine":"htn-sat"}`, 400, "puzzle"},
		{"POST", "/api/solve", `{"puzzle":"` + big + `","engine":"direct-sat"}`, 400, "up to 25x25"},
		{"POST", "/api/solve", `not json`, 400, "not the JSON object"},
		{"POST", "/api/solve", `{"puzzle":"` + paper + `","engine":"htn-sat","file":"/etc/passwd"}`, 400, "unknown field"},
		{"POST", "/api/solve", `{"puzzle":"` + strings.Repeat("x", MaxBody+10) + `"}`, 413, "larger than"},
		{"POST", "/api/hint", `{"puzzle":"` + paper + `","level":"extreme"}`, 400, "consistency level"},
		{"POST", "/api/count", `{"puzzle":"` + paper + `","limit":100000}`, 400, "from 1 to 1000"},
		{"POST", "/api/count", `{"puzzle":"` + paper + `","limit":-1}`, 400, "from 1 to 1000"},
		{"POST", "/api/solve", `{"puzzle":"` + paper + `","engine":"direct-sat"} junk`, 400, "more than one JSON object"},
		{"POST", "/api/solve", `{"puzzle":"` + paper + `","engine":"direct-sat"}{}`, 400, "more than one JSON object"},
		{"GET", "/api/set?name=../../etc/passwd&index=0", "", 404, "no puzzle set"},
		{"GET", "/api/set?name=one.txt&index=5", "", 404, "has 1 puzzles"},
		{"GET", "/api/set?name=one.txt&index=-1", "", 400, "index"},
		{"GET", "/api/set?name=36x36/big.txt&index=0", "", 404, "no puzzle set"},
		{"GET", "/api/nothing", "", 404, "no API"},
		{"POST", "/index.html", "{}", 405, "GET"},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
		if c.method == "POST" {
			req.Header.Set("Content-Type", "application/json")
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]string
		json.NewDecoder(r.Body).Decode(&out)
		r.Body.Close()
		if r.StatusCode != c.code || !strings.Contains(out["error"], c.want) {
			t.Errorf("%s %s %.40s: %d %q, want %d and %q", c.method, c.path, c.body, r.StatusCode, out["error"], c.code, c.want)
		}
	}
}

// TestLimits: a solve past its time limit reports status timeout, a
// client that goes away frees its slot, and a request when every slot is
// busy answers 503.
func TestLimits(t *testing.T) {
	// A real solve far past its limit: an empty 25x25 through the HTN
	// encoding cannot be parsed, grounded and solved in a millisecond.
	empty := strings.Repeat(".", 25*25)
	ts := newServer(t, Options{SolveTimeout: time.Millisecond, MaxSolves: 1})
	start := time.Now()
	code, out := post(t, ts, "/api/solve", `{"puzzle":"`+empty+`","engine":"htn-sat"}`)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the solve took %s for a 1 ms limit", d)
	}
	if code != 200 || out["status"] != "timeout" {
		// a run's timeout is its status, reported with 200
		t.Errorf("%d %v", code, out["status"])
	}
	start = time.Now()
	code, out = post(t, ts, "/api/hint", `{"puzzle":"`+empty+`","level":"sgac"}`)
	if code != 504 && code != 200 || time.Since(start) > 3*time.Second {
		t.Errorf("hint on an empty 25x25 under 1 ms: %d %v after %s", code, out, time.Since(start))
	}

	// A client that goes away frees its slot: the solve's context ends.
	// The solve here lasts until then, so the test does not depend on
	// how fast an engine is.
	s1, _ := New(Options{MaxSolves: 1, SolveTimeout: time.Minute})
	started, ended := make(chan struct{}), make(chan struct{})
	s1.run = func(ctx context.Context, p sudoku.Puzzle, e compare.Engine, opt compare.Options) compare.Run {
		if e == compare.DirectSAT {
			return compare.RunEngine(ctx, p, e, opt)
		}
		close(started)
		<-ctx.Done()
		close(ended)
		return compare.Run{Status: "timeout"}
	}
	ts1 := httptest.NewServer(s1)
	defer ts1.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts1.URL+"/api/solve", strings.NewReader(`{"puzzle":"`+empty+`","engine":"progression"}`))
	req.Header.Set("Content-Type", "application/json")
	go func() {
		<-started
		defer cancel()
		r, err := http.Post(ts1.URL+"/api/solve", "application/json", strings.NewReader(`{"puzzle":"`+paper+`","engine":"direct-sat"}`))
		if err != nil {
			t.Error(err)
			return
		}
		r.Body.Close()
		if r.StatusCode != 503 {
			t.Errorf("a second solve while the slot is taken: %d, want 503", r.StatusCode)
		}
	}()
	if r, err := http.DefaultClient.Do(req); err == nil {
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		t.Fatalf("the endless solve answered: %d %s", r.StatusCode, b)
	}
	select {
	case <-ended:
	case <-time.After(3 * time.Second):
		t.Fatal("the solve of a client that went away was still running 3 s later")
	}
	freed := false
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && !freed; time.Sleep(20 * time.Millisecond) {
		code, _ := post(t, ts1, "/api/solve", `{"puzzle":"`+paper+`","engine":"direct-sat"}`)
		freed = code == 200
	}
	if !freed {
		t.Error("the slot of a client that went away was still taken 3 s later")
	}
	s, _ := New(Options{MaxSolves: 1})
	s.solves.slots <- struct{}{} // the one slot is taken
	ts2 := httptest.NewServer(s)
	defer ts2.Close()
	code, out = post(t, ts2, "/api/solve", `{"puzzle":"`+paper+`","engine":"direct-sat"}`)
	if code != 503 || !strings.Contains(out["error"].(string), "try again") {
		t.Errorf("busy: %d %v", code, out)
	}
}

// TestSlowBody: clients that send their bodies a byte at a time take no
// solve slot while they do, and are answered 408 once the request's time
// (SolveTimeout, the body's reading included) is up; a solve sent
// meanwhile is answered.
func TestSlowBody(t *testing.T) {
	ts := newServer(t, Options{SolveTimeout: time.Second, MaxSolves: 2})
	body := `{"puzzle":"` + paper + `","engine":"direct-sat"}`
	type answer struct {
		head string
		took time.Duration
	}
	answers := make(chan answer, 2)
	for range 2 {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		start := time.Now()
		fmt.Fprintf(conn, "POST /api/solve HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", ts.Listener.Addr(), len(body))
		go func() {
			for i := 0; i < len(body); i++ {
				if _, err := conn.Write([]byte{body[i]}); err != nil {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
		go func() {
			line, _ := bufio.NewReader(conn).ReadString('\n')
			answers <- answer{line, time.Since(start)}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	for i := range 3 {
		if code, out := post(t, ts, "/api/solve", body); code != 200 {
			t.Errorf("solve %d beside two slow bodies: %d %v", i, code, out)
		}
	}
	for range 2 {
		select {
		case a := <-answers:
			if !strings.Contains(a.head, "408") || a.took > 3*time.Second {
				t.Errorf("a slow body: %q after %s, want 408 after about 1 s", strings.TrimSpace(a.head), a.took)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a slow body had no answer after 5 s")
		}
	}
}

// TestHintCountParse: the hint panel's levels and domains, solution
// counts with conflicts, and parsing of another form.
func TestHintCountParse(t *testing.T) {
	ts := newServer(t, Options{})
	code, out := post(t, ts, "/api/hint", `{"puzzle":"`+paper+`","level":"ac"}`)
	levels := out["levels"].([]any)
	if code != 200 || len(levels) != 2 || len(out["domains"].([]any)) != 81 {
		t.Fatalf("%d %v", code, out)
	}
	if s := levels[0].(map[string]any)["singletons"].([]any); len(s) != 5 {
		t.Errorf("FC singletons of the paper's puzzle: %d, want 5 (sudoku hint)", len(s))
	}
	conflict := "33" + paper[2:]
	code, out = post(t, ts, "/api/count", `{"puzzle":"`+conflict+`","limit":5}`)
	if code != 200 || out["solutions"].(float64) != 0 || len(out["conflicts"].([]any)) != 2 {
		t.Errorf("conflict: %d %v", code, out)
	}
	code, out = post(t, ts, "/api/count", `{"puzzle":"`+strings.Repeat(".", 16)+`","limit":1000}`)
	if code != 200 || out["solutions"].(float64) != 288 {
		t.Errorf("empty 4x4: %d %v, want 288 solutions", code, out)
	}
	rows := strings.Join([]string{"345000008", "610083549", "790045006", "000157000", "000064900", "071900400", "009020604", "050010000", "206000300"}, "\n")
	rowsJSON, _ := json.Marshal(map[string]string{"puzzle": rows})
	code, out = post(t, ts, "/api/parse", string(rowsJSON))
	if code != 200 || out["puzzle"] != paper {
		t.Errorf("rows of digits: %d %v", code, out)
	}
	g, _ := sudoku.ParsePuzzle(paper)
	code, out = post(t, ts, "/api/hddl", `{"puzzle":"`+g.Line()+`","style":"ordered"}`)
	if code != 200 || !strings.Contains(out["problem"].(string), ":ordered-subtasks") {
		t.Errorf("hddl: %d", code)
	}
	code, out = post(t, ts, "/api/cnf", `{"puzzle":"`+paper+`"}`)
	if code != 200 || !strings.Contains(out["cnf"].(string), "p cnf ") {
		t.Errorf("cnf: %d", code)
	}
}

// TestPage: the page and its assets are served, embedded.
func TestPage(t *testing.T) {
	ts := newServer(t, Options{})
	for _, p := range []string{"/", "/app.js", "/style.css"} {
		r, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != 200 {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
}

// TestParseFile: a whole puzzle file, as the page uploads it.
func TestParseFile(t *testing.T) {
	ts := newServer(t, Options{})
	body, _ := json.Marshal(map[string]string{"puzzle": "# a set\n" + paper + "\n" + strings.Repeat(".", 81) + "\n"})
	code, out := post(t, ts, "/api/parse", string(body))
	if code != 200 || len(out["puzzles"].([]any)) != 2 || out["puzzle"] != paper {
		t.Errorf("%d %v", code, out)
	}
}

// TestEngineNames: the API takes the CLI's engine names, the alias sat
// among them, and without an engine does what "htnsat plan" does (auto).
func TestEngineNames(t *testing.T) {
	ts := newServer(t, Options{})
	for _, e := range []string{"", "sat", "HTN-SAT", "auto", "direct-sat"} {
		body := `{"puzzle":"...3..4114..3..."`
		if e != "" {
			body += `,"engine":"` + e + `"`
		}
		code, out := post(t, ts, "/api/solve", body+"}")
		if code != 200 || out["status"] != "solved" {
			t.Errorf("engine %q: %d %v", e, code, out)
		}
		if e == "" && out["engine"] != "auto" {
			t.Errorf("no engine: ran %v, want auto", out["engine"])
		}
	}
	if code, out := post(t, ts, "/api/solve", `{"puzzle":"12345"}`); code != 400 || !strings.Contains(out["error"].(string), "has 5") {
		t.Errorf("puzzle 12345: %d %v", code, out)
	}
}

// TestPicture: /api/picture draws a variant with its clues and, asked
// to, its solution, as SVG or PNG data; a plain puzzle too; a bad format
// or a bad file is a 400.
func TestPicture(t *testing.T) {
	ts := newServer(t, Options{})
	dune, err := os.ReadFile("../../sudoku/variant/testdata/dune.json")
	if err != nil {
		t.Fatal(err)
	}
	body := func(fields map[string]any) string {
		b, _ := json.Marshal(fields)
		return string(b)
	}
	code, out := post(t, ts, "/api/picture", body(map[string]any{"fpuzzles": string(dune), "solve": true}))
	img, _ := out["image"].(string)
	if code != 200 || out["status"] != "solved" || !strings.HasPrefix(img, "data:image/svg+xml;base64,") || len(out["solution"].(string)) != 81 {
		t.Fatalf("svg: %d %v %.60s", code, out["status"], img)
	}
	svg, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(img, "data:image/svg+xml;base64,"))
	if err != nil || !strings.Contains(string(svg), `<g class="killer-cages">`) || !strings.Contains(string(svg), "Dune") {
		t.Errorf("the SVG: %v %.200s", err, svg)
	}
	code, out = post(t, ts, "/api/picture", body(map[string]any{"fpuzzles": string(dune), "format": "png"}))
	img, _ = out["image"].(string)
	if code != 200 || out["status"] != "not solved" || !strings.HasPrefix(img, "data:image/png;base64,") {
		t.Errorf("png: %d %v %.60s", code, out["status"], img)
	}
	if code, out = post(t, ts, "/api/picture", body(map[string]any{"puzzle": paper})); code != 200 {
		t.Errorf("a plain puzzle: %d %v", code, out)
	}
	for _, b := range []map[string]any{{"puzzle": paper, "format": "gif"}, {"fpuzzles": "{not json"}, {"fpuzzles": `{"size":9,"sandwichsum":[]}`}} {
		if code, out := post(t, ts, "/api/picture", body(b)); code != 400 {
			t.Errorf("%v: %d %v", b, code, out)
		}
	}
}
