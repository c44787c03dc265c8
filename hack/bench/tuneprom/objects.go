// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	"sigs.k8s.io/yaml"
)

// writeObjects writes what `kubectl get -o yaml` would have printed at the
// series' end, for tune -f: the HPA and its Deployment (hpa.yaml), the pods
// (pods.yaml) and their PodMetrics (podmetrics.yaml, which give tune
// metrics-server's window and scrape phase).
func (w *workload) writeObjects(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	created := metav1.NewTime(w.start.Add(-24 * time.Hour))
	labels := map[string]string{"app": w.name}
	requests := corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewMilliQuantity(w.requestCPU, resource.DecimalSI),
		corev1.ResourceMemory: *resource.NewQuantity(w.requestMemory, resource.BinarySI),
	}
	replicas := int32(len(w.pods))
	minReplicas, target := w.minReplicas, w.target
	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: metav1.ObjectMeta{Name: w.name, Namespace: w.namespace, UID: types.UID(w.uid(1000)), CreationTimestamp: created},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: w.name},
			MinReplicas:    &minReplicas, MaxReplicas: 100,
			Metrics: []autoscalingv2.MetricSpec{{
				Type: autoscalingv2.ResourceMetricSourceType,
				Resource: &autoscalingv2.ResourceMetricSource{
					Name:   corev1.ResourceCPU,
					Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target},
				},
			}},
		},
		Status: autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: replicas, DesiredReplicas: replicas},
	}
	dep := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: w.name, Namespace: w.namespace, UID: types.UID(w.uid(1001)), CreationTimestamp: created, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: container, Image: "registry.example/web:1", Resources: corev1.ResourceRequirements{Requests: requests}}}},
			},
		},
		Status: appsv1.DeploymentStatus{Replicas: replicas, ReadyReplicas: replicas, AvailableReplicas: replicas, UpdatedReplicas: replicas},
	}
	isController := true
	var pods, podMetrics bytes.Buffer
	// metrics-server's last scrape before the end, 15 s apart.
	scraped := w.end.Add(-4 * time.Second).Truncate(time.Second)
	for i, p := range w.pods {
		podLabels := map[string]string{"app": w.name, "pod-template-hash": w.hash}
		ready := metav1.NewTime(p.started.Add(3 * time.Second))
		started := metav1.NewTime(p.started)
		pod := &corev1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{
				Name: p.name, Namespace: w.namespace, UID: types.UID(p.uid), Labels: podLabels,
				CreationTimestamp: metav1.NewTime(p.created),
				OwnerReferences: []metav1.OwnerReference{{
					APIVersion: "apps/v1", Kind: "ReplicaSet", Name: w.replicaSet, UID: types.UID(w.uid(1002)), Controller: &isController,
				}},
			},
			Spec: corev1.PodSpec{
				NodeName:   p.node,
				Containers: []corev1.Container{{Name: container, Image: "registry.example/web:1", Resources: corev1.ResourceRequirements{Requests: requests}}},
			},
			Status: corev1.PodStatus{
				Phase:     corev1.PodRunning,
				StartTime: &started,
				Conditions: []corev1.PodCondition{
					{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(p.created)},
					{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: started},
					{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: ready},
					{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: ready},
				},
			},
		}
		pm := &metricsv1beta1.PodMetrics{
			TypeMeta:   metav1.TypeMeta{APIVersion: "metrics.k8s.io/v1beta1", Kind: "PodMetrics"},
			ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: w.namespace, Labels: podLabels},
			Timestamp:  metav1.NewTime(scraped),
			Window:     metav1.Duration{Duration: 15 * time.Second},
			Containers: []metricsv1beta1.ContainerMetrics{{Name: container, Usage: corev1.ResourceList{
				corev1.ResourceCPU:    *resource.NewMilliQuantity(int64(1000*w.cpuAt(i, scraped, 0)), resource.DecimalSI),
				corev1.ResourceMemory: *resource.NewQuantity(int64(w.memoryAt(i, scraped, 0)), resource.BinarySI),
			}}},
		}
		if err := appendDoc(&pods, pod); err != nil {
			return err
		}
		if err := appendDoc(&podMetrics, pm); err != nil {
			return err
		}
	}
	var top bytes.Buffer
	fmt.Fprintf(&top, "# The benchmark's HPA and Deployment at %s (hack/bench/tuneprom backfill).\n", w.end.Format(time.RFC3339))
	for _, o := range []any{hpa, dep} {
		if err := appendDoc(&top, o); err != nil {
			return err
		}
	}
	for name, b := range map[string]*bytes.Buffer{"hpa.yaml": &top, "pods.yaml": &pods, "podmetrics.yaml": &podMetrics} {
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func appendDoc(b *bytes.Buffer, o any) error {
	y, err := yaml.Marshal(o)
	if err != nil {
		return err
	}
	b.WriteString("---\n")
	b.Write(y)
	return nil
}
