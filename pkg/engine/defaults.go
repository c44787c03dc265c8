// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
)

// DefaultCPUUtilization is the averageUtilization of the cpu metric the API
// adds to an HPA that lists no metrics.
const DefaultCPUUtilization int32 = 80

// DefaultHPA applies, in place, the defaulting the API server performs on an
// autoscaling/v2 HorizontalPodAutoscaler (pkg/apis/autoscaling/v2
// defaulting, unchanged from v1.29 to v1.37 apart from the
// tolerance field copied since v1.33):
//
//   - spec.minReplicas unset becomes 1;
//   - an empty spec.metrics becomes one cpu Utilization 80 Resource metric;
//   - a non-nil spec.behavior gets scaleUp and scaleDown filled field by
//     field; scaleDown.stabilizationWindowSeconds stays nil (the controller
//     uses its downscale-stabilization flag), a non-nil policies list given
//     by the user replaces the default list, and tolerance is never set.
//
// An HPA without behavior keeps behavior nil. A nil hpa is a no-op.
func DefaultHPA(hpa *autoscalingv2.HorizontalPodAutoscaler) {
	if hpa == nil {
		return
	}
	if hpa.Spec.MinReplicas == nil {
		one := int32(1)
		hpa.Spec.MinReplicas = &one
	}
	if len(hpa.Spec.Metrics) == 0 {
		util := DefaultCPUUtilization
		hpa.Spec.Metrics = []autoscalingv2.MetricSpec{{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{
				Name: corev1.ResourceCPU,
				Target: autoscalingv2.MetricTarget{
					Type:               autoscalingv2.UtilizationMetricType,
					AverageUtilization: &util,
				},
			},
		}}
	}
	if b := hpa.Spec.Behavior; b != nil {
		b.ScaleUp = fillRules(b.ScaleUp, defaultScaleUpRules())
		b.ScaleDown = fillRules(b.ScaleDown, defaultScaleDownRules())
	}
}

func defaultScaleUpRules() autoscalingv2.HPAScalingRules {
	window := int32(0)
	sel := autoscalingv2.MaxChangePolicySelect
	return autoscalingv2.HPAScalingRules{
		StabilizationWindowSeconds: &window,
		SelectPolicy:               &sel,
		Policies: []autoscalingv2.HPAScalingPolicy{
			{Type: autoscalingv2.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

func defaultScaleDownRules() autoscalingv2.HPAScalingRules {
	sel := autoscalingv2.MaxChangePolicySelect
	return autoscalingv2.HPAScalingRules{
		SelectPolicy: &sel,
		Policies: []autoscalingv2.HPAScalingPolicy{
			{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// fillRules returns given with every nil field taken from def. The result
// is a new value; given is not modified.
func fillRules(given *autoscalingv2.HPAScalingRules, def autoscalingv2.HPAScalingRules) *autoscalingv2.HPAScalingRules {
	out := def
	if given == nil {
		return &out
	}
	if given.StabilizationWindowSeconds != nil {
		out.StabilizationWindowSeconds = given.StabilizationWindowSeconds
	}
	if given.SelectPolicy != nil {
		out.SelectPolicy = given.SelectPolicy
	}
	if given.Policies != nil {
		out.Policies = given.Policies
	}
	out.Tolerance = given.Tolerance
	return &out
}
