package web

import (
	"context"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The gate stands before every handler, against web pages of other sites
// that a browser on this machine runs:
//
//   - DNS rebinding: a page of evil.example whose name is made to point
//     at 127.0.0.1 reaches the server with "Host: evil.example". Only
//     hosts that cannot be rebound are served: IP literals, "localhost"
//     (which browsers resolve to the loopback themselves) and the names
//     the server was told to answer (Options.Hosts).
//   - Cross-site requests: a page may send a form POST or a text/plain
//     fetch to any address without asking. The API answers only requests
//     of its own origin: a request whose Origin is another's, or that the
//     browser marks as cross-site or same-site (Sec-Fetch-Site), gets 403;
//     a POST must say application/json, which no page can send
//     cross-origin without a preflight this server never grants.
//
// Clients that are not browsers (curl, scripts) send neither header and
// pass, as long as the Host is one of the above.

// hostAllowed reports whether a request's Host header names this server.
func (s *Server) hostAllowed(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if h == "" {
		return false
	}
	if net.ParseIP(h) != nil || h == "localhost" {
		return true
	}
	for _, a := range s.opt.Hosts {
		if strings.EqualFold(a, h) {
			return true
		}
	}
	return false
}

// originAllowed reports whether the Origin header of a request is the
// server's own (scheme http, same host and port as the request's Host).
func originAllowed(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Path != "" && u.Path != "/" {
		return false
	}
	return strings.EqualFold(u.Host, host)
}

// gate checks a request before any handler runs (see above) and returns
// the status and error to answer it with, or 0.
func (s *Server) gate(r *http.Request) (int, error) {
	if !s.hostAllowed(r.Host) {
		return http.StatusMisdirectedRequest, fmt.Errorf("host %q is not this server's: it answers IP addresses, localhost and the names given to serve --allow-host", r.Host)
	}
	api := strings.HasPrefix(r.URL.Path, "/api/")
	safe := r.Method == http.MethodGet || r.Method == http.MethodHead
	if !api && safe {
		return 0, nil // the page itself: anyone may read it
	}
	if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, r.Host) {
		return http.StatusForbidden, fmt.Errorf("origin %q: the API answers its own page only", o)
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return http.StatusForbidden, fmt.Errorf("a cross-site request: the API answers its own page only")
	}
	if api && r.Method == http.MethodPost {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			return http.StatusUnsupportedMediaType, fmt.Errorf("the body must be application/json, not %q", r.Header.Get("Content-Type"))
		}
	}
	return 0, nil
}

// pool bounds the requests of one kind that compute at once.
type pool struct {
	slots chan struct{}
	wait  time.Duration // how long a request may wait for a slot
	what  string        // for the message of a refusal
}

func newPool(n int, wait time.Duration, what string) *pool {
	return &pool{slots: make(chan struct{}, n), wait: wait, what: what}
}

// take waits for a slot (at most p.wait, and not past ctx) and returns
// the function that frees it, or a 503 error.
func (p *pool) take(ctx context.Context) (func(), error) {
	busy := &httpError{http.StatusServiceUnavailable, fmt.Errorf("%d %s are running: try again shortly", cap(p.slots), p.what)}
	select {
	case p.slots <- struct{}{}:
		return func() { <-p.slots }, nil
	default:
	}
	if p.wait <= 0 {
		return nil, busy
	}
	t := time.NewTimer(p.wait)
	defer t.Stop()
	select {
	case p.slots <- struct{}{}:
		return func() { <-p.slots }, nil
	case <-t.C:
		return nil, busy
	case <-ctx.Done():
		return nil, busy
	}
}
