// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package retry

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestAfter(t *testing.T) {
	for _, c := range []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), 0, true},
	} {
		resp := &http.Response{Header: http.Header{}}
		if c.header != "" {
			resp.Header.Set("Retry-After", c.header)
		}
		if got, ok := After(resp); got != c.want || ok != c.ok {
			t.Errorf("Retry-After %q: %v, %v; want %v, %v", c.header, got, ok, c.want, c.ok)
		}
	}
	if _, ok := After(nil); ok {
		t.Error("no answer: a Retry-After")
	}
}

func TestBackoff(t *testing.T) {
	for attempt, full := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond} {
		for range 100 {
			if d := Backoff(100*time.Millisecond, attempt); d > full || d < full/2 {
				t.Fatalf("attempt %d: %v, want within [%v, %v]", attempt, d, full/2, full)
			}
		}
	}
}

func TestWait(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if Wait(ctx, time.Second) {
		t.Error("a wait past the deadline was waited")
	}
	if !Wait(ctx, time.Millisecond) {
		t.Error("a wait within the deadline was refused")
	}
	if Wait(context.Background(), MaxUnbounded+time.Second) {
		t.Error("a wait past MaxUnbounded without a deadline was waited")
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if Wait(done, time.Millisecond) {
		t.Error("a canceled request waited")
	}
}
