// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// ReadyReplicas is KEDA's count of the workload's ready pods, the divisor
// of a Value target's fallback value: the pods selector selects whose
// phase is Running and whose first Ready condition is True. A pod being
// deleted still counts while it is Running and Ready: KEDA lists the pods
// by the scale's selector and looks at nothing else (pkg/fallback/fallback.go,
// getReadyReplicasCount and IsPodReady, in KEDA's module). nil when the
// selector is empty or does not parse: the pods KEDA would list are then
// not known.
func ReadyReplicas(selector string, pods []corev1.Pod) *int32 {
	sel, err := labels.Parse(selector)
	if err != nil || selector == "" {
		return nil
	}
	var n int32
	for i := range pods {
		p := &pods[i]
		if sel.Matches(labels.Set(p.Labels)) && p.Status.Phase == corev1.PodRunning && podReady(p) {
			n++
		}
	}
	return &n
}

// podReady reports whether the pod's first Ready condition is True (a pod
// without one is not ready).
func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
