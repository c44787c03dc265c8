// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// The stale-status verdict names the status write, and the newer sign of a
// sync when there is one, with its age in sync periods.
func TestStaleWords(t *testing.T) {
	written := ago(10 * time.Minute)
	for _, tc := range []struct {
		name string
		sc   explain.SyncCheck
		form timeForm
		want string
	}{
		{
			"the status write, plain",
			explain.SyncCheck{StatusWritten: written, LastSeen: written, LastSeenFrom: explain.SyncSignStatusWrite, Periods: 40, SyncPeriod: "15s"},
			timeFull,
			"the controller does not seem to be syncing this HPA: its status was last written at 2025-12-31T23:50:00Z (now-10m0s, 40 sync periods of 15s) and differs from what the controller would write now",
		},
		{
			"an event, the period assumed, styled",
			explain.SyncCheck{StatusWritten: written, LastSeen: ago(3 * time.Minute), LastSeenFrom: explain.SyncSignEvent, Periods: 12, SyncPeriod: "15s", SyncPeriodAssumed: true},
			timeClock,
			"the controller does not seem to be syncing this HPA: its status was last written at 2025-12-31T23:50:00Z (10m0s ago), its last event at 2025-12-31T23:57:00Z (3m0s ago, 12 sync periods of 15s, assumed), and the status differs from what the controller would write now",
		},
	} {
		if got := staleWords(&tc.sc, fixedNow, tc.form); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// The list view's AGREEMENT column says stale instead of differs.
func TestAgreementWord_stale(t *testing.T) {
	a := explain.Agreement{Checked: true, Differences: []explain.Difference{{Field: "desiredReplicas"}, {Field: "currentMetrics"}}}
	if got := agreementWord(a); got != "differs (desiredReplicas, currentMetrics)" {
		t.Errorf("differs: %q", got)
	}
	a.Sync = &explain.SyncCheck{Periods: 3}
	if got := agreementWord(a); got != "differs (desiredReplicas, currentMetrics)" {
		t.Errorf("differs, not stale: %q", got)
	}
	a.Sync.Stale = true
	if got := agreementWord(a); got != "stale (desiredReplicas, currentMetrics)" {
		t.Errorf("stale: %q", got)
	}
}
