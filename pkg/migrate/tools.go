// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Delivery tools migrate recognizes.
const (
	ToolHelm          = "Helm"
	ToolArgoCD        = "Argo CD"
	ToolFluxKustomize = "Flux kustomize-controller"
	ToolFluxHelm      = "Flux helm-controller"
	ToolPulumi        = "Pulumi"
)

// Tool is a delivery tool that manages the object, with what gave it away.
type Tool struct {
	Name     string   `json:"name"`
	Evidence []string `json:"evidence"`
}

// DetectTools looks for the marks known delivery tools leave on the objects
// they manage: labels, annotations and field manager names.
func DetectTools(obj *unstructured.Unstructured) []Tool {
	found := map[string][]string{}
	add := func(tool, why string) { found[tool] = append(found[tool], why) }

	labels, ann := obj.GetLabels(), obj.GetAnnotations()
	if v, ok := ann["meta.helm.sh/release-name"]; ok {
		add(ToolHelm, "annotation meta.helm.sh/release-name="+v)
	}
	if v := labels["app.kubernetes.io/managed-by"]; v == "Helm" {
		add(ToolHelm, "label app.kubernetes.io/managed-by=Helm")
	}
	if v, ok := ann["argocd.argoproj.io/tracking-id"]; ok {
		add(ToolArgoCD, "annotation argocd.argoproj.io/tracking-id="+v)
	}
	// Argo CD's label tracking uses app.kubernetes.io/instance, but Helm
	// charts set that label too: it only counts without Helm's marks.
	if v, ok := labels["app.kubernetes.io/instance"]; ok && len(found[ToolHelm]) == 0 {
		add(ToolArgoCD, "label app.kubernetes.io/instance="+v+" (Argo CD's label tracking)")
	}
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		switch k {
		case "kustomize.toolkit.fluxcd.io/name", "kustomize.toolkit.fluxcd.io/namespace":
			add(ToolFluxKustomize, "label "+k+"="+labels[k])
		case "helm.toolkit.fluxcd.io/name", "helm.toolkit.fluxcd.io/namespace":
			add(ToolFluxHelm, "label "+k+"="+labels[k])
		}
	}
	seen := map[string]bool{}
	for _, e := range obj.GetManagedFields() {
		if seen[e.Manager] {
			continue
		}
		seen[e.Manager] = true
		why := "field manager " + e.Manager + " (" + string(e.Operation) + ")"
		switch e.Manager {
		case "helm":
			add(ToolHelm, why)
		case "argocd-controller", "argocd-application-controller":
			add(ToolArgoCD, why)
		case "kustomize-controller":
			add(ToolFluxKustomize, why)
		case "helm-controller":
			add(ToolFluxHelm, why)
		default:
			if knownManager(e.Manager) == ToolPulumi {
				add(ToolPulumi, why)
			}
		}
	}
	out := make([]Tool, 0, len(found))
	for _, name := range []string{ToolHelm, ToolArgoCD, ToolFluxKustomize, ToolFluxHelm, ToolPulumi} {
		if ev := found[name]; len(ev) > 0 {
			out = append(out, Tool{Name: name, Evidence: ev})
		}
	}
	return out
}
