// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"math"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
)

// Bound is a service bound on one metric: above it, the workload ran
// hotter than its owner accepts. The backtest's summaries (AboveBound) and
// tune's risk measure time above it.
type Bound struct {
	// Metric is the metric's index in spec.metrics.
	Metric int
	// Utilization is the bound of a Utilization target, a fraction of the
	// pods' request (0.9 is 90%).
	Utilization float64
	// Milli is the bound of the other targets, in thousandths of the
	// metric's unit: per pod for AverageValue, of the value for Value.
	Milli int64
}

// DefaultBound is the bound of a metric when none is given: 90% of the
// request for a Utilization target below 80% (halfway between the target
// and 100% above that), and one and a half times the target for the
// others.
func DefaultBound(i int, m *autoscalingv2.MetricSpec) Bound {
	b := Bound{Metric: i}
	t := metricsource.Target(m)
	if t == nil {
		return b
	}
	switch t.Type {
	case autoscalingv2.UtilizationMetricType:
		b.Utilization = 0.9
		if t.AverageUtilization != nil && *t.AverageUtilization > 80 {
			b.Utilization = (float64(*t.AverageUtilization) + 100) / 200
		}
	case autoscalingv2.AverageValueMetricType:
		if t.AverageValue != nil {
			b.Milli = t.AverageValue.MilliValue() * 3 / 2
		}
	case autoscalingv2.ValueMetricType:
		if t.Value != nil {
			b.Milli = t.Value.MilliValue() * 3 / 2
		}
	}
	return b
}

// bounds returns one bound per metric of hpa: the given one, else the
// default.
func bounds(hpa *autoscalingv2.HorizontalPodAutoscaler, given []Bound) []Bound {
	out := make([]Bound, len(hpa.Spec.Metrics))
	for i := range hpa.Spec.Metrics {
		out[i] = DefaultBound(i, &hpa.Spec.Metrics[i])
	}
	for _, b := range given {
		if b.Metric >= 0 && b.Metric < len(out) {
			out[b.Metric] = b
		}
	}
	return out
}

// words says a bound as the summaries do.
func (b Bound) words(m *explain.MetricResult) string {
	if b.Utilization > 0 {
		return fmt.Sprintf("%s%% of the request", trimFloat(b.Utilization*100))
	}
	v := resource.NewMilliQuantity(b.Milli, resource.DecimalSI).String()
	if m != nil && m.TargetType == string(autoscalingv2.AverageValueMetricType) {
		return v + " per pod"
	}
	return v
}

func trimFloat(f float64) string {
	return fmt.Sprintf("%g", math.Round(f*100)/100)
}

// over reports whether a metric's load was above its bound at a sync (false
// when the metric failed: the controller did not know it either).
func (b Bound) over(m *explain.MetricResult) bool {
	if m.Error != nil {
		return false
	}
	if b.Utilization > 0 {
		return m.Utilization != nil && float64(*m.Utilization) > b.Utilization*100
	}
	if b.Milli <= 0 {
		return false
	}
	if m.Usage != nil && m.TargetType == string(autoscalingv2.AverageValueMetricType) {
		return m.Usage.AverageMilli > b.Milli
	}
	return m.Value != nil && m.Value.MilliValue() > b.Milli
}

// beyondTolerance reports whether a metric asked for more replicas than it
// had by more than the tolerance.
func beyondTolerance(m *explain.MetricResult) bool {
	t := m.Tolerance
	return m.Error == nil && t != nil && !t.Within && float64(t.Ratio) > t.Upper
}

// podRequests returns a pod's CPU (millicores) and memory (bytes) requests.
func podRequests(p *corev1.Pod) (cpuMilli, memBytes int64) {
	for _, c := range p.Spec.Containers {
		if q, ok := c.Resources.Requests[corev1.ResourceCPU]; ok {
			cpuMilli += q.MilliValue()
		}
		if q, ok := c.Resources.Requests[corev1.ResourceMemory]; ok {
			memBytes += q.Value()
		}
	}
	return cpuMilli, memBytes
}

// hasMemoryMetric reports whether the HPA scales on memory.
func hasMemoryMetric(hpa *autoscalingv2.HorizontalPodAutoscaler) bool {
	for _, m := range hpa.Spec.Metrics {
		if (m.Resource != nil && m.Resource.Name == corev1.ResourceMemory) || (m.ContainerResource != nil && m.ContainerResource.Name == corev1.ResourceMemory) {
			return true
		}
	}
	return false
}
