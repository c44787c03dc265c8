// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// staleExample is docs/examples/scale-down-stabilized.yaml with the
// managedFields kubectl get --show-managed-fields keeps: the status written
// by kube-controller-manager at 10:13:00, its last condition's transition.
// At 10:15:00 the replay's current metrics differ from the status.
func staleExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../docs/examples/scale-down-stabilized.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const meta = "kind: HorizontalPodAutoscaler\nmetadata:\n"
	managed := `  managedFields:
  - manager: kubectl-client-side-apply
    operation: Update
    apiVersion: autoscaling/v2
    time: "2025-09-18T11:27:03Z"
  - manager: kube-controller-manager
    operation: Update
    apiVersion: autoscaling/v2
    time: "2026-03-02T10:13:00Z"
    subresource: status
`
	s := string(data)
	if strings.Count(s, meta) != 1 {
		t.Fatalf("the example does not hold one HPA's %q", meta)
	}
	path := filepath.Join(t.TempDir(), "stale.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(s, meta, meta+managed, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Two minutes without a sign of a sync is stale with a given 15s sync
// period, and not yet with the default taken on trust (the bound is then 2
// minutes); -disagrees keeps stale-status.
func TestExplainStaleStatus(t *testing.T) {
	file := staleExample(t)
	args := func(extra ...string) []string {
		return append([]string{"explain", "catalog", "-n", "shop", "-f", file, "--now", "2026-03-02T10:15:00Z"}, extra...)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
		stdout string
	}{
		{"the sync period assumed", args("--exit-code"), 2, "problems found: shop/catalog: disagrees\n", ""},
		{"the sync period given", args("--exit-code", "--sync-period", "15s"), 2, "problems found: shop/catalog: disagrees, stale-status\n", ""},
		{"-disagrees keeps it", args("--fail-on=-disagrees", "--sync-period", "15s"), 2, "problems found: shop/catalog: stale-status\n", ""},
		{
			"the text view's line", args("--sync-period", "15s"), 0, "",
			"Stale status:  the controller does not seem to be syncing this HPA: its status was last written at 2026-03-02T10:13:00Z (now-2m0s, 8 sync periods of 15s) and differs from what the controller would write now\n",
		},
		{"-o json", args("--sync-period", "15s", "-o", "json"), 0, "", `"stale": true`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := mainArgs(tc.args...)
			if code != tc.code || stderr != tc.stderr {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, tc.code, tc.stderr)
			}
			if !strings.Contains(out, tc.stdout) {
				t.Errorf("stdout does not hold %q:\n%s", tc.stdout, out)
			}
			if strings.Contains(strings.Join(tc.args, " "), "-o json") {
				schematest.Check(t, schema.Explanation, []byte(out))
			}
		})
	}
}

// whatif's before is explain's, stale verdict included; its after is a
// hypothetical replay, which gets none.
func TestWhatifStaleStatus(t *testing.T) {
	code, out, stderr := mainArgs("whatif", "catalog", "-n", "shop", "-f", staleExample(t), "--now", "2026-03-02T10:15:00Z", "--sync-period", "15s", "--cpu=200m", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var w struct {
		Before, After struct {
			Agreement struct {
				Sync *struct {
					Stale bool `json:"stale"`
				} `json:"sync"`
			} `json:"agreement"`
		}
	}
	if err := json.Unmarshal([]byte(out), &w); err != nil {
		t.Fatal(err)
	}
	if s := w.Before.Agreement.Sync; s == nil || !s.Stale {
		t.Errorf("before: sync %+v, want stale", s)
	}
	if s := w.After.Agreement.Sync; s != nil {
		t.Errorf("after: sync %+v, want none", s)
	}
}
