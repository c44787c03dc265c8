// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/metrics/pkg/apis/custom_metrics"

	"sigs.k8s.io/custom-metrics-apiserver/pkg/provider"
)

// fakeCluster resolves "deployments" to deployments.apps and lists the pods
// named in pods (all of which match any selector).
type fakeCluster struct{ pods []string }

func (fakeCluster) Normalize(gr schema.GroupResource) schema.GroupResource {
	if gr.Resource == "deployments" {
		gr.Group = "apps"
	}
	return gr
}

func (f fakeCluster) ListNames(string, labels.Selector, provider.CustomMetricInfo) ([]string, error) {
	return f.pods, nil
}

func (fakeCluster) Reference(n types.NamespacedName, info provider.CustomMetricInfo) custom_metrics.ObjectReference {
	return custom_metrics.ObjectReference{Name: n.Name, Namespace: n.Namespace, Kind: info.GroupResource.String()}
}

func post(t *testing.T, h http.Handler, method, url, body string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, url, strings.NewReader(body)))
	return rec.Code
}

func TestCustomAndExternal(t *testing.T) {
	fc := fakeCluster{pods: []string{"a", "b", "c"}}
	s := newStore(fc, fc)
	h := newControlHandler(s)
	ctx := context.Background()

	for _, u := range []string{
		"/write-metrics/namespaces/ns/pods/a/pps",
		"/write-metrics/namespaces/ns/pods/c/pps",
		"/write-metrics/namespaces/ns/deployments/web/rps",
		"/write-metrics/namespaces/ns/metrics/load",
	} {
		if c := post(t, h, "POST", u, `"300"`); c != 200 {
			t.Fatalf("POST %s: %d", u, c)
		}
	}
	if c := post(t, h, "POST", "/write-metrics/namespaces/ns/pods/a", `"1"`); c != 400 {
		t.Fatalf("short path accepted: %d", c)
	}
	if c := post(t, h, "POST", "/write-metrics/namespaces/ns/pods/a/x", `"abc"`); c != 400 {
		t.Fatalf("bad quantity accepted: %d", c)
	}

	podInfo := provider.CustomMetricInfo{GroupResource: schema.GroupResource{Resource: "pods"}, Namespaced: true, Metric: "pps"}
	list, err := s.GetMetricBySelector(ctx, "ns", labels.Everything(), podInfo, labels.Everything())
	if err != nil || len(list.Items) != 2 || list.Items[0].DescribedObject.Name != "a" || list.Items[1].DescribedObject.Name != "c" {
		t.Fatalf("pods: %v %+v", err, list)
	}

	// The HPA asks for "deployments.apps"; the write said "deployments".
	depInfo := provider.CustomMetricInfo{GroupResource: schema.GroupResource{Group: "apps", Resource: "deployments"}, Namespaced: true, Metric: "rps"}
	v, err := s.GetMetricByName(ctx, types.NamespacedName{Namespace: "ns", Name: "web"}, depInfo, labels.Everything())
	if err != nil || v.Value.String() != "300" {
		t.Fatalf("deployment: %v %+v", err, v)
	}
	nsInfo := provider.CustomMetricInfo{GroupResource: schema.GroupResource{Resource: "namespaces"}, Metric: "load"}
	if _, err := s.GetMetricByName(ctx, types.NamespacedName{Name: "ns"}, nsInfo, labels.Everything()); err != nil {
		t.Fatalf("namespace metric: %v", err)
	}
	if _, err := s.GetMetricByName(ctx, types.NamespacedName{Namespace: "ns", Name: "b"}, podInfo, labels.Everything()); err == nil {
		t.Fatal("pod b has no value but was found")
	}

	post(t, h, "POST", "/write-external-metrics/namespaces/ns/queue?labels=queue=orders", `"250"`)
	post(t, h, "POST", "/write-external-metrics/namespaces/ns/queue?labels=queue=billing", `100`)
	ext := provider.ExternalMetricInfo{Metric: "queue"}
	all, _ := s.GetExternalMetric(ctx, "ns", labels.Everything(), ext)
	if len(all.Items) != 2 {
		t.Fatalf("empty selector should match all series: %+v", all)
	}
	sel, _ := labels.Parse("queue=orders")
	one, _ := s.GetExternalMetric(ctx, "ns", sel, ext)
	if len(one.Items) != 1 || one.Items[0].Value.String() != "250" {
		t.Fatalf("selector: %+v", one)
	}
	if c := post(t, h, "DELETE", "/write-external-metrics/namespaces/ns/queue?labels=queue=orders", ""); c != 200 {
		t.Fatalf("delete one: %d", c)
	}
	if c := post(t, h, "DELETE", "/write-external-metrics/namespaces/ns/queue", ""); c != 200 {
		t.Fatalf("delete all: %d", c)
	}
	if left, _ := s.GetExternalMetric(ctx, "ns", labels.Everything(), ext); len(left.Items) != 0 {
		t.Fatalf("left after delete: %+v", left)
	}
	if c := post(t, h, "DELETE", "/write-metrics/namespaces/ns/pods/a/pps", ""); c != 200 {
		t.Fatalf("delete custom: %d", c)
	}
	if c := post(t, h, "GET", "/healthz", ""); c != 200 {
		t.Fatalf("healthz: %d", c)
	}
}
