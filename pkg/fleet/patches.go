// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package fleet

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// ContextDir names the directory of a context's patches: the context's
// name, or "in-cluster" for none (a pod's service account).
func ContextDir(context string) string {
	if context == "" {
		return "in-cluster"
	}
	// A context's name may hold a slash or a colon (ARNs, user@cluster).
	return strings.NewReplacer("/", "_", ":", "_", "\\", "_").Replace(context)
}

// Patches are the files of a fleet's recommendations for a GitOps
// repository, by path (slash-separated, relative to the output directory):
// per HPA with a recommendation, CONTEXT/NAMESPACE/NAME.yaml, a patch of
// the HPA in kustomize's strategic-merge form (the object's kind and name,
// and the fields the recommendation sets: its metrics and behavior, whose
// lists the API replaces whole, as the merge patch does); and per context
// CONTEXT/kustomization.yaml, a kustomize Component that lists them with
// their targets. A kustomization that holds the HPAs takes them with one
// line, components: [CONTEXT].
func Patches(doc *explain.TuneFleet) (map[string][]byte, error) {
	out := map[string][]byte{}
	byContext := map[string][]explain.FleetItem{}
	for _, it := range doc.Items {
		if it.Status != explain.FleetRecommended || it.Patch == "" {
			continue
		}
		byContext[ContextDir(it.Context)] = append(byContext[ContextDir(it.Context)], it)
	}
	for _, ctx := range slices.Sorted(maps.Keys(byContext)) {
		items := byContext[ctx]
		slices.SortFunc(items, func(a, b explain.FleetItem) int {
			return strings.Compare(a.HPA.Namespace+"/"+a.HPA.Name, b.HPA.Namespace+"/"+b.HPA.Name)
		})
		comp := component{APIVersion: "kustomize.config.k8s.io/v1alpha1", Kind: "Component"}
		for _, it := range items {
			var merge map[string]any
			if err := json.Unmarshal([]byte(it.Patch), &merge); err != nil {
				return nil, fmt.Errorf("HPA %s/%s: its patch: %w", it.HPA.Namespace, it.HPA.Name, err)
			}
			obj := map[string]any{
				"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
				"metadata": map[string]any{"name": it.HPA.Name, "namespace": it.HPA.Namespace},
			}
			for k, v := range merge {
				if k == "apiVersion" || k == "kind" || k == "metadata" {
					continue
				}
				obj[k] = v
			}
			b, err := yaml.Marshal(obj)
			if err != nil {
				return nil, fmt.Errorf("HPA %s/%s: its patch: %w", it.HPA.Namespace, it.HPA.Name, err)
			}
			rel := path.Join(it.HPA.Namespace, it.HPA.Name+".yaml")
			header := fmt.Sprintf("# kubectl hpa tune: %s (saves %s of %s %s over %s to %s)\n",
				strings.Join(it.Changes, "; "), pct(it.SavingFraction), trim3(it.AsIs.Cost), it.CostUnit,
				doc.Start.UTC().Format("2006-01-02T15:04:05Z"), doc.End.UTC().Format("2006-01-02T15:04:05Z"))
			out[path.Join(ctx, rel)] = append([]byte(header), b...)
			comp.Patches = append(comp.Patches, componentPatch{Path: rel, Target: patchTarget{
				Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler", Namespace: it.HPA.Namespace, Name: it.HPA.Name,
			}})
		}
		b, err := yaml.Marshal(comp)
		if err != nil {
			return nil, err
		}
		out[path.Join(ctx, "kustomization.yaml")] = append([]byte("# The recommendations of kubectl hpa tune for context "+ctx+": add this directory to the\n# components of the kustomization that holds these HPAs.\n"), b...)
	}
	return out, nil
}

type component struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Patches    []componentPatch `json:"patches"`
}

type componentPatch struct {
	Path   string      `json:"path"`
	Target patchTarget `json:"target"`
}

type patchTarget struct {
	Group     string `json:"group"`
	Version   string `json:"version"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

func trim3(f float64) string { return fmt.Sprintf("%.3f", f) }
