// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
)

// Helpers on an HPA spec shared by the engine and the packages that edit
// snapshots (whatif), so that both read the spec the same way.

// MinReplicas is spec.minReplicas, 1 when unset (the API default).
func MinReplicas(hpa *autoscalingv2.HorizontalPodAutoscaler) int32 {
	if hpa.Spec.MinReplicas != nil {
		return *hpa.Spec.MinReplicas
	}
	return 1
}

// HasObjectOrExternalMetric reports whether the HPA has an Object or
// External metric (what scaling to and from zero needs).
func HasObjectOrExternalMetric(hpa *autoscalingv2.HorizontalPodAutoscaler) bool {
	for _, m := range hpa.Spec.Metrics {
		if m.Type == autoscalingv2.ObjectMetricSourceType || m.Type == autoscalingv2.ExternalMetricSourceType {
			return true
		}
	}
	return false
}

// HasResourceMetric reports whether a Resource or ContainerResource metric
// of the HPA reads the resource.
func HasResourceMetric(hpa *autoscalingv2.HorizontalPodAutoscaler, res corev1.ResourceName) bool {
	for _, m := range hpa.Spec.Metrics {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == res {
			return true
		}
		if m.Type == autoscalingv2.ContainerResourceMetricSourceType && m.ContainerResource != nil && m.ContainerResource.Name == res {
			return true
		}
	}
	return false
}

// HasPodsMetric reports whether the HPA has a Pods metric of that name.
func HasPodsMetric(hpa *autoscalingv2.HorizontalPodAutoscaler, name string) bool {
	for _, m := range hpa.Spec.Metrics {
		if m.Type == autoscalingv2.PodsMetricSourceType && m.Pods != nil && m.Pods.Metric.Name == name {
			return true
		}
	}
	return false
}

// HistoryWindow is how far back the controller's history can decide a sync
// of this HPA: the longest stabilization window or policy period (with
// behavior), or the downscale-stabilization flag (without).
func HistoryWindow(hpa *autoscalingv2.HorizontalPodAutoscaler, set Settings) time.Duration {
	b := hpa.Spec.Behavior
	if b == nil {
		return set.DownscaleStabilization
	}
	longest := time.Duration(0)
	for _, r := range []*autoscalingv2.HPAScalingRules{b.ScaleUp, b.ScaleDown} {
		if r == nil {
			continue
		}
		if w := r.StabilizationWindowSeconds; w != nil {
			longest = max(longest, time.Duration(*w)*time.Second)
		}
		longest = max(longest, time.Duration(longestPeriod(r))*time.Second)
	}
	if b.ScaleDown == nil || b.ScaleDown.StabilizationWindowSeconds == nil {
		longest = max(longest, set.DownscaleStabilization)
	}
	return longest
}
