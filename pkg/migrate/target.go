// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// Clients are what migrate talks to the cluster with.
type Clients struct {
	Dynamic   dynamic.Interface
	Kube      kubernetes.Interface
	Mapper    meta.RESTMapper
	Discovery discovery.DiscoveryInterface
}

// Target is the object whose replica count is handed over.
type Target struct {
	Resource  schema.GroupVersionResource
	Kind      schema.GroupVersionKind
	Namespace string
	Name      string
	// ReplicasPath is the field the scale subresource reads and writes:
	// spec.replicas for the built-in workloads, the CRD's specReplicasPath
	// for a custom resource.
	ReplicasPath []string
	// PathSource says where ReplicasPath comes from.
	PathSource string
}

// Ref is "Kind namespace/name".
func (t *Target) Ref() string { return t.Kind.Kind + " " + t.Namespace + "/" + t.Name }

// ResourceName is "deployments.apps" (the resource and its group).
func (t *Target) ResourceName() string { return t.Resource.GroupResource().String() }

// PathString is the replicas path as a dotted field path: spec.replicas.
func (t *Target) PathString() string { return strings.Join(t.ReplicasPath, ".") }

// describe is `deployments.apps "web" in namespace "shop"`, the way the API
// server names objects in its messages.
func (t *Target) describe() string {
	return fmt.Sprintf("%s %q in namespace %q", t.ResourceName(), t.Name, t.Namespace)
}

// crdResource is where CustomResourceDefinitions are served.
var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// builtinGroups serve the workloads whose scale subresource maps to
// spec.replicas.
var builtinGroups = map[string]bool{"": true, "apps": true, "extensions": true}

// ParseTargetArg splits TYPE/NAME.
func ParseTargetArg(arg string) (typ, name string, err error) {
	typ, name, ok := strings.Cut(arg, "/")
	if !ok || typ == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("%q is not TYPE/NAME (like deployment/web, statefulset/db or widgets.example.com/w)", arg)
	}
	return typ, name, nil
}

// Resolve finds the resource TYPE names, checks that it has a scale
// subresource and finds the field that subresource maps to.
func Resolve(ctx context.Context, c *Clients, typ, name, namespace string) (*Target, error) {
	// The mapper and its shortcut expander each ask discovery, and a
	// discovery that failed is asked again: when the server does not
	// answer, each would wait the whole request bound. Asked once here,
	// discovery's answer is cached for both, or its failure is the error.
	if c.Discovery != nil {
		if _, err := c.Discovery.ServerGroups(); err != nil {
			return nil, fmt.Errorf("resource type %q: %w", typ, err)
		}
	}
	gvk, mapping, err := mapType(c.Mapper, typ)
	if err != nil {
		return nil, err
	}
	t := &Target{Resource: mapping.Resource, Kind: gvk, Namespace: namespace, Name: name}
	if mapping.Scope != nil && mapping.Scope.Name() == meta.RESTScopeNameRoot {
		return nil, fmt.Errorf("%s %q is cluster-scoped: a HorizontalPodAutoscaler only scales objects in its own namespace", t.ResourceName(), name)
	}
	scalable, err := hasScaleSubresource(c.Discovery, mapping.Resource)
	if err != nil {
		return nil, err
	}
	if !scalable {
		return nil, fmt.Errorf("%s is not scalable: the API serves no scale subresource for %s, so no HorizontalPodAutoscaler can target it (migrate works on deployments, statefulsets, replicasets and custom resources with a scale subresource)",
			t.describe(), t.ResourceName())
	}
	if builtinGroups[mapping.Resource.Group] {
		t.ReplicasPath, t.PathSource = []string{"spec", "replicas"}, "the built-in scale subresource of "+t.ResourceName()
		return t, nil
	}
	return t, crdReplicasPath(ctx, c.Dynamic, t)
}

// mapType resolves a resource name, short name or kind, optionally with its
// group (deploy, deployments.apps, Widget.example.com, widgets.v1.example.com).
func mapType(mapper meta.RESTMapper, typ string) (schema.GroupVersionKind, *meta.RESTMapping, error) {
	var gvk schema.GroupVersionKind
	full, gr := schema.ParseResourceArg(strings.ToLower(typ))
	var err error
	if full != nil {
		gvk, err = mapper.KindFor(*full)
	}
	if full == nil || meta.IsNoMatchError(err) {
		gvk, err = mapper.KindFor(gr.WithVersion(""))
	}
	if err != nil && !meta.IsNoMatchError(err) {
		// Discovery failed (the server did not answer it): each other
		// spelling would ask it again and wait the request's bound again.
		return gvk, nil, fmt.Errorf("resource type %q: %w", typ, err)
	}
	if err != nil {
		// Maybe a kind (Deployment, Widget.example.com).
		gk := schema.ParseGroupKind(typ)
		m, kerr := mapper.RESTMapping(gk)
		if kerr != nil {
			if meta.IsNoMatchError(err) {
				return gvk, nil, fmt.Errorf("the server does not know the resource type %q (kubectl api-resources lists the ones it serves)", typ)
			}
			return gvk, nil, fmt.Errorf("resource type %q: %w", typ, err)
		}
		return m.GroupVersionKind, m, nil
	}
	m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return gvk, nil, fmt.Errorf("resource type %q: %w", typ, err)
	}
	return gvk, m, nil
}

// hasScaleSubresource looks for RESOURCE/scale in discovery.
func hasScaleSubresource(d discovery.DiscoveryInterface, gvr schema.GroupVersionResource) (bool, error) {
	list, err := d.ServerResourcesForGroupVersion(gvr.GroupVersion().String())
	if err != nil {
		return false, fmt.Errorf("discover the resources of %s: %w", gvr.GroupVersion(), err)
	}
	for _, r := range list.APIResources {
		if r.Name == gvr.Resource+"/scale" {
			return true, nil
		}
	}
	return false, nil
}

// crdReplicasPath reads specReplicasPath from the CustomResourceDefinition
// serving t. A resource served by an aggregated API, not by a CRD, is
// assumed to use spec.replicas, as the built-in workloads do.
func crdReplicasPath(ctx context.Context, dyn dynamic.Interface, t *Target) error {
	crdName := t.Resource.Resource + "." + t.Resource.Group
	crd, err := dyn.Resource(crdResource).Get(ctx, crdName, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		t.ReplicasPath = []string{"spec", "replicas"}
		t.PathSource = "assumed: no CustomResourceDefinition " + crdName + " (an aggregated API), so spec.replicas as for the built-in workloads"
		return nil
	case err != nil:
		return fmt.Errorf("read CustomResourceDefinition %s for the replicas path of its scale subresource (specReplicasPath): %w", crdName, err)
	}
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range versions {
		vm, ok := v.(map[string]any)
		if !ok || vm["name"] != t.Resource.Version {
			continue
		}
		p, found, _ := unstructured.NestedString(vm, "subresources", "scale", "specReplicasPath")
		if !found || p == "" {
			break
		}
		path, err := parseJSONPath(p)
		if err != nil {
			return fmt.Errorf("CustomResourceDefinition %s, version %s: specReplicasPath %q: %w", crdName, t.Resource.Version, p, err)
		}
		t.ReplicasPath = path
		t.PathSource = fmt.Sprintf("specReplicasPath %s of CustomResourceDefinition %s (version %s)", p, crdName, t.Resource.Version)
		return nil
	}
	return fmt.Errorf("CustomResourceDefinition %s declares no scale subresource for version %s (subresources.scale.specReplicasPath)", crdName, t.Resource.Version)
}

// parseJSONPath turns ".spec.replicas" into ["spec", "replicas"]. The API
// server only accepts such simple paths for specReplicasPath.
func parseJSONPath(p string) ([]string, error) {
	if !strings.HasPrefix(p, ".") || strings.ContainsAny(p, "[]*") {
		return nil, errors.New("not a simple .field.field path")
	}
	parts := strings.Split(p[1:], ".")
	for _, s := range parts {
		if s == "" {
			return nil, errors.New("empty path segment")
		}
	}
	return parts, nil
}

// State is what Inspect read.
type State struct {
	Target *Target
	Object *unstructured.Unstructured
	HPA    *autoscalingv2.HorizontalPodAutoscaler
	// HPATargets are the scale targets of every HPA of the namespace (for
	// the manifests that set a replica count but are not the target).
	HPATargets []autoscalingv2.CrossVersionObjectReference
}

// Inspect reads the object and the HPAs of its namespace. It refuses when
// no HPA, or more than one, targets the object.
func Inspect(ctx context.Context, c *Clients, t *Target) (*State, error) {
	obj, err := c.Dynamic.Resource(t.Resource).Namespace(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.describe(), err)
	}
	list, err := c.Kube.AutoscalingV2().HorizontalPodAutoscalers(t.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("list the HorizontalPodAutoscalers of namespace %q: %w", t.Namespace, err)
	}
	hpa, err := MatchHPA(t, list.Items)
	if err != nil {
		return nil, err
	}
	st := &State{Target: t, Object: obj, HPA: hpa}
	for i := range list.Items {
		st.HPATargets = append(st.HPATargets, list.Items[i].Spec.ScaleTargetRef)
	}
	return st, nil
}

// MatchHPA returns the one HPA whose scaleTargetRef is t, or an error that
// says why there is none to hand the replica count over to.
func MatchHPA(t *Target, hpas []autoscalingv2.HorizontalPodAutoscaler) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	var match []*autoscalingv2.HorizontalPodAutoscaler
	for i := range hpas {
		if refersTo(hpas[i].Spec.ScaleTargetRef, t.Kind.GroupKind(), t.Name) {
			match = append(match, &hpas[i])
		}
	}
	switch len(match) {
	case 1:
		return match[0], nil
	case 0:
		return nil, fmt.Errorf("no HorizontalPodAutoscaler in namespace %q targets %s %q, so there is nothing to hand spec.replicas over to: create the HPA first (for example kubectl autoscale %s %s -n %s --min=2 --max=10 --cpu-percent=80), then run migrate",
			t.Namespace, t.Kind.Kind, t.Name, strings.ToLower(t.Kind.Kind), t.Name, t.Namespace)
	default:
		names := make([]string, 0, len(match))
		for _, h := range match {
			names = append(names, h.Name)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("%d HorizontalPodAutoscalers in namespace %q target %s %q (%s): each would write its replica count; keep one of them, then run migrate",
			len(match), t.Namespace, t.Kind.Kind, t.Name, strings.Join(names, ", "))
	}
}

// refersTo says whether ref names the object of group-kind gk called name.
// Only the group of ref.apiVersion matters: the controller reads the scale
// subresource through any served version.
func refersTo(ref autoscalingv2.CrossVersionObjectReference, gk schema.GroupKind, name string) bool {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return false
	}
	return ref.Kind == gk.Kind && gv.Group == gk.Group && ref.Name == name
}
