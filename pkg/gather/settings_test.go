// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestDetectControllerFlags(t *testing.T) {
	kcm := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "kube-controller-manager-cp1", Labels: map[string]string{"component": "kube-controller-manager"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "kube-controller-manager", Command: []string{
			"kube-controller-manager", "--horizontal-pod-autoscaler-tolerance=0.05",
			"--horizontal-pod-autoscaler-downscale-stabilization", "2m", "--feature-gates=HPAScaleToZero=true,Foo=false",
			"--leader-elect=true",
		}}}},
	}
	cl := newCluster([]runtime.Object{kcm}, nil, nil)
	f, err := DetectControllerFlags(context.Background(), cl.clients())
	if err != nil || f == nil {
		t.Fatalf("%v %v", f, err)
	}
	if *f.Tolerance != 0.05 || *f.DownscaleStabilization != 2*time.Minute || f.CPUInitializationPeriod != nil || !f.FeatureGates["HPAScaleToZero"] || f.Source != "kube-system/kube-controller-manager-cp1" {
		t.Fatalf("flags %+v", f)
	}
	// No such pod (a managed control plane): nothing detected, no error.
	f, err = DetectControllerFlags(context.Background(), newCluster(nil, nil, nil).clients())
	if err != nil || f != nil {
		t.Fatalf("%v %v", f, err)
	}
	// A malformed value is an error naming the pod and flag.
	kcm.Spec.Containers[0].Command[1] = "--horizontal-pod-autoscaler-tolerance=ten"
	_, err = DetectControllerFlags(context.Background(), newCluster([]runtime.Object{kcm}, nil, nil).clients())
	if err == nil {
		t.Fatal("no error for a malformed tolerance")
	}
}
