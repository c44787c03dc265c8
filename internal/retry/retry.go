// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package retry holds what the two clients that retry reads (the API
// server's, in pkg/action, and Prometheus's, in pkg/prom) wait by: an
// answer's Retry-After, the backoff when it says nothing, and a wait that
// never passes the request's deadline. Which answers and errors are worth
// a retry stays with each client: they differ.
package retry

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MaxUnbounded bounds a wait when the request has no deadline.
const MaxUnbounded = time.Minute

// After is an answer's Retry-After: seconds, or an HTTP date (false when
// resp is nil or says nothing usable).
func After(resp *http.Response) (time.Duration, bool) {
	if resp == nil {
		return 0, false
	}
	v := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(time.Until(at), 0), true
	}
	return 0, false
}

// Backoff is the wait before attempt+1 (attempt counts from 1) when the
// answer does not say: base doubled per attempt, less a random part of up
// to half, so that many clients do not come back together.
func Backoff(base time.Duration, attempt int) time.Duration {
	d := base << (attempt - 1)
	return d - rand.N(d/2+1) //nolint:gosec // jitter, not a secret
}

// Wait sleeps d and reports whether to retry: false, without waiting, when
// the wait would pass ctx's deadline (or, without one, MaxUnbounded), and
// false when ctx ends meanwhile.
func Wait(ctx context.Context, d time.Duration) bool {
	deadline, bounded := ctx.Deadline()
	switch {
	case bounded && time.Until(deadline) <= d:
		return false
	case !bounded && d > MaxUnbounded:
		return false
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
