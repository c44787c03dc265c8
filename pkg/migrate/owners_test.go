// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestReplicaOwners_captured runs the manager detection over managedFields
// the local control plane wrote (testdata/README.md says how each object
// was made).
func TestReplicaOwners_captured(t *testing.T) {
	tests := []struct {
		fixture string
		// owners are "manager/Operation/subresource/role" of the owners of
		// spec.replicas, in the object's order.
		owners []string
		tools  []string
		// lastApplied: "" none, "3" sets it to 3, "-" present without it.
		lastApplied string
	}{
		{
			fixture:     "csa-no-hpa-write",
			owners:      []string{"kubectl-client-side-apply/Update//updater"},
			lastApplied: "3",
		},
		{
			fixture:     "kubectl-csa",
			owners:      []string{"kube-controller-manager/Update/scale/hpa"},
			lastApplied: "3",
		},
		{
			fixture: "kubectl-ssa",
			owners:  []string{"kubectl/Apply//applier"},
		},
		{
			fixture: "ssa-hpa-owned",
			owners:  []string{"kube-controller-manager/Update/scale/hpa"},
		},
		{
			fixture: "ssa-coowned",
			owners:  []string{"kubectl-hpa-migrate/Apply//migrate", "kubectl/Apply//applier"},
		},
		{
			fixture: "ssa-migrated",
			owners:  []string{"kubectl-hpa-migrate/Apply//migrate"},
		},
		{
			fixture: "helm-like",
			owners:  []string{"kube-controller-manager/Update/scale/hpa"},
			tools:   []string{ToolHelm},
		},
		{
			fixture:     "argocd-like",
			owners:      []string{"kube-controller-manager/Update/scale/hpa"},
			tools:       []string{ToolArgoCD},
			lastApplied: "3",
		},
		{
			fixture: "argocd-ssa",
			owners:  []string{"argocd-controller/Apply//applier"},
			tools:   []string{ToolArgoCD},
		},
		{
			fixture: "flux-like",
			owners:  []string{"kustomize-controller/Apply//applier"},
			tools:   []string{ToolFluxKustomize},
		},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			obj := loadObject(t, tc.fixture)
			owners, err := ReplicaOwners(obj.GetManagedFields(), []string{"spec", "replicas"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range owners {
				got = append(got, o.Manager+"/"+o.Operation+"/"+o.Subresource+"/"+string(o.Role))
			}
			if !reflect.DeepEqual(got, tc.owners) {
				t.Errorf("owners = %q, want %q", got, tc.owners)
			}
			var tools []string
			for _, tool := range DetectTools(obj) {
				tools = append(tools, tool.Name)
			}
			if !reflect.DeepEqual(tools, tc.tools) {
				t.Errorf("tools = %q, want %q", tools, tc.tools)
			}
			la, err := readLastApplied(obj, []string{"spec", "replicas"})
			if err != nil {
				t.Fatal(err)
			}
			gotLA := ""
			switch {
			case la != nil && la.sets:
				gotLA = la.value
			case la != nil:
				gotLA = "-"
			}
			if gotLA != tc.lastApplied {
				t.Errorf("last-applied replicas = %q, want %q", gotLA, tc.lastApplied)
			}
		})
	}
}

func TestDetectTools_evidence(t *testing.T) {
	obj := loadObject(t, "helm-like")
	tools := DetectTools(obj)
	if len(tools) != 1 {
		t.Fatalf("tools = %+v", tools)
	}
	want := []string{
		"annotation meta.helm.sh/release-name=shop",
		"label app.kubernetes.io/managed-by=Helm",
		"field manager helm (Update)",
	}
	if !reflect.DeepEqual(tools[0].Evidence, want) {
		t.Errorf("evidence = %q, want %q", tools[0].Evidence, want)
	}
	// The instance label alone, without Helm's marks, is Argo CD's label
	// tracking.
	obj.SetAnnotations(nil)
	obj.SetLabels(map[string]string{"app.kubernetes.io/instance": "shop"})
	obj.SetManagedFields(nil)
	tools = DetectTools(obj)
	if len(tools) != 1 || tools[0].Name != ToolArgoCD {
		t.Errorf("instance label only: tools = %+v", tools)
	}
	// Flux helm-controller releases carry both Helm's and Flux's marks.
	obj.SetLabels(map[string]string{"helm.toolkit.fluxcd.io/name": "web", "app.kubernetes.io/managed-by": "Helm"})
	var names []string
	for _, tool := range DetectTools(obj) {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != ToolHelm+","+ToolFluxHelm {
		t.Errorf("Flux helm-controller: tools = %q", names)
	}
}

func TestWithoutPath(t *testing.T) {
	tests := []struct {
		in, want string
		left     bool
	}{
		{`{"f:spec":{"f:replicas":{},"f:selector":{}}}`, `{"f:spec":{"f:selector":{}}}`, true},
		// The parent left empty goes too: an empty parent would mean owning it.
		{`{"f:metadata":{"f:labels":{}},"f:spec":{"f:replicas":{}}}`, `{"f:metadata":{"f:labels":{}}}`, true},
		{`{"f:spec":{"f:replicas":{}}}`, ``, false},
		// "." means the map itself is owned: it stays.
		{`{"f:spec":{".":{},"f:replicas":{}}}`, `{"f:spec":{".":{}}}`, true},
		// Not owned: unchanged.
		{`{"f:spec":{"f:selector":{}}}`, `{"f:spec":{"f:selector":{}}}`, true},
	}
	for _, tc := range tests {
		got, left, err := withoutPath([]byte(tc.in), []string{"spec", "replicas"})
		if err != nil {
			t.Fatal(err)
		}
		if left != tc.left || string(got) != tc.want {
			t.Errorf("withoutPath(%s) = %s, %v; want %s, %v", tc.in, got, left, tc.want, tc.left)
		}
	}
}

func TestReadLastApplied_keepsTheRest(t *testing.T) {
	obj := loadObject(t, "kubectl-csa")
	la, err := readLastApplied(obj, []string{"spec", "replicas"})
	if err != nil {
		t.Fatal(err)
	}
	var before, after map[string]any
	if err := json.Unmarshal([]byte(la.raw), &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(la.after), &after); err != nil {
		t.Fatal(err)
	}
	delete(before["spec"].(map[string]any), "replicas")
	if !reflect.DeepEqual(before, after) {
		t.Errorf("after = %s", la.after)
	}
	// kubectl writes the annotation compact, keys sorted, with a final
	// newline: the rewrite is byte-identical apart from the field.
	if want := strings.Replace(la.raw, `"replicas":3,`, "", 1); la.after != want {
		t.Errorf("after:\n%q\nwant\n%q", la.after, want)
	}
}
