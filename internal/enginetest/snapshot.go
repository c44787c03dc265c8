// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package enginetest builds engine snapshots from fuzz bytes, for the fuzz
// properties of the engine, whatif and the encoders. Only tests import it.
package enginetest

import (
	"encoding/binary"
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// T0 is the instant of every generated sync.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

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

// fuzzBytes hands out the fuzzer's bytes as small decisions; once they run
// out, every decision is zero, so any input is a complete snapshot.
type fuzzBytes struct{ data []byte }

func (b *fuzzBytes) byte() byte {
	if len(b.data) == 0 {
		return 0
	}
	v := b.data[0]
	b.data = b.data[1:]
	return v
}

// intn returns a value in [0, n).
func (b *fuzzBytes) intn(n int) int {
	if n <= 1 {
		return 0
	}
	var buf [2]byte
	buf[0], buf[1] = b.byte(), b.byte()
	return int(binary.LittleEndian.Uint16(buf[:])) % n
}

func (b *fuzzBytes) bool() bool { return b.byte()&1 == 1 }

// pick returns one of the values, chosen by the next byte.
func pick[T any](b *fuzzBytes, vs ...T) T { return vs[b.intn(len(vs))] }

// Snapshot builds a snapshot and settings from fuzz bytes: an HPA with
// one to three metrics of any source type, bounds that may be invalid, pods
// in every phase and readiness, samples that may be missing, API errors, a
// recorded controller history and a controller version with its gates.
func Snapshot(data []byte) (*engine.Snapshot, engine.Settings) {
	b := &fuzzBytes{data: data}
	now := T0
	set := engine.DefaultSettings()
	versions := profile.Supported()
	v := versions[b.intn(len(versions))]
	gates := map[profile.Gate]bool{}
	for _, g := range []profile.Gate{profile.HPAScaleToZero, profile.HPAConfigurableTolerance, profile.PodLevelResources} {
		if b.bool() {
			gates[g] = b.bool()
		}
	}
	if p, err := profile.New(v, gates); err == nil {
		set.Profile = p
	} else {
		set.Profile = profile.Default(v)
	}
	set.Tolerance = pick(b, 0.1, 0, 0.05, 0.5, 1.5)
	set.CPUInitializationPeriod = pick(b, 5*time.Minute, 0, 30*time.Second, time.Hour)
	set.InitialReadinessDelay = pick(b, 30*time.Second, 0, 2*time.Minute)
	set.DownscaleStabilization = pick(b, 5*time.Minute, 0, 15*time.Second, time.Hour)

	minR := int32(b.intn(12)) - 1 // -1: unset
	maxR := int32(b.intn(40))
	if b.bool() {
		maxR = pick(b, int32(1), int32(1000), int32(1<<31-1))
	}
	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: pick(b, "apps/v1", "apps/v1", "a/b/c"), Kind: "Deployment", Name: "web"},
			MaxReplicas:    maxR,
		},
	}
	if minR >= 0 {
		hpa.Spec.MinReplicas = ptr(minR)
	}
	quantity := func() resource.Quantity {
		return *resource.NewMilliQuantity(pick(b, int64(0), 1, 100, 500, 1000, 2500, 1<<40, int64(b.intn(100000))), resource.DecimalSI)
	}
	target := func(utilization bool) autoscalingv2.MetricTarget {
		switch {
		case utilization && b.bool():
			return autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(pick(b, int32(60), 1, 100, 250, 0))}
		case b.bool():
			return autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(quantity())}
		default:
			return autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(quantity())}
		}
	}
	for i := 0; i < 1+b.intn(3); i++ {
		var m autoscalingv2.MetricSpec
		switch b.intn(5) {
		case 0:
			m = autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{Name: pick(b, corev1.ResourceCPU, corev1.ResourceMemory), Target: target(true)}}
		case 1:
			m = autoscalingv2.MetricSpec{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{Name: corev1.ResourceCPU, Container: pick(b, "app", "side"), Target: target(true)}}
		case 2:
			m = autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: "rps"}, Target: target(false)}}
		case 3:
			m = autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
				DescribedObject: autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "Service", Name: "web"},
				Metric:          autoscalingv2.MetricIdentifier{Name: "hits"}, Target: target(false),
			}}
		default:
			m = autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: "queue"}, Target: target(false),
			}}
		}
		hpa.Spec.Metrics = append(hpa.Spec.Metrics, m)
	}
	if b.bool() {
		rules := func() *autoscalingv2.HPAScalingRules {
			if b.bool() {
				return nil
			}
			r := &autoscalingv2.HPAScalingRules{}
			if b.bool() {
				r.StabilizationWindowSeconds = ptr(pick(b, int32(0), 15, 60, 300, 3600))
			}
			if b.bool() {
				r.SelectPolicy = ptr(pick(b, autoscalingv2.MaxChangePolicySelect, autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect))
			}
			for j := 0; j < b.intn(3); j++ {
				r.Policies = append(r.Policies, autoscalingv2.HPAScalingPolicy{
					Type: pick(b, autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy), Value: pick(b, int32(1), 4, 100, 900), PeriodSeconds: pick(b, int32(15), 60, 1800),
				})
			}
			if b.bool() {
				r.Tolerance = ptr(resource.MustParse(pick(b, "0", "0.05", "0.5", "2")))
			}
			return r
		}
		hpa.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: rules(), ScaleDown: rules()}
	}
	if b.bool() {
		hpa.Status.Conditions = append(hpa.Status.Conditions, autoscalingv2.HorizontalPodAutoscalerCondition{
			Type: autoscalingv2.ScaledToZero, Status: pick(b, corev1.ConditionTrue, corev1.ConditionFalse),
		})
	}
	if b.bool() {
		hpa.Status.LastScaleTime = &metav1.Time{Time: now.Add(-time.Duration(b.intn(3600)) * time.Second)}
	}
	engine.DefaultHPA(hpa)

	cur := int32(b.intn(12))
	if b.bool() {
		cur = pick(b, int32(0), maxR+1, 1<<20)
	}
	snap := &engine.Snapshot{
		HPA:    hpa,
		Target: engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", SpecReplicas: cur, StatusReplicas: cur, Selector: pick(b, "app=web", "app=web", "", "app in (web")},
		Now:    now,
		State:  engine.ControllerState{RecommendationsInitialized: b.bool(), Provenance: explain.Observed},
	}
	if b.intn(16) == 0 {
		snap.Target.GetError = "the server could not find the requested resource"
	}
	for i := 0; i < b.intn(4); i++ {
		snap.State.Recommendations = append(snap.State.Recommendations, engine.Recommendation{Replicas: int32(b.intn(20)), Timestamp: now.Add(-time.Duration(b.intn(600)) * time.Second)})
	}
	for i := 0; i < b.intn(3); i++ {
		ev := engine.ScaleEvent{ReplicaChange: int32(b.intn(10)), Timestamp: now.Add(-time.Duration(b.intn(1800)) * time.Second)}
		if b.bool() {
			snap.State.ScaleUpEvents = append(snap.State.ScaleUpEvents, ev)
		} else {
			snap.State.ScaleDownEvents = append(snap.State.ScaleDownEvents, ev)
		}
	}
	for i := 0; i < int(min(cur, 16))+b.intn(3); i++ {
		name := fmt.Sprintf("web-%d", i)
		start := now.Add(-time.Duration(b.intn(7200)) * time.Second)
		p := readyPod(name, start)
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "side"})
		if b.bool() {
			p.Spec.Containers[1].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")}
		}
		if b.bool() {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse("256Mi")
		}
		switch b.intn(8) {
		case 0:
			p.Status.Phase = corev1.PodPending
		case 1:
			p.Status.Conditions[0].Status = corev1.ConditionFalse
		case 2:
			p.Status.Phase = corev1.PodFailed
		case 3:
			p.DeletionTimestamp = &metav1.Time{Time: now}
		case 4:
			p.Status.StartTime = nil
		}
		if b.intn(8) == 0 {
			p.Labels = map[string]string{"app": "other"}
		}
		snap.Pods = append(snap.Pods, p)
		if b.intn(6) != 0 {
			pm := podMetric(name, int64(b.intn(3000)), now.Add(-time.Duration(b.intn(120))*time.Second))
			pm.Containers[0].Usage[corev1.ResourceMemory] = *resource.NewQuantity(int64(b.intn(1<<30)), resource.BinarySI)
			if b.bool() {
				pm.Containers = append(pm.Containers, metricsv1beta1.ContainerMetrics{Name: "side", Usage: corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(int64(b.intn(500)), resource.DecimalSI)}})
			}
			snap.PodMetrics = append(snap.PodMetrics, pm)
		}
		if b.intn(4) != 0 {
			snap.CustomMetrics = append(snap.CustomMetrics, custommetricsv1beta2.MetricValue{
				DescribedObject: corev1.ObjectReference{Kind: "Pod", Name: name, Namespace: "ns"},
				Metric:          custommetricsv1beta2.MetricIdentifier{Name: "rps"},
				Timestamp:       metav1.Time{Time: now}, Value: quantity(),
			})
		}
	}
	if b.intn(4) != 0 {
		snap.CustomMetrics = append(snap.CustomMetrics, custommetricsv1beta2.MetricValue{
			DescribedObject: corev1.ObjectReference{Kind: "Service", APIVersion: "v1", Name: "web", Namespace: "ns"},
			Metric:          custommetricsv1beta2.MetricIdentifier{Name: "hits"},
			Timestamp:       metav1.Time{Time: now}, Value: quantity(),
		})
	}
	for i := 0; i < b.intn(3); i++ {
		snap.ExternalMetrics = append(snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{
			MetricName: "queue", Timestamp: metav1.Time{Time: now}, Value: quantity(),
		})
	}
	if b.intn(6) == 0 {
		snap.APIErrors = map[string]string{pick(b, "resource", "pods:rps", "object:hits", "external:queue"): "the server is currently unable to handle the request"}
	}
	// The scale's status may lag its spec: a count of zero makes per-pod
	// ratios divide by zero, as after a scale from zero.
	if b.intn(4) == 0 {
		snap.Target.StatusReplicas = pick(b, int32(0), cur/2, cur+1)
	}
	return snap, set
}
