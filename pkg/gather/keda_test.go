// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func apiService(ns, name, available string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]any{"name": "v1beta1.external.metrics.k8s.io"},
		"spec":     map[string]any{"group": "external.metrics.k8s.io", "version": "v1beta1"},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "Available", "status": available},
		}},
	}}
	if name != "" {
		_ = unstructured.SetNestedField(u.Object, map[string]any{"namespace": ns, "name": name}, "spec", "service")
	}
	return u
}

// ExternalMetricsServer names the Service behind external.metrics.k8s.io
// and tells KEDA's metrics server from another adapter.
func TestExternalMetricsServer(t *testing.T) {
	for _, tc := range []struct {
		name           string
		obj            *unstructured.Unstructured
		service, avail string
		keda, missing  bool
	}{
		{name: "keda chart", obj: apiService("keda", "keda-operator-metrics-apiserver", "True"), service: "keda/keda-operator-metrics-apiserver", avail: "True", keda: true},
		{name: "other adapter", obj: apiService("custom-metrics", "custom-metrics-apiserver", "False"), service: "custom-metrics/custom-metrics-apiserver", avail: "False"},
		{name: "local", obj: apiService("", "", "True"), avail: "True"},
		{name: "absent", missing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var objs []runtime.Object
			if tc.obj != nil {
				objs = append(objs, tc.obj)
			}
			dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
				map[schema.GroupVersionResource]string{apiServicesResource: "APIServiceList"}, objs...)
			got, err := ExternalMetricsServer(context.Background(), &Clients{Dynamic: dyn})
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || got.Missing != tc.missing || got.Service != tc.service || got.KEDA != tc.keda || got.Available != tc.avail {
				t.Fatalf("got %+v, want service %q keda %v available %q", got, tc.service, tc.keda, tc.avail)
			}
		})
	}
}
