// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// switchCase pins one behaviour switch of profile.Switches: the same
// snapshot replayed by the last controller version before the change and
// the first one after gives each version's answer, and flipping only the
// switch in either profile turns one answer into the other (a mutation
// check: a switch whose code path is broken or unused fails here).
type switchCase struct {
	// field is the name of the profile.Switches field.
	field string
	// before and after are the versions on each side of the change, with
	// gate overrides where the change needs a gate.
	before, after string
	gates         map[profile.Gate]bool
	snap          func() *Snapshot
	// observe reduces a decision to what the change is about.
	observe func(*explain.Decision) string
	// wantBefore and wantAfter are what each version decides, as the
	// upstream sources of those versions compute it (docs/versions.md).
	wantBefore, wantAfter string
}

func TestSwitches(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range switchCases() {
		covered[c.field] = true
		t.Run(c.field, func(t *testing.T) {
			before := mustProfile(t, c.before, c.gates)
			after := mustProfile(t, c.after, c.gates)
			fb := switchValue(t, before, c.field)
			fa := switchValue(t, after, c.field)
			if fb.Interface() == fa.Interface() {
				t.Fatalf("%s is %v in both %s and %s: the case does not straddle the change", c.field, fb, c.before, c.after)
			}
			if got := c.observe(replayWith(t, c.snap(), before)); got != c.wantBefore {
				t.Errorf("%s: %s, want %s", c.before, got, c.wantBefore)
			}
			if got := c.observe(replayWith(t, c.snap(), after)); got != c.wantAfter {
				t.Errorf("%s: %s, want %s", c.after, got, c.wantAfter)
			}
			// Mutation: only the switch moves, and the answer follows it.
			flipped := before
			switchValue(t, flipped, c.field) // validates the name
			reflect.ValueOf(&flipped.Switches).Elem().FieldByName(c.field).Set(fa)
			if got := c.observe(replayWith(t, c.snap(), flipped)); got != c.wantAfter {
				t.Errorf("%s with only %s flipped: %s, want %s", c.before, c.field, got, c.wantAfter)
			}
			back := after
			reflect.ValueOf(&back.Switches).Elem().FieldByName(c.field).Set(fb)
			if got := c.observe(replayWith(t, c.snap(), back)); got != c.wantBefore {
				t.Errorf("%s with only %s flipped: %s, want %s", c.after, c.field, got, c.wantBefore)
			}
		})
	}
	// Every switch that changes a decision has a case; the two that do not
	// are tested where they act.
	elsewhere := map[string]string{
		"RetryScaleUpdateOnConflict": "TestScaleUpdateOutcome",
		"SyncOnSpecChange":           "timing only: it changes when a sync happens, not what it decides",
		"AmbiguousSelectorLimit":     "TestSwitches/AmbiguousSelectorMoreThanOne and TestAmbiguousSelectorLimit",
		"ContainerResourceMetrics":   "TestSwitchContainerResourceMetricsOff (on by default in every version: only v1.29 can turn it off)",
	}
	typ := reflect.TypeOf(profile.Switches{})
	for i := 0; i < typ.NumField(); i++ {
		name := typ.Field(i).Name
		if !covered[name] && elsewhere[name] == "" {
			t.Errorf("switch %s has no case in TestSwitches", name)
		}
	}
}

func mustProfile(t *testing.T, v string, gates map[profile.Gate]bool) profile.Profile {
	t.Helper()
	p, err := profile.New(profile.MustParse(v), gates)
	if err != nil {
		t.Fatalf("profile %s: %v", v, err)
	}
	return p
}

func switchValue(t *testing.T, p profile.Profile, field string) reflect.Value {
	t.Helper()
	f := reflect.ValueOf(p.Switches).FieldByName(field)
	if !f.IsValid() {
		t.Fatalf("profile.Switches has no field %s", field)
	}
	return f
}

func replayWith(t *testing.T, snap *Snapshot, p profile.Profile) *explain.Decision {
	t.Helper()
	set := DefaultSettings()
	set.Profile = p
	dec, err := Evaluate(snap, set)
	if err != nil {
		t.Fatal(err)
	}
	return dec
}

// Observations.

func obsProposal(d *explain.Decision) string {
	m := d.Metrics[0]
	if m.Error != nil {
		return "error: " + *m.Error
	}
	return fmt.Sprintf("proposal %d", *m.ProposedReplicas)
}

func obsOutcome(d *explain.Decision) string {
	return fmt.Sprintf("%s, desired %d", d.Outcome, d.DesiredReplicas)
}

func obsCondition(typ string) func(*explain.Decision) string {
	return func(d *explain.Decision) string {
		for _, c := range d.Conditions {
			if c.Type == typ {
				return c.Status + "/" + c.Reason
			}
		}
		return "no " + typ + " condition"
	}
}

func obsEvent(reason string) func(*explain.Decision) string {
	return func(d *explain.Decision) string {
		for _, e := range d.Events {
			if e.Reason == reason {
				return e.Message
			}
		}
		return "no " + reason + " event"
	}
}

func obsStatusJSON(d *explain.Decision) string { return metricsString(d.Status.CurrentMetrics) }

// Snapshot builders beyond the trap tests' cpuSnapshot.

func withMetric(snap *Snapshot, m autoscalingv2.MetricSpec) *Snapshot {
	snap.HPA.Spec.Metrics = []autoscalingv2.MetricSpec{m}
	return snap
}

func externalSnapshot(cur int32, target autoscalingv2.MetricTarget, values ...int64) *Snapshot {
	snap := cpuSnapshot(50, cur, repeat(int(cur), 500)...)
	withMetric(snap, autoscalingv2.MetricSpec{
		Type: autoscalingv2.ExternalMetricSourceType,
		External: &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: "queue"},
			Target: target,
		},
	})
	snap.HPA.Spec.MaxReplicas = math.MaxInt32
	for _, v := range values {
		snap.ExternalMetrics = append(snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{
			MetricName: "queue", Value: *resource.NewMilliQuantity(v, resource.DecimalSI), Timestamp: metav1.Time{Time: t0},
		})
	}
	return snap
}

func containerSnapshot(container string) *Snapshot {
	snap := cpuSnapshot(50, 3, 800, 800, 800)
	withMetric(snap, autoscalingv2.MetricSpec{
		Type: autoscalingv2.ContainerResourceMetricSourceType,
		ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
			Name: corev1.ResourceCPU, Container: container,
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(int32(50))},
		},
	})
	return snap
}

func switchCases() []switchCase {
	gates := func(kv ...any) map[profile.Gate]bool {
		m := map[profile.Gate]bool{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(profile.Gate)] = kv[i+1].(bool)
		}
		return m
	}
	return []switchCase{
		{
			// 55% against 50%: the ratio is 1.1 in float64, |1 − 1.1| is
			// 0.10000000000000009 > 0.1, while 1.1 ≤ 1 + 0.1 holds.
			field: "AbsoluteTolerance", before: "v1.32.13", after: "v1.33.13",
			snap:       func() *Snapshot { return cpuSnapshot(50, 10, repeat(10, 550)...) },
			observe:    obsProposal,
			wantBefore: "proposal 11",
			wantAfter:  "proposal 10",
		},
		{
			// A per-HPA scale-up tolerance of 0.5 keeps a ratio of 1.3.
			field: "BehaviorTolerance", before: "v1.34.4", after: "v1.35.4",
			snap: func() *Snapshot {
				snap := cpuSnapshot(50, 4, repeat(4, 650)...)
				DefaultHPA(snap.HPA)
				snap.HPA.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: &autoscalingv2.HPAScalingRules{Tolerance: ptr(resource.MustParse("0.5"))}}
				DefaultHPA(snap.HPA)
				return snap
			},
			observe:    obsProposal,
			wantBefore: "proposal 6",
			wantAfter:  "proposal 4",
		},
		{
			// One pod's metrics lack the named container.
			field: "MissingContainerSampleFails", before: "v1.32.13", after: "v1.33.13",
			snap: func() *Snapshot {
				snap := containerSnapshot("app")
				snap.PodMetrics[2].Containers[0].Name = "sidecar"
				return snap
			},
			observe:    obsProposal,
			wantBefore: "error: failed to get cpu utilization: unable to get metrics for resource cpu: failed to get container metrics: container app not present in metrics for pod ns/web-2",
			// 80% on two pods, the third missing: filled with 0 for a
			// scale-up, 53%, within the tolerance.
			wantAfter: "proposal 3",
		},
		{
			field: "ObjectAverageStatusNamesObject", before: "v1.32.13", after: "v1.33.13",
			snap: func() *Snapshot {
				snap := cpuSnapshot(50, 2, 500, 500)
				withMetric(snap, autoscalingv2.MetricSpec{
					Type: autoscalingv2.ObjectMetricSourceType,
					Object: &autoscalingv2.ObjectMetricSource{
						DescribedObject: autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "Service", Name: "front"},
						Metric:          autoscalingv2.MetricIdentifier{Name: "rps"},
						Target:          autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("10"))},
					},
				})
				snap.CustomMetrics = []custommetricsv1beta2.MetricValue{{
					DescribedObject: corev1.ObjectReference{APIVersion: "v1", Kind: "Service", Name: "front", Namespace: "ns"},
					Metric:          custommetricsv1beta2.MetricIdentifier{Name: "rps"},
					Value:           resource.MustParse("40"), Timestamp: metav1.Time{Time: t0},
				}}
				return snap
			},
			observe:    obsStatusJSON,
			wantBefore: `{"type":"Object","object":{"metric":{"name":"rps"},"current":{"averageValue":"20"},"describedObject":{"kind":"","name":""}}}`,
			wantAfter:  `{"type":"Object","object":{"metric":{"name":"rps"},"current":{"averageValue":"20"},"describedObject":{"kind":"Service","name":"front","apiVersion":"v1"}}}`,
		},
		{
			field: "MemoryStatusBinarySI", before: "v1.33.13", after: "v1.34.4",
			snap: func() *Snapshot {
				snap := cpuSnapshot(50, 2, 500, 500)
				withMetric(snap, autoscalingv2.MetricSpec{
					Type:     autoscalingv2.ResourceMetricSourceType,
					Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceMemory, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("256Mi"))}},
				})
				for i := range snap.PodMetrics {
					snap.PodMetrics[i].Containers[0].Usage[corev1.ResourceMemory] = resource.MustParse("256Mi")
				}
				return snap
			},
			observe: func(d *explain.Decision) string {
				return d.Status.CurrentMetrics[0].Resource.Current.AverageValue.String()
			},
			wantBefore: "268435456",
			wantAfter:  "256Mi",
		},
		{
			// Pod-level requests of 2 CPU against containers of 1 CPU.
			field: "PodLevelRequests", before: "v1.33.13", after: "v1.34.4",
			snap: func() *Snapshot {
				snap := cpuSnapshot(50, 2, 800, 800)
				for i := range snap.Pods {
					snap.Pods[i].Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}
				}
				return snap
			},
			observe: func(d *explain.Decision) string {
				return fmt.Sprintf("utilization %d%%, %s", *d.Metrics[0].Utilization, obsProposal(d))
			},
			wantBefore: "utilization 80%, proposal 4",
			wantAfter:  "utilization 40%, proposal 2",
		},
		{
			// Three series of MaxInt64/2 against an AverageValue target.
			field: "ExternalAverageCaps", before: "v1.33.13", after: "v1.34.4",
			snap: func() *Snapshot {
				h := int64(math.MaxInt64 / 2)
				return externalSnapshot(2, autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("1"))}, h, h, h)
			},
			observe:    obsProposal,
			wantBefore: "proposal -2147483648",
			wantAfter:  "proposal 2147483647",
		},
		{
			field: "NamedContainerRequired", before: "v1.34.4", after: "v1.35.4",
			snap: func() *Snapshot {
				snap := containerSnapshot("app")
				// The metrics name the container, the spec of one pod does not.
				snap.Pods[2].Spec.Containers[0].Name = "other"
				return snap
			},
			observe: obsProposal,
			// Before v1.35 the pod's request counts as 0: 2400m used over
			// 2000m requested is 120%, ratio 2.4, ceil(2.4 × 3) = 8.
			wantBefore: "proposal 8",
			wantAfter:  "error: failed to get cpu utilization: container app not found in Pod web-2",
		},
		{
			// An External Value target with a ratio of 2^31 on 3 ready pods.
			field: "UsageRatioReplicaCap", before: "v1.34.4", after: "v1.35.4",
			snap: func() *Snapshot {
				return externalSnapshot(3, autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(resource.MustParse("1m"))}, 1<<31)
			},
			observe:    obsProposal,
			wantBefore: "proposal -2147483648",
			wantAfter:  "proposal 2147483647",
		},
		{
			// Two series whose sum overflows int64 against a Value target.
			field: "ExternalValueSumCap", before: "v1.34.4", after: "v1.35.4",
			snap: func() *Snapshot {
				return externalSnapshot(3, autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(resource.MustParse("1"))}, math.MaxInt64, 1000)
			},
			observe: func(d *explain.Decision) string {
				return fmt.Sprintf("sum %d", d.Metrics[0].Usage.SumMilli)
			},
			wantBefore: fmt.Sprintf("sum %d", int64(math.MinInt64+999)),
			wantAfter:  fmt.Sprintf("sum %d", int64(math.MaxInt64)),
		},
		{
			// Zero replicas and minReplicas 0 with an External metric: v1.35
			// computes the metric and scales from zero; v1.36 with the gate
			// off disables autoscaling.
			field: "ScaleToZeroConditions", before: "v1.35.4", after: "v1.36.3",
			snap: func() *Snapshot {
				snap := externalSnapshot(0, autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(resource.MustParse("10"))}, 30000)
				snap.HPA.Spec.MinReplicas = ptr(int32(0))
				snap.HPA.Spec.MaxReplicas = 10
				snap.Pods, snap.PodMetrics = nil, nil
				return snap
			},
			observe:    obsOutcome,
			wantBefore: "Rescale, desired 3",
			wantAfter:  "ScalingDisabled, desired 0",
		},
		{
			// HPAScaleToZero on by default from v1.37: every rescale writes
			// the ScaledToZero condition.
			field: "ScaledToZero", before: "v1.36.3", after: "v1.37.2",
			snap:       func() *Snapshot { return cpuSnapshot(50, 4, repeat(4, 900)...) },
			observe:    obsCondition("ScaledToZero"),
			wantBefore: "no ScaledToZero condition",
			wantAfter:  "False/NotScaledToZero",
		},
		{
			field: "ObservedGeneration", before: "v1.36.3", after: "v1.37.2",
			snap: func() *Snapshot {
				snap := cpuSnapshot(50, 4, repeat(4, 500)...)
				snap.HPA.Generation = 7
				return snap
			},
			observe: func(d *explain.Decision) string {
				if d.Status.ObservedGeneration == nil {
					return "no observedGeneration"
				}
				return fmt.Sprintf("observedGeneration %d", *d.Status.ObservedGeneration)
			},
			wantBefore: "no observedGeneration",
			wantAfter:  "observedGeneration 7",
		},
		{
			field: "AmbiguousSelectorMoreThanOne", before: "v1.36.3", after: "v1.37.2",
			gates: gates(profile.HPAScaleToZero, false),
			snap: func() *Snapshot {
				snap := cpuSnapshot(50, 2, 500, 500)
				snap.OtherHPAs = []HPASelector{{Namespace: "ns", Name: "api", Selector: "app=web"}, {Namespace: "ns", Name: "batch", Selector: "app"}}
				return snap
			},
			// The wording only: the list's length is AmbiguousSelectorLimit.
			observe: func(d *explain.Decision) string {
				msg, _, _ := strings.Cut(obsEvent("AmbiguousSelector")(d), "[")
				return msg
			},
			wantBefore: "pods by selector app=web are controlled by multiple HPAs: ",
			wantAfter:  "pods by selector app=web are controlled by more than one HPA (e.g. ",
		},
		{
			field: "ObjectMetricErrorReordered", before: "v1.36.3", after: "v1.37.2",
			gates: gates(profile.HPAScaleToZero, false),
			snap: func() *Snapshot {
				snap := cpuSnapshot(50, 2, 500, 500)
				withMetric(snap, autoscalingv2.MetricSpec{
					Type: autoscalingv2.ObjectMetricSourceType,
					Object: &autoscalingv2.ObjectMetricSource{
						DescribedObject: autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "Service", Name: "front"},
						Metric:          autoscalingv2.MetricIdentifier{Name: "rps"},
						Target:          autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(resource.MustParse("10"))},
					},
				})
				return snap
			},
			observe: obsEvent("FailedGetObjectMetric"),
			wantBefore: "unable to get metric rps: Service on ns front/unable to fetch metrics from custom metrics API: " +
				"the custom metrics API server returned 0 results when we asked for exactly one",
			wantAfter: "unable to get metric rps on Service ns/front: unable to fetch metrics from custom metrics API: " +
				"the custom metrics API server returned 0 results when we asked for exactly one",
		},
	}
}

// TestSwitchContainerResourceMetricsOff is the v1.29 gate switched off: the
// metric fails with no event and an empty condition, as upstream's
// computeReplicasForMetric returns a zero condition for it.
func TestSwitchContainerResourceMetricsOff(t *testing.T) {
	on := replayWith(t, containerSnapshot("app"), mustProfile(t, "v1.29.15", nil))
	off := replayWith(t, containerSnapshot("app"), mustProfile(t, "v1.29.15", map[profile.Gate]bool{profile.HPAContainerMetrics: false}))
	if got := obsProposal(on); got != "proposal 5" {
		t.Fatalf("gate on: %s", got)
	}
	if off.Outcome != explain.OutcomeMetricsFailed {
		t.Fatalf("gate off: outcome %s", off.Outcome)
	}
	if got := *off.Metrics[0].Error; got != "ContainerResource metric type is not supported: disabled by the feature gate" {
		t.Errorf("gate off: error %q", got)
	}
	for _, e := range off.Events {
		if e.Reason != "FailedComputeMetricsReplicas" {
			t.Errorf("gate off: unexpected event %+v", e)
		}
	}
	found := false
	for _, c := range off.Conditions {
		found = found || (c.Type == "" && c.Status == "" && c.Reason == "")
	}
	if !found {
		t.Errorf("gate off: no empty condition in %+v", off.Conditions)
	}
	// The mutation check: the switch alone makes the difference.
	p := mustProfile(t, "v1.29.15", nil)
	p.Switches.ContainerResourceMetrics = false
	if got := replayWith(t, containerSnapshot("app"), p); got.Outcome != explain.OutcomeMetricsFailed {
		t.Errorf("switch off alone: outcome %s", got.Outcome)
	}
}

func TestAmbiguousSelectorLimit(t *testing.T) {
	snap := func() *Snapshot {
		s := cpuSnapshot(50, 2, 500, 500)
		s.OtherHPAs = []HPASelector{{Namespace: "ns", Name: "api", Selector: "app=web"}, {Namespace: "ns", Name: "batch", Selector: "app"}}
		return s
	}
	// Without HPAOptimizedSelectorStore v1.37 keeps the legacy tracker,
	// which names every HPA, in the new wording.
	p := mustProfile(t, "v1.37.2", map[profile.Gate]bool{profile.HPAOptimizedSelectorStore: false})
	got := obsEvent("AmbiguousSelector")(replayWith(t, snap(), p))
	if want := "pods by selector app=web are controlled by more than one HPA (e.g. [ns/api ns/batch ns/web])"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestScaleUpdateOutcome(t *testing.T) {
	old := mustProfile(t, "v1.33.13", nil).Switches
	cur := mustProfile(t, "v1.34.4", nil).Switches
	for _, c := range []struct {
		results       []string
		wantOld, want string
	}{
		{nil, "", ""},
		{[]string{"ok"}, "", ""},
		{[]string{"conflict", "ok"}, scaleConflictMessage, ""},
		{[]string{"conflict"}, scaleConflictMessage, scaleConflictMessage},
		{[]string{"conflict", "conflict", "conflict", "conflict", "ok"}, scaleConflictMessage, ""},
		{[]string{"conflict", "error:boom"}, scaleConflictMessage, "boom"},
		{[]string{"error:boom"}, "boom", "boom"},
	} {
		if got := ScaleUpdateOutcome(c.results, old); got != c.wantOld {
			t.Errorf("v1.33 %v: %q, want %q", c.results, got, c.wantOld)
		}
		if got := ScaleUpdateOutcome(c.results, cur); got != c.want {
			t.Errorf("v1.34 %v: %q, want %q", c.results, got, c.want)
		}
	}
}

// TestAmd64Conversions checks the conversion helpers against the native
// conversion, which is the reference on amd64 only.
func TestAmd64Conversions(t *testing.T) {
	values := []float64{0, 1.5, -1.5, 2147483647, 2147483647.5, 2147483648, -2147483648, -2147483648.5, -2147483649, 3e9, -3e9, 1e19, -1e19, 9.2233720368547748e18, -9.2233720368547758e18, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, f := range values {
		want32 := int32(math.MinInt32)
		if !math.IsNaN(f) && f > -2147483649 && f < 2147483648 {
			want32 = int32(f)
		}
		if got := toInt32(f); got != want32 {
			t.Errorf("toInt32(%v) = %d, want %d", f, got, want32)
		}
		if nativeAmd64 {
			if got, native := toInt32(f), int32Native(f); got != native {
				t.Errorf("toInt32(%v) = %d, native amd64 conversion %d", f, got, native)
			}
			if got, native := toInt64(f), int64Native(f); got != native {
				t.Errorf("toInt64(%v) = %d, native amd64 conversion %d", f, got, native)
			}
		}
	}
	if !nativeAmd64 {
		t.Log("not on amd64: the comparison with the native conversion is skipped (it is the reference only on amd64)")
	}
	if got := ceilInt32(2147483647.5); got != math.MinInt32 {
		t.Errorf("ceilInt32(2147483647.5) = %d", got)
	}
}

//go:noinline
func int32Native(f float64) int32 { return int32(f) }

//go:noinline
func int64Native(f float64) int64 { return int64(f) }

// nativeAmd64 is true where int32(f) is the controller's own conversion.
var nativeAmd64 = runtime.GOARCH == "amd64"
