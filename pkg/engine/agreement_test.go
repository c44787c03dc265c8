// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestAgreement(t *testing.T) {
	// The upstream test whose HPA already carries the status the controller
	// computes: the replay must agree with it.
	for _, v := range loadVectors(t, "v1.36.3", "reconcile.json") {
		if v.ID != "avoid-unnecessary-updates" {
			continue
		}
		dec, _ := reconcileVectorDecision(t, v)
		if !dec.Agreement.Checked || !dec.Agreement.Agrees {
			t.Fatalf("agreement %+v", dec.Agreement)
		}
	}

	// A status from a controller that saw other metrics: one difference each
	// for desiredReplicas and currentMetrics.
	snap := cpuSnapshot(50, 4, 900, 900, 900, 900)
	util := int32(40)
	q := resource.MustParse("400m")
	snap.HPA.Status = autoscalingv2.HorizontalPodAutoscalerStatus{
		CurrentReplicas: 4, DesiredReplicas: 4,
		CurrentMetrics: []autoscalingv2.MetricStatus{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceCPU, Current: autoscalingv2.MetricValueStatus{AverageUtilization: &util, AverageValue: &q}}}},
		Conditions: []autoscalingv2.HorizontalPodAutoscalerCondition{
			{Type: autoscalingv2.AbleToScale, Status: corev1.ConditionTrue, Reason: "SucceededRescale", LastTransitionTime: metav1.Time{Time: t0}},
			{Type: autoscalingv2.ScalingActive, Status: corev1.ConditionTrue, Reason: "ValidMetricFound", LastTransitionTime: metav1.Time{Time: t0}},
			{Type: autoscalingv2.ScalingLimited, Status: corev1.ConditionFalse, Reason: "DesiredWithinRange", LastTransitionTime: metav1.Time{Time: t0}},
			// The newest controller writes this at every rescale.
			{Type: autoscalingv2.ScaledToZero, Status: corev1.ConditionFalse, Reason: "NotScaledToZero", LastTransitionTime: metav1.Time{Time: t0}},
		},
	}
	dec := evaluate(t, snap)
	a := dec.Agreement
	if !a.Checked || a.Agrees {
		t.Fatalf("agreement %+v", a)
	}
	fields := map[string]bool{}
	for _, d := range a.Differences {
		fields[d.Field] = true
		if d.LikelyCause == "" {
			t.Errorf("difference %s has no likely cause", d.Field)
		}
	}
	if !fields["desiredReplicas"] || !fields["currentMetrics"] || len(a.Differences) != 2 {
		t.Fatalf("differences %+v", a.Differences)
	}

	// No status yet: nothing to compare.
	snap.HPA.Status = autoscalingv2.HorizontalPodAutoscalerStatus{}
	if dec := evaluate(t, snap); dec.Agreement.Checked {
		t.Fatalf("checked without a status: %+v", dec.Agreement)
	}
}
