// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func TestExplainModesCheck(t *testing.T) {
	one := ExplainModes{Args: []string{"web"}, Name: "web"}
	for _, tc := range []struct {
		name  string
		modes func(m ExplainModes) ExplainModes
		want  string
	}{
		{"one HPA", func(m ExplainModes) ExplainModes { return m }, ""},
		{"watch of a namespace", func(ExplainModes) ExplainModes { return ExplainModes{Watch: true} }, ""},
		{"two names", func(m ExplainModes) ExplainModes { m.Args = []string{"a", "b"}; return m }, "at most one HorizontalPodAutoscaler name is expected, got 2: [a b]"},
		{"name and -A", func(m ExplainModes) ExplainModes { m.AllNamespaces = true; return m }, "a NAME cannot be combined with -A or -l"},
		{"name and -l", func(m ExplainModes) ExplainModes { m.Selector = "app=web"; return m }, "a NAME cannot be combined with -A or -l"},
		{"-f without name", func(ExplainModes) ExplainModes { return ExplainModes{Files: true} }, "the name of the HorizontalPodAutoscaler is required with -f"},
		{"--dump without name", func(ExplainModes) ExplainModes { return ExplainModes{Dump: true} }, "--dump writes the snapshot of one HPA: give its NAME"},
		{"--watch -f", func(m ExplainModes) ExplainModes { m.Watch, m.Files = true, true; return m }, "--watch follows a live cluster; it cannot be combined with -f"},
		{"--watch --dump", func(m ExplainModes) ExplainModes { m.Watch, m.Dump = true, true; return m }, "--watch and --dump cannot be combined"},
		{"--watch --now", func(m ExplainModes) ExplainModes { m.Watch, m.Now = true, true; return m }, "--watch replays at the current time; it cannot be combined with --now"},
		{"--at without name", func(ExplainModes) ExplainModes { return ExplainModes{At: true} }, "--at explains one HPA's past sync: give its NAME, without --watch or --dump"},
		{"--at --dump", func(m ExplainModes) ExplainModes { m.At, m.Dump = true, true; return m }, "--at explains one HPA's past sync: give its NAME, without --watch or --dump"},
		{"--watch --exit-code", func(m ExplainModes) ExplainModes { m.Watch, m.Gate = true, true; return m }, "--exit-code gates on one replay, and a watch ends only when stopped (with exit 0): drop --exit-code or --watch"},
	} {
		err := tc.modes(one).Check()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestNoneFound(t *testing.T) {
	for _, tc := range []struct {
		res  ManyResult
		all  bool
		want string
	}{
		{ManyResult{Namespace: "shop"}, false, `No HorizontalPodAutoscalers found in namespace "shop".`},
		{ManyResult{}, true, "No HorizontalPodAutoscalers found in any namespace."},
		{ManyResult{Namespace: "shop", Count: 1}, false, ""},
		{ManyResult{Namespace: "shop", KEDA: []*explain.KEDA{{}}}, false, ""},
	} {
		if got := tc.res.NoneFound(tc.all); got != tc.want {
			t.Errorf("%+v, all namespaces %v: %q, want %q", tc.res, tc.all, got, tc.want)
		}
	}
}

func TestParseNow(t *testing.T) {
	clock := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)) }
	if got, err := ParseNow("", clock); err != nil || !got.Equal(clock()) || got.Location() != time.UTC {
		t.Errorf("no --now: %v %v, want the clock's time in UTC", got, err)
	}
	got, err := ParseNow("2026-01-01T12:00:00.5+01:00", clock)
	if want := time.Date(2026, 1, 1, 11, 0, 0, 5e8, time.UTC); err != nil || !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("--now with an offset: %v %v, want %v", got, err, want)
	}
	if _, err := ParseNow("yesterday", clock); err == nil || !strings.HasPrefix(err.Error(), `--now: "yesterday" is not an RFC 3339 time`) {
		t.Errorf("a bad --now: %v", err)
	}
}
