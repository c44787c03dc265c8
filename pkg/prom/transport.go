// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/internal/retry"
)

// DefaultTimeout bounds each request, its retries included, when
// --prometheus-timeout is not given: two minutes is Prometheus's own
// default --query.timeout (and Thanos's and Mimir's), past which the
// server has stopped evaluating the query itself, so a longer wait only
// waits on a server that hangs (or a proxy before it that never answers).
// A read of many days is many requests, each bounded alone.
const DefaultTimeout = 2 * time.Minute

// The retries of a read: a request refused for a while (429, honouring its
// Retry-After), failed by a proxy or a server that is restarting
// (502, 503, 504) or whose connection was reset is sent again, at most
// retryAttempts times in all, after 250 ms, 500 ms, then 1 s (each less a
// random part of up to half, so that many clients do not come back
// together), and never past the request's bound: a wait that would end
// after it is not waited, and the last answer is returned.
const (
	retryAttempts = 4
	retryBackoff  = 250 * time.Millisecond
)

// peekBytes is how much of an answer is looked at to tell a Prometheus
// envelope from another body.
const peekBytes = 4 << 10

// readTransport sends the client's requests (all of them reads: queries
// sent as POST or GET), retries those that failed for a passing reason,
// and stops an answer that does not come from a Prometheus HTTP API with
// a NotPrometheusError.
type readTransport struct {
	next http.RoundTripper
	// endpoint is the endpoint as shown; basePath is the path the API's
	// paths follow (the URL's, or the service proxy's).
	endpoint, basePath string
	// backoff is the first retry's wait (retryBackoff; tests shorten it).
	backoff time.Duration
}

func (t *readTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 1; ; attempt++ {
		try := req
		if attempt > 1 {
			var err error
			if try, err = rewind(req); err != nil {
				return nil, err
			}
		}
		resp, err := t.next.RoundTrip(try)
		last := attempt == retryAttempts || !replayable(req)
		if err != nil {
			if last || !transient(err) || !t.wait(ctx, attempt, nil) {
				return nil, err
			}
			continue
		}
		if !last && retryStatus(resp) {
			if t.wait(ctx, attempt, resp) {
				drain(resp)
				continue
			}
		}
		return t.check(req, resp)
	}
}

// replayable reports whether the request can be sent again: a read whose
// body (the form of a POST query) can be made anew.
func replayable(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		return true
	case http.MethodPost:
		return req.GetBody != nil && isQueryPath(req.URL.Path)
	}
	return false
}

// isQueryPath reports whether path is one of the API's read endpoints
// that take a POST.
func isQueryPath(path string) bool {
	for _, p := range []string{"/api/v1/query", "/api/v1/query_range", "/api/v1/series", "/api/v1/labels", "/api/v1/read"} {
		if strings.HasSuffix(path, p) {
			return true
		}
	}
	return false
}

// rewind is req again, with a new copy of its body.
func rewind(req *http.Request) (*http.Request, error) {
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	return r, nil
}

// transient reports whether a failed exchange may succeed if sent again:
// the connection was reset or closed before the answer.
func transient(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		strings.Contains(err.Error(), "connection reset by peer")
}

// retryStatus reports whether an answer says to come back later: 429, or
// 502, 503, 504 that are not Prometheus's own verdict on the query (a 503
// "timeout" means the query is too heavy, and would be again).
func retryStatus(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusGatewayTimeout:
		return true
	case http.StatusServiceUnavailable:
		var env struct {
			Status    string `json:"status"`
			ErrorType string `json:"errorType"`
		}
		head := peek(resp)
		if json.Unmarshal(head, &env) == nil && env.Status == "error" {
			return env.ErrorType != "timeout" && env.ErrorType != "canceled"
		}
		return true
	}
	return false
}

// wait sleeps before attempt+1: the answer's Retry-After, else the
// backoff; false, without waiting, when the wait would pass the request's
// deadline (or the request is canceled meanwhile).
func (t *readTransport) wait(ctx context.Context, attempt int, resp *http.Response) bool {
	d, ok := retry.After(resp)
	if !ok {
		d = retry.Backoff(t.backoff, attempt)
	}
	return retry.Wait(ctx, d)
}

// drain reads a little of an answer not used and closes it, so that its
// connection can serve the retry.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, peekBytes))
	_ = resp.Body.Close()
}

// peek returns the start of the answer's body, leaving the body whole.
func peek(resp *http.Response) []byte {
	br := bufio.NewReaderSize(resp.Body, peekBytes)
	head, _ := br.Peek(peekBytes)
	resp.Body = struct {
		io.Reader
		io.Closer
	}{br, resp.Body}
	return head
}

// NotPrometheusError is an answer that does not come from a Prometheus
// HTTP API: an HTML page, a 404 where the API answers every query, a JSON
// document without the API's "status": --prometheus names another server
// (or the wrong path, port or service).
type NotPrometheusError struct {
	// Endpoint is the endpoint as shown.
	Endpoint string
	// Method and Path are the request's, the path after the endpoint's.
	Method, Path string
	Status       int
	// What the body is: its media type, and why it is not the API's.
	ContentType, Why string
}

func (e *NotPrometheusError) Error() string {
	ct := e.ContentType
	if ct == "" {
		ct = "no Content-Type"
	}
	what := fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, ct)
	if e.Why != "" {
		what += " " + e.Why
	}
	return fmt.Sprintf("%s does not answer as a Prometheus HTTP API (%s); check --%s", e.Endpoint, what, FlagEndpoint)
}

// check returns resp, or a NotPrometheusError when the answer to an API
// path is not the API's.
func (t *readTransport) check(req *http.Request, resp *http.Response) (*http.Response, error) {
	if !strings.Contains(req.URL.Path, "/api/v1/") {
		return resp, nil
	}
	if strings.HasSuffix(req.URL.Path, "/api/v1/read") {
		// The remote-read API answers in frames of protobuf, and what is
		// not its answer sends the read to the query API (remoteread.go).
		return resp, nil
	}
	why, bad := "", false
	switch {
	case resp.StatusCode == http.StatusNotFound:
		// The API answers every query path; a 404 is another server's,
		// unless the API server's service proxy says what it did not find.
		bad = !isKubernetesStatus(peek(resp))
	case resp.StatusCode/100 == 2:
		why, bad = notEnvelope(peek(resp))
	}
	if !bad {
		return resp, nil
	}
	drain(resp)
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return nil, &NotPrometheusError{
		Endpoint: t.endpoint, Method: req.Method, Path: "/" + strings.TrimLeft(strings.TrimPrefix(req.URL.Path, t.basePath), "/"),
		Status: resp.StatusCode, ContentType: ct, Why: why,
	}
}

// isKubernetesStatus reports whether a body is a Kubernetes Status (the
// API server's own answer, from its service proxy).
func isKubernetesStatus(head []byte) bool {
	var s struct {
		Kind string `json:"kind"`
	}
	return json.Unmarshal(head, &s) == nil && s.Kind == "Status"
}

// notEnvelope reports whether the start of a successful answer shows that
// it is not the API's envelope, and why: it is not a JSON object, or its
// top-level keys, all within head, have no "status". An envelope whose
// keys run past head is given the benefit of the doubt (the decoders
// still check it).
func notEnvelope(head []byte) (string, bool) {
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 {
		return "with an empty body", true
	}
	if trimmed[0] != '{' {
		return "", true
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err != nil {
		return "", false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", false
		}
		if key == "status" {
			return "", false
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false
		}
	}
	if _, err := dec.Token(); err != nil {
		return "", false
	}
	return `without the API's "status"`, true
}
