// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Issue 4 item 6: targets other than a plain Deployment.

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

func dyn(s *scenario) dynamic.Interface {
	c, err := dynamic.NewForConfig(env.cfg)
	if err != nil {
		s.t.Fatalf("dynamic client: %v", err)
	}
	return c
}

// getScale reads the scale subresource of any target: Deployments through
// the typed client, anything else (custom resources) through the dynamic one.
func (s *scenario) getScale(ref autoscalingv2.CrossVersionObjectReference) (*autoscalingv1.Scale, error) {
	if ref.Kind == "Deployment" {
		return s.kube.AppsV1().Deployments(s.ns).GetScale(s.ctx, ref.Name, metav1.GetOptions{})
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, err
	}
	gvr := gv.WithResource(strings.ToLower(ref.Kind) + "s")
	u, err := dyn(s).Resource(gvr).Namespace(s.ns).Get(s.ctx, ref.Name, metav1.GetOptions{}, "scale")
	if err != nil {
		return nil, err
	}
	var sc autoscalingv1.Scale
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &sc); err != nil {
		return nil, err
	}
	return &sc, nil
}

// selectorOverlap: a canary Deployment's pods carry the app=web label too,
// so the HPA of web counts them (user question 4). Both at 80% of request,
// target 50%: the controller wants ceil(1.6 x 3) = 5 replicas of web; once
// web's three new pods report too, ceil(1.6 x 6) = 10, held at the maximum
// of 5 (ScalingLimited TooManyReplicas). The replay is compared in that
// steady state (before it, the replay can read a new pod's first sample
// that the controller's last sync did not have) and agrees; the canary pod
// is pointed out as not owned by web.
func selectorOverlap(s *scenario) {
	t := s.t
	s.deploy("web", 2, map[string]string{annCPU: "400500u"})
	canary := map[string]string{"app": "web", "track": "canary"}
	c := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web-canary"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(1)),
			Selector: &metav1.LabelSelector{MatchLabels: canary},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: canary, Annotations: map[string]string{annCPU: "400500u"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{app()}},
			},
		},
	}
	if _, err := env.kube.AppsV1().Deployments(s.ns).Create(s.ctx, c, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create canary: %v", err)
	}
	s.poll("3 pods labelled app=web", 60*time.Second, func() error {
		pods, err := s.pods("web")
		if err != nil {
			return err
		}
		ready := 0
		for i := range pods {
			if podReady(&pods[i]) {
				ready++
			}
		}
		if ready < 3 {
			return fmt.Errorf("%d ready pods", ready)
		}
		return nil
	})
	s.createHPA(hpaFor("web", 1, 5, noWindows(), cpuUtilization(50)))
	s.settle("web", settleOptions{allowMoving: true}, desired(5),
		hasCondition(autoscalingv2.ScalingLimited, corev1.ConditionTrue, "TooManyReplicas"), samplesForAllPods(s))
	d := s.explainAgrees("web")
	if d.Selector == nil || len(d.Selector.ForeignPods) == 0 {
		t.Fatalf("the canary pod is not pointed out: selector check %s", jsonString(d.Selector))
	}
	for _, f := range d.Selector.ForeignPods {
		if !strings.Contains(f, "of Deployment/web-canary") {
			t.Errorf("foreign pod %q: want its owner Deployment/web-canary", f)
		}
	}
}

// crdScaleSubresource: the HPA targets a custom resource with a scale
// subresource (its selector from status.selector). Two bare pods at 80% of
// request, target 50%: the controller scales the Widget to 4 through its
// scale subresource (nothing creates pods for it), then holds at 4, and the
// replay agrees, reading the scale through the discovery-backed RESTMapper.
func crdScaleSubresource(s *scenario) {
	t := s.t
	group := "e2e-" + env.runID + ".kubectl-hpa.io"
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets." + group},
		"spec": map[string]any{
			"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
				"subresources": map[string]any{
					"status": map[string]any{},
					"scale":  map[string]any{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"},
				},
			}},
		},
	}}
	d := dyn(s)
	if _, err := d.Resource(crdGVR).Create(s.ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	t.Cleanup(func() { _ = d.Resource(crdGVR).Delete(s.ctx, crd.GetName(), metav1.DeleteOptions{}) })
	gvr := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}
	w := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "widget"},
		"spec":     map[string]any{"replicas": int64(2)},
	}}
	s.poll("the Widget API", 60*time.Second, func() error {
		_, err := d.Resource(gvr).Namespace(s.ns).Create(s.ctx, w, metav1.CreateOptions{})
		return err
	})
	u, err := d.Resource(gvr).Namespace(s.ns).Get(s.ctx, "widget", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	u.Object["status"] = map[string]any{"replicas": int64(2), "selector": "app=widget"}
	if _, err := d.Resource(gvr).Namespace(s.ns).UpdateStatus(s.ctx, u, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("widget status: %v", err)
	}
	for i := range 2 {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("widget-%d", i), Labels: map[string]string{"app": "widget"}, Annotations: map[string]string{annCPU: "400500u"}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{app()}},
		}
		if _, err := env.kube.CoreV1().Pods(s.ns).Create(s.ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create pod: %v", err)
		}
	}
	h := hpaFor("widget", 1, 10, noWindows(), cpuUtilization(50))
	h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: group + "/v1", Kind: "Widget", Name: "widget"}
	s.createHPA(h)
	s.settle("widget", settleOptions{allowMoving: true}, desired(4))
	dec := s.explainAgrees("widget")
	if dec.Target.Kind != "Widget" || dec.Target.Selector != "app=widget" || dec.CurrentReplicas != 4 {
		t.Errorf("target %s, current %d", jsonString(dec.Target), dec.CurrentReplicas)
	}
	// Bare pods belong to no controller: pointed out as well.
	if dec.Selector == nil || len(dec.Selector.ForeignPods) != 2 {
		t.Errorf("selector check %s: want both bare pods pointed out", jsonString(dec.Selector))
	}
}

var apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

// metricsAPIAbsent: the external metrics API is not served (its APIService
// is removed), which is what `<unknown>/10` in kubectl get hpa means (user
// question 5). The controller reports FailedGetExternalMetric; the replay,
// reading the same failing API, agrees and names the failing API. It runs
// alone, after the parallel scenarios, and restores the APIService.
func metricsAPIAbsent(s *scenario) {
	t := s.t
	d := dyn(s)
	const name = "v1beta1.external.metrics.k8s.io"
	saved, err := d.Resource(apiServiceGVR).Get(s.ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get APIService %s: %v", name, err)
	}
	restored := false
	restore := func() {
		if restored {
			return
		}
		restored = true
		obj := saved.DeepCopy()
		unstructured.RemoveNestedField(obj.Object, "status")
		for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "managedFields", "generation"} {
			unstructured.RemoveNestedField(obj.Object, "metadata", f)
		}
		if _, err := d.Resource(apiServiceGVR).Create(s.ctx, obj, metav1.CreateOptions{}); err != nil {
			t.Errorf("restore APIService %s: %v", name, err)
			return
		}
		s.poll("APIService "+name+" Available again", 90*time.Second, func() error {
			u, err := d.Resource(apiServiceGVR).Get(s.ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
			for _, c := range conds {
				m, _ := c.(map[string]any)
				if m["type"] == "Available" && m["status"] == "True" {
					return nil
				}
			}
			return fmt.Errorf("not Available yet")
		})
	}
	if err := d.Resource(apiServiceGVR).Delete(s.ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete APIService %s: %v", name, err)
	}
	t.Cleanup(restore)

	s.deploy("web", 2, map[string]string{annCPU: cpuIdle})
	s.waitPods("web", 2)
	s.createHPA(hpaFor("web", 1, 5, noWindows(), externalMetric("queue", nil, "10", false)))
	// A new HPA whose syncs fail keeps desiredReplicas at 0 while the
	// target runs 2: that is the settled state here.
	s.settle("web", settleOptions{allowMoving: true}, hasCondition(autoscalingv2.ScalingActive, corev1.ConditionFalse, "FailedGetExternalMetric"))
	dec := s.explainAgrees("web")
	m := dec.Metrics[0]
	if m.Error == nil || !strings.Contains(*m.Error, "unable to fetch metrics from external metrics API") || m.ErrorReason != "FailedGetExternalMetric" {
		t.Errorf("metric %s: want the failing external metrics API named", jsonString(m))
	}
	restore()
}
