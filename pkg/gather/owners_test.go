// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

func ownedBy(apiVersion, kind, name string) []metav1.OwnerReference {
	return []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, Controller: ptr(true)}}
}

func TestForeignPods(t *testing.T) {
	rs := []appsv1.ReplicaSet{
		{ObjectMeta: metav1.ObjectMeta{Name: "web-1", OwnerReferences: ownedBy("apps/v1", "Deployment", "web")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "canary-1", OwnerReferences: ownedBy("apps/v1", "Deployment", "web-canary")}},
	}
	pods := []corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "web-1-a", OwnerReferences: ownedBy("apps/v1", "ReplicaSet", "web-1")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "canary-1-a", OwnerReferences: ownedBy("apps/v1", "ReplicaSet", "canary-1")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "job-x", OwnerReferences: ownedBy("batch/v1", "Job", "migrate")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "bare"}},
	}
	got := foreignPods(engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}, pods, rs)
	want := map[string]string{"canary-1-a": "ReplicaSet/canary-1 of Deployment/web-canary", "job-x": "Job/migrate", "bare": "no controller"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	// A StatefulSet owns its pods directly.
	sts := []corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "db-0", OwnerReferences: ownedBy("apps/v1", "StatefulSet", "db")}}}
	if got := foreignPods(engine.Target{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db"}, sts, nil); got != nil {
		t.Errorf("statefulset: %v", got)
	}
	if needsReplicaSets(engine.Target{Kind: "StatefulSet"}) || !needsReplicaSets(engine.Target{Kind: "Deployment"}) {
		t.Error("needsReplicaSets")
	}
}
