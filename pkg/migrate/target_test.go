// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"context"
	"errors"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	fakediscovery "k8s.io/client-go/discovery/fake"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/restmapper"
)

func TestParseTargetArg(t *testing.T) {
	for _, tc := range []struct{ in, typ, name string }{
		{"deployment/web", "deployment", "web"},
		{"deploy/web", "deploy", "web"},
		{"widgets.example.com/w", "widgets.example.com", "w"},
	} {
		typ, name, err := ParseTargetArg(tc.in)
		if err != nil || typ != tc.typ || name != tc.name {
			t.Errorf("ParseTargetArg(%q) = %q, %q, %v", tc.in, typ, name, err)
		}
	}
	for _, in := range []string{"web", "deployment/", "/web", "a/b/c"} {
		if _, _, err := ParseTargetArg(in); err == nil || !strings.Contains(err.Error(), "TYPE/NAME") {
			t.Errorf("ParseTargetArg(%q): err = %v", in, err)
		}
	}
}

func TestParseJSONPath(t *testing.T) {
	if p, err := parseJSONPath(".spec.replicas"); err != nil || strings.Join(p, ",") != "spec,replicas" {
		t.Errorf("got %v, %v", p, err)
	}
	for _, in := range []string{"spec.replicas", ".spec.items[0]", ".spec..x", "."} {
		if _, err := parseJSONPath(in); err == nil {
			t.Errorf("parseJSONPath(%q) accepted", in)
		}
	}
}

func hpa(name, apiVersion, kind, target string) autoscalingv2.HorizontalPodAutoscaler {
	h := autoscalingv2.HorizontalPodAutoscaler{}
	h.Name = name
	h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: apiVersion, Kind: kind, Name: target}
	return h
}

func TestMatchHPA(t *testing.T) {
	obj := loadObject(t, "kubectl-csa")
	tg := deploymentTarget(obj)
	hpas := []autoscalingv2.HorizontalPodAutoscaler{
		hpa("other", "apps/v1", "Deployment", "api"),
		hpa("wrong-group", "example.com/v1", "Deployment", "kubectl-csa"),
		hpa("wrong-kind", "apps/v1", "StatefulSet", "kubectl-csa"),
	}
	_, err := MatchHPA(tg, hpas)
	if err == nil || !strings.HasPrefix(err.Error(), `no HorizontalPodAutoscaler in namespace "mig-scratch" targets Deployment "kubectl-csa"`) {
		t.Errorf("none: %v", err)
	}
	hpas = append(hpas, hpa("web-b", "apps/v1beta1", "Deployment", "kubectl-csa"))
	h, err := MatchHPA(tg, hpas)
	if err != nil || h.Name != "web-b" {
		t.Errorf("one (any version of the group): %v, %v", h, err)
	}
	hpas = append(hpas, hpa("web-a", "apps/v1", "Deployment", "kubectl-csa"))
	_, err = MatchHPA(tg, hpas)
	if err == nil || !strings.Contains(err.Error(), `2 HorizontalPodAutoscalers in namespace "mig-scratch" target Deployment "kubectl-csa" (web-a, web-b)`) {
		t.Errorf("several: %v", err)
	}
}

// clusterFakes serves deployments (scalable), configmaps (not) and a
// Widget custom resource whose CRD names .spec.size.
func clusterFakes(t *testing.T) *Clients {
	t.Helper()
	kube := kubefake.NewClientset()
	disc := kube.Discovery().(*fakediscovery.FakeDiscovery)
	disc.Resources = []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{
			{Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: []string{"get"}},
			{Name: "namespaces", Kind: "Namespace", Namespaced: false, Verbs: []string{"get"}},
		}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
			{Name: "deployments", Kind: "Deployment", Namespaced: true, ShortNames: []string{"deploy"}, Verbs: []string{"get"}},
			{Name: "deployments/scale", Kind: "Scale", Group: "autoscaling", Version: "v1", Namespaced: true},
		}},
		{GroupVersion: "example.com/v1", APIResources: []metav1.APIResource{
			{Name: "widgets", Kind: "Widget", Namespaced: true, Verbs: []string{"get"}},
			{Name: "widgets/scale", Kind: "Scale", Group: "autoscaling", Version: "v1", Namespaced: true},
			{Name: "gadgets", Kind: "Gadget", Namespaced: true, Verbs: []string{"get"}},
			{Name: "gadgets/scale", Kind: "Scale", Group: "autoscaling", Version: "v1", Namespaced: true},
		}},
	}
	groups, err := restmapper.GetAPIGroupResources(disc)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewShortcutExpander(restmapper.NewDiscoveryRESTMapper(groups), disc, nil)
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{"versions": []any{map[string]any{
			"name": "v1", "subresources": map[string]any{"scale": map[string]any{"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.size"}},
		}}},
	}}
	dyn := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), crd)
	return &Clients{Dynamic: dyn, Kube: kube, Mapper: mapper, Discovery: disc}
}

func TestResolve(t *testing.T) {
	c := clusterFakes(t)
	ctx := context.Background()
	for _, tc := range []struct {
		typ, resource, path string
	}{
		{"deployment", "deployments.apps", "spec.replicas"},
		{"deploy", "deployments.apps", "spec.replicas"},
		{"deployments.apps", "deployments.apps", "spec.replicas"},
		{"Deployment", "deployments.apps", "spec.replicas"},
		{"widgets.example.com", "widgets.example.com", "spec.size"},
		{"widget", "widgets.example.com", "spec.size"},
		// No CRD: an aggregated API, assumed like the built-in workloads.
		{"gadgets", "gadgets.example.com", "spec.replicas"},
	} {
		tg, err := Resolve(ctx, c, tc.typ, "w", "shop")
		if err != nil {
			t.Errorf("%s: %v", tc.typ, err)
			continue
		}
		if tg.ResourceName() != tc.resource || tg.PathString() != tc.path {
			t.Errorf("%s: %s %s (%s)", tc.typ, tg.ResourceName(), tg.PathString(), tg.PathSource)
		}
	}
	_, err := Resolve(ctx, c, "configmap", "cfg", "shop")
	if err == nil || !strings.HasPrefix(err.Error(), `configmaps "cfg" in namespace "shop" is not scalable: the API serves no scale subresource for configmaps`) {
		t.Errorf("configmap: %v", err)
	}
	_, err = Resolve(ctx, c, "namespace", "shop", "shop")
	if err == nil || !strings.Contains(err.Error(), "cluster-scoped") {
		t.Errorf("namespace: %v", err)
	}
	_, err = Resolve(ctx, c, "frobnicators", "x", "shop")
	if err == nil || !strings.Contains(err.Error(), `the server does not know the resource type "frobnicators"`) {
		t.Errorf("unknown: %v", err)
	}
}

// unansweredMapper is a RESTMapper whose discovery never gets an answer:
// every lookup fails with the request's bound, and is counted.
type unansweredMapper struct {
	meta.RESTMapper
	calls int
}

func (m *unansweredMapper) KindFor(schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	m.calls++
	return schema.GroupVersionKind{}, errors.New(`Get "https://127.0.0.1:6443/api?timeout=5s": context deadline exceeded`)
}

func (m *unansweredMapper) RESTMapping(schema.GroupKind, ...string) (*meta.RESTMapping, error) {
	m.calls++
	return nil, errors.New(`Get "https://127.0.0.1:6443/api?timeout=5s": context deadline exceeded`)
}

// A failed discovery is asked once, not once per spelling of the type:
// with the API server paused, each lookup waits the whole request bound
// (migrate --request-timeout 5s took 15 s, three lookups, before).
func TestMapTypeAsksAFailedDiscoveryOnce(t *testing.T) {
	for _, typ := range []string{"deployment", "deployments.apps", "Widget.example.com"} {
		m := &unansweredMapper{}
		_, _, err := mapType(m, typ)
		if err == nil || !strings.Contains(err.Error(), "resource type \""+typ+"\": Get ") {
			t.Errorf("%s: err = %v", typ, err)
		}
		if m.calls != 1 {
			t.Errorf("%s: discovery asked %d times, want 1", typ, m.calls)
		}
	}
}
