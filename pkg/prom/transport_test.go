// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

const matrixAnswer = `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1764165600,"1"]]}]}}`

// fastRetries shortens the client's backoff (not a Retry-After).
func fastRetries(c *Client) *Client {
	c.hc.Transport.(*readTransport).backoff = time.Millisecond
	return c
}

// Without --prometheus-timeout every request is bounded by DefaultTimeout,
// and the error of a request that ran out says which bound and how to
// change it; the query's timeout parameter is sent only when the flag is
// given.
func TestDefaultBound(t *testing.T) {
	var params []string
	var mu sync.Mutex
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		params = append(params, r.Form.Get("timeout"))
		mu.Unlock()
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)

	c := newTestClient(t, srv.URL)
	ctx, cancel := c.reqContext(context.Background())
	deadline, ok := ctx.Deadline()
	cancel()
	if left := time.Until(deadline); !ok || left < DefaultTimeout-time.Second || left > DefaultTimeout {
		t.Fatalf("a request's deadline without --prometheus-timeout: %v (set %v), want %s", left, ok, DefaultTimeout)
	}
	c.bound = 100 * time.Millisecond // as if DefaultTimeout were that short
	start := time.Now()
	_, _, err := c.queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil)
	want := "prometheus " + srv.URL + ": read cpu usage: no answer within 100ms, the default bound of a request (--prometheus-timeout sets another) (query: up)"
	if err == nil || err.Error() != want {
		t.Errorf("default bound:\n got: %v\nwant: %s", err, want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the read ended after %s", d)
	}
	_, _, err = newTestClient(t, srv.URL, func(o *Config) { o.Timeout = 100 * time.Millisecond }).queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil)
	if err == nil || !strings.Contains(err.Error(), "no answer within 100ms (--prometheus-timeout)") {
		t.Errorf("--prometheus-timeout: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(params, ",") != ",100ms" {
		t.Errorf("timeout parameters sent: %q, want none, then 100ms", params)
	}
}

// A server that accepts the connection and never answers (not even HTTP)
// ends the read within the bound, in one line.
func TestSilentServerEndsWithinTheBound(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
		}
	}()
	defer func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	c := newTestClient(t, "http://"+ln.Addr().String(), func(o *Config) { o.Timeout = 200 * time.Millisecond })
	start := time.Now()
	_, _, err = c.queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil)
	elapsed := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms (--prometheus-timeout)") || strings.Contains(err.Error(), "\n") {
		t.Errorf("silent server: %v", err)
	}
	// The upper bound only catches a hang (a loaded machine stretches it).
	if elapsed < 200*time.Millisecond || elapsed > 30*time.Second {
		t.Errorf("the read ended after %s, want about 200ms", elapsed)
	}
}

// flaky answers the first len(fail) requests with fail's statuses (0: a
// reset connection), then the matrix; it checks that each request carries
// the query.
type flaky struct {
	t          *testing.T
	fail       []int
	retryAfter string
	body       string
	n          atomic.Int32
	times      []time.Time
	mu         sync.Mutex
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(f.n.Add(1)) - 1
	f.mu.Lock()
	f.times = append(f.times, time.Now())
	f.mu.Unlock()
	if err := r.ParseForm(); err != nil || r.Form.Get("query") != "up" {
		f.t.Errorf("attempt %d: form %v (%v): the query was not sent again", i+1, r.Form, err)
	}
	if i < len(f.fail) {
		if f.fail[i] == 0 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				f.t.Error(err)
				return
			}
			_ = conn.(*net.TCPConn).SetLinger(0) // a reset, not a clean close
			_ = conn.Close()
			return
		}
		if f.retryAfter != "" {
			w.Header().Set("Retry-After", f.retryAfter)
		}
		body := f.body
		if body == "" {
			body = "<html>try later</html>"
			w.Header().Set("Content-Type", "text/html")
		}
		w.WriteHeader(f.fail[i])
		_, _ = w.Write([]byte(body))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(matrixAnswer))
}

// Reads refused for a while (429), failed by a proxy or a restarting
// server (502, 503, 504) or whose connection was reset are sent again, at
// most four times in all, within the bound; Prometheus's own verdicts are
// not.
func TestRetries(t *testing.T) {
	for _, tc := range []struct {
		what     string
		fail     []int
		body     string
		attempts int32
		wantErr  string
	}{
		{"429, 502, 503, then the answer", []int{429, 502, 503}, "", 4, ""},
		{"a gateway timeout, then the answer", []int{504}, "", 2, ""},
		{"a reset, then the answer", []int{0}, "", 2, ""},
		{"two resets and a 503, then the answer", []int{0, 0, 503}, "", 4, ""},
		{"503 four times", []int{503, 503, 503, 503, 503}, "", 4, "server_error: server error: 503: <html>try later</html>"},
		{"Prometheus's query timeout", []int{503}, `{"status":"error","errorType":"timeout","error":"query timed out in expression evaluation"}`, 1, "query timed out"},
		{"a bad query", []int{400}, `{"status":"error","errorType":"bad_data","error":"parse error"}`, 1, "bad_data: parse error"},
		{"a server error", []int{500}, "", 1, "server error: 500"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			f := &flaky{t: t, fail: tc.fail, body: tc.body}
			srv := httptest.NewServer(f)
			defer srv.Close()
			n, _, err := fastRetries(newTestClient(t, srv.URL)).queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil)
			if tc.wantErr == "" && (err != nil || n != 1) {
				t.Errorf("%d series, %v", n, err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
			if got := f.n.Load(); got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
		})
	}
	// The instant queries (client_golang's) are retried alike.
	f := &flaky{t: t, fail: []int{502}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f.n.Load() == 0 {
			f.ServeHTTP(w, r)
			return
		}
		f.n.Add(1)
		_, _ = w.Write([]byte(vectorAnswer))
	}))
	defer srv.Close()
	if _, _, err := fastRetries(newTestClient(t, srv.URL)).instant(context.Background(), "cpu usage", "up", t0); err != nil || f.n.Load() != 2 {
		t.Errorf("instant: %v after %d attempts", err, f.n.Load())
	}
}

// A 429's Retry-After is waited, when it ends within the bound; one that
// would end after it is not, and the 429 is the answer.
func TestRetryAfter(t *testing.T) {
	f := &flaky{t: t, fail: []int{429}, retryAfter: "1"}
	srv := httptest.NewServer(f)
	defer srv.Close()
	if _, _, err := newTestClient(t, srv.URL).queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil); err != nil {
		t.Fatal(err)
	}
	if len(f.times) != 2 || f.times[1].Sub(f.times[0]) < time.Second {
		t.Errorf("attempts at %v: want two, a second apart", f.times)
	}

	f = &flaky{t: t, fail: []int{429}, retryAfter: "30"}
	srv2 := httptest.NewServer(f)
	defer srv2.Close()
	start := time.Now()
	_, _, err := newTestClient(t, srv2.URL, func(o *Config) { o.Timeout = 2 * time.Second }).queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil)
	if err == nil || !strings.Contains(err.Error(), "client error: 429") || time.Since(start) > 10*time.Second || f.n.Load() != 1 { // not the 30 s it was told to wait
		t.Errorf("a Retry-After past the bound: %v after %s and %d attempts", err, time.Since(start), f.n.Load())
	}
}

// A server that is no Prometheus HTTP API is named as such, in one line,
// whatever the query.
func TestNotPrometheus(t *testing.T) {
	html := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(code)
			_, _ = w.Write([]byte("<!DOCTYPE HTML>\n<html><body>hello</body></html>"))
		}
	}
	for _, tc := range []struct {
		what    string
		handler http.Handler
		path    string
		instant bool
		want    string
	}{
		{"404 page", http.NotFoundHandler(), "", false, "(POST /api/v1/query_range: 404 text/plain)"},
		{"404 page, instant query", http.NotFoundHandler(), "", true, "(POST /api/v1/query: 404 text/plain)"},
		{"a server without POST", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				html(http.StatusNotImplemented)(w, r)
				return
			}
			html(http.StatusNotFound)(w, r)
		}), "", false, "(GET /api/v1/query_range: 404 text/html)"},
		{"an HTML page for every path", html(http.StatusOK), "", false, "(POST /api/v1/query_range: 200 text/html)"},
		{"an HTML page, instant query", html(http.StatusOK), "", true, "(POST /api/v1/query: 200 text/html)"},
		{"JSON without status", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"data":{"resultType":"matrix","result":[]}}`))
		}), "", false, `(POST /api/v1/query_range: 200 application/json without the API's "status")`},
		{"an empty answer", http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), "", true, "(POST /api/v1/query: 200 no Content-Type with an empty body)"},
		{"under a path", http.NotFoundHandler(), "/prometheus", false, "(POST /api/v1/query_range: 404 text/plain)"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			c := fastRetries(newTestClient(t, srv.URL+tc.path))
			var err error
			if tc.instant {
				_, _, err = c.instant(context.Background(), "cpu usage", "up", t0)
			} else {
				_, _, err = c.queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil)
			}
			want := srv.URL + tc.path + " does not answer as a Prometheus HTTP API " + tc.want + "; check --prometheus"
			if err == nil || err.Error() != want {
				t.Errorf("\n got: %v\nwant: %s", err, want)
			}
			var np *NotPrometheusError
			if !errors.As(err, &np) {
				t.Errorf("%T is no NotPrometheusError", err)
			}
		})
	}
	// A Prometheus envelope whose keys run past what is looked at, with
	// status last, is still read.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"data":{"resultType":"matrix","result":[{"metric":{"pad":"` + strings.Repeat("x", 2*peekBytes) + `"},"values":[[1764165600,"1"]]}]},"status":"success"}`))
	}))
	defer srv.Close()
	if n, _, err := newTestClient(t, srv.URL).queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil); err != nil || n != 1 {
		t.Errorf("status after a long data: %d series, %v", n, err)
	}
}

// Through the API server's service proxy, the API server's own 404 (no
// such service) keeps its message; the service's 404 page is no
// Prometheus.
func TestNotPrometheusThroughTheServiceProxy(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/services/nope:9090/") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"services \"nope\" not found","reason":"NotFound","code":404}`))
			return
		}
		http.NotFound(w, r)
	}))
	defer api.Close()
	kube := &rest.Config{Host: api.URL}
	for _, tc := range []struct{ endpoint, want string }{
		{"monitoring/nope:9090", `services "nope" not found`},
		{"monitoring/web:80", "monitoring/web:80 does not answer as a Prometheus HTTP API (POST /api/v1/query_range: 404 text/plain); check --prometheus"},
	} {
		c, err := NewClient(Config{Endpoint: tc.endpoint}, kube)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.queryRange(context.Background(), "cpu usage", "up", rangeOf(t0, 2), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.endpoint, err, tc.want)
		}
		if tc.endpoint == "monitoring/nope:9090" && strings.Contains(err.Error(), "does not answer as") {
			t.Errorf("%s: the API server's Status taken for another server: %v", tc.endpoint, err)
		}
	}
}
