// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/internal/retry"
)

// The retries of a read. Every GET to the API server but a watch's is
// retried here, in the transport, within the request's bound; writes are
// never retried here.
//
// client-go's rest.Request retries on its own, outside the transport: any
// request, up to ten times, whose answer is a 429 or a 5xx carrying a
// Retry-After in seconds, sleeping what it says whatever the caller's
// bound (its sleep is not in the transport, so a Retry-After of minutes
// would be waited whole), and a GET whose connection was reset or closed
// before the answer, as if the server had said Retry-After: 1. It does not
// retry an answer without Retry-After, nor a body cut short while it is
// read ("unexpected error when reading response body").
//
// So that the two do not multiply (ten of client-go's on top of each of
// ours), what reaches client-go after a GET's last attempt is something it
// does not retry: the Retry-After is taken off an answer given up on, and
// a connection lost is a ConnLostError, which does not unwrap to the
// network's error. Writes (migrate's) keep client-go's retries on
// Retry-After: the API server's priority and fairness sets it on the 429s
// of requests it has not run.
const (
	// readAttempts bounds the attempts of a GET retried on a failure that
	// does not say when to come back: 429, 500, 502, 503 or 504 without
	// Retry-After, or the connection lost. The waits are 250 ms, 500 ms,
	// then 1 s, each less a random part of up to half, so that many
	// clients do not come back together.
	readAttempts = 4
	readBackoff  = 250 * time.Millisecond
	// retryAfterAttempts bounds the attempts of a GET whose answers say
	// when to come back: client-go's ten retries and the first attempt.
	retryAfterAttempts = 11
	// bufferedBody is how much of a GET's answer is read in the transport
	// to find a body cut short while it can still be retried; the rest of
	// a longer answer streams as it comes.
	bufferedBody = 4 << 20
)

// send sends req, and a GET again while it failed for a passing reason
// and the bound leaves time for the wait.
func (t *boundTransport) send(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		return t.next.RoundTrip(req)
	}
	ctx := req.Context()
	start := time.Now()
	for attempt := 1; ; attempt++ {
		resp, err := t.next.RoundTrip(req)
		var read int64 = -1
		if err == nil {
			if read, err = bufferBody(resp); err != nil {
				resp = nil
			}
		}
		if err != nil {
			if ctx.Err() != nil || !connLost(err) {
				return nil, err
			}
			if attempt >= readAttempts || !retry.Wait(ctx, retry.Backoff(t.backoff, attempt)) {
				return nil, &ConnLostError{Attempts: attempt, Elapsed: time.Since(start), Reset: errors.Is(err, syscall.ECONNRESET) || strings.Contains(err.Error(), "reset by peer"), Read: read}
			}
			continue
		}
		if !retryStatus(resp) {
			return resp, nil
		}
		d, said := retry.After(resp)
		limit := readAttempts
		if said {
			limit = retryAfterAttempts
		} else {
			d = retry.Backoff(t.backoff, attempt)
		}
		if attempt >= limit || !retry.Wait(ctx, d) {
			// Given up on: client-go would wait its Retry-After again.
			resp.Header.Del("Retry-After")
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		_ = resp.Body.Close()
	}
}

// retryStatus reports whether an answer says to come back later: a 429,
// 500, 502, 503 or 504 (the API server's 500s include etcd's passing
// "leader changed" and "request timed out"), or another 5xx that says when.
func retryStatus(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return resp.StatusCode >= 500 && resp.Header.Get("Retry-After") != ""
}

// connLost reports whether an exchange failed because the connection
// was reset or closed before the whole answer, which a retry may not meet.
func connLost(err error) bool {
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"connection reset by peer", "use of closed network connection", "http2: client connection lost", "server sent GOAWAY", "broken connection"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// bufferBody reads up to bufferedBody of resp's body, so that a body cut
// short is found while the GET can be sent again, and returns how much it
// read. A longer body is handed on as it comes after what was read.
func bufferBody(resp *http.Response) (int64, error) {
	if resp.Body == nil || resp.Body == http.NoBody || resp.ContentLength > bufferedBody {
		return 0, nil
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength))
	}
	n, err := io.Copy(&buf, io.LimitReader(resp.Body, bufferedBody+1))
	if err != nil {
		_ = resp.Body.Close()
		return n, err
	}
	if n > bufferedBody {
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(&buf, resp.Body), resp.Body}
		return n, nil
	}
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(&buf)
	return n, nil
}

// ConnLostError is a GET whose connection was lost at every attempt. Its
// message names none of the network's errors, and it does not unwrap to
// them, so that client-go does not send the GET again (see readAttempts).
type ConnLostError struct {
	Attempts int
	Elapsed  time.Duration
	// Reset says the server reset the connection, rather than closed it.
	Reset bool
	// Read is how much of the last answer's body came before the
	// connection was lost, -1 when no answer came.
	Read int64
}

func (e *ConnLostError) Error() string {
	what := "the connection was closed before the answer"
	switch {
	case e.Read >= 0:
		what = fmt.Sprintf("the answer was cut short after %d bytes of its body", e.Read)
	case e.Reset:
		what = "the connection was reset before the answer"
	}
	n := "attempt"
	if e.Attempts > 1 {
		n = "attempts"
	}
	return fmt.Sprintf("%s (%d %s in %s)", what, e.Attempts, n, e.Elapsed.Round(time.Millisecond))
}
