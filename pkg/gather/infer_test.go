// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func rescaleEvent(msg string, at time.Time) corev1.Event {
	return corev1.Event{Reason: "SuccessfulRescale", Message: msg, LastTimestamp: metav1.Time{Time: at}, Count: 1}
}

func TestInferState(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	hpa := &autoscalingv2.HorizontalPodAutoscaler{Spec: autoscalingv2.HorizontalPodAutoscalerSpec{Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{}}}
	events := []corev1.Event{
		rescaleEvent("New size: 5; reason: cpu resource utilization (percentage of request) above target", now.Add(-40*time.Second)),
		rescaleEvent("New size: 3; reason: All metrics below target", now.Add(-20*time.Second)),
		rescaleEvent("New size: 7; reason: cpu resource utilization (percentage of request) above target", now.Add(-5*time.Second)),
		{Reason: "FailedGetResourceMetric", Message: "whatever", LastTimestamp: metav1.Time{Time: now}},
	}
	// The status was written by the last rescale (3 → 7).
	last := metav1.NewTime(now.Add(-5 * time.Second))
	hpa.Status = autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 3, DesiredReplicas: 7, LastScaleTime: &last}

	st := inferState(hpa, events)
	if st.Provenance != explain.Inferred || st.RecommendationsInitialized {
		t.Fatalf("provenance %s initialized %v", st.Provenance, st.RecommendationsInitialized)
	}
	// 5 → 3 is a scale-down of 2 at -20s; 3 → 7 a scale-up of 4 at -5s; the
	// first event's previous size is unknown.
	if len(st.ScaleDownEvents) != 1 || st.ScaleDownEvents[0].ReplicaChange != 2 || !st.ScaleDownEvents[0].Timestamp.Equal(now.Add(-20*time.Second)) {
		t.Errorf("scale-down events %+v", st.ScaleDownEvents)
	}
	if len(st.ScaleUpEvents) != 1 || st.ScaleUpEvents[0].ReplicaChange != 4 {
		t.Errorf("scale-up events %+v", st.ScaleUpEvents)
	}

	// A single event whose previous size only the status knows.
	st = inferState(hpa, events[2:3])
	if len(st.ScaleUpEvents) != 1 || st.ScaleUpEvents[0].ReplicaChange != 4 {
		t.Errorf("from status: %+v", st.ScaleUpEvents)
	}
	// Once a later sync rewrote the status, the previous size is lost.
	hpa.Status.CurrentReplicas = 7
	st = inferState(hpa, events[2:3])
	if len(st.ScaleUpEvents) != 0 || st.Provenance != explain.Assumed {
		t.Errorf("without a usable status: %+v %s", st.ScaleUpEvents, st.Provenance)
	}
	// Legacy HPAs keep no scale events.
	hpa.Spec.Behavior = nil
	if st := inferState(hpa, events); len(st.ScaleUpEvents)+len(st.ScaleDownEvents) != 0 {
		t.Errorf("legacy: %+v", st)
	}
}
