// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// needsReplicaSets reports whether pods reach the target through a
// ReplicaSet (Deployments, and custom resources such as Argo Rollouts).
func needsReplicaSets(t engine.Target) bool {
	switch t.Kind {
	case "ReplicaSet", "StatefulSet", "ReplicationController", "DaemonSet", "":
		return false
	}
	return true
}

func listReplicaSets(ctx context.Context, c *Clients, ns string) ([]appsv1.ReplicaSet, error) {
	l, err := c.Kube.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

// foreignPods names the pods the target does not own, following controller
// owner references one level (StatefulSet, ReplicaSet, ...) or two through a
// ReplicaSet (Deployment, Rollout, ...). The HPA's selector picks them up all
// the same, which is how another workload's pods (a canary, a Job) end up in
// the calculation.
func foreignPods(t engine.Target, pods []corev1.Pod, replicaSets []appsv1.ReplicaSet) map[string]string {
	if t.Kind == "" || len(pods) == 0 {
		return nil
	}
	targetGroup := schema.FromAPIVersionAndKind(t.APIVersion, t.Kind).Group
	owns := func(ref *metav1.OwnerReference) bool {
		if ref == nil || ref.Kind != t.Kind || ref.Name != t.Name {
			return false
		}
		return schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind).Group == targetGroup
	}
	rsOwner := map[string]*metav1.OwnerReference{}
	for i := range replicaSets {
		rsOwner[replicaSets[i].Name] = metav1.GetControllerOf(&replicaSets[i])
	}
	out := map[string]string{}
	for i := range pods {
		p := &pods[i]
		ref := metav1.GetControllerOf(p)
		if owns(ref) {
			continue
		}
		if ref == nil {
			out[p.Name] = "no controller"
			continue
		}
		desc := ref.Kind + "/" + ref.Name
		if ref.Kind == "ReplicaSet" {
			parent, known := rsOwner[ref.Name]
			if owns(parent) {
				continue
			}
			if known && parent != nil {
				desc += " of " + parent.Kind + "/" + parent.Name
			}
		}
		out[p.Name] = desc
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
