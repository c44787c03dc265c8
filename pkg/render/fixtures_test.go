// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Hand-made decisions: render tests never call the engine (render may not
// import it). Each fixture carries what the engine records: DecidedBy,
// each metric's Unit and the operands of its arithmetic.

var fixedNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func i32(v int32) *int32 { return &v }

func i64(v int64) *int64 { return &v }

func f64(v float64) *float64 { return &v }

func intp(v int) *int { return &v }

func str(s string) *string { return &s }

func q(s string) *resource.Quantity {
	v := resource.MustParse(s)
	return &v
}

func ago(d time.Duration) time.Time { return fixedNow.Add(-d) }

func settings() explain.SettingsInfo {
	return explain.SettingsInfo{
		Tolerance:               0.1,
		CPUInitializationPeriod: "5m0s",
		InitialReadinessDelay:   "30s",
		DownscaleStabilization:  "5m0s",
		SyncPeriod:              "15s",
		FeatureGates:            map[string]bool{"HPAConfigurableTolerance": true, "HPAScaleToZero": false, "PodLevelResources": true},
	}
}

func assumedState() explain.ControllerState {
	return explain.ControllerState{
		Provenance: explain.Assumed,
		Notes:      []string{"no ControllerState given: assuming a controller that has just started (no history)"},
	}
}

func header(d *explain.Decision) *explain.Decision {
	d.APIVersion = explain.APIVersion
	d.Kind = explain.KindExplanation
	d.HPA = explain.ObjectRef{Namespace: "shop", Name: "web"}
	d.Now = fixedNow
	d.Settings = settings()
	return d
}

const cpuName = "cpu resource utilization (percentage of request)"

// scaleUpUnready: cpu 60% with behavior, 4 hot ready pods and 2 pending ones.
func scaleUpUnready() *explain.Decision {
	cpuStatus := autoscalingv2.MetricStatus{
		Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricStatus{
			Name:    corev1.ResourceCPU,
			Current: autoscalingv2.MetricValueStatus{AverageUtilization: i32(104), AverageValue: q("522m")},
		},
	}
	d := header(&explain.Decision{
		Target: explain.TargetInfo{
			APIVersion: "apps/v1", Kind: "Deployment", Name: "web",
			SpecReplicas: 6, StatusReplicas: 6, Selector: "app=web", MinReplicas: 2, MaxReplicas: 20,
		},
		CurrentReplicas: 6,
		DesiredReplicas: 7,
		Rescale:         true,
		RescaleReason:   cpuName + " above target",
		Outcome:         explain.OutcomeRescale,
		DecidedBy: explain.DecidedBy{
			Kind: explain.DecidedByMetric, Replicas: 7, Proposal: i32(7), MetricIndex: intp(0), Metric: cpuName,
			Ratio: f64(69.0 / 60.0), Base: i32(6),
		},
		Summary:  "metrics propose 7 (from " + cpuName + "); the controller scales 6 → 7",
		Selector: &explain.SelectorCheck{Selector: "app=web", Valid: true, PodsSelected: 6},
		Metrics: []explain.MetricResult{{
			Index: 0, Type: "Resource", Name: cpuName, Unit: explain.MetricUnitCores,
			TargetType: "Utilization", TargetUtilization: i32(60),
			Calculation:      "GetResourceReplicas",
			ProposedReplicas: i32(7),
			Utilization:      i32(104),
			Value:            q("522m"),
			Used:             true,
			Winner:           true,
			Pods: &explain.PodAccounting{
				Listed: 6, Ready: 4, Unready: 0, Missing: 2,
				Entries: []explain.PodEntry{
					{Name: "web-7d9c6b5f4-2xkqp", Class: explain.PodReady, UsageMilli: i64(480), RequestMilli: i64(500)},
					{Name: "web-7d9c6b5f4-8mzlt", Class: explain.PodReady, UsageMilli: i64(600), RequestMilli: i64(500)},
					{Name: "web-7d9c6b5f4-c4r2w", Class: explain.PodReady, UsageMilli: i64(450), RequestMilli: i64(500)},
					{Name: "web-7d9c6b5f4-tq9vn", Class: explain.PodReady, UsageMilli: i64(560), RequestMilli: i64(500)},
					{Name: "web-7d9c6b5f4-h6jds", Class: explain.PodMissing, Reason: "no metric sample (phase Pending)", RequestMilli: i64(500), FillInMilli: i64(0)},
					{Name: "web-7d9c6b5f4-w8f5b", Class: explain.PodMissing, Reason: "no metric sample (phase Pending)", RequestMilli: i64(500), FillInMilli: i64(0)},
				},
			},
			Usage: &explain.Usage{
				SumMilli: 2090, Count: 4, RequestSumMilli: i64(2000), AverageMilli: 522, TargetMilli: 60,
				Ratio: 104.0 / 60.0, ReplicaBase: 4, ReplicaBaseKind: "readyPods",
			},
			Tolerance: &explain.ToleranceCheck{ScaleDown: 0.1, ScaleUp: 0.1, Lower: 0.9, Upper: 1.1, Ratio: 104.0 / 60.0, Source: "--horizontal-pod-autoscaler-tolerance", Test: explain.ToleranceInterval},
			FillIn: &explain.FillIn{
				Reason:            "2 pods without metrics and a scale-up: missing pods count as 0",
				MissingFilledWith: "0",
				NewUtilization:    i32(69),
				NewRatio:          69.0 / 60.0,
				Samples:           6,
				NewReplicas:       i32(7),
				Result:            7,
			},
			Steps: []string{
				"4 ready pods use 2090m of 2000m requested: 104% of request",
				"ratio 104/60 = 1.73 is outside [0.90, 1.10]: scale up",
				"2 missing pods counted as 0% of their request: 69%, ratio 1.15",
				"ceil(1.15 × 6) = 7",
			},
		}},
		Recommendation: &explain.Recommendation{Replicas: 7, WinningMetric: cpuName, WinningIndex: 0, Total: 1},
		Normalization: &explain.Normalization{
			Path:  "behavior",
			Input: 7,
			Stabilization: explain.Stabilization{
				UpWindowSeconds: 0, DownWindowSeconds: 300,
				DownWindowSource: "--horizontal-pod-autoscaler-downscale-stabilization (behavior.scaleDown.stabilizationWindowSeconds is unset)",
				Considered: []explain.ConsideredRecommendation{
					{Timestamp: fixedNow, Replicas: 6, InUp: false, InDown: true, Seeded: true},
				},
				UpRecommendation: i32(7), DownRecommendation: 7, Result: 7, Reason: "ReadyForNewScale",
			},
			Limits: explain.Limits{
				Direction:    "up",
				SelectPolicy: "Max",
				Policies: []explain.PolicyLimit{
					{Type: "Pods", Value: 4, PeriodSeconds: 60, PeriodStart: 6, Limit: 10, Selected: true},
					{Type: "Percent", Value: 50, PeriodSeconds: 60, PeriodStart: 6, Limit: 9},
				},
				RateLimit: i32(10), Bound: i32(10), Min: 2, Max: 20, Result: 7, Reason: "DesiredWithinRange",
			},
			Result: 7,
		},
		Conditions: []explain.Condition{
			{Type: "AbleToScale", Status: "True", Reason: "SucceededRescale", Message: "the HPA controller was able to update the target scale to 7", LastTransitionTime: fixedNow},
			{Type: "ScalingActive", Status: "True", Reason: "ValidMetricFound", Message: "the HPA was able to successfully calculate a replica count from " + cpuName, LastTransitionTime: ago(time.Hour)},
			{Type: "ScalingLimited", Status: "False", Reason: "DesiredWithinRange", Message: "the desired count is within the acceptable range", LastTransitionTime: ago(time.Hour)},
		},
		Events: []explain.Event{
			{Type: "Normal", Reason: "SuccessfulRescale", Message: "New size: 7; reason: " + cpuName + " above target"},
		},
		CurrentMetrics: []autoscalingv2.MetricStatus{cpuStatus},
		StatusChanged:  true,
		StateBefore:    assumedState(),
		StateAfter: explain.ControllerState{
			RecommendationsInitialized: true,
			Recommendations:            []explain.TimestampedRecommendation{{Timestamp: fixedNow, Replicas: 7}},
			ScaleUpEvents:              []explain.ScaleEvent{{Timestamp: fixedNow, ReplicaChange: 1}},
			Provenance:                 explain.Assumed,
		},
		Assumptions: []string{
			"no ControllerState given: assuming a controller that has just started (no history)",
			"the scale update succeeds",
		},
	})
	d.Status = autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 6, DesiredReplicas: 7, CurrentMetrics: d.CurrentMetrics}
	return d
}

// scaleDownStabilized: legacy path, low usage, held at 8 by a recommendation
// two minutes old.
func scaleDownStabilized() *explain.Decision {
	recs := []explain.TimestampedRecommendation{
		{Timestamp: ago(4*time.Minute + 30*time.Second), Replicas: 8},
		{Timestamp: ago(2 * time.Minute), Replicas: 8},
		{Timestamp: ago(105 * time.Second), Replicas: 5},
	}
	msg := "recent recommendations were higher than current one, applying the highest recent recommendation"
	return header(&explain.Decision{
		Target: explain.TargetInfo{
			APIVersion: "apps/v1", Kind: "Deployment", Name: "web",
			SpecReplicas: 8, StatusReplicas: 8, Selector: "app=web", MinReplicas: 2, MaxReplicas: 12,
		},
		CurrentReplicas: 8,
		DesiredReplicas: 8,
		Outcome:         explain.OutcomeNoChange,
		DecidedBy: explain.DecidedBy{
			Kind: explain.DecidedByScaleDownStabilization, Reason: explain.ReasonScaleDownStabilized, Replicas: 8, Proposal: i32(3),
			WindowSeconds: i32(300), HeldUntil: ptrTime(ago(2 * time.Minute).Add(5 * time.Minute)),
		},
		Summary:  "metrics propose 3 (from " + cpuName + "); the stabilization window holds it at 8 (ScaleDownStabilized) until 2026-01-01T00:03:00Z; replicas stay at 8",
		Selector: &explain.SelectorCheck{Selector: "app=web", Valid: true, PodsSelected: 8},
		Metrics: []explain.MetricResult{{
			Index: 0, Type: "Resource", Name: cpuName, Unit: explain.MetricUnitCores,
			TargetType: "Utilization", TargetUtilization: i32(70),
			Calculation: "GetResourceReplicas", ProposedReplicas: i32(3), Utilization: i32(24), Value: q("121m"),
			Used: true, Winner: true,
			Pods: &explain.PodAccounting{Listed: 8, Ready: 8, Entries: podRows(8, 121, 500)},
			Usage: &explain.Usage{
				SumMilli: 968, Count: 8, RequestSumMilli: i64(4000), AverageMilli: 121, TargetMilli: 70,
				Ratio: 24.0 / 70.0, ReplicaBase: 8, ReplicaBaseKind: "readyPods", Replicas: i32(3),
			},
			Tolerance: &explain.ToleranceCheck{ScaleDown: 0.1, ScaleUp: 0.1, Lower: 0.9, Upper: 1.1, Ratio: 24.0 / 70.0, Source: "--horizontal-pod-autoscaler-tolerance", Test: explain.ToleranceInterval},
		}},
		Recommendation: &explain.Recommendation{Replicas: 3, WinningMetric: cpuName, Total: 1},
		Normalization: &explain.Normalization{
			Path: "legacy", Input: 3,
			Stabilization: explain.Stabilization{
				DownWindowSeconds: 300, DownWindowSource: "--horizontal-pod-autoscaler-downscale-stabilization",
				Considered: []explain.ConsideredRecommendation{
					{Timestamp: recs[0].Timestamp, Replicas: 8, InDown: true},
					{Timestamp: recs[1].Timestamp, Replicas: 8, InDown: true},
					{Timestamp: recs[2].Timestamp, Replicas: 5, InDown: true},
				},
				DownRecommendation: 8, Result: 8, Reason: "ScaleDownStabilized",
				HeldUntil: ptrTime(ago(2 * time.Minute).Add(5 * time.Minute)),
			},
			Limits: explain.Limits{Direction: "none", RateLimit: i32(16), Bound: i32(12), Min: 2, Max: 12, Result: 8, Reason: "DesiredWithinRange"},
			Result: 8,
		},
		Conditions: []explain.Condition{
			{Type: "AbleToScale", Status: "True", Reason: "ScaleDownStabilized", Message: msg},
			{Type: "ScalingActive", Status: "True", Reason: "ValidMetricFound", Message: "the HPA was able to successfully calculate a replica count from " + cpuName},
			{Type: "ScalingLimited", Status: "False", Reason: "DesiredWithinRange", Message: "the desired count is within the acceptable range"},
		},
		Events: []explain.Event{},
		CurrentMetrics: []autoscalingv2.MetricStatus{{
			Type:     autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceCPU, Current: autoscalingv2.MetricValueStatus{AverageUtilization: i32(24), AverageValue: q("121m")}},
		}},
		StatusChanged: false,
		StateBefore:   explain.ControllerState{RecommendationsInitialized: true, Recommendations: recs, Provenance: explain.Observed, Notes: []string{"controller state from the ControllerState document at b.yaml:80 (document 12)"}},
		StateAfter: explain.ControllerState{
			RecommendationsInitialized: true,
			Recommendations:            append(append([]explain.TimestampedRecommendation(nil), recs...), explain.TimestampedRecommendation{Timestamp: fixedNow, Replicas: 3}),
			Provenance:                 explain.Observed,
		},
	})
}

func ptrTime(t time.Time) *time.Time { return &t }

func podRows(n int, usage, request int64) []explain.PodEntry {
	out := make([]explain.PodEntry, 0, n)
	for i := range n {
		out = append(out, explain.PodEntry{Name: fmt.Sprintf("web-5f8d7c9b6-%02d", i), Class: explain.PodReady, UsageMilli: i64(usage), RequestMilli: i64(request)})
	}
	return out
}

// multiMetricMissing: cpu, a Pods metric reported for some pods only, and an
// External metric whose API failed; the scale-up goes ahead.
func multiMetricMissing() *explain.Decision {
	extName := "external metric queue_messages_ready(&LabelSelector{MatchLabels:map[string]string{queue: orders,},MatchExpressions:[]LabelSelectorRequirement{},})"
	extErr := "unable to get external metric shop/queue_messages_ready/&LabelSelector{MatchLabels:map[string]string{queue: orders,},MatchExpressions:[]LabelSelectorRequirement{},}: unable to fetch metrics from external metrics API: the server could not find the requested resource"
	rpsEntries := podRows(14, 0, 0)
	for i := range rpsEntries {
		rpsEntries[i].RequestMilli = nil
		rpsEntries[i].UsageMilli = i64(int64(9000 + 250*i))
		if i >= 11 {
			rpsEntries[i].UsageMilli = nil
			rpsEntries[i].Class = explain.PodMissing
			rpsEntries[i].Reason = "no metric sample"
			rpsEntries[i].FillInMilli = i64(0)
		}
	}
	d := header(&explain.Decision{
		Target: explain.TargetInfo{
			APIVersion: "apps/v1", Kind: "Deployment", Name: "web",
			SpecReplicas: 14, StatusReplicas: 14, Selector: "app=web", MinReplicas: 3, MaxReplicas: 30,
		},
		CurrentReplicas: 14, DesiredReplicas: 18, Rescale: true,
		RescaleReason: "pods metric http_requests_per_second above target",
		Outcome:       explain.OutcomeRescale,
		DecidedBy: explain.DecidedBy{
			Kind: explain.DecidedByMetric, Replicas: 18, Proposal: i32(18), MetricIndex: intp(1), Metric: "pods metric http_requests_per_second",
			Ratio: f64(10250.0 / 8000.0), Base: i32(11),
		},
		Summary:  "metrics propose 18 (from pods metric http_requests_per_second); 1 of 3 metrics are invalid but do not block this direction; the controller scales 14 → 18",
		Selector: &explain.SelectorCheck{Selector: "app=web", Valid: true, PodsSelected: 14},
		Metrics: []explain.MetricResult{
			{
				Index: 0, Type: "Resource", Name: cpuName, Unit: explain.MetricUnitCores,
				TargetType: "Utilization", TargetUtilization: i32(75),
				Calculation: "GetResourceReplicas", ProposedReplicas: i32(14), Utilization: i32(71), Value: q("355m"), Used: true,
				Pods:      &explain.PodAccounting{Listed: 14, Ready: 14, Entries: podRows(14, 355, 500)},
				Usage:     &explain.Usage{SumMilli: 4970, Count: 14, RequestSumMilli: i64(7000), AverageMilli: 355, TargetMilli: 75, Ratio: 71.0 / 75.0, ReplicaBase: 14, ReplicaBaseKind: "readyPods"},
				Tolerance: &explain.ToleranceCheck{ScaleDown: 0.1, ScaleUp: 0.1, Lower: 0.9, Upper: 1.1, Ratio: 71.0 / 75.0, Within: true, Source: "--horizontal-pod-autoscaler-tolerance", Test: explain.ToleranceInterval},
			},
			{
				Index: 1, Type: "Pods", Name: "pods metric http_requests_per_second",
				TargetType: "AverageValue", TargetValue: q("8"),
				Calculation: "GetMetricReplicas", ProposedReplicas: i32(18), Value: q("10250m"), Used: true, Winner: true,
				Pods:      &explain.PodAccounting{Listed: 14, Ready: 11, Missing: 3, Entries: rpsEntries},
				Usage:     &explain.Usage{SumMilli: 112750, Count: 11, AverageMilli: 10250, TargetMilli: 8000, Ratio: 10250.0 / 8000.0, ReplicaBase: 11, ReplicaBaseKind: "readyPods"},
				Tolerance: &explain.ToleranceCheck{ScaleDown: 0.1, ScaleUp: 0.1, Lower: 0.9, Upper: 1.1, Ratio: 10250.0 / 8000.0, Source: "--horizontal-pod-autoscaler-tolerance", Test: explain.ToleranceInterval},
				FillIn: &explain.FillIn{
					Reason: "3 pods without metrics and a scale-up: missing pods count as 0", MissingFilledWith: "0",
					NewAverageMilli: i64(8053), NewRatio: 8053.0 / 8000.0, Within: true, Samples: 14, Result: 14,
				},
			},
			{
				Index: 2, Type: "External", Name: extName,
				TargetType: "AverageValue", TargetValue: q("30"),
				Calculation: "GetExternalPerPodMetricReplicas",
				Error:       str(extErr), ErrorReason: "FailedGetExternalMetric",
			},
		},
		Recommendation: &explain.Recommendation{
			Replicas: 18, WinningMetric: "pods metric http_requests_per_second", WinningIndex: 1, Invalid: 1, Total: 3,
			Error: "invalid metrics (1 invalid out of 3), first error is: failed to get " + extName + " external metric value: " + extErr,
		},
		Normalization: &explain.Normalization{
			Path: "behavior", Input: 18,
			Stabilization: explain.Stabilization{
				UpWindowSeconds: 0, DownWindowSeconds: 600, DownWindowSource: "behavior.scaleDown.stabilizationWindowSeconds",
				UpRecommendation: i32(18), DownRecommendation: 18, Result: 18, Reason: "ReadyForNewScale",
			},
			Limits: explain.Limits{
				Direction: "up", SelectPolicy: "Max",
				Policies: []explain.PolicyLimit{
					{Type: "Pods", Value: 4, PeriodSeconds: 15, PeriodStart: 14, Limit: 18, Selected: true},
					{Type: "Percent", Value: 100, PeriodSeconds: 15, PeriodStart: 14, AddedInPeriod: 0, Limit: 28},
				},
				RateLimit: i32(28), Bound: i32(28), Min: 3, Max: 30, Result: 18, Reason: "DesiredWithinRange",
			},
			Result: 18,
		},
		Conditions: []explain.Condition{
			{Type: "AbleToScale", Status: "True", Reason: "SucceededRescale", Message: "the HPA controller was able to update the target scale to 18"},
			{Type: "ScalingActive", Status: "True", Reason: "ValidMetricFound", Message: "the HPA was able to successfully calculate a replica count from pods metric http_requests_per_second"},
			{Type: "ScalingLimited", Status: "False", Reason: "DesiredWithinRange", Message: "the desired count is within the acceptable range"},
		},
		Events: []explain.Event{
			{Type: "Warning", Reason: "FailedGetExternalMetric", Message: extErr},
			{Type: "Normal", Reason: "SuccessfulRescale", Message: "New size: 18; reason: pods metric http_requests_per_second above target"},
		},
		CurrentMetrics: []autoscalingv2.MetricStatus{
			{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceCPU, Current: autoscalingv2.MetricValueStatus{AverageUtilization: i32(71), AverageValue: q("355m")}}},
			{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricStatus{Metric: autoscalingv2.MetricIdentifier{Name: "http_requests_per_second"}, Current: autoscalingv2.MetricValueStatus{AverageValue: q("10250m")}}},
			{},
		},
		StatusChanged: true,
		StateBefore: explain.ControllerState{
			RecommendationsInitialized: true,
			Recommendations:            []explain.TimestampedRecommendation{{Timestamp: ago(30 * time.Second), Replicas: 14}},
			ScaleUpEvents:              []explain.ScaleEvent{{Timestamp: ago(10 * time.Minute), ReplicaChange: 4, Outdated: true}},
			Provenance:                 explain.Observed,
		},
		StateAfter: explain.ControllerState{
			RecommendationsInitialized: true,
			Recommendations:            []explain.TimestampedRecommendation{{Timestamp: ago(30 * time.Second), Replicas: 14}, {Timestamp: fixedNow, Replicas: 18}},
			ScaleUpEvents:              []explain.ScaleEvent{{Timestamp: ago(10 * time.Minute), ReplicaChange: 4, Outdated: true}, {Timestamp: fixedNow, ReplicaChange: 4}},
			Provenance:                 explain.Observed,
		},
	})
	return d
}

// scaledToZero: the target is at 0 replicas, so autoscaling is disabled;
// the metric is computed for the explanation but not used.
func scaledToZero() *explain.Decision {
	return header(&explain.Decision{
		Target:    explain.TargetInfo{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Selector: "app=web", MinReplicas: 1, MaxReplicas: 5},
		Outcome:   explain.OutcomeScalingDisabled,
		DecidedBy: explain.DecidedBy{Kind: explain.DecidedByDisabled, Reason: explain.ReasonScalingDisabled},
		Summary:   "the target has 0 replicas: scaling is disabled",
		Selector:  &explain.SelectorCheck{Selector: "app=web", Valid: true},
		Metrics: []explain.MetricResult{{
			Index: 0, Type: "Resource", Name: cpuName, Unit: explain.MetricUnitCores,
			TargetType: "Utilization", TargetUtilization: i32(80),
			Calculation: "GetResourceReplicas",
			Error:       str("unable to get metrics for resource cpu: no metrics returned from resource metrics API"),
			ErrorReason: "FailedGetResourceMetric",
		}},
		Recommendation: &explain.Recommendation{
			Replicas: -1, Invalid: 1, Total: 1, Failed: true, FailureRule: "all metrics are invalid",
			Error: "invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: unable to get metrics for resource cpu: no metrics returned from resource metrics API",
		},
		Conditions: []explain.Condition{
			{Type: "AbleToScale", Status: "True", Reason: "SucceededGetScale", Message: "the HPA controller was able to get the target's current scale"},
			{Type: "ScalingActive", Status: "False", Reason: "ScalingDisabled", Message: "scaling is disabled since the replica count of the target is zero"},
		},
		Events:         []explain.Event{},
		CurrentMetrics: nil,
		StatusChanged:  true,
		StateBefore:    assumedState(),
		StateAfter:     explain.ControllerState{RecommendationsInitialized: true, Recommendations: []explain.TimestampedRecommendation{{Timestamp: fixedNow, Replicas: 0}}, Provenance: explain.Assumed},
	})
}

// staleStatus: scaleUpUnready where the controller's status, written 3m20s
// before now, still holds 6 replicas and the old usage: the controller does
// not seem to be syncing the HPA.
func staleStatus() *explain.Decision {
	d := scaleUpUnready()
	cause := "nothing shows a sync of this HPA for 3m20s (13 sync periods of 15s): the status is stale, the controller does not seem to be syncing it"
	d.Agreement = explain.Agreement{
		Checked: true,
		Differences: []explain.Difference{
			{Field: "desiredReplicas", Controller: "6", Replay: "7", LikelyCause: cause},
			{
				Field:       "currentMetrics",
				Controller:  `{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"240m","averageUtilization":48}}}`,
				Replay:      `{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"522m","averageUtilization":104}}}`,
				LikelyCause: cause,
			},
		},
		Sync: &explain.SyncCheck{
			StatusWritten: ago(200 * time.Second), LastSeen: ago(200 * time.Second), LastSeenFrom: explain.SyncSignStatusWrite,
			AgeSeconds: 200, Periods: 13, SyncPeriod: "15s", StaleAfterSeconds: 60, Stale: true,
		},
	}
	return d
}

// failedGetScale: the scale GET failed; nothing else ran.
func failedGetScale() *explain.Decision {
	return header(&explain.Decision{
		Target:    explain.TargetInfo{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", GetError: `deployments.apps "web" not found`, MinReplicas: 1, MaxReplicas: 10},
		Outcome:   explain.OutcomeFailedGetScale,
		DecidedBy: explain.DecidedBy{Kind: explain.DecidedByFailure, Reason: string(explain.OutcomeFailedGetScale)},
		Summary:   "the scale of the target could not be read",
		Conditions: []explain.Condition{
			{Type: "AbleToScale", Status: "False", Reason: "FailedGetScale", Message: `the HPA controller was unable to get the target's current scale: deployments.apps "web" not found`},
		},
		Events:        []explain.Event{{Type: "Warning", Reason: "FailedGetScale", Message: `deployments.apps "web" not found`}},
		StatusChanged: true,
		StateBefore:   assumedState(),
		StateAfter:    assumedState(),
	})
}
