// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// TestBuildHPA compares whole HPAs KEDA writes.
func TestBuildHPA(t *testing.T) {
	so, err := Decode([]byte(`
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: worker
  namespace: jobs
  uid: "1234"
  labels: {team: a, secret: x}
  annotations:
    scaledobject.keda.sh/hpa-excluded-labels: secret
    autoscaling.keda.sh/paused-scale-in: "true"
spec:
  scaleTargetRef: {name: worker, apiVersion: apps/v1, kind: StatefulSet}
  minReplicaCount: 0
  maxReplicaCount: 20
  advanced:
    horizontalPodAutoscalerConfig:
      behavior:
        scaleUp: {stabilizationWindowSeconds: 0}
  triggers:
  - type: memory
    metricType: AverageValue
    metadata: {value: 512Mi}
  - type: metrics-api
    metricType: Value
    metadata: {url: "http://q/", valueLocation: "data.queue/len", targetValue: "2.5"}
  - type: cpu
    metricType: Utilization
    metadata: {value: "70", containerName: app}
  - type: kubernetes-workload
    metadata: {podSelector: "app=x", value: "3"}
  - type: cron
    metadata: {timezone: Europe/Paris, start: "0 8 * * 1-5", end: "0 18 * * 1-5", desiredReplicas: "4"}
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := BuildHPA(so, MustParseVersion("v2.21.0"), nil)
	if err != nil || res.Error != "" {
		t.Fatalf("BuildHPA: %v %s", err, res.Error)
	}
	want := `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  annotations:
    autoscaling.keda.sh/paused-scale-in: "true"
    scaledobject.keda.sh/hpa-excluded-labels: secret
  labels:
    app.kubernetes.io/managed-by: keda-operator
    app.kubernetes.io/name: keda-hpa-worker
    app.kubernetes.io/part-of: worker
    app.kubernetes.io/version: 2.21.0
    team: a
  name: keda-hpa-worker
  namespace: jobs
  ownerReferences:
  - apiVersion: keda.sh/v1alpha1
    blockOwnerDeletion: true
    controller: true
    kind: ScaledObject
    name: worker
    uid: "1234"
spec:
  behavior:
    scaleDown:
      selectPolicy: Disabled
    scaleUp:
      stabilizationWindowSeconds: 0
  maxReplicas: 20
  metrics:
  - containerResource:
      container: app
      name: cpu
      target:
        averageUtilization: 70
        type: Utilization
    type: ContainerResource
  - external:
      metric:
        name: s1-metric-api-data-queue-len
        selector:
          matchLabels:
            scaledobject.keda.sh/name: worker
      target:
        type: Value
        value: 2500m
    type: External
  - external:
      metric:
        name: s3-workload-jobs
        selector:
          matchLabels:
            scaledobject.keda.sh/name: worker
      target:
        averageValue: "3"
        type: AverageValue
    type: External
  - external:
      metric:
        name: s4-cron-Europe-Paris-08xx1-5-018xx1-5
        selector:
          matchLabels:
            scaledobject.keda.sh/name: worker
      target:
        averageValue: "1"
        type: AverageValue
    type: External
  - resource:
      name: memory
      target:
        averageValue: 512Mi
        type: AverageValue
    type: Resource
  minReplicas: 1
  scaleTargetRef:
    apiVersion: apps/v1
    kind: StatefulSet
    name: worker
status:
  currentMetrics: null
  desiredReplicas: 0
`
	got, err := yaml.Marshal(res.HPA)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("HPA (-want +got):\n%s", diff)
	}
}

// TestBuildHPARules covers single rules of the HPA.
func TestBuildHPARules(t *testing.T) {
	mods := func(target, metricType string) func(*ScaledObject) {
		return func(so *ScaledObject) {
			so.Spec.Advanced = &AdvancedConfig{ScalingModifiers: ScalingModifiers{Formula: "a", Target: target, MetricType: autoscalingv2.MetricTargetType(metricType)}}
		}
	}
	named := metricsAPI("")
	named.Name = "a"
	cpu := ScaleTrigger{Type: TypeCPU, MetricType: "Utilization", Metadata: map[string]string{"value": "50"}}
	cpuC := ScaleTrigger{Type: TypeCPU, MetricType: "Utilization", Metadata: map[string]string{"value": "50", "containerName": "c"}}
	for _, tc := range []struct {
		name  string
		so    *ScaledObject
		check func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler)
	}{
		{"default name, min 0 → 1, max 100", object([]ScaleTrigger{metricsAPI("")}, withMin(0)), func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) {
			t.Helper()
			if h.Name != "keda-hpa-web" || *h.Spec.MinReplicas != 1 || h.Spec.MaxReplicas != 100 || h.Spec.Behavior != nil {
				t.Errorf("%s %d-%d %v", h.Name, *h.Spec.MinReplicas, h.Spec.MaxReplicas, h.Spec.Behavior)
			}
		}},
		{"custom name", object([]ScaleTrigger{metricsAPI("")}, func(so *ScaledObject) {
			so.Spec.Advanced = &AdvancedConfig{HorizontalPodAutoscalerConfig: &HorizontalPodAutoscalerConfig{Name: "mine"}}
		}), func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) {
			t.Helper()
			if h.Name != "mine" || h.Labels["app.kubernetes.io/name"] != "mine" {
				t.Errorf("name %s, labels %v", h.Name, h.Labels)
			}
		}},
		{"a long name is cut to 63 in the label, without a trailing dash", object([]ScaleTrigger{metricsAPI("")}, func(so *ScaledObject) {
			so.Name = strings.Repeat("a", 53) + "-b"
		}), func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) {
			t.Helper()
			if l := h.Labels["app.kubernetes.io/name"]; l != "keda-hpa-"+strings.Repeat("a", 53) {
				t.Errorf("label %q", l)
			}
		}},
		{"paused-scale-out disables scale-up", object([]ScaleTrigger{metricsAPI("")}, withAnnotation(AnnotationPausedScaleOut, "true")), func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) {
			t.Helper()
			if b := h.Spec.Behavior; b == nil || b.ScaleDown != nil || *b.ScaleUp.SelectPolicy != autoscalingv2.DisabledPolicySelect {
				t.Errorf("behavior %+v", b)
			}
		}},
		{"paused-scale-in false leaves the behavior", object([]ScaleTrigger{metricsAPI("")}, withAnnotation(AnnotationPausedScaleIn, "false")), func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) {
			t.Helper()
			if h.Spec.Behavior != nil {
				t.Errorf("behavior %+v", h.Spec.Behavior)
			}
		}},
		{"scalingModifiers: Resource kept, ContainerResource dropped, composite last", object([]ScaleTrigger{cpuC, named, cpu}, mods("2.5", "")), func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) {
			t.Helper()
			m := h.Spec.Metrics
			if len(m) != 2 || m[0].Resource == nil || m[1].External.Metric.Name != CompositeMetricName || m[1].External.Target.AverageValue.String() != "2500m" {
				t.Errorf("metrics %+v", m)
			}
		}},
		{"scalingModifiers Value target", object([]ScaleTrigger{named}, mods("3", "Value")), func(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) {
			t.Helper()
			if tg := h.Spec.Metrics[0].External.Target; tg.Type != "Value" || tg.Value.String() != "3" {
				t.Errorf("target %+v", tg)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := BuildHPA(tc.so, Newest(), nil)
			if err != nil || res.HPA == nil {
				t.Fatalf("BuildHPA = %+v, %v", res, err)
			}
			tc.check(t, res.HPA)
		})
	}
}

// TestDecode reads what kubectl prints, and refuses other kinds.
func TestDecode(t *testing.T) {
	so, err := Decode([]byte(`{"apiVersion":"keda.sh/v1alpha1","kind":"ScaledObject",
"metadata":{"name":"w","namespace":"n","generation":3,"creationTimestamp":"2026-01-01T00:00:00Z","annotations":{"autoscaling.keda.sh/paused":"true"},"managedFields":[{"manager":"kubectl"}]},
"spec":{"scaleTargetRef":{"name":"w"},"pollingInterval":15,"cooldownPeriod":60,"initialCooldownPeriod":120,"idleReplicaCount":0,"minReplicaCount":1,"maxReplicaCount":9,
"advanced":{"restoreToOriginalReplicaCount":true,"scalingModifiers":{"formula":"a","target":"2","activationTarget":"1","metricType":"Value"},"horizontalPodAutoscalerConfig":{"name":"h","behavior":{"scaleDown":{"stabilizationWindowSeconds":30}}}},
"triggers":[{"type":"metrics-api","name":"a","useCachedMetrics":true,"metricType":"Value","metadata":{"url":"u"},"authenticationRef":{"name":"auth","kind":"ClusterTriggerAuthentication"}}],
"fallback":{"failureThreshold":3,"replicas":6,"behavior":"currentReplicas"}},
"status":{"lastActiveTime":"2026-01-01T01:00:00Z","health":{"s0-a":{"numberOfFailures":2,"status":"Failing"}},"externalMetricNames":["s0-a"],"hpaName":"h",
"pausedReplicaCount":2,"originalReplicaCount":4,"compositeScalerName":"composite-metric","triggersTypes":"metrics-api","triggersActivity":{"s0-a":{"isActive":true}},
"conditions":[{"type":"Ready","status":"True","reason":"ScaledObjectReady"}],"scaleTargetGVKR":{"group":"apps","version":"v1","kind":"Deployment","resource":"deployments"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, st := so.Spec, so.Status
	if so.Generation != 3 || so.Annotations[AnnotationPaused] != "true" || *s.PollingInterval != 15 || *s.InitialCooldownPeriod != 120 ||
		*s.IdleReplicaCount != 0 || s.Advanced.HorizontalPodAutoscalerConfig.Name != "h" || *s.Advanced.HorizontalPodAutoscalerConfig.Behavior.ScaleDown.StabilizationWindowSeconds != 30 ||
		!s.Triggers[0].UseCachedMetrics || s.Triggers[0].AuthenticationRef.Kind != "ClusterTriggerAuthentication" || s.Fallback.Behavior != "currentReplicas" ||
		*st.Health["s0-a"].NumberOfFailures != 2 || st.HpaName != "h" || *st.PausedReplicaCount != 2 || *st.OriginalReplicaCount != 4 ||
		!st.TriggersActivity["s0-a"].IsActive || st.ScaleTargetGVKR.Resource != "deployments" || st.LastActiveTime.Hour() != 1 {
		t.Errorf("decoded %+v", so)
	}
	for _, tc := range []struct{ doc, want string }{
		{"kind: Deployment\nmetadata: {name: x}", `Deployment "x": not a ScaledObject`},
		{"apiVersion: keda.sh/v1\nkind: ScaledObject\nmetadata: {name: x}", `ScaledObject "x": apiVersion keda.sh/v1 is not keda.sh/v1alpha1`},
		{"spec: [", "ScaledObject: not YAML or JSON"},
		{"spec: {minReplicaCount: many}", "ScaledObject: json: cannot unmarshal"},
	} {
		if _, err := Decode([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%q) = %v, want %q", tc.doc, err, tc.want)
		}
	}
}

// TestParams: KEDA's typed parameter parsing.
func TestParams(t *testing.T) {
	for _, tc := range []struct {
		val  string
		want float64
		ok   bool
	}{
		{"5", 5, true},
		{" 5 ", 5, true},
		{"1e3", 1000, true},
		{"-2.5", -2.5, true},
		{"+1", 0, false},
		{".5", 0, false},
		{"0x10", 0, false},
		{"NaN", 0, false},
		{"5m", 0, false},
		{"", 7, true},
		{"   ", 7, true},
	} {
		md := newMetadata("x", map[string]string{"v": tc.val})
		got, ok := md.float(param{names: []string{"v"}, def: "7"})
		if ok != tc.ok || ok && got != tc.want || (md.err() == nil) != tc.ok {
			t.Errorf("float(%q) = %v, %v (%v); want %v, %v", tc.val, got, ok, md.err(), tc.want, tc.ok)
		}
	}
	md := newMetadata("x", map[string]string{"f": "json,yaml", "g": "json,xml", "m": "basic,bearer"})
	if _, ok := md.get(param{names: []string{"f"}, enum: []string{"json", "yaml"}}); !ok {
		t.Errorf("each comma-separated part is checked against the enum: %v", md.err())
	}
	if _, ok := md.get(param{names: []string{"g"}, enum: []string{"json", "yaml"}}); ok {
		t.Error("xml accepted")
	}
	if _, ok := md.get(pAuthModes.withNames("m")); ok {
		t.Error("two exclusive auth modes accepted")
	}
	md = newMetadata("x", map[string]string{"authMode": "tls"})
	if v := md.str(pAuthModes); v != "tls" {
		t.Errorf("second name not read: %q", v)
	}
	md = newMetadata("cpu", map[string]string{"type": "Utilization"})
	md.str(pResType)
	if err := md.err(); err == nil || !strings.Contains(err.Error(), "removed in v2.18") {
		t.Errorf("deprecated parameter: %v", err)
	}
	for _, tc := range []struct {
		val string
		ok  bool
	}{{"30s", true}, {"1500", true}, {"-1", false}, {"-1s", false}, {"soon", false}} {
		md := newMetadata("x", map[string]string{"d": tc.val})
		if _, ok := md.duration(param{names: []string{"d"}}); ok != tc.ok {
			t.Errorf("duration(%q) ok = %v (%v)", tc.val, ok, md.err())
		}
	}
}

// withNames returns p read under other names.
func (p param) withNames(names ...string) param {
	p.names = names
	return p
}

// TestVersions: parsing and the supported range.
func TestVersions(t *testing.T) {
	for _, s := range []string{"2.21", "v2.21", "v2.21.0", "2.21.0-rc1"} {
		v, err := ParseVersion(s)
		if err != nil || v.Minor != 21 || v.Check() != nil || v.Proven().String() != "v2.21.0" {
			t.Errorf("%s: %v %v", s, v, err)
		}
	}
	for _, s := range []string{"1.21", "v3.0", "latest", ""} {
		if _, err := ParseVersion(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
	if err := MustParseVersion("2.22").Check(); err == nil || !strings.Contains(err.Error(), "v2.20 to v2.21") {
		t.Errorf("2.22: %v", err)
	}
	if got := SupportedVersions(); len(got) != 2 || got[0].String() != "v2.20.2" || got[1].String() != NewestVersion {
		t.Errorf("supported = %v", got)
	}
}

// TestCountWorkloadPods: terminated pods do not count; groupByNode
// counts nodes.
func TestCountWorkloadPods(t *testing.T) {
	pods := podList(t, `
- {spec: {nodeName: a}, status: {phase: Running}}
- {spec: {nodeName: a}, status: {phase: Pending}}
- {spec: {nodeName: b}, status: {phase: Succeeded}}
- {spec: {nodeName: c}, status: {phase: Failed}}
- {spec: {}, status: {phase: Pending}}
- {spec: {nodeName: d}, status: {}}
`)
	if n := CountWorkloadPods(pods, false); n != 4 {
		t.Errorf("pods = %v", n)
	}
	if n := CountWorkloadPods(pods, true); n != 2 {
		t.Errorf("nodes = %v", n)
	}
}

// podList decodes a YAML list of pods.
func podList(t *testing.T, doc string) []corev1.Pod {
	t.Helper()
	var pods []corev1.Pod
	if err := yaml.Unmarshal([]byte(doc), &pods); err != nil {
		t.Fatal(err)
	}
	return pods
}
