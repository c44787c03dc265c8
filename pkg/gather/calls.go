// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"net/http"
	"sort"
	"strings"
	"sync"
)

// CallCounter counts the HTTP requests made by the clients, by verb and path.
type CallCounter struct {
	mu    sync.Mutex
	calls []string
}

// Wrap returns a round tripper that records every request.
func (c *CallCounter) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		c.mu.Lock()
		c.calls = append(c.calls, req.Method+" "+req.URL.Path)
		c.mu.Unlock()
		return rt.RoundTrip(req)
	})
}

// Calls returns the recorded requests, sorted.
func (c *CallCounter) Calls() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]string(nil), c.calls...)
	sort.Strings(out)
	return out
}

// Writes returns the recorded requests that were not reads.
func (c *CallCounter) Writes() []string {
	var out []string
	for _, call := range c.Calls() {
		if !strings.HasPrefix(call, "GET ") {
			out = append(out, call)
		}
	}
	return out
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
