// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ReducePod keeps of a pod what a replay reads: identity, labels, owners,
// deletion, the containers' names and resources (sidecars among the init
// containers), pod-level resources and overhead, the phase, the start time
// and the Ready condition. A many-HPA read holds every pod of its scope, so
// the rest (managed fields, annotations, images, env, volumes, statuses)
// is dropped as pages arrive.
func ReducePod(p *corev1.Pod) corev1.Pod {
	out := corev1.Pod{
		TypeMeta: p.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name: p.Name, Namespace: p.Namespace, UID: p.UID, Labels: p.Labels,
			OwnerReferences: p.OwnerReferences, DeletionTimestamp: p.DeletionTimestamp,
			CreationTimestamp: p.CreationTimestamp,
		},
		Spec: corev1.PodSpec{
			Containers: reduceContainers(p.Spec.Containers), InitContainers: reduceContainers(p.Spec.InitContainers),
			Resources: p.Spec.Resources, Overhead: p.Spec.Overhead, NodeName: p.Spec.NodeName,
		},
		Status: corev1.PodStatus{Phase: p.Status.Phase, StartTime: p.Status.StartTime},
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			c.Message, c.Reason = "", ""
			out.Status.Conditions = append(out.Status.Conditions, c)
		}
	}
	return out
}

func reduceContainers(cs []corev1.Container) []corev1.Container {
	if len(cs) == 0 {
		return nil
	}
	out := make([]corev1.Container, len(cs))
	for i, c := range cs {
		out[i] = corev1.Container{Name: c.Name, Resources: c.Resources, RestartPolicy: c.RestartPolicy}
	}
	return out
}

// ReduceEvent keeps of an HPA's event what the rescale history is rebuilt
// from.
func ReduceEvent(e *corev1.Event) corev1.Event {
	return corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: e.Name, Namespace: e.Namespace},
		InvolvedObject: e.InvolvedObject, Reason: e.Reason, Message: e.Message, Type: e.Type, Count: e.Count,
		FirstTimestamp: e.FirstTimestamp, LastTimestamp: e.LastTimestamp, EventTime: e.EventTime,
	}
}
