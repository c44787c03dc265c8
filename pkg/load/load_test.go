// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

const (
	hpaWeb = `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
`
	deployWeb = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
    matchExpressions:
    - {key: tier, operator: In, values: [front, edge]}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec: {containers: [{name: app, image: nginx}]}
status: {replicas: 4}
`
	podWeb1 = `
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop, labels: {app: web, tier: front}}
spec:
  containers:
  - name: app
    image: nginx
    resources: {requests: {cpu: 500m}}
status: {phase: Running}
`
	pmWeb1 = `
apiVersion: metrics.k8s.io/v1beta1
kind: PodMetrics
metadata: {name: web-1, namespace: shop, labels: {app: web}}
timestamp: "2026-01-01T00:00:00Z"
window: 30s
containers:
- name: app
  usage: {cpu: 450m, memory: 100Mi}
`
)

func docs(parts ...string) string { return strings.Join(parts, "\n---\n") }

func src(name, data string) Source { return Source{Name: name, Data: []byte(data)} }

func mustLoad(t *testing.T, opts Options, sources ...Source) *Result {
	t.Helper()
	res, err := Load(sources, opts)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return res
}

func TestLoad_basic(t *testing.T) {
	in := docs("# a comment-only document\n", hpaWeb, deployWeb, podWeb1, pmWeb1, `
apiVersion: v1
kind: Event
metadata: {name: web.1, namespace: shop}
reason: SuccessfulRescale
`, `
apiVersion: v1
kind: Pod
metadata: {name: other, namespace: elsewhere}
`)
	res := mustLoad(t, Options{Name: "web"}, src("in.yaml", in))
	snap := res.Snapshot
	if res.Namespace != "shop" {
		t.Errorf("namespace = %q, want shop (the only HPA named web)", res.Namespace)
	}
	want := engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", SpecReplicas: 3, StatusReplicas: 4, Selector: "app=web,tier in (edge,front)"}
	if snap.Target != want {
		t.Errorf("target = %+v, want %+v", snap.Target, want)
	}
	if len(snap.Pods) != 1 || snap.Pods[0].Name != "web-1" {
		t.Errorf("pods = %v, want [web-1] (pods of other namespaces are dropped)", podNames(snap))
	}
	if len(snap.PodMetrics) != 1 || snap.PodMetrics[0].Window.Duration != 30*time.Second {
		t.Errorf("pod metrics = %+v", snap.PodMetrics)
	}
	if *snap.HPA.Spec.MinReplicas != 1 || len(snap.HPA.Spec.Metrics) != 1 || snap.HPA.Spec.Behavior != nil {
		t.Errorf("HPA not defaulted: %+v", snap.HPA.Spec)
	}
	st := snap.State
	if st.RecommendationsInitialized || st.Provenance != explain.Assumed || len(st.Notes) != 1 || st.Notes[0] != NoStateNote {
		t.Errorf("state = %+v, want the assumed fresh controller", st)
	}
	if !snap.Now.IsZero() {
		t.Errorf("Now = %v, the loader must leave it to the caller", snap.Now)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

func podNames(s *engine.Snapshot) []string {
	var out []string
	for _, p := range s.Pods {
		out = append(out, p.Name)
	}
	return out
}

func TestLoad_targets(t *testing.T) {
	hpaFor := func(apiVersion, kind string) string {
		return strings.NewReplacer("apps/v1", apiVersion, "Deployment", kind).Replace(hpaWeb)
	}
	tests := []struct {
		name string
		in   string
		want engine.Target
	}{
		{
			name: "scale wins over the deployment",
			in: docs(hpaWeb, deployWeb, `
apiVersion: autoscaling/v1
kind: Scale
metadata: {name: web, namespace: shop}
spec: {replicas: 7}
status: {replicas: 6, selector: "app=web"}
`),
			want: engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", SpecReplicas: 7, StatusReplicas: 6, Selector: "app=web"},
		},
		{
			name: "scale for a custom resource, whose object is accepted",
			in: docs(hpaFor("argoproj.io/v1alpha1", "Rollout"), `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: web, namespace: shop}
`, `
apiVersion: autoscaling/v1
kind: Scale
metadata: {name: web, namespace: shop}
spec: {replicas: 2}
status: {replicas: 2, selector: "app=web"}
`),
			want: engine.Target{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout", Name: "web", SpecReplicas: 2, StatusReplicas: 2, Selector: "app=web"},
		},
		{
			name: "statefulset with replicas defaulted to 1",
			in: docs(hpaFor("apps/v1", "StatefulSet"), `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: shop}
spec: {selector: {matchLabels: {app: db}}}
`),
			want: engine.Target{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", SpecReplicas: 1, Selector: "app=db"},
		},
		{
			name: "replicaset",
			in: docs(hpaFor("apps/v1", "ReplicaSet"), `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, namespace: shop}
spec: {replicas: 2, selector: {matchExpressions: [{key: app, operator: Exists}]}}
status: {replicas: 2}
`),
			want: engine.Target{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", SpecReplicas: 2, StatusReplicas: 2, Selector: "app"},
		},
		{
			name: "replication controller selector from the set",
			in: docs(hpaFor("v1", "ReplicationController"), `
apiVersion: v1
kind: ReplicationController
metadata: {name: web, namespace: shop}
spec: {replicas: 5, selector: {b: "2", a: "1"}}
status: {replicas: 5}
`),
			want: engine.Target{APIVersion: "v1", Kind: "ReplicationController", Name: "web", SpecReplicas: 5, StatusReplicas: 5, Selector: "a=1,b=2"},
		},
		{
			name: "replication controller selector defaults to template labels",
			in: docs(hpaFor("v1", "ReplicationController"), `
apiVersion: v1
kind: ReplicationController
metadata: {name: web, namespace: shop}
spec: {template: {metadata: {labels: {app: rc}}}}
`),
			want: engine.Target{APIVersion: "v1", Kind: "ReplicationController", Name: "web", SpecReplicas: 1, Selector: "app=rc"},
		},
		{
			name: "scale GET error from APIErrors needs no target object",
			in: docs(hpaWeb, `
apiVersion: kubectl-hpa.io/v1alpha1
kind: APIErrors
metadata: {name: web, namespace: shop}
errors:
  scale: deployments.apps "web" not found
`),
			want: engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", GetError: `deployments.apps "web" not found`},
		},
		{
			name: "unparsable target apiVersion is the controller's scale error",
			in:   docs(hpaFor("apps/v1/x", "Deployment")),
			want: engine.Target{APIVersion: "apps/v1/x", Kind: "Deployment", Name: "web", GetError: `unexpected GroupVersion string: apps/v1/x`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustLoad(t, Options{Name: "web"}, src("in.yaml", tt.in))
			if res.Snapshot.Target != tt.want {
				t.Errorf("target = %+v\nwant     %+v", res.Snapshot.Target, tt.want)
			}
		})
	}
}

func TestLoad_listsAndJSON(t *testing.T) {
	yamlList := `
apiVersion: v1
kind: List
items:
- ` + indent(hpaWeb) + `
- ` + indent(deployWeb) + `
---
apiVersion: v1
kind: PodList
items:
- metadata: {name: web-2, namespace: shop, labels: {app: web}}
  status: {phase: Pending}
---
kind: MetricValueList
apiVersion: custom.metrics.k8s.io/v1beta1
metadata: {}
items:
- describedObject: {kind: Pod, namespace: shop, name: web-2, apiVersion: /v1}
  metricName: http_requests_per_second
  timestamp: "2026-01-01T00:00:00Z"
  window: 60
  value: 1500m
  selector: null
- describedObject: {kind: Pod, namespace: other, name: x, apiVersion: /v1}
  metricName: http_requests_per_second
  timestamp: "2026-01-01T00:00:00Z"
  value: "1"
---
kind: MetricValueList
apiVersion: custom.metrics.k8s.io/v1beta2
items:
- describedObject: {kind: Namespace, name: shop, apiVersion: /v1}
  metric: {name: queue_depth}
  timestamp: "2026-01-01T00:00:00Z"
  value: "30"
- describedObject: {kind: Namespace, name: other, apiVersion: /v1}
  metric: {name: queue_depth}
  timestamp: "2026-01-01T00:00:00Z"
  value: "99"
`
	jsonStream := `{"kind":"ExternalMetricValueList","apiVersion":"external.metrics.k8s.io/v1beta1","metadata":{},
 "items":[{"metricName":"queue_messages_ready","metricLabels":{"queue":"orders"},"timestamp":"2026-01-01T00:00:00Z","value":"120"}]}
{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"shop"}}
[{"apiVersion":"metrics.k8s.io/v1beta1","kind":"PodMetrics","metadata":{"name":"web-2","namespace":"shop"},
  "timestamp":"2026-01-01T00:00:00Z","window":"30s","containers":[{"name":"app","usage":{"cpu":"10m"}}]}]
`
	res := mustLoad(t, Options{Name: "web"}, src("a.yaml", yamlList), src("b.json", jsonStream))
	s := res.Snapshot
	if s.Target.Selector == "" || len(s.Pods) != 1 || s.Pods[0].Name != "web-2" {
		t.Fatalf("target %+v pods %v", s.Target, podNames(s))
	}
	if len(s.CustomMetrics) != 2 {
		t.Fatalf("custom metrics = %+v, want the shop pod and the shop namespace", s.CustomMetrics)
	}
	c := s.CustomMetrics[0]
	if c.Metric.Name != "http_requests_per_second" || c.WindowSeconds == nil || *c.WindowSeconds != 60 || c.Value.MilliValue() != 1500 {
		t.Errorf("v1beta1 conversion: %+v", c)
	}
	if s.CustomMetrics[1].Metric.Name != "queue_depth" || s.CustomMetrics[1].Value.Value() != 30 {
		t.Errorf("namespace metric: %+v", s.CustomMetrics[1])
	}
	if len(s.ExternalMetrics) != 1 || s.ExternalMetrics[0].MetricLabels["queue"] != "orders" {
		t.Errorf("external = %+v", s.ExternalMetrics)
	}
	if len(s.PodMetrics) != 1 || s.PodMetrics[0].Name != "web-2" {
		t.Errorf("pod metrics = %+v", s.PodMetrics)
	}
}

func indent(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ")
}

func TestLoad_namespaces(t *testing.T) {
	noNS := strings.ReplaceAll(docs(hpaWeb, deployWeb, podWeb1), ", namespace: shop", "")
	t.Run("objects without namespace use -n", func(t *testing.T) {
		res := mustLoad(t, Options{Name: "web", Namespace: "prod"}, src("in.yaml", noNS))
		if res.Namespace != "prod" || res.Snapshot.HPA.Namespace != "prod" || len(res.Snapshot.Pods) != 1 || res.Snapshot.Pods[0].Namespace != "prod" {
			t.Errorf("namespace %q hpa %q pods %+v", res.Namespace, res.Snapshot.HPA.Namespace, res.Snapshot.Pods)
		}
	})
	t.Run("objects without namespace default to default", func(t *testing.T) {
		res := mustLoad(t, Options{Name: "web"}, src("in.yaml", noNS))
		if res.Namespace != DefaultNamespace || res.Snapshot.Target.SpecReplicas != 3 {
			t.Errorf("namespace %q target %+v", res.Namespace, res.Snapshot.Target)
		}
	})
	t.Run("two HPAs of that name: -n picks one", func(t *testing.T) {
		in := docs(hpaWeb, deployWeb, strings.ReplaceAll(docs(hpaWeb, deployWeb), "shop", "dev"))
		res := mustLoad(t, Options{Name: "web", Namespace: "dev"}, src("in.yaml", in))
		if res.Snapshot.HPA.Namespace != "dev" {
			t.Errorf("got %q", res.Snapshot.HPA.Namespace)
		}
	})
}

func TestLoad_otherHPAs(t *testing.T) {
	in := docs(hpaWeb, deployWeb,
		strings.ReplaceAll(strings.ReplaceAll(hpaWeb, "name: web}", "name: canary}"), "name: web,", "name: web-canary,"), `
apiVersion: autoscaling/v1
kind: Scale
metadata: {name: canary, namespace: shop}
spec: {replicas: 1}
status: {replicas: 1, selector: "app=web,track=canary"}
`,
		strings.ReplaceAll(strings.ReplaceAll(hpaWeb, "name: web}", "name: lost}"), "name: web,", "name: lost,"),
		strings.ReplaceAll(hpaWeb, "namespace: shop", "namespace: dev"),
	)
	res := mustLoad(t, Options{Name: "web", Namespace: "shop"}, src("in.yaml", in))
	want := []engine.HPASelector{{Namespace: "shop", Name: "web-canary", Selector: "app=web,track=canary"}}
	if len(res.Snapshot.OtherHPAs) != 1 || res.Snapshot.OtherHPAs[0] != want[0] {
		t.Errorf("other HPAs = %+v, want %+v", res.Snapshot.OtherHPAs, want)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `HPA "shop/lost": scale target Deployment/lost is not in the input`) {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

func TestLoad_hpaV1(t *testing.T) {
	in := docs(`
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
  annotations:
    keep: me
    autoscaling.alpha.kubernetes.io/metrics: '[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"10"}},{"type":"External","external":{"metricName":"q","metricSelector":{"matchLabels":{"queue":"orders"}},"targetAverageValue":"30"}}]'
    autoscaling.alpha.kubernetes.io/behavior: '{"scaleDown":{"stabilizationWindowSeconds":60}}'
    autoscaling.alpha.kubernetes.io/conditions: '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale","message":"ok"}]'
    autoscaling.alpha.kubernetes.io/current-metrics: '[{"type":"Pods","pods":{"metricName":"rps","currentAverageValue":"12"}}]'
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  targetCPUUtilizationPercentage: 60
status:
  currentReplicas: 3
  desiredReplicas: 4
  lastScaleTime: "2026-01-01T00:00:00Z"
  currentCPUUtilizationPercentage: 75
`, deployWeb)
	res := mustLoad(t, Options{Name: "web"}, src("v1.yaml", in))
	h := res.Snapshot.HPA
	m := h.Spec.Metrics
	if len(m) != 3 || m[0].Type != autoscalingv2.PodsMetricSourceType || m[0].Pods.Target.AverageValue.Value() != 10 ||
		m[1].External.Target.Type != autoscalingv2.AverageValueMetricType || m[1].External.Metric.Selector.MatchLabels["queue"] != "orders" ||
		m[2].Resource.Name != "cpu" || *m[2].Resource.Target.AverageUtilization != 60 {
		t.Errorf("metrics = %+v", m)
	}
	if *h.Spec.MinReplicas != 2 || h.Spec.MaxReplicas != 10 {
		t.Errorf("replicas = %v..%v", *h.Spec.MinReplicas, h.Spec.MaxReplicas)
	}
	b := h.Spec.Behavior
	if b == nil || *b.ScaleDown.StabilizationWindowSeconds != 60 || b.ScaleUp == nil || len(b.ScaleUp.Policies) != 2 {
		t.Errorf("behavior = %+v (want the annotation, defaulted)", b)
	}
	st := h.Status
	if st.CurrentReplicas != 3 || st.DesiredReplicas != 4 || st.LastScaleTime == nil || len(st.CurrentMetrics) != 2 ||
		st.CurrentMetrics[0].Pods.Current.AverageValue.Value() != 12 || *st.CurrentMetrics[1].Resource.Current.AverageUtilization != 75 ||
		len(st.Conditions) != 1 || st.Conditions[0].Reason != "ReadyForNewScale" {
		t.Errorf("status = %+v", st)
	}
	if len(h.Annotations) != 1 || h.Annotations["keep"] != "me" {
		t.Errorf("annotations = %v", h.Annotations)
	}
	if h.APIVersion != "autoscaling/v2" {
		t.Errorf("apiVersion = %q", h.APIVersion)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "cpu metric is placed last") {
		t.Errorf("warnings = %q", res.Warnings)
	}

	plain := mustLoad(t, Options{Name: "web"}, src("v1.yaml", docs(strings.ReplaceAll(hpaWeb, "autoscaling/v2", "autoscaling/v1"), deployWeb)))
	pm := plain.Snapshot.HPA.Spec.Metrics
	if len(pm) != 1 || *pm[0].Resource.Target.AverageUtilization != engine.DefaultCPUUtilization {
		t.Errorf("v1 without a cpu target: metrics = %+v, want the API default", pm)
	}
}

func TestLoad_controllerStateAndAPIErrors(t *testing.T) {
	in := docs(hpaWeb, deployWeb, `
apiVersion: kubectl-hpa.io/v1alpha1
kind: ControllerState
metadata: {name: web, namespace: shop}
recommendations:
- {timestamp: "2026-01-01T00:00:00+01:00", replicas: 8}
- {timestamp: "2025-12-31T23:58:00.5Z", replicas: 6}
scaleUpEvents:
- {timestamp: "2025-12-31T23:50:00Z", replicaChange: 2}
scaleDownEvents:
- {timestamp: "2025-12-31T23:40:00Z", replicaChange: 1, outdated: true}
`, `
apiVersion: kubectl-hpa.io/v1alpha1
kind: ControllerState
metadata: {name: other, namespace: shop}
recommendationsInitialized: false
`, `
apiVersion: kubectl-hpa.io/v1alpha1
kind: APIErrors
metadata: {name: web, namespace: shop}
errors:
  resource: the server is currently unable to handle the request (get pods.metrics.k8s.io)
  external:queue_messages_ready: no metrics returned from external metrics API
`)
	res := mustLoad(t, Options{Name: "web"}, src("in.yaml", in))
	st := res.Snapshot.State
	if !st.RecommendationsInitialized || st.Provenance != explain.Observed || len(st.Recommendations) != 2 {
		t.Fatalf("state = %+v", st)
	}
	if got := st.Recommendations[0]; got.Replicas != 8 || !got.Timestamp.Equal(time.Date(2025, 12, 31, 23, 0, 0, 0, time.UTC)) || got.Timestamp.Location() != time.UTC {
		t.Errorf("recommendation = %+v", got)
	}
	if st.Recommendations[1].Timestamp.Nanosecond() != 500_000_000 {
		t.Errorf("fractional seconds lost: %v", st.Recommendations[1].Timestamp)
	}
	if len(st.ScaleUpEvents) != 1 || st.ScaleUpEvents[0].ReplicaChange != 2 || len(st.ScaleDownEvents) != 1 || !st.ScaleDownEvents[0].Outdated {
		t.Errorf("events = %+v / %+v", st.ScaleUpEvents, st.ScaleDownEvents)
	}
	if !strings.Contains(st.Notes[0], "in.yaml:") {
		t.Errorf("notes = %q", st.Notes)
	}
	want := map[string]string{
		"resource":                      "the server is currently unable to handle the request (get pods.metrics.k8s.io)",
		"external:queue_messages_ready": "no metrics returned from external metrics API",
	}
	if len(res.Snapshot.APIErrors) != len(want) {
		t.Fatalf("api errors = %v", res.Snapshot.APIErrors)
	}
	for k, v := range want {
		if res.Snapshot.APIErrors[k] != v {
			t.Errorf("api errors[%q] = %q, want %q", k, res.Snapshot.APIErrors[k], v)
		}
	}
}

func TestLoad_duplicatesAndWarnings(t *testing.T) {
	in := docs(strings.Replace(hpaWeb, "maxReplicas: 10", "maxReplicas: 10\n  behaviour: {}", 1), deployWeb, podWeb1, podWeb1, pmWeb1, pmWeb1)
	res := mustLoad(t, Options{Name: "web"}, src("in.yaml", in))
	if len(res.Snapshot.Pods) != 1 || len(res.Snapshot.PodMetrics) != 1 {
		t.Errorf("pods %d pod metrics %d, want 1 each", len(res.Snapshot.Pods), len(res.Snapshot.PodMetrics))
	}
	joined := strings.Join(res.Warnings, "\n")
	for _, w := range []string{`unknown field "spec.behaviour" (ignored)`, `pod "web-1" is given twice`, `PodMetrics "web-1" is given twice`} {
		if !strings.Contains(joined, w) {
			t.Errorf("warnings lack %q:\n%s", w, joined)
		}
	}
}

func TestLoad_errors(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		sources []Source
		want    string
	}{
		{
			name:    "no name",
			sources: []Source{src("a.yaml", hpaWeb)},
			want:    "the name of the HorizontalPodAutoscaler is required",
		},
		{
			name:    "bad YAML with absolute line",
			sources: []Source{src("a.yaml", docs(hpaWeb, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   bad: indent\n"))},
			want:    "a.yaml:14: invalid YAML: ",
		},
		{
			name:    "duplicate YAML key",
			sources: []Source{src("a.yaml", "apiVersion: v1\nkind: Pod\nkind: Pod\n")},
			want:    `a.yaml:3: invalid YAML: key "kind" already set in map`,
		},
		{
			name:    "not YAML at all",
			sources: []Source{src("notes.txt", "just some words\n")},
			want:    `notes.txt:1 (document 1): not a Kubernetes object (got the string "just some words")`,
		},
		{
			name:    "bad JSON",
			sources: []Source{src("a.json", "{\"apiVersion\": \"v1\",\n \"kind\": }")},
			want:    "a.json:2: invalid JSON: invalid character '}'",
		},
		{
			name:    "missing kind",
			sources: []Source{src("a.yaml", "apiVersion: v1\nmetadata: {name: x}\n")},
			want:    `a.yaml:1 (document 1): v1 object "x" has no kind`,
		},
		{
			name:    "item of a generic List without kind",
			sources: []Source{src("a.yaml", "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: x}\n")},
			want:    `a.yaml:1 (document 1, item 1): object has no apiVersion and no kind`,
		},
		{
			name:    "unknown kind",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"))},
			want:    `a.yaml:26 (document 3): unknown kind "Widget" of apiVersion "example.com/v1"`,
		},
		{
			name:    "unknown kind in our group",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, "apiVersion: kubectl-hpa.io/v1alpha1\nkind: History\nmetadata: {name: web}\n"))},
			want:    `(document 2): unknown kind "History" of apiVersion "kubectl-hpa.io/v1alpha1"`,
		},
		{
			name:    "old HPA version",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", strings.ReplaceAll(hpaWeb, "autoscaling/v2", "autoscaling/v2alpha1"))},
			want:    `a.yaml:2 (document 1): autoscaling/v2alpha1 HorizontalPodAutoscaler "web": unsupported apiVersion for kind HorizontalPodAutoscaler (use autoscaling/v2, v1, v2beta2 or v2beta1)`,
		},
		{
			name:    "HPA missing",
			opts:    Options{Name: "api"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb)), src(StdinName, podWeb1)},
			want:    `horizontalpodautoscaler "api" not found in namespace "default" (files: a.yaml, <stdin>)`,
		},
		{
			name:    "HPA missing in the namespace given",
			opts:    Options{Name: "web", Namespace: "prod"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb))},
			want:    `horizontalpodautoscaler "web" not found in namespace "prod" (files: a.yaml); it exists in namespace "shop": pass -n`,
		},
		{
			name:    "HPA given twice",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, hpaWeb))},
			want:    `horizontalpodautoscaler "web" in namespace "shop" is given twice (a.yaml:2 (document 1) and a.yaml:11 (document 2))`,
		},
		{
			name:    "target missing",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, podWeb1))},
			want:    `scale target Deployment/web of HPA "shop/web" not found in the input: add the Deployment or an autoscaling/v1 Scale named "web"`,
		},
		{
			name:    "target of another namespace",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, strings.ReplaceAll(deployWeb, "shop", "dev")))},
			want:    `scale target Deployment/web of HPA "shop/web" not found in the input: add the Deployment`,
		},
		{
			name: "custom resource target without a Scale",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(strings.NewReplacer("apps/v1", "argoproj.io/v1alpha1", "Deployment", "Rollout").Replace(hpaWeb),
				"apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: web, namespace: shop}\n"))},
			want: `scale target Rollout/web of HPA "shop/web" not found in the input: the scale of a custom resource cannot be derived from the object: add an autoscaling/v1 Scale named "web"`,
		},
		{
			name:    "malformed quantity",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, strings.Replace(podWeb1, "cpu: 500m", "cpu: 500mc", 1)))},
			want:    `a.yaml:11 (document 2): v1 Pod "web-1": spec.containers[0].resources.requests.cpu: invalid quantity "500mc"`,
		},
		{
			name:    "malformed quantity in a list item",
			opts:    Options{Name: "web"},
			sources: []Source{src("m.json", `{"kind":"MetricValueList","apiVersion":"custom.metrics.k8s.io/v1beta2","items":[{},{"describedObject":{"kind":"Pod","name":"p"},"metric":{"name":"rps"},"value":"fast"}]}`)},
			want:    `m.json:1 (document 1, item 2): custom.metrics.k8s.io/v1beta2 MetricValue: value: invalid quantity "fast"`,
		},
		{
			name:    "malformed HPA target quantity",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", hpaWeb+"  metrics:\n  - type: Pods\n    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: ten}}\n")},
			want:    `spec.metrics[0].pods.target.averageValue: invalid quantity "ten"`,
		},
		{
			name:    "wrong type",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", strings.Replace(hpaWeb, "maxReplicas: 10", "maxReplicas: ten", 1))},
			want:    `a.yaml:2 (document 1): autoscaling/v2 HorizontalPodAutoscaler "web": spec.maxReplicas: expected an integer, got the string "ten"`,
		},
		{
			name:    "bad timestamp",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", strings.Replace(pmWeb1, `"2026-01-01T00:00:00Z"`, "yesterday", 1))},
			want:    `metrics.k8s.io/v1beta1 PodMetrics "web-1": timestamp: invalid time "yesterday" (want RFC 3339`,
		},
		{
			name:    "bad selector of a workload",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", strings.Replace(deployWeb, "operator: In", "operator: Near", 1))},
			want:    `apps/v1 Deployment "web": spec.selector: "Near" is not a valid label selector operator`,
		},
		{
			name: "ControllerState unknown field",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: ControllerState\nmetadata: {name: web}\nrecomendations: []\n"))},
			want: `kubectl-hpa.io/v1alpha1 ControllerState "web": unknown field "recomendations"`,
		},
		{
			name: "ControllerState without name",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: ControllerState\nmetadata: {}\n"))},
			want: `ControllerState: metadata.name: required`,
		},
		{
			name: "ControllerState recommendation without replicas",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: ControllerState\nmetadata: {name: web}\nrecommendations: [{timestamp: \"2026-01-01T00:00:00Z\"}]\n"))},
			want: `ControllerState "web": recommendations[0].replicas: required`,
		},
		{
			name: "ControllerState negative change",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: ControllerState\nmetadata: {name: web}\nscaleDownEvents: [{timestamp: \"2026-01-01T00:00:00Z\", replicaChange: -2}]\n"))},
			want: `scaleDownEvents[0].replicaChange: must not be negative`,
		},
		{
			name: "ControllerState given twice",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: ControllerState\nmetadata: {name: web}\n",
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: ControllerState\nmetadata: {name: web, namespace: shop}\n"))},
			want: `a ControllerState for this HPA is already given at a.yaml:`,
		},
		{
			name: "APIErrors bad key",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: APIErrors\nmetadata: {name: web}\nerrors: {custom:rps: boom}\n"))},
			want: `APIErrors "web": errors["custom:rps"]: unknown key (want scale, resource, pods:<metric>, object:<metric> or external:<metric>)`,
		},
		{
			name: "APIErrors empty metric",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: APIErrors\nmetadata: {name: web}\nerrors: {\"pods:\": boom}\n"))},
			want: `errors["pods:"]: the metric name after "pods:" is empty`,
		},
		{
			name: "APIErrors key given twice",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: APIErrors\nmetadata: {name: web}\nerrors: {resource: a}\n",
				"apiVersion: kubectl-hpa.io/v1alpha1\nkind: APIErrors\nmetadata: {name: web}\nerrors: {resource: b}\n"))},
			want: `errors["resource"] is already given at a.yaml:`,
		},
		{
			name: "ControllerState wrong version",
			opts: Options{Name: "web"},
			sources: []Source{src("a.yaml", docs(hpaWeb, deployWeb,
				"apiVersion: kubectl-hpa.io/v1\nkind: ControllerState\nmetadata: {name: web}\n"))},
			want: `unsupported apiVersion for kind ControllerState (use kubectl-hpa.io/v1alpha1)`,
		},
		{
			name:    "bad v1 annotation",
			opts:    Options{Name: "web"},
			sources: []Source{src("a.yaml", strings.Replace(strings.ReplaceAll(hpaWeb, "autoscaling/v2", "autoscaling/v1"), "namespace: shop}", "namespace: shop, annotations: {autoscaling.alpha.kubernetes.io/metrics: 'nope'}}", 1))},
			want:    `metadata.annotations["autoscaling.alpha.kubernetes.io/metrics"]: invalid character`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.opts.Name == "" && tt.name != "no name" {
				tt.opts.Name = "web"
			}
			_, err := Load(tt.sources, tt.opts)
			if err == nil {
				t.Fatalf("Load succeeded, want an error containing %q", tt.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error:\n got %s\nwant %s", msg, tt.want)
			}
			t.Log(msg)
			if strings.Contains(msg, "\n") {
				t.Errorf("error is not one line: %q", msg)
			}
		})
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("b.yaml", hpaWeb)
	write("a.json", "{}")
	write("notes.txt", "ignored")

	got, err := ReadFiles([]string{a, "-", dir}, strings.NewReader(podWeb1))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, filepath.Base(s.Name))
	}
	if strings.Join(names, ",") != "b.yaml,"+StdinName+",a.json,b.yaml" {
		t.Errorf("sources = %v", names)
	}

	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{"-", "-"}, `"-" (stdin) given more than once`},
		{[]string{filepath.Join(dir, "missing.yaml")}, "missing.yaml: no such file or directory"},
		{[]string{t.TempDir()}, "holds no .yaml, .yml or .json files"},
	} {
		_, err := ReadFiles(tc.paths, strings.NewReader(""))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadFiles(%v) error = %v, want %q", tc.paths, err, tc.want)
		}
	}
}
