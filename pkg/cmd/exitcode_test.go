// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// explainExample is explain of a snapshot of docs/examples at the instant
// of its header.
func explainExample(name, ns, file, now string, extra ...string) []string {
	return append([]string{"explain", name, "-n", ns, "-f", "../../docs/examples/" + file, "--now", now}, extra...)
}

// --exit-code and --fail-on on offline snapshots: each problem category,
// the default set and its changes, and what stays an error.
func TestExplainExitCode(t *testing.T) {
	unknownMetric := func(extra ...string) []string {
		return explainExample("web", "shop", "troubleshooting/unknown-metric.yaml", "2026-03-10T09:00:00Z", extra...)
	}
	scaleUp := func(extra ...string) []string {
		return explainExample("web", "shop", "cpu-scale-up-unready.yaml", "2026-01-01T00:00:00Z", extra...)
	}
	atMin := func(extra ...string) []string {
		return explainExample("notifications", "shop", "troubleshooting/scale-down-min-replicas.yaml", "2026-03-13T03:10:00Z", extra...)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"problems without the flag", unknownMetric(), 0, ""},
		{"metric-failed and scaling-inactive", unknownMetric("--exit-code"), 2, "problems found: shop/web: metric-failed, scaling-inactive\n"},
		{"--fail-on implies --exit-code", unknownMetric("--fail-on", "metric-failed"), 2, "problems found: shop/web: metric-failed\n"},
		{"a list replaces the default", unknownMetric("--fail-on", "limited,disagrees"), 0, ""},
		{"-o json prints the document", unknownMetric("--exit-code", "-o", "json"), 2, "problems found: shop/web: metric-failed, scaling-inactive\n"},
		{
			"scaling-inactive alone",
			explainExample("web", "shop", "troubleshooting/ambiguous-selector.yaml", "2026-03-21T10:00:00Z", "--exit-code"),
			2, "problems found: shop/web: scaling-inactive\n",
		},
		{"disagrees", scaleUp("--exit-code"), 2, "problems found: shop/web: disagrees\n"},
		{"-disagrees", scaleUp("--exit-code", "--fail-on=-disagrees"), 0, ""},
		{"unable-to-scale", scaleUp("--assume-scale-update-error", "conflict", "--fail-on", "unable-to-scale"), 2, "problems found: shop/web: unable-to-scale\n"},
		{"limited is not in the default set", atMin("--exit-code"), 0, ""},
		{"+limited", atMin("--fail-on=+limited"), 2, "problems found: shop/notifications: limited\n"},
		{
			"rate-limited",
			explainExample("render", "media", "troubleshooting/scale-up-limited.yaml", "2026-03-16T08:31:00Z", "--fail-on", "rate-limited"),
			2, "problems found: media/render: rate-limited\n",
		},
		{
			"a scale to zero by hand is not inactive",
			explainExample("worker", "jobs", "troubleshooting/scaled-to-zero.yaml", "2026-03-20T07:30:00Z", "--exit-code"),
			0, "",
		},
		{
			"+scaling-disabled",
			explainExample("worker", "jobs", "troubleshooting/scaled-to-zero.yaml", "2026-03-20T07:30:00Z", "--fail-on=+scaling-disabled"),
			2, "problems found: jobs/worker: scaling-disabled\n",
		},
		{
			"no problem at all",
			explainExample("orders", "shop", "troubleshooting/tolerance.yaml", "2026-03-14T12:05:00Z", "--exit-code", "--fail-on", "all"),
			0, "",
		},
		{"not found stays an error", explainExample("nope", "shop", "troubleshooting/tolerance.yaml", "2026-03-14T12:05:00Z", "--exit-code"), 1, "error: "},
		{"unknown problem", unknownMetric("--fail-on", "+flaky"), 1, `error: --fail-on: unknown problem "flaky"`},
		{"signed and unsigned", unknownMetric("--fail-on", "limited,-disagrees"), 1, "error: --fail-on"},
		{"not with --watch", []string{"explain", "web", "--watch", "--exit-code"}, 1, "error: --exit-code gates on one replay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := mainArgs(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			switch {
			case tc.stderr == "" && stderr != "":
				t.Errorf("stderr %q, want nothing", stderr)
			case !strings.HasPrefix(stderr, tc.stderr):
				t.Errorf("stderr %q, want it to start with %q", stderr, tc.stderr)
			}
			if code != 1 && out == "" {
				t.Error("nothing on stdout: the explanation is printed whatever the verdict")
			}
			if strings.Contains(strings.Join(tc.args, " "), "-o json") {
				schematest.Check(t, schema.Explanation, []byte(out))
			}
		})
	}
}
