// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

func mustHPA(t *testing.T, spec string) *autoscalingv2.HorizontalPodAutoscaler {
	t.Helper()
	h := &autoscalingv2.HorizontalPodAutoscaler{}
	if err := yaml.UnmarshalStrict([]byte(spec), &h.Spec); err != nil {
		t.Fatalf("bad fixture: %v", err)
	}
	return h
}

func TestDefaultHPA(t *testing.T) {
	const (
		scaleUpDefault = `
        stabilizationWindowSeconds: 0
        selectPolicy: Max
        policies:
        - {type: Pods, value: 4, periodSeconds: 15}
        - {type: Percent, value: 100, periodSeconds: 15}`
		scaleDownDefault = `
        selectPolicy: Max
        policies:
        - {type: Percent, value: 100, periodSeconds: 15}`
		target = `
    scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
    maxReplicas: 10`
		cpu80 = `
    metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}`
	)
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "min replicas and metrics",
			in:   target,
			want: target + "\n    minReplicas: 1" + cpu80,
		},
		{
			name: "given values kept, behavior stays nil",
			in: target + `
    minReplicas: 3
    metrics:
    - type: Pods
      pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "10"}}`,
			want: target + `
    minReplicas: 3
    metrics:
    - type: Pods
      pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "10"}}`,
		},
		{
			name: "empty metrics list is defaulted",
			in:   target + "\n    minReplicas: 2\n    metrics: []",
			want: target + "\n    minReplicas: 2" + cpu80,
		},
		{
			name: "empty behavior gets both directions",
			in:   target + "\n    minReplicas: 1" + cpu80 + "\n    behavior: {}",
			want: target + "\n    minReplicas: 1" + cpu80 + `
    behavior:
      scaleUp:` + scaleUpDefault + `
      scaleDown:` + scaleDownDefault,
		},
		{
			name: "partial rules are filled field by field",
			in: target + "\n    minReplicas: 1" + cpu80 + `
    behavior:
      scaleUp:
        stabilizationWindowSeconds: 60
        tolerance: 50m
      scaleDown:
        selectPolicy: Min
        policies:
        - {type: Pods, value: 1, periodSeconds: 60}`,
			want: target + "\n    minReplicas: 1" + cpu80 + `
    behavior:
      scaleUp:
        stabilizationWindowSeconds: 60
        tolerance: 50m
        selectPolicy: Max
        policies:
        - {type: Pods, value: 4, periodSeconds: 15}
        - {type: Percent, value: 100, periodSeconds: 15}
      scaleDown:
        selectPolicy: Min
        policies:
        - {type: Pods, value: 1, periodSeconds: 60}`,
		},
		{
			name: "scale-down window stays nil, explicit one is kept",
			in: target + "\n    minReplicas: 1" + cpu80 + `
    behavior:
      scaleDown: {stabilizationWindowSeconds: 600}`,
			want: target + "\n    minReplicas: 1" + cpu80 + `
    behavior:
      scaleUp:` + scaleUpDefault + `
      scaleDown:
        stabilizationWindowSeconds: 600` + scaleDownDefault,
		},
		{
			name: "non-nil empty policies replace the defaults",
			in: target + "\n    minReplicas: 1" + cpu80 + `
    behavior:
      scaleUp: {policies: []}`,
			want: target + "\n    minReplicas: 1" + cpu80 + `
    behavior:
      scaleUp:
        stabilizationWindowSeconds: 0
        selectPolicy: Max
        policies: []
      scaleDown:` + scaleDownDefault,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustHPA(t, tt.in)
			DefaultHPA(got)
			want := mustHPA(t, tt.want)
			if !equality.Semantic.DeepEqual(got, want) {
				t.Errorf("DefaultHPA:\n got: %s\nwant: %s", asYAML(t, got.Spec), asYAML(t, want.Spec))
			}
		})
	}
}

func TestDefaultHPA_doesNotAliasDefaults(t *testing.T) {
	a := mustHPA(t, "maxReplicas: 3\nbehavior: {}")
	b := mustHPA(t, "maxReplicas: 3\nbehavior: {}")
	DefaultHPA(a)
	DefaultHPA(b)
	a.Spec.Behavior.ScaleUp.Policies[0].Value = 99
	*a.Spec.Behavior.ScaleUp.SelectPolicy = autoscalingv2.MinChangePolicySelect
	if b.Spec.Behavior.ScaleUp.Policies[0].Value != 4 || *b.Spec.Behavior.ScaleUp.SelectPolicy != autoscalingv2.MaxChangePolicySelect {
		t.Fatal("defaults are shared between HPAs")
	}
	*a.Spec.Metrics[0].Resource.Target.AverageUtilization = 1
	if *b.Spec.Metrics[0].Resource.Target.AverageUtilization != 80 {
		t.Fatal("default metric is shared between HPAs")
	}
	DefaultHPA(nil)
	tol := resource.MustParse("50m")
	c := mustHPA(t, "maxReplicas: 3\nbehavior: {scaleDown: {tolerance: 50m}}")
	DefaultHPA(c)
	if c.Spec.Behavior.ScaleDown.Tolerance.Cmp(tol) != 0 || c.Spec.Behavior.ScaleUp.Tolerance != nil {
		t.Fatal("tolerance must be kept as given and never defaulted")
	}
}

func asYAML(t *testing.T, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
