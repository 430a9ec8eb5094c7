package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestGate: a foreign Host (DNS rebinding) gets 421 everywhere; an API
// request from another origin, marked cross-site, or a POST that is not
// JSON (a form or text/plain, which any page can send) gets 403 or 415;
// the page's own requests, and clients that send neither header, pass.
func TestGate(t *testing.T) {
	ts := newServer(t, Options{Hosts: []string{"sudoku.lan"}})
	port := ts.URL[strings.LastIndex(ts.URL, ":"):]
	body := `{"puzzle":"` + paper + `","engine":"direct-sat"}`
	cases := []struct {
		name, method, path, host, origin, site, ctype string
		code                                          int
	}{
		{"rebound host", "GET", "/", "evil.example" + port, "", "", "", 421},
		{"rebound host API", "POST", "/api/solve", "evil.example" + port, "", "", "application/json", 421},
		{"rebound host, no port", "GET", "/api/sets", "evil.example", "", "", "", 421},
		{"localhost", "GET", "/", "localhost" + port, "", "", "", 200},
		{"LOCALHOST.", "GET", "/api/sets", "LOCALHOST." + port, "", "", "", 200},
		{"IPv6 loopback", "GET", "/api/sets", "[::1]" + port, "", "", "", 200},
		{"allowed name", "GET", "/api/sets", "sudoku.lan" + port, "", "", "", 200},
		{"cross-origin POST", "POST", "/api/solve", "", "http://evil.example", "", "application/json", 403},
		{"cross-origin text/plain", "POST", "/api/solve", "", "http://evil.example", "cross-site", "text/plain", 403},
		{"null origin", "POST", "/api/solve", "", "null", "", "application/json", 403},
		{"text/plain, no origin", "POST", "/api/solve", "", "", "", "text/plain", 415},
		{"form", "POST", "/api/solve", "", "", "", "application/x-www-form-urlencoded", 415},
		{"cross-site GET of a set", "GET", "/api/sets", "", "", "cross-site", "", 403},
		{"same-site GET", "GET", "/api/sets", "", "", "same-site", "", 403},
		{"other port", "POST", "/api/solve", "", "http://127.0.0.1:1", "", "application/json", 403},
		{"https origin", "POST", "/api/solve", "", "https://" + strings.TrimPrefix(ts.URL, "http://"), "", "application/json", 403},
		{"own origin", "POST", "/api/solve", "", ts.URL, "same-origin", "application/json; charset=utf-8", 200},
		{"curl", "POST", "/api/solve", "", "", "", "application/json", 200},
		{"page from another site", "GET", "/", "", "", "cross-site", "", 200},
	}
	for _, c := range cases {
		var rd *strings.Reader
		if c.method == "POST" {
			rd = strings.NewReader(body)
		} else {
			rd = strings.NewReader("")
		}
		req, _ := http.NewRequest(c.method, ts.URL+c.path, rd)
		if c.host != "" {
			req.Host = c.host
		}
		for h, v := range map[string]string{"Origin": c.origin, "Sec-Fetch-Site": c.site, "Content-Type": c.ctype} {
			if v != "" {
				req.Header.Set(h, v)
			}
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		json.NewDecoder(r.Body).Decode(&out)
		r.Body.Close()
		if r.StatusCode != c.code {
			t.Errorf("%s: %d %v, want %d", c.name, r.StatusCode, out["error"], c.code)
		}
		if c.code >= 400 && out["error"] == nil {
			t.Errorf("%s: no JSON error", c.name)
		}
	}
}

// TestLoad: 200 requests at once on every endpoint that computes, over a
// set of 49,000 puzzles: each is answered (200, or 503 when its kind's
// slots are taken), the heap stays within a few hundred MB, and the
// server still answers afterwards.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("200 requests on each endpoint")
	}
	dir := t.TempDir()
	big := strings.Repeat(paper+"\n", 49000)
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, Options{SetsDir: dir, SolveTimeout: 5 * time.Second})
	empty25 := strings.Repeat(".", 625)
	endpoints := []struct{ method, path, body string }{
		{"GET", "/api/set?name=big.txt&index=%d", ""},
		{"POST", "/api/cnf", `{"puzzle":"` + empty25 + `"}`},
		{"POST", "/api/parse", `{"puzzle":"` + strings.Repeat(paper+`\n`, 10000) + `"}`},
		{"POST", "/api/hddl", `{"puzzle":"` + empty25 + `"}`},
		{"POST", "/api/solve", `{"puzzle":"` + paper + `","engine":"htn-sat"}`},
		{"POST", "/api/hint", `{"puzzle":"` + paper + `"}`},
		{"POST", "/api/count", `{"puzzle":"` + paper + `","limit":1000}`},
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for _, e := range endpoints {
		runtime.GC()
		metrics.Read(sample)
		base := sample[0].Value.Uint64()
		var peak uint64
		stop := make(chan struct{})
		var mw sync.WaitGroup
		mw.Add(1)
		go func() {
			defer mw.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
					metrics.Read(sample)
					peak = max(peak, sample[0].Value.Uint64())
				}
			}
		}()
		codes := map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				path := e.path
				if strings.Contains(path, "%d") {
					path = fmt.Sprintf(path, i*97)
				}
				req, _ := http.NewRequest(e.method, ts.URL+path, strings.NewReader(e.body))
				if e.method == "POST" {
					req.Header.Set("Content-Type", "application/json")
				}
				r, err := http.DefaultClient.Do(req)
				code := -1
				if err == nil {
					code = r.StatusCode
					r.Body.Close()
				}
				mu.Lock()
				codes[code]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		close(stop)
		mw.Wait()
		grown := int64(peak) - int64(base)
		t.Logf("%s %s: %v, heap peak +%d MiB", e.method, strings.Split(e.path, "?")[0], codes, grown>>20)
		if codes[200]+codes[503] != 200 || codes[200] == 0 {
			t.Errorf("%s: answers %v, want 200 or 503 to each", e.path, codes)
		}
		if grown > 600<<20 {
			t.Errorf("%s: the heap grew by %d MiB", e.path, grown>>20)
		}
	}
	if code, _ := post(t, ts, "/api/solve", `{"puzzle":"`+paper+`","engine":"direct-sat"}`); code != 200 {
		t.Errorf("after the load: %d", code)
	}
}
