// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// TestLoad_hpaBetaVersions checks that autoscaling/v2beta1 and v2beta2
// HPAs load as the API server converted them to autoscaling/v2.
func TestLoad_hpaBetaVersions(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{
			name: "v2beta1",
			in: `
apiVersion: autoscaling/v2beta1
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
  annotations:
    autoscaling.alpha.kubernetes.io/behavior: '{"scaleDown":{"stabilizationWindowSeconds":60,"policies":[{"type":"Pods","value":1,"periodSeconds":30}]}}'
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, targetAverageUtilization: 60}
  - type: Resource
    resource: {name: memory, targetAverageValue: 500Mi}
  - type: Pods
    pods: {metricName: rps, targetAverageValue: "10"}
  - type: Object
    object:
      target: {apiVersion: networking.k8s.io/v1, kind: Ingress, name: main}
      metricName: hits
      targetValue: "2k"
  - type: External
    external: {metricName: queue, targetAverageValue: "30"}
status:
  currentReplicas: 3
  desiredReplicas: 3
  currentMetrics:
  - type: Resource
    resource: {name: cpu, currentAverageUtilization: 75, currentAverageValue: 300m}
`,
			want: `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
  - type: Resource
    resource: {name: memory, target: {type: AverageValue, averageValue: 500Mi}}
  - type: Pods
    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "10"}}
  - type: Object
    object:
      describedObject: {apiVersion: networking.k8s.io/v1, kind: Ingress, name: main}
      metric: {name: hits}
      target: {type: Value, value: "2k"}
  - type: External
    external: {metric: {name: queue}, target: {type: AverageValue, averageValue: "30"}}
  behavior:
    scaleUp:
      stabilizationWindowSeconds: 0
      selectPolicy: Max
      policies: [{type: Pods, value: 4, periodSeconds: 15}, {type: Percent, value: 100, periodSeconds: 15}]
    scaleDown:
      stabilizationWindowSeconds: 60
      selectPolicy: Max
      policies: [{type: Pods, value: 1, periodSeconds: 30}]
status:
  currentReplicas: 3
  desiredReplicas: 3
  currentMetrics:
  - type: Resource
    resource: {name: cpu, current: {averageUtilization: 75, averageValue: 300m}}
`,
		},
		{
			name: "v2beta2",
			in: `
apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  behavior:
    scaleUp: {stabilizationWindowSeconds: 30}
`,
			want: `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}
  behavior:
    scaleUp:
      stabilizationWindowSeconds: 30
      selectPolicy: Max
      policies: [{type: Pods, value: 4, periodSeconds: 15}, {type: Percent, value: 100, periodSeconds: 15}]
    scaleDown:
      selectPolicy: Max
      policies: [{type: Percent, value: 100, periodSeconds: 15}]
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustLoad(t, Options{Name: "web"}, src("a.yaml", docs(tc.in, deployWeb)))
			if err := res.Validate(profile.NewestDefault()); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			var want autoscalingv2.HorizontalPodAutoscaler
			if err := yaml.UnmarshalStrict([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			got := res.Snapshot.HPA
			if diff := cmp.Diff(&want, got, cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })); diff != "" {
				t.Errorf("converted HPA (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoad_v2beta2ToleranceDropped(t *testing.T) {
	in := `
apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  behavior:
    scaleUp: {tolerance: "-1"}
`
	res := mustLoad(t, Options{Name: "web"}, src("a.yaml", docs(in, deployWeb)))
	if err := res.Validate(profile.NewestDefault()); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if tol := res.Snapshot.HPA.Spec.Behavior.ScaleUp.Tolerance; tol != nil {
		t.Errorf("tolerance = %v, want dropped", tol)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "spec.behavior.scaleUp.tolerance is not a field of autoscaling/v2beta2") {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

// TestValidate checks the error of each kind of object, and that the
// field paths of older HPA versions are those written.
func TestValidate(t *testing.T) {
	v1 := func(extra string) string {
		return `
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
` + extra + `
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  targetCPUUtilizationPercentage: 0
`
	}
	for _, tc := range []struct {
		name string
		in   string
		want string // "" for valid
	}{
		{
			"v2 max 0", strings.Replace(hpaWeb, "maxReplicas: 10", "maxReplicas: 0", 1),
			`a.yaml:2 (document 1): autoscaling/v2 HorizontalPodAutoscaler "web": spec.maxReplicas: Required value: must be set and greater than 0`,
		},
		{
			"v1 cpu target", v1(""),
			`a.yaml:2 (document 1): autoscaling/v1 HorizontalPodAutoscaler "web": spec.targetCPUUtilizationPercentage: Invalid value: 0: must be greater than 0`,
		},
		{
			"v1 annotation metric", strings.Replace(v1(`  annotations:
    autoscaling.alpha.kubernetes.io/metrics: '[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"0"}}]'`), "targetCPUUtilizationPercentage: 0", "targetCPUUtilizationPercentage: 50", 1),
			`a.yaml:2 (document 1): autoscaling/v1 HorizontalPodAutoscaler "web": metadata.annotations[autoscaling.alpha.kubernetes.io/metrics][0].pods.targetAverageValue: Invalid value: "0": must be positive`,
		},
		{
			"v1 behavior annotation", strings.Replace(v1(`  annotations:
    autoscaling.alpha.kubernetes.io/behavior: '{"scaleDown":{"stabilizationWindowSeconds":4000}}'`), "targetCPUUtilizationPercentage: 0", "targetCPUUtilizationPercentage: 50", 1),
			`a.yaml:2 (document 1): autoscaling/v1 HorizontalPodAutoscaler "web": metadata.annotations[autoscaling.alpha.kubernetes.io/behavior].scaleDown.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600`,
		},
		{"v2beta1 resource", `
apiVersion: autoscaling/v2beta1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, targetAverageUtilization: -5}
`, `a.yaml:2 (document 1): autoscaling/v2beta1 HorizontalPodAutoscaler "web": spec.metrics[0].resource.targetAverageUtilization: Invalid value: -5: must be greater than 0`},
		{
			"negative scale", hpaWeb + "---\napiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: web, namespace: shop}\nspec: {replicas: -1}\n",
			`a.yaml:9 (document 2): autoscaling/v1 Scale "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
		},
		{
			"negative request", hpaWeb + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: web-1, namespace: shop}\nspec:\n  containers:\n  - {name: app, resources: {requests: {cpu: -100m}}}\n",
			`a.yaml:9 (document 2): v1 Pod "web-1": spec.containers[0].resources.requests[cpu]: Invalid value: "-100m": must be greater than or equal to 0`,
		},
		{
			"negative usage", hpaWeb + "---\napiVersion: metrics.k8s.io/v1beta1\nkind: PodMetrics\nmetadata: {name: web-1, namespace: shop}\ntimestamp: \"2026-01-01T00:00:00Z\"\nwindow: 15s\ncontainers:\n- {name: app, usage: {cpu: -5m}}\n",
			`a.yaml:9 (document 2): metrics.k8s.io/v1beta1 PodMetrics "web-1": containers[0].usage[cpu]: Invalid value: "-5m": must be greater than or equal to 0`,
		},
		{
			"no timestamp", hpaWeb + "---\napiVersion: metrics.k8s.io/v1beta1\nkind: PodMetrics\nmetadata: {name: web-1, namespace: shop}\nwindow: 15s\ncontainers:\n- {name: app, usage: {cpu: 5m}}\n",
			`a.yaml:9 (document 2): metrics.k8s.io/v1beta1 PodMetrics "web-1": timestamp: Required value: a metrics API always stamps its samples`,
		},
		{"sidecar sample", hpaWeb + "---\napiVersion: metrics.k8s.io/v1beta1\nkind: PodMetrics\nmetadata: {name: web-1, namespace: shop}\ntimestamp: \"2026-01-01T00:00:00Z\"\nwindow: 15s\ncontainers:\n- {name: app, usage: {cpu: 5m}}\n- {name: proxy, usage: {cpu: 1m}}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustLoad(t, Options{Name: "web"}, src("a.yaml", docs(tc.in, deployWeb)))
			err := res.Validate(profile.NewestDefault())
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v, want none", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Errorf("Validate:\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}
