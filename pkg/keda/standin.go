// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// ValueSource says where a replay takes a trigger's result from when no
// override gives one.
type ValueSource int

const (
	// ValueNone says nothing stands in: the poll goes without a result for the
	// trigger (cpu and memory, which the HPA reads itself; a trigger without
	// an External metric; cron, which computes its own).
	ValueNone ValueSource = iota
	// ValueFromStatus says status.triggersActivity, KEDA's last poll, stands in,
	// because the external metrics API is served by another adapter and
	// what it answers is not this trigger's value.
	ValueFromStatus
	// ValueFromMetricsServer says what external.metrics.k8s.io answered for
	// the trigger's metric stands in.
	ValueFromMetricsServer
)

// TriggerValueSource decides which value stands in for trigger m of so.
// foreignServer is true when another server than KEDA's serves
// external.metrics.k8s.io: its answers are then not the triggers' values,
// except that a formula (scalingModifiers) needs values and replays what
// the API answers as read.
func TriggerValueSource(so *ScaledObject, m TriggerMetric, foreignServer bool) ValueSource {
	if !m.External || m.MetricName == "" {
		return ValueNone
	}
	if foreignServer {
		if m.Type == TypeCron {
			return ValueNone
		}
		if _, ok := so.Status.TriggersActivity[m.MetricName]; ok && !so.UsesModifiers() {
			return ValueFromStatus
		}
	}
	return ValueFromMetricsServer
}

// MetricsBesideHPA are the External metrics of so's triggers that hpa
// (nil: none) does not read, and that a replay must read as the HPA would:
// none with scalingModifiers, where KEDA answers the formula's value for
// each of them and the HPA's composite-metric says it all; never cron's,
// which the replay computes.
func MetricsBesideHPA(so *ScaledObject, v Version, hpa *autoscalingv2.HorizontalPodAutoscaler, load LocationLoader) []string {
	if so.UsesModifiers() {
		return nil
	}
	ms, err := TriggerMetrics(so, v, load)
	if err != nil {
		return nil
	}
	have := map[string]bool{}
	if hpa != nil {
		for _, m := range hpa.Spec.Metrics {
			if m.External != nil {
				have[m.External.Metric.Name] = true
			}
		}
	}
	var out []string
	for _, m := range ms {
		if m.External && m.MetricName != "" && !have[m.MetricName] && m.Type != TypeCron {
			out = append(out, m.MetricName)
		}
	}
	return out
}
