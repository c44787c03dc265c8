// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestReadyReplicas(t *testing.T) {
	ready := []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	pod := func(lbl string, phase corev1.PodPhase, conds []corev1.PodCondition) corev1.Pod {
		return corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": lbl}}, Status: corev1.PodStatus{Phase: phase, Conditions: conds}}
	}
	deleting := pod("web", corev1.PodRunning, ready)
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Unix(0, 0)}
	firstFalse := pod("web", corev1.PodRunning, []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}, ready[0]})
	pods := []corev1.Pod{
		pod("web", corev1.PodRunning, ready),
		deleting,
		firstFalse,
		pod("web", corev1.PodPending, ready),
		pod("web", corev1.PodRunning, nil),
		pod("db", corev1.PodRunning, ready),
	}
	for _, tc := range []struct {
		selector string
		pods     []corev1.Pod
		want     int32 // -1: nil
	}{
		{"app=web", pods, 2},
		{"app=db", pods, 1},
		{"app=web", nil, 0},
		{"", pods, -1},
		{"app in (", pods, -1},
	} {
		got := ReadyReplicas(tc.selector, tc.pods)
		switch {
		case tc.want < 0 && got != nil:
			t.Errorf("ReadyReplicas(%q) = %d, want nil", tc.selector, *got)
		case tc.want >= 0 && (got == nil || *got != tc.want):
			t.Errorf("ReadyReplicas(%q) = %v, want %d", tc.selector, got, tc.want)
		}
	}
}

func TestFallbackAnswered(t *testing.T) {
	n := func(v int32) *int32 { return &v }
	mk := func(f *Fallback, h HealthStatus) *ScaledObject {
		so := &ScaledObject{}
		so.Spec.Fallback = f
		so.Status.Health = map[string]HealthStatus{"s0-m": h}
		return so
	}
	failing := HealthStatus{Status: HealthFailing, NumberOfFailures: n(4)}
	for _, tc := range []struct {
		name string
		so   *ScaledObject
		want bool
	}{
		{"past the threshold", mk(&Fallback{FailureThreshold: 3, Replicas: 2}, failing), true},
		{"at the threshold", mk(&Fallback{FailureThreshold: 4, Replicas: 2}, failing), false},
		{"happy", mk(&Fallback{FailureThreshold: 3, Replicas: 2}, HealthStatus{Status: HealthHappy, NumberOfFailures: n(4)}), false},
		{"no fallback", mk(nil, failing), false},
		// KEDA does not use a fallback with a negative count: the value
		// answered is the trigger's.
		{"invalid fallback", mk(&Fallback{FailureThreshold: 3, Replicas: -1}, failing), false},
	} {
		got, ok := FallbackAnswered(tc.so, "s0-m")
		if ok != tc.want || ok && got != 4 {
			t.Errorf("%s: FallbackAnswered = %d, %v; want %v", tc.name, got, ok, tc.want)
		}
	}
}

func TestTriggerValueSource(t *testing.T) {
	so := &ScaledObject{}
	so.Status.TriggersActivity = map[string]TriggerActivityStatus{"s0-m": {IsActive: true}}
	ext := TriggerMetric{Type: "metrics-api", MetricName: "s0-m", External: true}
	other := TriggerMetric{Type: "metrics-api", MetricName: "s1-m", External: true}
	cron := TriggerMetric{Type: TypeCron, MetricName: "s2-cron", External: true}
	cpu := TriggerMetric{Type: TypeCPU}
	for _, tc := range []struct {
		m       TriggerMetric
		foreign bool
		want    ValueSource
	}{
		{ext, false, ValueFromMetricsServer},
		{ext, true, ValueFromStatus},
		{other, true, ValueFromMetricsServer},
		{cron, true, ValueNone},
		{cron, false, ValueFromMetricsServer},
		{cpu, false, ValueNone},
	} {
		if got := TriggerValueSource(so, tc.m, tc.foreign); got != tc.want {
			t.Errorf("%s (foreign %v): %d, want %d", tc.m.MetricName, tc.foreign, got, tc.want)
		}
	}
	so.Spec.Advanced = &AdvancedConfig{ScalingModifiers: ScalingModifiers{Formula: "s0-m"}}
	if got := TriggerValueSource(so, ext, true); got != ValueFromMetricsServer {
		t.Errorf("with a formula: %d, want the metrics server's value", got)
	}
}
