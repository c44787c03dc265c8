// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// loadObject reads testdata/objects/NAME.yaml, an object as
// `kubectl get -o yaml --show-managed-fields` printed it on the local
// control plane (see testdata/README.md).
func loadObject(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "objects", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		t.Fatal(err)
	}
	return u
}

// loadHPA returns the HPA of testdata/hpas.yaml that targets the object
// called target, or a copy of the first one retargeted at it.
func loadHPA(t *testing.T, target string) *autoscalingv2.HorizontalPodAutoscaler {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hpas.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var list autoscalingv2.HorizontalPodAutoscalerList
	if err := yaml.UnmarshalStrict(b, &list); err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		if list.Items[i].Spec.ScaleTargetRef.Name == target {
			return &list.Items[i]
		}
	}
	h := list.Items[0].DeepCopy()
	h.Name = target
	h.Spec.ScaleTargetRef.Name = target
	return h
}

// deploymentTarget is the Target Resolve gives for a Deployment.
func deploymentTarget(obj *unstructured.Unstructured) *Target {
	return &Target{
		Resource:     schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
		Kind:         schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
		Namespace:    obj.GetNamespace(),
		Name:         obj.GetName(),
		ReplicasPath: []string{"spec", "replicas"},
		PathSource:   "the built-in scale subresource of deployments.apps",
	}
}

// fixtureState is the State Inspect gives for a fixture object.
func fixtureState(t *testing.T, name string) *State {
	t.Helper()
	obj := loadObject(t, name)
	h := loadHPA(t, obj.GetName())
	return &State{Target: deploymentTarget(obj), Object: obj, HPA: h, HPATargets: []autoscalingv2.CrossVersionObjectReference{h.Spec.ScaleTargetRef}}
}
