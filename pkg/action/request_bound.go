// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultRequestTimeout bounds each request to the API server when
// --request-timeout is not given (kubectl's default, 0, waits forever: a
// paused or partitioned API server hangs the command). An API server
// answers a read in well under a second, and ends any request that is not
// a watch itself after a minute (its own --request-timeout); client-go
// already bounds discovery at 32 s. Thirty seconds leaves a slow LIST of a
// big cluster room, and ends before the minute after which MCP clients
// commonly give up on a tool call, so that they get this error instead of
// their own timeout.
//
// Watches are not bounded: --watch holds its watches open for as long as
// it runs (client-go ends and renews them), which a bound on the HTTP
// client (--request-timeout, rest.Config.Timeout) would cut.
const DefaultRequestTimeout = 30 * time.Second

// boundTransport bounds each request to the API server that is not a
// watch (bound 0: none but the HTTP client's, --request-timeout), and
// retries the GETs that failed for a passing reason (request_retry.go).
// Requests through the service proxy (Prometheus's) are left to
// their reader, which bounds and retries them itself.
type boundTransport struct {
	next    http.RoundTripper
	bound   time.Duration
	backoff time.Duration
}

// requestBound returns the wrapper of the REST config's transport.
func requestBound(bound time.Duration) func(http.RoundTripper) http.RoundTripper {
	return func(rt http.RoundTripper) http.RoundTripper {
		return &boundTransport{next: rt, bound: bound, backoff: readBackoff}
	}
}

// NoAnswerError is a request to the API server that got no answer within
// the default bound.
type NoAnswerError struct{ Bound time.Duration }

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("no answer within %s, the default bound of a request (--request-timeout sets another)", e.Bound)
}

func (t *boundTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if isWatch(req) || strings.Contains(req.URL.Path, "/proxy/") {
		return t.next.RoundTrip(req)
	}
	cancel := context.CancelFunc(func() {})
	if _, has := req.Context().Deadline(); !has && t.bound > 0 {
		var ctx context.Context
		ctx, cancel = context.WithTimeoutCause(req.Context(), t.bound, &NoAnswerError{Bound: t.bound})
		req = req.WithContext(ctx)
	}
	resp, err := t.send(req)
	if err != nil {
		err = t.cause(req.Context(), err)
		cancel()
		return nil, err
	}
	resp.Body = &boundBody{ReadCloser: resp.Body, ctx: req.Context(), cancel: cancel, t: t}
	return resp, nil
}

// cause is err, or the bound's error when the bound ended the request.
func (t *boundTransport) cause(ctx context.Context, err error) error {
	var na *NoAnswerError
	if errors.As(context.Cause(ctx), &na) {
		return na
	}
	return err
}

// isWatch reports whether req is a watch (?watch=true, or the old
// /watch/ paths).
func isWatch(req *http.Request) bool {
	switch req.URL.Query().Get("watch") {
	case "true", "1":
		return true
	}
	return strings.Contains(req.URL.Path, "/watch/")
}

// boundBody is an answer's body under the request's bound: the bound is
// released when the body is closed, and a read it cut says so.
type boundBody struct {
	io.ReadCloser
	ctx    context.Context
	cancel context.CancelFunc
	t      *boundTransport
}

func (b *boundBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = b.t.cause(b.ctx, err)
	}
	return n, err
}

func (b *boundBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
