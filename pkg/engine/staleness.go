// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// The stale-status check tells a controller that stopped syncing an HPA
// (kube-controller-manager down, crash-looping, stuck in leader election,
// its HPA controller disabled) from a status that is merely one sync
// behind inputs that just moved. The controller leaves no trace of a sync
// that changes nothing, so the check needs both: a status that differs
// from the replay in what every sync rewrites from what both read, and no
// sign of a sync for several periods.
const (
	// controllerManager is the field manager of kube-controller-manager's
	// writes (its user agent's first word).
	controllerManager = "kube-controller-manager"
	// hpaControllerName is the HPA controller's own name, which a build
	// that names its field managers after each controller would use.
	hpaControllerName = "horizontal-pod-autoscaler"

	// stalePeriods, staleMinAge and staleMinAgeAssumed bound how old the
	// newest sign of a sync must be: three sync periods, never less than
	// 30 s, and 2 minutes when the period is the default taken on trust (a
	// controller that really syncs every 30 s or 40 s must not look stale
	// after 45 s).
	stalePeriods       = 3
	staleMinAge        = 30 * time.Second
	staleMinAgeAssumed = 2 * time.Minute
)

// controllerStatusWrite returns when the HPA controller last wrote the
// HPA's status, from the managedFields entry of its status writes, and
// false when no entry says (objects read without their managedFields).
func controllerStatusWrite(h *autoscalingv2.HorizontalPodAutoscaler) (time.Time, bool) {
	var last time.Time
	found := false
	for _, e := range h.ManagedFields {
		if e.Subresource != "status" || e.Time == nil || !isHPAControllerManager(e.Manager) {
			continue
		}
		if e.Operation != metav1.ManagedFieldsOperationUpdate && e.Operation != metav1.ManagedFieldsOperationApply {
			continue
		}
		if !found || e.Time.After(last) {
			last, found = e.Time.Time, true
		}
	}
	return last, found
}

// isHPAControllerManager says whether a field manager is the HPA
// controller's.
func isHPAControllerManager(m string) bool {
	return m == controllerManager || strings.Contains(m, hpaControllerName)
}

// staleAfter is how old the newest sign of a sync must be before a status
// that differs is called stale. window is the metric samples' window (0:
// unknown): a controller whose metrics change at every scrape writes the
// status once per scrape, up to a period after it, so a status one scrape
// and one sync behind is window plus two periods old.
func staleAfter(period time.Duration, assumed bool, window time.Duration) time.Duration {
	after := max(stalePeriods*period, staleMinAge, window+2*period)
	if assumed {
		after = max(after, staleMinAgeAssumed)
	}
	return after
}

// checkSync adds to a checked agreement what the HPA shows of the
// controller's latest sync, and whether its status is stale; when it is,
// each difference's likely cause says so. It reads the HPA's managedFields,
// its old status, the controller's events (Snapshot.LastControllerEvent) and
// the sync period, never the clock: age is counted from Snapshot.Now.
func (s *syncRun) checkSync(a *explain.Agreement) {
	if !a.Checked {
		return
	}
	written, ok := controllerStatusWrite(s.snap.HPA)
	if !ok {
		return
	}
	period := s.set.SyncPeriod
	if period <= 0 {
		period = DefaultSettings().SyncPeriod
	}
	sc := &explain.SyncCheck{
		StatusWritten: written, LastSeen: written, LastSeenFrom: explain.SyncSignStatusWrite,
		SyncPeriod: period.String(), SyncPeriodAssumed: s.set.SyncPeriodAssumed,
	}
	seen := func(t time.Time, from explain.SyncSign) {
		if t.After(sc.LastSeen) {
			sc.LastSeen, sc.LastSeenFrom = t, from
		}
	}
	for _, c := range s.oldStatus.Conditions {
		seen(c.LastTransitionTime.Time, explain.SyncSignCondition)
	}
	if t := s.oldStatus.LastScaleTime; t != nil {
		seen(t.Time, explain.SyncSignLastScale)
	}
	seen(s.snap.LastControllerEvent, explain.SyncSignEvent)

	age := max(s.now.Sub(sc.LastSeen), 0)
	after := staleAfter(period, s.set.SyncPeriodAssumed, s.sampleWindow())
	sc.AgeSeconds = int64(age / time.Second)
	sc.Periods = int64(age / period)
	sc.StaleAfterSeconds = int64((after + time.Second - 1) / time.Second)
	// The signs have whole seconds: the sync may have come up to a second
	// after the one they say.
	sc.Stale = !a.Agrees && age-time.Second >= after && s.statusBehind()
	a.Sync = sc
	if sc.Stale {
		cause := fmt.Sprintf("nothing shows a sync of this HPA for %s (%d sync periods of %s): the status is stale, the controller does not seem to be syncing it",
			age.Truncate(time.Second), sc.Periods, period)
		for i := range a.Differences {
			a.Differences[i].LikelyCause = cause
		}
	}
}

// statusBehind says whether the old status differs from the replay's in
// what the controller rewrites at every sync from inputs the replay read as
// the controller does: the current replicas (the scale was read), the
// observed generation (the spec changed since the controller last wrote
// it), or the current metrics (every metric API answered). Differences
// that the controller's hidden history, flags we only assume, or a read
// only we failed may explain (the desired replicas, the conditions) are
// left out: they can last while the controller syncs.
func (s *syncRun) statusBehind() bool {
	old := s.oldStatus
	if s.snap.Target.GetError != "" {
		return false
	}
	if old.CurrentReplicas != s.snap.Target.SpecReplicas {
		return true
	}
	if g := old.ObservedGeneration; g != nil && *g < s.snap.HPA.Generation {
		return true
	}
	return len(s.snap.APIErrors) == 0 && !metricsEqual(old.CurrentMetrics, s.status.CurrentMetrics)
}

// sampleWindow is the longest window of the snapshot's PodMetrics (0 when
// it has none): metrics-server's resolution.
func (s *syncRun) sampleWindow() time.Duration {
	var w time.Duration
	for i := range s.snap.PodMetrics {
		w = max(w, s.snap.PodMetrics[i].Window.Duration)
	}
	return w
}
