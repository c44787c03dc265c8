// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// steadySnapshot is an HPA on cpu at its target (4 pods at 50% of their
// request) whose status is the one the controller computes from these
// inputs, written at written (its conditions' transitions too), with the
// managedFields entry of kube-controller-manager's status writes at that
// time. Now is t0.
func steadySnapshot(t *testing.T, written time.Time) *Snapshot {
	t.Helper()
	snap := cpuSnapshot(50, 4, 500, 500, 500, 500)
	dec := evaluate(t, snap)
	dec.Status.DeepCopyInto(&snap.HPA.Status)
	for i := range snap.HPA.Status.Conditions {
		snap.HPA.Status.Conditions[i].LastTransitionTime = metav1.Time{Time: written}
	}
	snap.HPA.ManagedFields = []metav1.ManagedFieldsEntry{
		{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate, Time: &metav1.Time{Time: t0.Add(-2 * time.Hour)}},
		statusWrite("kube-controller-manager", written),
	}
	return snap
}

func statusWrite(manager string, at time.Time) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", APIVersion: "autoscaling/v2", Time: &metav1.Time{Time: at}}
}

// loadDoubled changes the pods' usage after the status was written: the
// replay's current metrics (and desired replicas) move away from it.
func loadDoubled(s *Snapshot) {
	for i := range s.PodMetrics {
		s.PodMetrics[i] = podMetric(s.PodMetrics[i].Name, 1000, t0.Add(-5*time.Second))
	}
}

func TestSyncCheck(t *testing.T) {
	fiveMin := t0.Add(-5 * time.Minute)
	for _, tc := range []struct {
		name string
		snap func(t *testing.T) *Snapshot
		set  func(*Settings)
		// sync false: no sync check at all (Agreement.Sync nil).
		sync, agrees, stale bool
		from                explain.SyncSign
		periods             int64
	}{
		{
			// Steady metrics: the controller computes the status it has and
			// writes nothing, however long; an old write alone is no
			// staleness.
			name: "steady, written long ago",
			snap: func(t *testing.T) *Snapshot { t.Helper(); return steadySnapshot(t, t0.Add(-6*time.Hour)) },
			sync: true, agrees: true, from: explain.SyncSignStatusWrite, periods: 1440,
		},
		{
			name: "stale: the load moved, nothing written for 5 minutes",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				loadDoubled(s)
				return s
			},
			sync: true, stale: true, from: explain.SyncSignStatusWrite, periods: 20,
		},
		{
			// Right after a load change a working controller is one sync
			// behind: it wrote the status a period ago.
			name: "one sync behind",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, t0.Add(-12*time.Second))
				loadDoubled(s)
				return s
			},
			sync: true, from: explain.SyncSignStatusWrite,
		},
		{
			// The bound is the samples' window (30 s) and two periods:
			// 60 s, and a second for the write's whole seconds.
			name: "at the bound",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, t0.Add(-60*time.Second))
				loadDoubled(s)
				return s
			},
			sync: true, from: explain.SyncSignStatusWrite, periods: 4,
		},
		{
			name: "past the bound",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, t0.Add(-61*time.Second))
				loadDoubled(s)
				return s
			},
			sync: true, stale: true, from: explain.SyncSignStatusWrite, periods: 4,
		},
		{
			// Objects read without managedFields (kubectl get -o yaml, a
			// dump, explain -A): when the status was written is unknown.
			name: "no managedFields",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				loadDoubled(s)
				s.HPA.ManagedFields = nil
				return s
			},
		},
		{
			name: "a status written by someone else",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				loadDoubled(s)
				s.HPA.ManagedFields = []metav1.ManagedFieldsEntry{statusWrite("kubectl-edit", t0.Add(-time.Minute))}
				return s
			},
		},
		{
			name: "the HPA controller's own field manager",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				loadDoubled(s)
				s.HPA.ManagedFields = []metav1.ManagedFieldsEntry{statusWrite("kube-controller-manager/horizontal-pod-autoscaler", fiveMin)}
				return s
			},
			sync: true, stale: true, from: explain.SyncSignStatusWrite, periods: 20,
		},
		{
			// The controller records events only while it syncs: a recent
			// one shows a sync the status does not.
			name: "a recent event",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				loadDoubled(s)
				s.LastControllerEvent = t0.Add(-20 * time.Second)
				return s
			},
			sync: true, from: explain.SyncSignEvent, periods: 1,
		},
		{
			name: "a condition's transition after the write",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				loadDoubled(s)
				s.HPA.Status.Conditions[0].LastTransitionTime = metav1.Time{Time: t0.Add(-2 * time.Minute)}
				return s
			},
			sync: true, stale: true, from: explain.SyncSignCondition, periods: 8,
		},
		{
			// A default sync period taken on trust waits 2 minutes: the
			// controller may sync every 30 s or 40 s.
			name: "sync period assumed",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, t0.Add(-100*time.Second))
				loadDoubled(s)
				return s
			},
			set:  func(s *Settings) { s.SyncPeriodAssumed = true },
			sync: true, from: explain.SyncSignStatusWrite, periods: 6,
		},
		{
			name: "sync period given",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, t0.Add(-100*time.Second))
				loadDoubled(s)
				return s
			},
			sync: true, stale: true, from: explain.SyncSignStatusWrite, periods: 6,
		},
		{
			name: "a longer sync period",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, t0.Add(-100*time.Second))
				loadDoubled(s)
				return s
			},
			set:  func(s *Settings) { s.SyncPeriod = time.Minute },
			sync: true, from: explain.SyncSignStatusWrite, periods: 1,
		},
		{
			// Only what hidden history may explain differs (the desired
			// replicas): the controller may well be syncing.
			name: "only the desired replicas differ",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				s.HPA.Status.DesiredReplicas = 6
				return s
			},
			sync: true, from: explain.SyncSignStatusWrite, periods: 20,
		},
		{
			// The target was scaled since the controller's last write, and
			// no sync came to write the new count.
			name: "the scale moved",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				s.HPA.Status.CurrentReplicas, s.HPA.Status.DesiredReplicas = 3, 3
				return s
			},
			sync: true, stale: true, from: explain.SyncSignStatusWrite, periods: 20,
		},
		{
			name: "the spec changed since the controller last wrote",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				g := int64(3)
				s.HPA.Generation = 4
				s.HPA.Status.ObservedGeneration = &g
				s.HPA.Spec.MaxReplicas = 3
				return s
			},
			sync: true, stale: true, from: explain.SyncSignStatusWrite, periods: 20,
		},
		{
			// Our read of the metrics failed: the replay's metrics are not
			// the controller's.
			name: "a metrics API error of ours",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				s.PodMetrics = nil
				s.APIErrors = map[string]string{"resource": "pods.metrics.k8s.io is forbidden"}
				return s
			},
			sync: true, from: explain.SyncSignStatusWrite, periods: 20,
		},
		{
			name: "the scale could not be read",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, fiveMin)
				s.Target.GetError = "deployments.apps \"web\" is forbidden"
				return s
			},
			sync: true, from: explain.SyncSignStatusWrite, periods: 20,
		},
		{
			// A clock behind the cluster's: a write in the future is now.
			name: "a write after now",
			snap: func(t *testing.T) *Snapshot {
				t.Helper()
				s := steadySnapshot(t, t0.Add(time.Minute))
				loadDoubled(s)
				return s
			},
			sync: true, from: explain.SyncSignStatusWrite,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := DefaultSettings()
			if tc.set != nil {
				tc.set(&set)
			}
			snap := tc.snap(t)
			dec, err := Evaluate(snap, set)
			if err != nil {
				t.Fatal(err)
			}
			a := dec.Agreement
			if !a.Checked {
				t.Fatalf("agreement not checked: %+v", a)
			}
			if a.Agrees != tc.agrees {
				t.Errorf("agrees = %v, want %v: %+v", a.Agrees, tc.agrees, a.Differences)
			}
			if !tc.sync {
				if a.Sync != nil {
					t.Fatalf("sync checked: %+v", *a.Sync)
				}
				return
			}
			sc := a.Sync
			if sc == nil {
				t.Fatal("no sync check")
			}
			if sc.Stale != tc.stale || sc.LastSeenFrom != tc.from || sc.Periods != tc.periods {
				t.Errorf("stale %v from %s periods %d, want %v from %s periods %d: %+v", sc.Stale, sc.LastSeenFrom, sc.Periods, tc.stale, tc.from, tc.periods, *sc)
			}
			if sc.SyncPeriod != set.SyncPeriod.String() || sc.SyncPeriodAssumed != set.SyncPeriodAssumed {
				t.Errorf("sync period %s assumed %v, want %s %v", sc.SyncPeriod, sc.SyncPeriodAssumed, set.SyncPeriod, set.SyncPeriodAssumed)
			}
			stale := slices.Contains(dec.Problems(), explain.ProblemStaleStatus)
			if stale != tc.stale {
				t.Errorf("problems %q", dec.Problems())
			}
			for _, d := range a.Differences {
				if got := strings.Contains(d.LikelyCause, "does not seem to be syncing"); got != tc.stale {
					t.Errorf("difference %s: likely cause %q", d.Field, d.LikelyCause)
				}
			}
		})
	}
}

// The bound: three periods, 30 s, the samples' window and two periods, and
// 2 minutes for a sync period taken on trust.
func TestStaleAfter(t *testing.T) {
	for _, tc := range []struct {
		period, window time.Duration
		assumed        bool
		want           time.Duration
	}{
		{15 * time.Second, 0, false, 45 * time.Second},
		{5 * time.Second, 0, false, 30 * time.Second},
		{5 * time.Second, 10 * time.Second, false, 30 * time.Second},
		{15 * time.Second, time.Minute, false, 90 * time.Second},
		{15 * time.Second, 15 * time.Second, true, 2 * time.Minute},
		{time.Minute, 0, true, 3 * time.Minute},
	} {
		if got := staleAfter(tc.period, tc.assumed, tc.window); got != tc.want {
			t.Errorf("staleAfter(%s, %v, %s) = %s, want %s", tc.period, tc.assumed, tc.window, got, tc.want)
		}
	}
}

// A brief replay (thousands of syncs of a backtest) checks nothing.
func TestSyncCheck_brief(t *testing.T) {
	snap := steadySnapshot(t, t0.Add(-5*time.Minute))
	loadDoubled(snap)
	dec, err := EvaluateWith(snap, DefaultSettings(), EvalOptions{Brief: true})
	if err != nil {
		t.Fatal(err)
	}
	if dec.Agreement.Checked || dec.Agreement.Sync != nil {
		t.Errorf("brief replay checked the agreement: %+v", dec.Agreement)
	}
}
