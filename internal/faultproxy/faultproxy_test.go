// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package faultproxy

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// upstream answers "hello, world: PATH" to every request, and counts them.
func upstream(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	n := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "hello, world: "+r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv, n
}

func start(t *testing.T, target string, opts Options, faults ...Fault) *Proxy {
	t.Helper()
	p, err := New(target, opts, faults...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// get is a GET through a client that keeps no connection between
// requests, so that a fault on one connection does not reach the next.
func get(client *http.Client, u string) (*http.Response, string, error) {
	req, _ := http.NewRequest(http.MethodGet, u, http.NoBody)
	req.Close = true
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

func TestPassThrough(t *testing.T) {
	up, n := upstream(t)
	p := start(t, up.URL, Options{})
	resp, body, err := get(http.DefaultClient, p.URL+"/a/b?x=1")
	if err != nil || resp.StatusCode != 200 || body != "hello, world: /a/b" {
		t.Fatalf("%v %v %q", resp, err, body)
	}
	if n.Load() != 1 || p.Requests() != 1 || len(p.Hits()) != 0 {
		t.Errorf("upstream %d, proxy %d, hits %v", n.Load(), p.Requests(), p.Hits())
	}
}

// Each kind of fault does what it says, on the requests its rule picks
// by method, path, After and Times.
func TestFaults(t *testing.T) {
	up, n := upstream(t)
	p := start(t, up.URL, Options{},
		Fault{Path: "/pass/*", Kind: Pass},
		Fault{Method: "GET", Path: "/status/*", After: 1, Times: 2, Kind: Status, Status: 429, RetryAfter: "3"},
		Fault{Path: "/reset", Kind: Reset},
		Fault{Path: "/truncate", Kind: Truncate, KeepBytes: 5},
		Fault{Path: "/slow", Kind: Latency, Latency: 150 * time.Millisecond},
		Fault{Path: "*", Kind: Status, Status: 503},
	)
	// A Pass rule shields its requests from the catch-all after it.
	if resp, body, err := get(http.DefaultClient, p.URL+"/pass/x"); err != nil || resp.StatusCode != 200 || body != "hello, world: /pass/x" {
		t.Errorf("pass: %v %v %q", resp, err, body)
	}
	// The first /status/ request passes, the next two are refused with
	// Retry-After, the fourth passes.
	var codes []int
	for range 4 {
		resp, _, err := get(http.DefaultClient, p.URL+"/status/x")
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, resp.StatusCode)
		if resp.StatusCode == 429 && resp.Header.Get("Retry-After") != "3" {
			t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
		}
	}
	if want := []int{200, 429, 429, 200}; !equal(codes, want) {
		t.Errorf("codes %v, want %v", codes, want)
	}
	// A POST to /status/ is not matched by the GET rule, and falls to the
	// catch-all.
	if resp, err := http.Post(p.URL+"/status/x", "text/plain", strings.NewReader("x")); err != nil || resp.StatusCode != 503 {
		t.Errorf("POST: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	_, _, err := get(http.DefaultClient, p.URL+"/reset")
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("reset: %v, want ECONNRESET", err)
	}

	resp, body, err := get(http.DefaultClient, p.URL+"/truncate")
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.ContentLength != int64(len("hello, world: /truncate")) || body != "hello" {
		t.Errorf("truncate: %v, Content-Length %d, body %q", err, resp.ContentLength, body)
	}

	start := time.Now()
	if _, body, err := get(http.DefaultClient, p.URL+"/slow"); err != nil || body != "hello, world: /slow" || time.Since(start) < 150*time.Millisecond {
		t.Errorf("latency: %v %q after %s", err, body, time.Since(start))
	}

	kinds := []Kind{}
	for _, h := range p.Hits() {
		kinds = append(kinds, h.Kind)
	}
	if got, want := fmtKinds(kinds), "status status status reset truncate latency"; got != want {
		t.Errorf("hits %s, want %s", got, want)
	}
	// Upstream saw: pass, status x2 passed, truncate, slow.
	if n.Load() != 5 {
		t.Errorf("upstream saw %d requests, want 5", n.Load())
	}
}

// A probability picks the same requests for the same seed, and about the
// share asked for.
func TestProbabilityIsSeeded(t *testing.T) {
	up, _ := upstream(t)
	run := func(seed uint64) string {
		p := start(t, up.URL, Options{Seed: seed}, Fault{Kind: Status, Status: 500, Probability: 0.3})
		var b strings.Builder
		for range 200 {
			resp, _, err := get(http.DefaultClient, p.URL+"/x")
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode == 500 {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	a, b, c := run(7), run(7), run(8)
	if a != b {
		t.Errorf("seed 7 twice:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 hit the same requests")
	}
	if k := strings.Count(a, "x"); k < 35 || k > 85 {
		t.Errorf("%d of 200 hit at probability 0.3", k)
	}
}

// A hanging request ends when the client gives up, and Close ends the
// ones still held.
func TestHang(t *testing.T) {
	up, _ := upstream(t)
	p := start(t, up.URL, Options{}, Fault{Kind: Hang})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/x", http.NoBody)
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hang: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := get(http.DefaultClient, p.URL+"/y")
		done <- err
	}()
	// Close only once the proxy holds the request: its fault hit it and it
	// has not ended. Closed earlier, the request would fail to connect and
	// the test would pass without a hang to end.
	if !hit(p, Hit{Method: http.MethodGet, Path: "/y", Kind: Hang}, 10*time.Second) {
		t.Fatalf("the proxy never took the request to hang (hits %v)", p.Hits())
	}
	select {
	case err := <-done:
		t.Fatalf("the request ended before Close: %v", err)
	default:
	}
	p.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a held request got an answer")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end a held request")
	}
}

// hit waits until the proxy's faults have hit want, at most bound, and
// says whether they did.
func hit(p *Proxy, want Hit, bound time.Duration) bool {
	deadline := time.Now().Add(bound)
	for {
		if slices.Contains(p.Hits(), want) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

// Over TLS, the faults that take the connection over still work.
func TestTLS(t *testing.T) {
	up, _ := upstream(t)
	p := start(t, up.URL, Options{TLS: true}, Fault{Path: "/reset", Kind: Reset}, Fault{Path: "/truncate", Kind: Truncate})
	if !strings.HasPrefix(p.URL, "https://") {
		t.Fatalf("URL %s", p.URL)
	}
	c := p.Client()
	if _, body, err := get(c, p.URL+"/ok"); err != nil || body != "hello, world: /ok" {
		t.Errorf("pass: %v %q", err, body)
	}
	if _, _, err := get(c, p.URL+"/reset"); err == nil {
		t.Error("reset over TLS: no error")
	}
	if _, body, err := get(c, p.URL+"/truncate"); !errors.Is(err, io.ErrUnexpectedEOF) || body != "hello, worl" {
		t.Errorf("truncate over TLS: %v %q", err, body)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func fmtKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, " ")
}
