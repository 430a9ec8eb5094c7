package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/sudoku"
)

// FuzzRequest sends arbitrary requests to the server: a path among the
// API's (and a few others), a method, a Host, an Origin, a content type
// and a body. It must not panic; every answer is JSON (the page's files
// aside) with a status the API documents, and an error answer says what
// went wrong. Solves are stubbed (they take their own time limit); the
// hint and count searches run under a short one.
func FuzzRequest(f *testing.F) {
	body := `{"puzzle":"` + paper + `","engine":"direct-sat"}`
	for _, s := range [][6]string{
		{"/api/solve", "POST", "", "", "application/json", body},
		{"/api/hint", "POST", "", "", "application/json", `{"puzzle":"` + paper + `","level":"gac"}`},
		{"/api/count", "POST", "", "", "application/json", `{"puzzle":"` + paper + `","limit":3}`},
		{"/api/parse", "POST", "", "", "application/json", `{"puzzle":"1 2 3 4\n"}`},
		{"/api/hddl", "POST", "", "", "application/json", `{"puzzle":"...3..4114..3...","style":"ordered"}`},
		{"/api/cnf", "POST", "", "", "application/json", `{"puzzle":"...3..4114..3..."}`},
		{"/api/set?name=one.txt&index=0", "GET", "", "", "", ""},
		{"/api/sets", "GET", "evil.example", "", "", ""},
		{"/api/solve", "POST", "", "http://evil.example", "text/plain", body},
		{"/", "GET", "localhost:1", "", "", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5])
	}
	dir := f.TempDir()
	s, err := New(Options{SetsDir: dir, SolveTimeout: 50 * time.Millisecond})
	if err != nil {
		f.Fatal(err)
	}
	s.run = func(ctx context.Context, p sudoku.Puzzle, e compare.Engine, opt compare.Options) compare.Run {
		return compare.Run{Status: "timeout"}
	}
	documented := map[int]bool{200: true, 400: true, 403: true, 404: true, 405: true, 413: true, 415: true, 421: true, 503: true, 504: true}
	f.Fuzz(func(t *testing.T, path, method, host, origin, ctype, body string) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequest(method, "http://127.0.0.1:8080"+path, strings.NewReader(body))
		if err != nil {
			return // not a request a client can send
		}
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if !documented[w.Code] {
			t.Fatalf("%s %s: status %d", method, path, w.Code)
		}
		if !strings.HasPrefix(req.URL.Path, "/api/") && (w.Code < 400 || w.Code == 404) {
			return // a file of the page, or none
		}
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s %s: %d, not JSON: %.200q", method, path, w.Code, w.Body.String())
		}
		if msg, _ := out["error"].(string); w.Code >= 400 && msg == "" {
			t.Fatalf("%s %s: %d without a message", method, path, w.Code)
		}
	})
}
