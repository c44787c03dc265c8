// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// These tests pin the edge cases of §15 of the algorithm spec that the
// upstream-derived vectors leave open (a mutation of each rule survives the
// vectors but not these tests).

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// cpuSnapshot builds an HPA on cpu utilization with n ready pods, each
// requesting 1000m and using usage[i] millicores, started an hour ago.
func cpuSnapshot(target, cur int32, usage ...int64) *Snapshot {
	snap := &Snapshot{
		HPA: &autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
				MinReplicas:    ptr(int32(1)),
				MaxReplicas:    100,
				Metrics: []autoscalingv2.MetricSpec{{
					Type:     autoscalingv2.ResourceMetricSourceType,
					Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(target)}},
				}},
			},
		},
		Target: Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", SpecReplicas: cur, StatusReplicas: cur, Selector: "app=web"},
		State:  ControllerState{RecommendationsInitialized: true, Provenance: explain.Observed},
		Now:    t0,
	}
	for i, u := range usage {
		name := fmt.Sprintf("web-%d", i)
		snap.Pods = append(snap.Pods, readyPod(name, t0.Add(-time.Hour)))
		snap.PodMetrics = append(snap.PodMetrics, podMetric(name, u, t0.Add(-10*time.Second)))
	}
	return snap
}

func readyPod(name string, start time.Time) corev1.Pod {
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			StartTime:  &metav1.Time{Time: start},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Time{Time: start}}},
		},
	}
}

func podMetric(name string, milli int64, ts time.Time) metricsv1beta1.PodMetrics {
	return metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: map[string]string{"app": "web"}},
		Timestamp:  metav1.Time{Time: ts},
		Window:     metav1.Duration{Duration: 30 * time.Second},
		Containers: []metricsv1beta1.ContainerMetrics{{Name: "app", Usage: corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(milli, resource.DecimalSI)}}},
	}
}

func evaluate(t *testing.T, snap *Snapshot) *explain.Decision {
	t.Helper()
	dec, err := Evaluate(snap, DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	return dec
}

func proposal(t *testing.T, dec *explain.Decision) int32 {
	t.Helper()
	m := dec.Metrics[0]
	if m.Error != nil {
		t.Fatalf("metric failed: %s", *m.Error)
	}
	return *m.ProposedReplicas
}

func repeat(n int, v int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestTrapToleranceBoundsAreInclusive(t *testing.T) {
	cases := []struct {
		name  string
		usage int64
		want  int32
	}{
		{"ratio exactly 0.9 keeps 10", 450, 10},
		{"ratio just below 0.9 scales to 9", 445, 9}, // 44% → 0.88
		{"ratio exactly 1.1 keeps 10", 550, 10},
		{"ratio just above 1.1 scales to 12", 560, 12}, // 56% → 1.12
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dec := evaluate(t, cpuSnapshot(50, 10, repeat(10, c.usage)...))
			if got := proposal(t, dec); got != c.want {
				t.Fatalf("proposal %d, want %d", got, c.want)
			}
		})
	}
}

func TestTrapUtilizationTruncatedBeforeRatio(t *testing.T) {
	// 110.9% of request against a 100% target: truncated to 110%, ratio 1.10,
	// inside tolerance.
	dec := evaluate(t, cpuSnapshot(100, 4, repeat(4, 1109)...))
	if got := proposal(t, dec); got != 4 {
		t.Fatalf("proposal %d, want 4", got)
	}
	if u := *dec.Metrics[0].Utilization; u != 110 {
		t.Fatalf("utilization %d, want 110", u)
	}
}

func TestTrapCeilIsFloat(t *testing.T) {
	// 33% against a 30% target on 3 pods: 1.1 × 3 = 3.3000000000000003 → 4
	// would need the ratio outside tolerance; use tolerance 0.05.
	snap := cpuSnapshot(30, 3, 330, 330, 330)
	set := DefaultSettings()
	set.Tolerance = 0.05
	dec, err := Evaluate(snap, set)
	if err != nil {
		t.Fatal(err)
	}
	if got := proposal(t, dec); got != 4 {
		t.Fatalf("proposal %d, want 4 (float artefact 1.1×3)", got)
	}
}

func TestTrapFormerlyReadyPodKeepsCPUSample(t *testing.T) {
	snap := cpuSnapshot(50, 2, 900, 900)
	// Pod 1 was ready, then turned NotReady 10 minutes after start.
	snap.Pods[1].Status.Conditions[0] = corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: metav1.Time{Time: t0.Add(-50 * time.Minute)}}
	dec := evaluate(t, snap)
	if dec.Metrics[0].Pods.Ready != 2 {
		t.Fatalf("ready %d, want 2: %+v", dec.Metrics[0].Pods.Ready, dec.Metrics[0].Pods.Entries)
	}
	// A pod that never became ready (transition within the readiness delay).
	snap.Pods[1].Status.Conditions[0].LastTransitionTime = metav1.Time{Time: t0.Add(-time.Hour + 10*time.Second)}
	dec = evaluate(t, snap)
	if dec.Metrics[0].Pods.Unready != 1 {
		t.Fatalf("unready %d, want 1", dec.Metrics[0].Pods.Unready)
	}
}

func TestTrapMissingPodBlocksScaleDown(t *testing.T) {
	// 4 pods at 10% of a 50% target, but a fifth pod has no metric: it counts
	// as 100% of its request on a scale-down.
	snap := cpuSnapshot(50, 5, 100, 100, 100, 100)
	snap.Pods = append(snap.Pods, readyPod("web-new", t0.Add(-time.Minute)))
	dec := evaluate(t, snap)
	m := dec.Metrics[0]
	if m.FillIn == nil || m.FillIn.MissingFilledWith != "100% of request" {
		t.Fatalf("fill-in %+v", m.FillIn)
	}
	// (4×100 + 1000) / 5000 = 28% → 0.56 → ceil(0.56×5) = 3.
	if got := proposal(t, dec); got != 3 {
		t.Fatalf("proposal %d, want 3", got)
	}
}

func TestTrapLegacyWindowInclusiveBehaviorStrict(t *testing.T) {
	// A recommendation of 8 exactly one window old, with the clock exactly
	// at now: the legacy window (not before the cutoff) keeps it, the
	// behavior window (strictly after) drops it.
	mk := func(behavior bool) *explain.Decision {
		snap := cpuSnapshot(50, 8, repeat(8, 100)...)
		snap.State.Recommendations = []Recommendation{{Replicas: 8, Timestamp: t0.Add(-5 * time.Minute)}}
		if behavior {
			snap.HPA.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{
				ScaleUp:   &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(0)), SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect), Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}},
				ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(300)), SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect), Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}},
			}
		}
		return evaluate(t, snap)
	}
	if d := mk(false); d.DesiredReplicas != 8 {
		t.Errorf("legacy: desired %d, want 8 (held by the inclusive window)", d.DesiredReplicas)
	}
	if d := mk(true); d.DesiredReplicas != 2 {
		t.Errorf("behavior: desired %d, want 2 (strict window)", d.DesiredReplicas)
	}
}

func TestTrapPercentPolicyFloatArtefacts(t *testing.T) {
	up := &autoscalingv2.HPAScalingRules{SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect), Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 10, PeriodSeconds: 60}}}
	if got := scaleUpLimit(100, nil, nil, up, t0, nil); got != 111 {
		t.Errorf("100 +10%%: %d, want 111", got)
	}
	down := &autoscalingv2.HPAScalingRules{SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect), Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 80, PeriodSeconds: 60}}}
	if got := scaleDownLimit(5, nil, nil, down, t0, nil); got != 0 {
		t.Errorf("5 -80%%: %d, want 0 (truncation)", got)
	}
	down.Policies[0].Value = 50
	if got := scaleDownLimit(5, nil, nil, down, t0, nil); got != 2 {
		t.Errorf("5 -50%%: %d, want 2 (truncation, not ceil)", got)
	}
}

func TestTrapObjectValueWithNoReadyPodProposesZero(t *testing.T) {
	snap := cpuSnapshot(50, 3, 100, 100, 100)
	for i := range snap.Pods {
		snap.Pods[i].Status.Conditions[0].Status = corev1.ConditionFalse
	}
	calc := (&syncRun{snap: snap, set: DefaultSettings(), now: t0})
	calc.init()
	c := &calculator{pods: []*corev1.Pod{&snap.Pods[0], &snap.Pods[1], &snap.Pods[2]}}
	n, err := c.usageRatioReplicaCount(3, 2.0, tolerances{down: 0.1, up: 0.1}, &explain.MetricResult{})
	if err != nil || n != 0 {
		t.Fatalf("got %d, %v; want 0", n, err)
	}
}

func TestTrapShortCircuitStillReportsProposals(t *testing.T) {
	snap := cpuSnapshot(50, 120, repeat(3, 900)...)
	dec := evaluate(t, snap)
	if dec.Outcome != explain.OutcomeAboveMax || dec.DesiredReplicas != 100 {
		t.Fatalf("outcome %s desired %d", dec.Outcome, dec.DesiredReplicas)
	}
	m := dec.Metrics[0]
	if m.Used || m.ProposedReplicas == nil {
		t.Fatalf("metric used=%v proposal=%v", m.Used, m.ProposedReplicas)
	}
	if len(dec.CurrentMetrics) != 0 {
		t.Fatalf("currentMetrics %v, want empty", dec.CurrentMetrics)
	}
}

// Found by the differential test: a metric may legitimately propose -1 (a
// negative external value); the sync goes on and the min bound applies.
func TestTrapNegativeProposalIsNotAFailure(t *testing.T) {
	snap := cpuSnapshot(50, 3, 500, 500, 500)
	snap.HPA.Spec.Metrics = []autoscalingv2.MetricSpec{{
		Type: autoscalingv2.ExternalMetricSourceType,
		External: &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: "queue"},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: resource.NewQuantity(1, resource.DecimalSI)},
		},
	}}
	snap.ExternalMetrics = []externalmetricsv1beta1.ExternalMetricValue{{MetricName: "queue", Value: *resource.NewMilliQuantity(-391, resource.DecimalSI)}}
	dec := evaluate(t, snap)
	if got := proposal(t, dec); got != -1 {
		t.Fatalf("proposal %d, want -1", got)
	}
	if dec.Outcome != explain.OutcomeRescale || dec.DesiredReplicas != 1 || dec.RescaleReason != "All metrics below target" {
		t.Fatalf("outcome %s desired %d reason %q", dec.Outcome, dec.DesiredReplicas, dec.RescaleReason)
	}
}

// Found by the differential test: a fresh controller's seed recommendation
// is read from the clock before stabilization is, so a zero legacy window
// does not hold a scale-down.
func TestTrapFreshControllerWithZeroLegacyWindow(t *testing.T) {
	snap := cpuSnapshot(50, 4, 100, 100, 100, 100)
	snap.State = ControllerState{}
	set := DefaultSettings()
	set.DownscaleStabilization = 0
	dec, err := Evaluate(snap, set)
	if err != nil {
		t.Fatal(err)
	}
	if dec.DesiredReplicas != 1 {
		t.Fatalf("desired %d, want 1 (window 0 must not hold): %s", dec.DesiredReplicas, dec.Summary)
	}
	// With the default window the seed holds it.
	if dec := evaluate(t, cpuSnapshotFresh()); dec.DesiredReplicas != 4 {
		t.Fatalf("desired %d, want 4 (held by the seeded recommendation)", dec.DesiredReplicas)
	}
}

func cpuSnapshotFresh() *Snapshot {
	s := cpuSnapshot(50, 4, 100, 100, 100, 100)
	s.State = ControllerState{}
	return s
}
