// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package fleet

import (
	"bytes"
	"path"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// The HPAs of a GitOps repository: web, whose recommendation changes its
// target and behavior, and cart, which keeps its own.
const repoHPAs = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
  labels: {team: a}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 20
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
  - type: Resource
    resource: {name: memory, target: {type: Utilization, averageUtilization: 80}}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      policies: [{type: Percent, value: 10, periodSeconds: 60}, {type: Pods, value: 1, periodSeconds: 60}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: cart, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: cart}
  minReplicas: 1
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
`

// tune's merge patch of web: both metrics as the HPA has them but for
// cpu's target, and the whole behavior.
const webPatch = `{"spec":{"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":65}}},{"type":"Resource","resource":{"name":"memory","target":{"type":"Utilization","averageUtilization":80}}}],"behavior":{"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]},"scaleDown":{"stabilizationWindowSeconds":60,"selectPolicy":"Max","policies":[{"type":"Pods","value":1,"periodSeconds":30}]}}}}`

// The patches, taken into a kustomization beside the HPAs' manifests by
// one line (components), build web with the recommendation and cart as
// it was: kustomize's own build (the library kubectl apply -k runs).
func TestPatchesBuildWithKustomize(t *testing.T) {
	doc := Document([]explain.FleetItem{
		{
			Context: "prod:eu/1", HPA: explain.ObjectRef{Namespace: "shop", Name: "web"}, Status: explain.FleetRecommended, CostUnit: "core-hours",
			AsIs: &explain.FleetFigures{Cost: 12}, Saving: 3, SavingFraction: 0.25, Changes: []string{"target of cpu 50% → 65%"}, Patch: webPatch,
		},
		{Context: "prod:eu/1", HPA: explain.ObjectRef{Namespace: "shop", Name: "cart"}, Status: explain.FleetNoChange, CostUnit: "core-hours", AsIs: &explain.FleetFigures{Cost: 2}},
	}, t0, t0, DefaultMinFidelity, nil)
	files, err := Patches(doc)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for p := range files {
		names = append(names, p)
	}
	if len(files) != 2 || files["prod_eu_1/kustomization.yaml"] == nil || files["prod_eu_1/shop/web.yaml"] == nil {
		t.Fatalf("files %v, want the component and web's patch under prod_eu_1/", names)
	}
	fs := filesys.MakeFsInMemory()
	for p, b := range files {
		if err := fs.WriteFile(path.Join("/repo/tuned", p), b); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.WriteFile("/repo/hpas.yaml", []byte(repoHPAs)); err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/repo/kustomization.yaml", []byte("resources: [hpas.yaml]\ncomponents: [tuned/prod_eu_1]\n")); err != nil {
		t.Fatal(err)
	}
	built, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/repo")
	if err != nil {
		t.Fatalf("kustomize build: %v\n%s", err, files["prod_eu_1/kustomization.yaml"])
	}
	out, err := built.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, d := range strings.Split(string(out), "\n---\n") {
		var o map[string]any
		if err := yaml.Unmarshal([]byte(d), &o); err != nil {
			t.Fatal(err)
		}
		got[o["metadata"].(map[string]any)["name"].(string)] = o
	}
	// What web should be: its manifest with the patch's metrics and
	// behavior in place of its own, nothing else touched.
	var want []map[string]any
	for _, d := range strings.Split(repoHPAs, "\n---\n") {
		var o map[string]any
		if err := yaml.Unmarshal([]byte(d), &o); err != nil {
			t.Fatal(err)
		}
		want = append(want, o)
	}
	var patch map[string]map[string]any
	if err := yaml.Unmarshal([]byte(webPatch), &patch); err != nil {
		t.Fatal(err)
	}
	spec := want[0]["spec"].(map[string]any)
	spec["metrics"], spec["behavior"] = patch["spec"]["metrics"], patch["spec"]["behavior"]
	for i, name := range []string{"web", "cart"} {
		g, _ := yaml.Marshal(got[name])
		w, _ := yaml.Marshal(want[i])
		if !bytes.Equal(g, w) {
			t.Errorf("%s built as\n%s\nwant\n%s", name, g, w)
		}
	}
	if !strings.HasPrefix(string(files["prod_eu_1/shop/web.yaml"]), "# kubectl hpa tune: target of cpu 50% → 65% (saves 25.0% of 12.000 core-hours") {
		t.Errorf("web's patch:\n%s", files["prod_eu_1/shop/web.yaml"])
	}
	// Nothing recommended, nothing written.
	if none, err := Patches(Document(doc.Items[1:], t0, t0, DefaultMinFidelity, nil)); err != nil || len(none) != 0 {
		t.Errorf("without a recommendation: %v, %v", none, err)
	}
}
