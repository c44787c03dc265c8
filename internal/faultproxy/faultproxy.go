// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package faultproxy is a reverse proxy for tests that stands in front of
// a server (a fake API server, a fake Prometheus, or a real one) and
// injects faults into chosen requests: latency, an error status with or
// without Retry-After, a connection reset, or a body cut short. Which
// requests are hit is deterministic: by method and path pattern, by
// their count, and by a probability drawn from a seeded generator.
package faultproxy

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Kind is what a fault does to a request it hits.
type Kind int

const (
	// Pass forwards the request (a rule that shields requests from the
	// rules after it).
	Pass Kind = iota
	// Latency waits Fault.Latency, then forwards the request (the wait
	// ends early when the client goes away).
	Latency
	// Status answers Fault.Status itself, with Fault.RetryAfter as
	// Retry-After when set, without forwarding.
	Status
	// Reset resets the connection (TCP RST) before any answer.
	Reset
	// Truncate forwards the request, then sends the answer's status,
	// headers and Content-Length whole but only Fault.KeepBytes of its
	// body (half when KeepBytes is 0), and closes the connection.
	Truncate
	// Hang never answers: it holds the request until the client goes
	// away or the proxy is closed.
	Hang
)

func (k Kind) String() string {
	switch k {
	case Pass:
		return "pass"
	case Latency:
		return "latency"
	case Status:
		return "status"
	case Reset:
		return "reset"
	case Truncate:
		return "truncate"
	case Hang:
		return "hang"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Fault is one rule. A request is matched by the first rule whose Method
// and Path match it; that rule counts it, and hits it when the count is
// past After, within Times, and the draw is below Probability.
type Fault struct {
	// Method matches the request's method; empty matches any.
	Method string
	// Path matches the request's path: a pattern where '*' stands for any
	// run of characters, '/' included; empty matches any.
	Path string
	// After is how many matching requests pass before the first is hit.
	After int
	// Times is how many are hit (after After); 0 is every one.
	Times int
	// Probability hits a request within After and Times with this
	// probability, drawn from the proxy's seeded generator; 0 is always.
	Probability float64

	Kind Kind
	// Latency is the wait of a Latency fault.
	Latency time.Duration
	// Status, RetryAfter and Body are the answer of a Status fault (a
	// short text body when Body is empty).
	Status     int
	RetryAfter string
	Body       string
	// KeepBytes is how much of the body a Truncate fault sends.
	KeepBytes int
}

// Hit is a request a fault hit, in the order they came.
type Hit struct {
	Method, Path string
	Kind         Kind
}

// Proxy is a running fault proxy.
type Proxy struct {
	// URL is the proxy's address, to use in place of the target's.
	URL string

	srv      *httptest.Server
	target   *url.URL
	upstream http.RoundTripper
	rp       *httputil.ReverseProxy

	mu       sync.Mutex
	rules    []rule
	rng      *rand.Rand
	requests int
	hits     []Hit
	closed   chan struct{}
}

type rule struct {
	Fault
	re   *regexp.Regexp
	seen int
}

// Options are a proxy's less common settings.
type Options struct {
	// TLS serves the proxy over HTTPS (httptest's certificate; clients
	// skip verification or use Proxy.Client).
	TLS bool
	// Upstream sends the requests to the target (http.DefaultTransport
	// when nil); a target over HTTPS with its own CA needs one.
	Upstream http.RoundTripper
	// Seed seeds the generator of the probabilities.
	Seed uint64
}

// New starts a proxy in front of target with the given faults.
func New(target string, opts Options, faults ...Fault) (*Proxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, fmt.Errorf("faultproxy: target %q: %w", target, err)
	}
	up := opts.Upstream
	if up == nil {
		up = http.DefaultTransport
	}
	p := &Proxy{target: u, upstream: up, rng: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15)), closed: make(chan struct{})}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.Host = u.Host
		},
		Transport: up,
		// Flush at once: watches and streamed answers pass as they come.
		FlushInterval: -1,
		ErrorLog:      log.New(io.Discard, "", 0),
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, "faultproxy: upstream: "+err.Error(), http.StatusBadGateway)
		},
	}
	if err := p.SetFaults(faults...); err != nil {
		return nil, err
	}
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(p.serve))
	// The faults make the server's own log speak (handshakes cut by a
	// reset, answers abandoned): tests have no use for it.
	p.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if opts.TLS {
		p.srv.StartTLS()
	} else {
		p.srv.Start()
	}
	p.URL = p.srv.URL
	return p, nil
}

// Client is an HTTP client that trusts the proxy's certificate.
func (p *Proxy) Client() *http.Client { return p.srv.Client() }

// Close stops the proxy and ends its held requests.
func (p *Proxy) Close() {
	p.mu.Lock()
	select {
	case <-p.closed:
	default:
		close(p.closed)
	}
	p.mu.Unlock()
	p.srv.CloseClientConnections()
	p.srv.Close()
}

// SetFaults replaces the rules, their counts starting again from zero.
func (p *Proxy) SetFaults(faults ...Fault) error {
	rules := make([]rule, len(faults))
	for i, f := range faults {
		re, err := compile(f.Path)
		if err != nil {
			return err
		}
		rules[i] = rule{Fault: f, re: re}
	}
	p.mu.Lock()
	p.rules = rules
	p.mu.Unlock()
	return nil
}

// Requests is how many requests the proxy received.
func (p *Proxy) Requests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

// Hits are the requests the faults hit, in order.
func (p *Proxy) Hits() []Hit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Hit(nil), p.hits...)
}

// compile turns a path pattern into a regular expression.
func compile(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, nil
	}
	parts := strings.Split(pattern, "*")
	for i, s := range parts {
		parts[i] = regexp.QuoteMeta(s)
	}
	re, err := regexp.Compile("^" + strings.Join(parts, ".*") + "$")
	if err != nil {
		return nil, fmt.Errorf("faultproxy: path pattern %q: %w", pattern, err)
	}
	return re, nil
}

// pick returns the fault that hits r, if any.
func (p *Proxy) pick(r *http.Request) (Fault, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	for i := range p.rules {
		ru := &p.rules[i]
		if ru.Method != "" && !strings.EqualFold(ru.Method, r.Method) {
			continue
		}
		if ru.re != nil && !ru.re.MatchString(r.URL.Path) {
			continue
		}
		ru.seen++
		n := ru.seen - ru.After
		if n <= 0 || (ru.Times > 0 && n > ru.Times) {
			return Fault{}, false
		}
		if ru.Probability > 0 && p.rng.Float64() >= ru.Probability {
			return Fault{}, false
		}
		if ru.Kind != Pass {
			p.hits = append(p.hits, Hit{Method: r.Method, Path: r.URL.Path, Kind: ru.Kind})
		}
		return ru.Fault, true
	}
	return Fault{}, false
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	f, hit := p.pick(r)
	if !hit {
		p.rp.ServeHTTP(w, r)
		return
	}
	switch f.Kind {
	case Latency:
		t := time.NewTimer(f.Latency)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-p.closed:
			panic(http.ErrAbortHandler)
		}
		p.rp.ServeHTTP(w, r)
	case Status:
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		body := f.Body
		if body == "" {
			body = fmt.Sprintf("faultproxy: %d %s\n", f.Status, http.StatusText(f.Status))
		}
		if strings.HasPrefix(body, "{") {
			w.Header().Set("Content-Type", "application/json")
		} else {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		}
		w.WriteHeader(f.Status)
		_, _ = io.WriteString(w, body)
	case Reset:
		reset(w)
	case Truncate:
		p.truncate(w, r, f.KeepBytes)
	case Hang:
		select {
		case <-r.Context().Done():
		case <-p.closed:
		}
		// Returning would answer 200 with an empty body: the connection
		// is dropped instead, as a server that never answered.
		panic(http.ErrAbortHandler)
	default:
		p.rp.ServeHTTP(w, r)
	}
}

// reset takes the connection over and closes it with a TCP RST.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	raw := conn
	if tc, ok := conn.(*tls.Conn); ok {
		raw = tc.NetConn()
	}
	if tcp, ok := raw.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

// truncate forwards r, and writes the answer with its full Content-Length
// but only keep bytes of the body before closing the connection.
func (p *Proxy) truncate(w http.ResponseWriter, r *http.Request, keep int) {
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.URL.Scheme, out.URL.Host, out.Host = p.target.Scheme, p.target.Host, p.target.Host
	resp, err := p.upstream.RoundTrip(out)
	if err != nil {
		http.Error(w, "faultproxy: upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		http.Error(w, "faultproxy: upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	if keep <= 0 || keep >= len(body) {
		keep = len(body) / 2
	}
	conn, bw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	var head bytes.Buffer
	fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\n", resp.StatusCode, http.StatusText(resp.StatusCode))
	h := resp.Header.Clone()
	h.Del("Transfer-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Connection", "close")
	_ = h.Write(&head)
	head.WriteString("\r\n")
	_, _ = bw.Write(head.Bytes())
	_, _ = bw.Write(body[:keep])
	_ = bw.Flush()
}
