// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The controller writes its status when the one it computed differs from
// the one it read, as equality.Semantic.DeepEqual tells: quantities by
// value, times to the nanosecond in UTC, nil and empty slices alike. These
// functions give the same answer without reflection, which a replay of
// thousands of syncs spends most of its comparison time on
// (TestStatusEqualIsSemantic holds them to DeepEqual).

// statusEqual reports whether two statuses are semantically equal.
func statusEqual(a, b *autoscalingv2.HorizontalPodAutoscalerStatus) bool {
	if a.CurrentReplicas != b.CurrentReplicas || a.DesiredReplicas != b.DesiredReplicas ||
		!ptrEqual(a.ObservedGeneration, b.ObservedGeneration) || !timePtrEqual(a.LastScaleTime, b.LastScaleTime) ||
		len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!timeEqual(x.LastTransitionTime, y.LastTransitionTime) {
			return false
		}
	}
	return metricsEqual(a.CurrentMetrics, b.CurrentMetrics)
}

// metricsEqual reports whether two currentMetrics lists are semantically
// equal.
func metricsEqual(a, b []autoscalingv2.MetricStatus) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !metricStatusEqual(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func metricStatusEqual(a, b *autoscalingv2.MetricStatus) bool {
	if a.Type != b.Type {
		return false
	}
	switch {
	case (a.Object == nil) != (b.Object == nil), (a.Pods == nil) != (b.Pods == nil), (a.Resource == nil) != (b.Resource == nil),
		(a.ContainerResource == nil) != (b.ContainerResource == nil), (a.External == nil) != (b.External == nil):
		return false
	}
	if x, y := a.Object, b.Object; x != nil && (!identifierEqual(&x.Metric, &y.Metric) || !valueStatusEqual(&x.Current, &y.Current) || x.DescribedObject != y.DescribedObject) {
		return false
	}
	if x, y := a.Pods, b.Pods; x != nil && (!identifierEqual(&x.Metric, &y.Metric) || !valueStatusEqual(&x.Current, &y.Current)) {
		return false
	}
	if x, y := a.Resource, b.Resource; x != nil && (x.Name != y.Name || !valueStatusEqual(&x.Current, &y.Current)) {
		return false
	}
	if x, y := a.ContainerResource, b.ContainerResource; x != nil && (x.Name != y.Name || x.Container != y.Container || !valueStatusEqual(&x.Current, &y.Current)) {
		return false
	}
	if x, y := a.External, b.External; x != nil && (!identifierEqual(&x.Metric, &y.Metric) || !valueStatusEqual(&x.Current, &y.Current)) {
		return false
	}
	return true
}

func identifierEqual(a, b *autoscalingv2.MetricIdentifier) bool {
	if a.Name != b.Name {
		return false
	}
	if a.Selector == nil || b.Selector == nil {
		return a.Selector == b.Selector
	}
	// Rare, and a map of lists: reflection is cheap enough here.
	return equality.Semantic.DeepEqual(a.Selector, b.Selector)
}

func valueStatusEqual(a, b *autoscalingv2.MetricValueStatus) bool {
	return quantityPtrEqual(a.Value, b.Value) && quantityPtrEqual(a.AverageValue, b.AverageValue) && ptrEqual(a.AverageUtilization, b.AverageUtilization)
}

func quantityPtrEqual(a, b *resource.Quantity) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(*b) == 0
}

func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func timePtrEqual(a, b *metav1.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return timeEqual(*a, *b)
}

func timeEqual(a, b metav1.Time) bool { return a.UTC() == b.UTC() } //nolint:staticcheck // == as Semantic.DeepEqual compares, not Equal
