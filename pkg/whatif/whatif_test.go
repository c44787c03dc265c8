// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// pod is a running, ready pod started an hour ago with one container "app"
// requesting cpuReq (no request when "").
func pod(name, cpuReq string) corev1.Pod {
	start := metav1.NewTime(t0.Add(-time.Hour))
	c := corev1.Container{Name: "app"}
	if cpuReq != "" {
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuReq)}
	}
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", Labels: map[string]string{"app": "web"}, CreationTimestamp: start},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{c}},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, StartTime: &start,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: start}},
		},
	}
}

func podMetrics(name, cpu string) metricsv1beta1.PodMetrics {
	return metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Timestamp:  metav1.NewTime(t0.Add(-10 * time.Second)),
		Window:     metav1.Duration{Duration: 15 * time.Second},
		Containers: []metricsv1beta1.ContainerMetrics{{Name: "app", Usage: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}},
	}
}

// cpuSnapshot: n pods requesting 500m, each using usage, an HPA on 50% CPU
// (min 1, max 20, no behavior).
func cpuSnapshot(n int, usage string) *engine.Snapshot {
	target := int32(50)
	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			MaxReplicas:    20,
			Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
				Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target},
			}}},
		},
	}
	engine.DefaultHPA(hpa)
	s := &engine.Snapshot{
		HPA:    hpa,
		Target: engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", SpecReplicas: int32(n), StatusReplicas: int32(n), Selector: "app=web"},
		Now:    t0,
		State:  engine.ControllerState{RecommendationsInitialized: true, Provenance: explain.Observed},
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("web-%d", i)
		s.Pods = append(s.Pods, pod(name, "500m"))
		s.PodMetrics = append(s.PodMetrics, podMetrics(name, usage))
	}
	return s
}

func evaluate(t *testing.T, s *engine.Snapshot) *explain.Decision {
	t.Helper()
	d, err := engine.Evaluate(s, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// An override must give exactly the decision of a snapshot in which the
// pods really use that much.
func TestApplyEqualsTheRealThing(t *testing.T) {
	for _, tc := range []struct {
		name      string
		start     *engine.Snapshot
		ov        Overrides
		realThing *engine.Snapshot
	}{
		{"absolute cpu", cpuSnapshot(4, "250m"), Overrides{CPU: mustUsage(t, "400m")}, cpuSnapshot(4, "400m")},
		{"relative cpu", cpuSnapshot(4, "200m"), Overrides{CPU: mustUsage(t, "+50%")}, cpuSnapshot(4, "300m")},
		{"share of the request", cpuSnapshot(4, "200m"), Overrides{CPU: mustUsage(t, "90%")}, cpuSnapshot(4, "450m")},
		{"container", cpuSnapshot(3, "100m"), Overrides{CPU: mustUsage(t, "app=350m")}, cpuSnapshot(3, "350m")},
		{"replicas, total load kept", cpuSnapshot(4, "300m"), Overrides{Replicas: ptr[int32](6)}, cpuSnapshot(6, "200m")},
		{"replicas down, total load kept", cpuSnapshot(6, "200m"), Overrides{Replicas: ptr[int32](3)}, cpuSnapshot(3, "400m")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := Apply(tc.start, &tc.ov, engine.DefaultSettings())
			if err != nil {
				t.Fatal(err)
			}
			dGot, dWant := evaluate(t, got), evaluate(t, tc.realThing)
			if dGot.DesiredReplicas != dWant.DesiredReplicas || dGot.Summary != dWant.Summary {
				t.Errorf("after the override: desired %d (%s); with the real usage: %d (%s)", dGot.DesiredReplicas, dGot.Summary, dWant.DesiredReplicas, dWant.Summary)
			}
			if diff := cmp.Diff(dWant.CurrentMetrics, dGot.CurrentMetrics); diff != "" {
				t.Errorf("current metrics differ (-real +override):\n%s", diff)
			}
		})
	}
}

func TestApplyLeavesTheInputAlone(t *testing.T) {
	s := cpuSnapshot(2, "100m")
	before := evaluate(t, s)
	if _, _, err := Apply(s, &Overrides{CPU: mustUsage(t, "900m"), Replicas: ptr[int32](5), Max: ptr[int32](7)}, engine.DefaultSettings()); err != nil {
		t.Fatal(err)
	}
	after := evaluate(t, s)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("Apply changed its input (-before +after):\n%s", diff)
	}
}

func TestApplySpec(t *testing.T) {
	s := cpuSnapshot(4, "250m") // 50% of 500m: at target
	got, changes, err := Apply(s, &Overrides{Targets: []TargetOverride{mustTarget(t, "cpu=25%")}, Max: ptr[int32](6)}, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 {
		t.Errorf("changes %q, want one per override", changes)
	}
	d := evaluate(t, got)
	// 50% against 25% doubles 4 to 8; maxReplicas 6 caps it.
	if d.DesiredReplicas != 6 || d.Normalization == nil || d.Normalization.Limits.Reason != "TooManyReplicas" {
		t.Errorf("desired %d (%s), want 6 capped by maxReplicas", d.DesiredReplicas, d.Summary)
	}
	abs, _, err := Apply(s, &Overrides{Targets: []TargetOverride{mustTarget(t, "cpu=125m")}}, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if tg := abs.HPA.Spec.Metrics[0].Resource.Target; tg.Type != autoscalingv2.AverageValueMetricType || tg.AverageValue.String() != "125m" {
		t.Errorf("target %+v, want AverageValue 125m", tg)
	}
	if d := evaluate(t, abs); d.DesiredReplicas != 8 {
		t.Errorf("250m against an average of 125m: desired %d, want 8", d.DesiredReplicas)
	}
}

func TestApplyTolerance(t *testing.T) {
	s := cpuSnapshot(10, "260m") // 52% of 50%: within the default 10%
	if d := evaluate(t, s); d.Rescale {
		t.Fatalf("the starting point should be within tolerance: %s", d.Summary)
	}
	q := resource.MustParse("0.01")
	got, _, err := Apply(s, &Overrides{ScaleUpTolerance: &q}, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if got.HPA.Spec.Behavior == nil || got.HPA.Spec.Behavior.ScaleDown == nil {
		t.Fatalf("a tolerance needs a defaulted behavior, got %+v", got.HPA.Spec.Behavior)
	}
	if d := evaluate(t, got); !d.Rescale || d.DesiredReplicas != 11 {
		t.Errorf("with a 1%% scale-up tolerance 1.04 is out of band: desired %d (%s), want 11", d.DesiredReplicas, d.Summary)
	}
}

func TestApplyExternalSeries(t *testing.T) {
	s := cpuSnapshot(2, "100m")
	s.HPA.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: "queue", Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("10"))},
	}}}
	series := func(lbl, v string) externalmetricsv1beta1.ExternalMetricValue {
		return externalmetricsv1beta1.ExternalMetricValue{MetricName: "queue", MetricLabels: map[string]string{"app": "web", "q": lbl}, Value: resource.MustParse(v), Timestamp: metav1.NewTime(t0)}
	}
	s.ExternalMetrics = []externalmetricsv1beta1.ExternalMetricValue{series("a", "30"), series("b", "10"), {MetricName: "queue", MetricLabels: map[string]string{"app": "other"}, Value: resource.MustParse("1000")}}

	got, _, err := Apply(s, &Overrides{Externals: []MetricOverride{mustMetric(t, "queue=80", true)}}, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	// 80 shared 3:1 over the two selected series; the third is not selected.
	vals := map[string]string{}
	for _, e := range got.ExternalMetrics {
		vals[e.MetricLabels["q"]+e.MetricLabels["app"]] = e.Value.String()
	}
	if want := map[string]string{"aweb": "60", "bweb": "20", "other": "1k"}; !cmp.Equal(vals, want) {
		t.Errorf("series %v, want %v", vals, want)
	}
	// (The legacy rate limit then caps 2 at 4; the proposal is what counts.)
	if d := evaluate(t, got); d.Recommendation == nil || d.Recommendation.Replicas != 8 {
		t.Errorf("80 at 10 per pod: %s, want a proposal of 8", d.Summary)
	}
	one, _, err := Apply(s, &Overrides{Externals: []MetricOverride{mustMetric(t, "queue{q=b}=50", true)}}, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if d := evaluate(t, one); d.Recommendation == nil || d.Recommendation.Replicas != 8 {
		t.Errorf("30 + 50 at 10 per pod: %s, want a proposal of 8", d.Summary)
	}
}

func TestApplyErrors(t *testing.T) {
	noReq := cpuSnapshot(2, "100m")
	for i := range noReq.Pods {
		noReq.Pods[i].Spec.Containers[0].Resources.Requests = nil
	}
	noReq.HPA.Spec.Metrics[0].Resource.Target = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("100m"))}
	for _, tc := range []struct {
		name  string
		snap  *engine.Snapshot
		ov    Overrides
		field Field
		want  string
	}{
		{"unknown pods metric", cpuSnapshot(2, "1"), Overrides{Pods: []MetricOverride{mustMetric(t, "rps=5", false)}}, FieldMetric, `metric rps=5: the HPA shop/web has no Pods metric named "rps" (its metrics: cpu (Resource))`},
		{"unknown external", cpuSnapshot(2, "1"), Overrides{Externals: []MetricOverride{mustMetric(t, "q=5", true)}}, FieldExternal, `has no External metric named "q"`},
		{"unknown target", cpuSnapshot(2, "1"), Overrides{Targets: []TargetOverride{mustTarget(t, "rps=5")}}, FieldTarget, `target rps=5: the HPA shop/web has no metric named "rps"`},
		{"no memory metric", cpuSnapshot(2, "1"), Overrides{Memory: mustUsage(t, "1Gi")}, FieldMemory, `memory=1Gi: the HPA shop/web has no memory metric`},
		{"utilization without requests", noReq, Overrides{Targets: []TargetOverride{mustTarget(t, "cpu=70%")}}, FieldTarget, `container "app" of pod web-0 has no cpu request`},
		{"share of a missing request", noReq, Overrides{CPU: mustUsage(t, "80%")}, FieldCPU, `cpu=80%: container "app" of pod web-0 has no cpu request`},
		{"min above max", cpuSnapshot(2, "1"), Overrides{Min: ptr[int32](5), Max: ptr[int32](3)}, FieldBounds, "spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`"},
		{"min zero", cpuSnapshot(2, "1"), Overrides{Min: ptr[int32](0)}, FieldMin, "min 0: spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"},
		{"replicas zero", cpuSnapshot(2, "1"), Overrides{Replicas: ptr[int32](0)}, FieldReplicas, "replicas 0: give at least 1"},
		{"unknown container", cpuSnapshot(2, "1"), Overrides{CPU: mustUsage(t, "db=1")}, FieldCPU, `no running pod of the target has a container named "db"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Apply(tc.snap, &tc.ov, engine.DefaultSettings())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Errorf("error %#v is not a FieldError of %s", err, tc.field)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestParse(t *testing.T) {
	good := map[string]Change{
		"200m":   {Kind: Absolute, Value: resource.MustParse("200m")},
		"+50%":   {Kind: Relative, Factor: 1.5},
		"-20%":   {Kind: Relative, Factor: 0.8},
		"80%":    {Kind: OfRequest, Percent: 80},
		"80%req": {Kind: OfRequest, Percent: 80},
	}
	for in, want := range good {
		got, err := ParseChange(in, true)
		if err != nil {
			t.Errorf("ParseChange(%q): %v", in, err)
			continue
		}
		if got.Kind != want.Kind || got.Factor != want.Factor || got.Percent != want.Percent || got.Value.Cmp(want.Value) != 0 {
			t.Errorf("ParseChange(%q) = %+v, want %+v", in, got, want)
		}
	}
	for _, in := range []string{"", "-1", "abc", "+x%", "-150%", "-5%req"} {
		if _, err := ParseChange(in, true); err == nil {
			t.Errorf("ParseChange(%q) accepted", in)
		}
	}
	if _, err := ParseChange("80%", false); err == nil {
		t.Error("a share of the request was accepted for a metric value")
	}
	for _, in := range []string{"rps", "=5", "rps=-1", "q{a=b=1"} {
		if _, err := ParseMetric(in, true); err == nil {
			t.Errorf("ParseMetric(%q) accepted", in)
		}
	}
	if _, err := ParseMetric("q{a=b}=1", false); err == nil {
		t.Error("series labels were accepted outside --external")
	}
	for _, in := range []string{"cpu", "cpu=", "cpu=0%", "cpu=-5", "cpu=7.5%"} {
		if _, err := ParseTarget(in); err == nil {
			t.Errorf("ParseTarget(%q) accepted", in)
		}
	}
}

func mustUsage(t *testing.T, s string) *UsageOverride {
	t.Helper()
	u, err := ParseUsage(s)
	if err != nil {
		t.Fatal(err)
	}
	return &u
}

func mustMetric(t *testing.T, s string, lbls bool) MetricOverride {
	t.Helper()
	m, err := ParseMetric(s, lbls)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustTarget(t *testing.T, s string) TargetOverride {
	t.Helper()
	tg, err := ParseTarget(s)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}
