// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// The scale subresource of the built-in workloads is a view of the object:
// spec.replicas (the API server defaults it to 1), status.replicas and the
// selector in its string form. These give the same Target a scale GET
// returns, so a many-HPA read can list the workloads instead of getting
// each scale (test/e2e checks it field by field against the API server).

// TargetOfDeployment is the scale of a Deployment.
func TargetOfDeployment(d *appsv1.Deployment) Target {
	return workloadTarget("apps/v1", "Deployment", d.Name, d.Spec.Replicas, d.Status.Replicas, d.Spec.Selector)
}

// TargetOfStatefulSet is the scale of a StatefulSet.
func TargetOfStatefulSet(s *appsv1.StatefulSet) Target {
	return workloadTarget("apps/v1", "StatefulSet", s.Name, s.Spec.Replicas, s.Status.Replicas, s.Spec.Selector)
}

// TargetOfReplicaSet is the scale of a ReplicaSet.
func TargetOfReplicaSet(r *appsv1.ReplicaSet) Target {
	return workloadTarget("apps/v1", "ReplicaSet", r.Name, r.Spec.Replicas, r.Status.Replicas, r.Spec.Selector)
}

// TargetOfReplicationController is the scale of a ReplicationController,
// whose selector is a plain label set (the API server defaults an empty one
// to the template's labels).
func TargetOfReplicationController(rc *corev1.ReplicationController) Target {
	sel := rc.Spec.Selector
	if len(sel) == 0 && rc.Spec.Template != nil {
		sel = rc.Spec.Template.Labels
	}
	return Target{
		APIVersion: "v1", Kind: "ReplicationController", Name: rc.Name,
		SpecReplicas: replicasOrOne(rc.Spec.Replicas), StatusReplicas: rc.Status.Replicas,
		Selector: labels.SelectorFromSet(sel).String(),
	}
}

func workloadTarget(apiVersion, kind, name string, spec *int32, status int32, sel *metav1.LabelSelector) Target {
	t := Target{APIVersion: apiVersion, Kind: kind, Name: name, SpecReplicas: replicasOrOne(spec), StatusReplicas: status}
	if sel != nil {
		s, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			t.GetError = err.Error()
			return t
		}
		t.Selector = s.String()
	}
	return t
}

func replicasOrOne(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}
