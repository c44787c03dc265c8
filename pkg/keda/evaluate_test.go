// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// t0 is the poll instant of the table tests.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// object builds a ScaledObject "ns/web" on Deployment web, created an hour
// before t0, with the given triggers; opts edit it.
func object(triggers []ScaleTrigger, opts ...func(*ScaledObject)) *ScaledObject {
	so := &ScaledObject{}
	so.Name, so.Namespace = "web", "ns"
	so.CreationTimestamp = metav1.NewTime(t0.Add(-time.Hour))
	so.Spec.ScaleTargetRef = &ScaleTarget{Name: "web"}
	so.Spec.Triggers = triggers
	for _, o := range opts {
		o(so)
	}
	return so
}

// metricsAPI is a metrics-api trigger with target 10 and the given
// activation threshold ("" leaves the default 0).
func metricsAPI(activation string) ScaleTrigger {
	md := map[string]string{"url": "http://svc/", "valueLocation": "queue.length", "targetValue": "10"}
	if activation != "" {
		md["activationTargetValue"] = activation
	}
	return ScaleTrigger{Type: TypeMetricsAPI, Metadata: md}
}

func withMin(n int32) func(*ScaledObject) {
	return func(so *ScaledObject) { so.Spec.MinReplicaCount = &n }
}

func withIdle(n int32) func(*ScaledObject) {
	return func(so *ScaledObject) { so.Spec.IdleReplicaCount = &n }
}

func withCooldown(n int32) func(*ScaledObject) {
	return func(so *ScaledObject) { so.Spec.CooldownPeriod = &n }
}

func withInitialCooldown(n int32) func(*ScaledObject) {
	return func(so *ScaledObject) { so.Spec.InitialCooldownPeriod = &n }
}

func withLastActive(t time.Time) func(*ScaledObject) {
	return func(so *ScaledObject) { so.Status.LastActiveTime = &metav1.Time{Time: t} }
}

func withAnnotation(k, v string) func(*ScaledObject) {
	return func(so *ScaledObject) {
		if so.Annotations == nil {
			so.Annotations = map[string]string{}
		}
		so.Annotations[k] = v
	}
}

func withFallback(threshold, replicas int32, behavior string) func(*ScaledObject) {
	return func(so *ScaledObject) {
		so.Spec.Fallback = &Fallback{FailureThreshold: threshold, Replicas: replicas, Behavior: behavior}
	}
}

func withHealth(metric string, n int32, status string) func(*ScaledObject) {
	return func(so *ScaledObject) {
		if so.Status.Health == nil {
			so.Status.Health = map[string]HealthStatus{}
		}
		so.Status.Health[metric] = HealthStatus{NumberOfFailures: &n, Status: status}
	}
}

func value(v float64) TriggerResult { return TriggerResult{Value: &v} }

// eval runs Evaluate at t0 with v2.21 and fails the test on an error.
func eval(t *testing.T, so *ScaledObject, current int32, results ...TriggerResult) *explain.KEDA {
	t.Helper()
	k, err := Evaluate(Input{ScaledObject: so, Now: t0, CurrentReplicas: current, Triggers: results})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// outcome is what the table tests compare of a result.
type outcome struct {
	Active      bool
	Reason      explain.KEDAReason
	ScaleTo     *int32
	After       int32
	ScaleToZero *time.Time
}

func outcomeOf(k *explain.KEDA) outcome {
	return outcome{Active: k.Active, Reason: k.Reason, ScaleTo: k.KEDAScaleTo, After: k.ReplicasAfterKEDA, ScaleToZero: k.ScaleToZeroAt}
}

// TestActivation covers the activation rules: strict thresholds per
// scaler, cpu/memory, force-activation, errors.
func TestActivation(t *testing.T) {
	cpu := ScaleTrigger{Type: TypeCPU, MetricType: "Utilization", Metadata: map[string]string{"value": "50"}}
	workload := ScaleTrigger{Type: TypeKubernetesWorkload, Metadata: map[string]string{"podSelector": "app=x", "value": "2", "activationValue": "3"}}
	resourceT := ScaleTrigger{Type: TypeKubernetesResource, Metadata: map[string]string{"resourceKind": "ConfigMap", "resourceName": "c", "key": "k", "targetValue": "4", "activationTargetValue": "1.5"}}
	for _, tc := range []struct {
		name    string
		so      *ScaledObject
		current int32
		results []TriggerResult
		want    outcome
	}{
		{
			"value equal to activationTargetValue is inactive (strict >)", object([]ScaleTrigger{metricsAPI("5")}), 0,
			[]TriggerResult{value(5)},
			outcome{Reason: explain.KEDAReasonInactive},
		},
		{
			"value above activationTargetValue scales 0 → 1", object([]ScaleTrigger{metricsAPI("5")}), 0,
			[]TriggerResult{value(5.001)},
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(1)), After: 1},
		},
		{
			"default activation 0: value 0 is inactive", object([]ScaleTrigger{metricsAPI("")}), 0,
			[]TriggerResult{value(0)},
			outcome{Reason: explain.KEDAReasonInactive},
		},
		{
			"negative value below the default activation", object([]ScaleTrigger{metricsAPI("")}), 0,
			[]TriggerResult{value(-3)},
			outcome{Reason: explain.KEDAReasonInactive},
		},
		{
			"kubernetes-workload: 3 pods ≤ activationValue 3", object([]ScaleTrigger{workload}), 0,
			[]TriggerResult{value(3)},
			outcome{Reason: explain.KEDAReasonInactive},
		},
		{
			"kubernetes-workload: 4 pods > 3 scales to minReplicaCount", object([]ScaleTrigger{workload}, withMin(2)), 0,
			[]TriggerResult{value(4)},
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(2)), After: 2},
		},
		{
			"kubernetes-resource: 1.5 ≤ 1.5", object([]ScaleTrigger{resourceT}), 0,
			[]TriggerResult{value(1.5)},
			outcome{Reason: explain.KEDAReasonInactive},
		},
		{
			"any active trigger activates", object([]ScaleTrigger{metricsAPI("5"), workload}), 0,
			[]TriggerResult{value(1), value(9)},
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(1)), After: 1},
		},
		{
			"cpu-only objects are always active", object([]ScaleTrigger{cpu}, withMin(1)), 3,
			nil,
			outcome{Active: true, Reason: explain.KEDAReasonActive, After: 3},
		},
		{
			"cpu never counts next to an inactive external trigger", object([]ScaleTrigger{cpu, metricsAPI("5")}, withLastActive(t0.Add(-time.Hour))), 4,
			[]TriggerResult{{}, value(1)},
			outcome{Reason: explain.KEDAReasonInactive, ScaleTo: ptr(int32(0)), After: 0},
		},
		{
			"force-activation with inactive triggers", object([]ScaleTrigger{metricsAPI("5")}, withAnnotation(AnnotationForceActivation, "true")), 0,
			[]TriggerResult{value(0)},
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(1)), After: 1},
		},
		{
			"force-activation with a non-boolean value counts as true", object([]ScaleTrigger{metricsAPI("5")}, withAnnotation(AnnotationForceActivation, "yes")), 0,
			[]TriggerResult{value(0)},
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(1)), After: 1},
		},
		{
			"force-activation false", object([]ScaleTrigger{metricsAPI("5")}, withAnnotation(AnnotationForceActivation, "false")), 0,
			[]TriggerResult{value(0)},
			outcome{Reason: explain.KEDAReasonInactive},
		},
		{
			"a trigger in error without fallback never scales to zero", object([]ScaleTrigger{metricsAPI("5")}, withLastActive(t0.Add(-time.Hour))), 4,
			[]TriggerResult{{Error: "connection refused"}},
			outcome{Reason: explain.KEDAReasonError, After: 4},
		},
		{"an active trigger next to a failing one: active, nothing written", object([]ScaleTrigger{metricsAPI("5"), metricsAPI("5")}, func(so *ScaledObject) {
			so.Spec.Triggers[1].Metadata = map[string]string{"url": "http://b/", "valueLocation": "b", "targetValue": "1"}
		}), 4, []TriggerResult{value(9), {Error: "timeout"}}, outcome{Active: true, Reason: explain.KEDAReasonActive, After: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := eval(t, tc.so, tc.current, tc.results...)
			if diff := cmp.Diff(tc.want, outcomeOf(k)); diff != "" {
				t.Errorf("(-want +got):\n%s\nsteps: %v", diff, k.Steps)
			}
		})
	}
}

// TestScaleSteps covers KEDA's own scale steps: from zero or idle, the
// cooldown (strict, from lastActiveTime or from creation), the jump to
// zero or idle, below minReplicaCount, and what is left to the HPA.
func TestScaleSteps(t *testing.T) {
	inactive := []TriggerResult{value(0)}
	active := []TriggerResult{value(9)}
	trig := []ScaleTrigger{metricsAPI("5")}
	for _, tc := range []struct {
		name    string
		so      *ScaledObject
		current int32
		results []TriggerResult
		want    outcome
	}{
		{
			"cooldown runs: 6 stays, scale to zero at lastActive + 30 s", object(trig, withCooldown(30), withLastActive(t0.Add(-10*time.Second))), 6, inactive,
			outcome{Reason: explain.KEDAReasonCooldown, After: 6, ScaleToZero: ptr(t0.Add(20 * time.Second))},
		},
		{
			"cooldown ends exactly now: still cooling (strict)", object(trig, withCooldown(30), withLastActive(t0.Add(-30*time.Second))), 6, inactive,
			outcome{Reason: explain.KEDAReasonCooldown, After: 6, ScaleToZero: ptr(t0)},
		},
		{
			"cooldown ended 1 ns ago: 6 → 0 at once", object(trig, withCooldown(30), withLastActive(t0.Add(-30*time.Second-1))), 6, inactive,
			outcome{Reason: explain.KEDAReasonInactive, ScaleTo: ptr(int32(0)), After: 0},
		},
		{
			"default cooldown 300 s", object(trig, withLastActive(t0.Add(-299*time.Second))), 6, inactive,
			outcome{Reason: explain.KEDAReasonCooldown, After: 6, ScaleToZero: ptr(t0.Add(time.Second))},
		},
		{
			"never active: initialCooldownPeriod from creation (default 0)", object(trig), 3, inactive,
			outcome{Reason: explain.KEDAReasonInactive, ScaleTo: ptr(int32(0)), After: 0},
		},
		{
			"never active: initialCooldownPeriod 7200 s holds", object(trig, withInitialCooldown(7200)), 3, inactive,
			outcome{Reason: explain.KEDAReasonCooldown, After: 3, ScaleToZero: ptr(t0.Add(time.Hour))},
		},
		{
			"idle: inactive above idle goes to idle after the cooldown", object(trig, withMin(3), withIdle(0), withLastActive(t0.Add(-time.Hour))), 7, inactive,
			outcome{Reason: explain.KEDAReasonInactive, ScaleTo: ptr(int32(0)), After: 0},
		},
		{
			"idle: inactive below min but above idle still goes to idle", object(trig, withMin(5), withIdle(1), withLastActive(t0.Add(-time.Hour))), 3, inactive,
			outcome{Reason: explain.KEDAReasonInactive, ScaleTo: ptr(int32(1)), After: 1},
		},
		{
			"idle: active at idle jumps to min", object(trig, withMin(5), withIdle(0)), 0, active,
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(5)), After: 5},
		},
		{
			"idle: active between idle and min jumps to min", object(trig, withMin(5), withIdle(1)), 3, active,
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(5)), After: 5},
		},
		{
			"min 2: inactive below min is set to min at once (no cooldown)", object(trig, withMin(2), withLastActive(t0)), 1, inactive,
			outcome{Reason: explain.KEDAReasonInactive, ScaleTo: ptr(int32(2)), After: 2},
		},
		{
			"min 2: inactive above min is the HPA's (cooldown does not apply)", object(trig, withMin(2), withLastActive(t0.Add(-time.Hour))), 6, inactive,
			outcome{Reason: explain.KEDAReasonInactive, After: 6},
		},
		{"inactive at zero: nothing to do", object(trig), 0, inactive, outcome{Reason: explain.KEDAReasonInactive}},
		{
			"min 3: active at 1 is the HPA's (it raises to min itself)", object(trig, withMin(3)), 1, active,
			outcome{Active: true, Reason: explain.KEDAReasonActive, After: 1},
		},
		{
			"min 3: active at 0 jumps to 3", object(trig, withMin(3)), 0, active,
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(3)), After: 3},
		},
		{"active above zero: the HPA decides", object(trig), 6, active, outcome{Active: true, Reason: explain.KEDAReasonActive, After: 6}},
		{
			"paused-scale-in blocks the step to zero", object(trig, withAnnotation(AnnotationPausedScaleIn, "true"), withLastActive(t0.Add(-time.Hour))), 6, inactive,
			outcome{Reason: explain.KEDAReasonPaused, After: 6},
		},
		{
			"paused-scale-out blocks the step from zero", object(trig, withAnnotation(AnnotationPausedScaleOut, "1")), 0, active,
			outcome{Active: true, Reason: explain.KEDAReasonPaused},
		},
		{
			"paused-scale-in does not block activation", object(trig, withAnnotation(AnnotationPausedScaleIn, "true")), 0, active,
			outcome{Active: true, Reason: explain.KEDAReasonActive, ScaleTo: ptr(int32(1)), After: 1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := eval(t, tc.so, tc.current, tc.results...)
			got := outcomeOf(k)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nsteps: %v", diff, k.Steps)
			}
		})
	}
}

// TestLastActiveTime: refreshed when active above zero and after a scale
// from zero; not on a partial error, not while inactive.
func TestLastActiveTime(t *testing.T) {
	old := t0.Add(-time.Hour)
	two := []ScaleTrigger{metricsAPI("5"), metricsAPI("5")}
	two[1].Metadata = map[string]string{"url": "http://b/", "valueLocation": "b", "targetValue": "1"}
	for _, tc := range []struct {
		name    string
		so      *ScaledObject
		current int32
		results []TriggerResult
		want    time.Time
	}{
		{"active above zero", object([]ScaleTrigger{metricsAPI("5")}, withLastActive(old)), 3, []TriggerResult{value(9)}, t0},
		{"scale from zero", object([]ScaleTrigger{metricsAPI("5")}, withLastActive(old)), 0, []TriggerResult{value(9)}, t0},
		{"inactive", object([]ScaleTrigger{metricsAPI("5")}, withLastActive(old)), 3, []TriggerResult{value(1)}, old},
		{"active with a partial error", object(two, withLastActive(old)), 3, []TriggerResult{value(9), {Error: "x"}}, old},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := eval(t, tc.so, tc.current, tc.results...)
			if k.LastActiveTimeAfter == nil || !k.LastActiveTimeAfter.Equal(tc.want) {
				t.Errorf("lastActiveTime after = %v, want %v", k.LastActiveTimeAfter, tc.want)
			}
		})
	}
}

// TestErrorsAndFallback: what a trigger error does with and without a
// fallback, the failure counts, the values the HPA reads.
func TestErrorsAndFallback(t *testing.T) {
	const m = "s0-metric-api-queue-length"
	trig := []ScaleTrigger{metricsAPI("5")}
	old := withLastActive(t0.Add(-time.Hour))
	for _, tc := range []struct {
		name      string
		so        *ScaledObject
		current   int32
		want      outcome
		failures  int32
		hpaValue  string
		hpaErr    bool
		fbActive  bool
		condition string
	}{
		{
			"no fallback: error, nothing written", object(trig, old), 4,
			outcome{Reason: explain.KEDAReasonError, After: 4},
			0, "", true, false, "False",
		},
		{
			"fallback below threshold: waits, counts", object(trig, old, withFallback(3, 6, ""), withHealth(m, 1, HealthFailing)), 4,
			outcome{Reason: explain.KEDAReasonError, After: 4},
			2, "", true, false, "False",
		},
		{
			"fallback at threshold after this poll: no fallback yet", object(trig, old, withFallback(3, 6, ""), withHealth(m, 2, HealthFailing)), 4,
			outcome{Reason: explain.KEDAReasonError, After: 4},
			3, "60", false, false, "False",
		},
		{
			"fallback past threshold: active, static value", object(trig, old, withFallback(3, 6, ""), withHealth(m, 3, HealthFailing)), 4,
			outcome{Active: true, Reason: explain.KEDAReasonFallback, After: 4},
			4, "60", false, true, "True",
		},
		{
			"fallback from zero: scales to 1 (the HPA then computes the fallback)", object(trig, old, withFallback(0, 6, "")), 0,
			outcome{Active: true, Reason: explain.KEDAReasonFallback, ScaleTo: ptr(int32(1)), After: 1},
			1, "60", false, true, "True",
		},
		{
			"fallback.replicas 0: an error can scale to zero", object(trig, old, withFallback(3, 0, "")), 4,
			outcome{Reason: explain.KEDAReasonError, ScaleTo: ptr(int32(0)), After: 0},
			1, "", true, false, "False",
		},
		{
			"currentReplicasIfHigher: max(4, 2)", object(trig, old, withFallback(0, 2, FallbackCurrentReplicasIfHigher)), 4,
			outcome{Active: true, Reason: explain.KEDAReasonFallback, After: 4},
			1, "40", false, true, "True",
		},
		{
			"currentReplicasIfLower: min(4, 2)", object(trig, old, withFallback(0, 2, FallbackCurrentReplicasIfLower)), 4,
			outcome{Active: true, Reason: explain.KEDAReasonFallback, After: 4},
			1, "20", false, true, "True",
		},
		{
			"currentReplicas: 4", object(trig, old, withFallback(0, 2, FallbackCurrentReplicas)), 4,
			outcome{Active: true, Reason: explain.KEDAReasonFallback, After: 4},
			1, "40", false, true, "True",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := eval(t, tc.so, tc.current, TriggerResult{Error: "connection refused"})
			if diff := cmp.Diff(tc.want, outcomeOf(k)); diff != "" {
				t.Errorf("(-want +got):\n%s\nsteps: %v", diff, k.Steps)
			}
			if k.Fallback != nil {
				if len(k.Fallback.Metrics) != 1 || k.Fallback.Metrics[0].FailuresAfter != tc.failures || k.Fallback.Active != tc.fbActive {
					t.Errorf("fallback = %+v, want %d failures, active %v", k.Fallback, tc.failures, tc.fbActive)
				}
			}
			if c := findCondition(k, "Fallback"); c == nil || c.Status != tc.condition {
				t.Errorf("Fallback condition = %+v, want %s", c, tc.condition)
			}
			if len(k.HPAMetrics) != 1 {
				t.Fatalf("HPA metrics = %+v", k.HPAMetrics)
			}
			mv := k.HPAMetrics[0]
			if (mv.Error != "") != tc.hpaErr || tc.hpaValue != "" && (mv.Value == nil || mv.Value.String() != tc.hpaValue) {
				t.Errorf("HPA metric = %+v, want value %q error %v", mv, tc.hpaValue, tc.hpaErr)
			}
		})
	}
}

// TestFallbackValue: target × replicas, ÷ ready pods for Value targets,
// truncated to milli-units; errors without ready pods.
func TestFallbackValue(t *testing.T) {
	so := object([]ScaleTrigger{metricsAPI("")}, withFallback(1, 3, ""))
	for _, tc := range []struct {
		name    string
		target  string
		value   bool
		ready   *int32
		want    string
		wantErr bool
	}{
		{"AverageValue 10 × 3", "10", false, nil, "30", false},
		{"AverageValue 0.333 × 3", "333m", false, nil, "999m", false},
		{"Value 10 × 3 ÷ 4 ready", "10", true, ptr(int32(4)), "7500m", false},
		{"Value 1 × 3 ÷ 7 ready truncates", "1", true, ptr(int32(7)), "428m", false},
		{"Value with no ready pod", "10", true, ptr(int32(0)), "", true},
		{"Value with ready pods unknown", "10", true, nil, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target, err := externalTarget("AverageValue", 0)
			if err != nil {
				t.Fatal(err)
			}
			q := mustQuantity(t, tc.target)
			if tc.value {
				target.Type, target.Value, target.AverageValue = "Value", &q, nil
			} else {
				target.AverageValue = &q
			}
			got, err := FallbackValue(so, FallbackInput{Target: target, CurrentReplicas: 2, ReadyReplicas: tc.ready})
			if (err != nil) != tc.wantErr || err == nil && got.String() != tc.want {
				t.Errorf("FallbackValue = %s, %v; want %s (error %v)", got.String(), err, tc.want, tc.wantErr)
			}
		})
	}
}

// TestHPAObservationSwitch: from v2.21 a poll that reuses the HPA's
// observation does not count a failure itself; v2.20 does.
func TestHPAObservationSwitch(t *testing.T) {
	const m = "s0-metric-api-queue-length"
	so := object([]ScaleTrigger{metricsAPI("5")}, withMin(1), withFallback(3, 6, ""), withHealth(m, 3, HealthFailing))
	so.Status.HpaName = "keda-hpa-web"
	for _, tc := range []struct {
		version  string
		source   string
		failures int32
		reason   explain.KEDAReason
	}{
		{"v2.20.2", explain.KEDASourcePoll, 4, explain.KEDAReasonFallback},
		{"v2.21.0", explain.KEDASourceHPAObservation, 3, explain.KEDAReasonError},
	} {
		t.Run(tc.version, func(t *testing.T) {
			k, err := Evaluate(Input{
				ScaledObject: so, Now: t0, CurrentReplicas: 2, Version: MustParseVersion(tc.version),
				HPACondition: &HPACondition{Status: "True"}, Triggers: []TriggerResult{{Error: "timeout"}},
			})
			if err != nil {
				t.Fatal(err)
			}
			if k.Polling.Source != tc.source || k.Fallback.Metrics[0].FailuresAfter != tc.failures || k.Reason != tc.reason {
				t.Errorf("source %s, failures %d, reason %s; want %s, %d, %s", k.Polling.Source, k.Fallback.Metrics[0].FailuresAfter, k.Reason, tc.source, tc.failures, tc.reason)
			}
		})
	}
}

// TestScaleErrorSwitch: a failing scale update sets Ready=False from v2.21
// only; the workload keeps its replicas either way.
func TestScaleErrorSwitch(t *testing.T) {
	so := object([]ScaleTrigger{metricsAPI("5")})
	for _, tc := range []struct{ version, ready string }{{"v2.20.2", "True"}, {"v2.21.0", "False"}} {
		t.Run(tc.version, func(t *testing.T) {
			k, err := Evaluate(Input{
				ScaledObject: so, Now: t0, CurrentReplicas: 0, Version: MustParseVersion(tc.version),
				ScaleUpdateError: "conflict", Triggers: []TriggerResult{value(9)},
			})
			if err != nil {
				t.Fatal(err)
			}
			if c := findCondition(k, "Ready"); c.Status != tc.ready || k.KEDAScaleTo != nil || k.ReplicasAfterKEDA != 0 {
				t.Errorf("Ready %s, scale to %v, after %d", c.Status, k.KEDAScaleTo, k.ReplicasAfterKEDA)
			}
			if len(k.Events) != 1 || k.Events[0].Reason != "KEDAScaleTargetActivationFailed" || strings.HasSuffix(k.Events[0].Message, "conflict") != (tc.version == "v2.21.0") {
				t.Errorf("events = %+v", k.Events)
			}
		})
	}
}

// TestMetricsAPIAuthSwitch: v2.21 rejects the auth modes metrics-api never
// applies; v2.20 accepts them.
func TestMetricsAPIAuthSwitch(t *testing.T) {
	tr := metricsAPI("")
	tr.Metadata["authModes"] = "oauth"
	so := object([]ScaleTrigger{tr})
	for _, tc := range []struct {
		version string
		reason  explain.KEDAReason
	}{{"v2.20.2", explain.KEDAReasonInactive}, {"v2.21.0", explain.KEDAReasonError}} {
		k, err := Evaluate(Input{ScaledObject: so, Now: t0, Version: MustParseVersion(tc.version), Triggers: []TriggerResult{value(0)}})
		if err != nil {
			t.Fatal(err)
		}
		if k.Reason != tc.reason {
			t.Errorf("%s: reason %s, want %s (%s)", tc.version, k.Reason, tc.reason, k.Summary)
		}
	}
}

// TestSwitches checks that every switch is set per minor as documented and
// that each is exercised by a test above.
func TestSwitches(t *testing.T) {
	if got := MustParseVersion("v2.20").Switches(); got != (Switches{}) {
		t.Errorf("v2.20 switches = %+v, want none", got)
	}
	want := Switches{HPAObservations: true, ScaleErrorSetsReady: true, MetricsAPIAuthModesRestricted: true}
	if got := MustParseVersion("2.21.0").Switches(); got != want {
		t.Errorf("v2.21 switches = %+v, want %+v", got, want)
	}
}

// TestPause: the pause annotations as KEDA parses them, and what a paused
// object does.
func TestPause(t *testing.T) {
	trig := []ScaleTrigger{metricsAPI("5")}
	for _, tc := range []struct {
		name      string
		so        *ScaledObject
		current   int32
		paused    bool
		scaleTo   *int32
		after     int32
		ready     string
		hpaActs   bool
		hpaResult bool
	}{
		{"paused true", object(trig, withAnnotation(AnnotationPaused, "true")), 4, true, nil, 4, "True", false, false},
		{"paused with a non-boolean value", object(trig, withAnnotation(AnnotationPaused, "please")), 4, true, nil, 4, "True", false, false},
		{"paused false", object(trig, withAnnotation(AnnotationPaused, "false")), 4, false, nil, 4, "True", true, true},
		{"paused-replicas sets the count", object(trig, withAnnotation(AnnotationPausedReplicas, "2")), 4, true, ptr(int32(2)), 2, "True", false, false},
		{"paused-replicas equal to current writes nothing", object(trig, withAnnotation(AnnotationPausedReplicas, "4")), 4, true, nil, 4, "True", false, false},
		{"paused-replicas pauses even with paused=false", object(trig, withAnnotation(AnnotationPaused, "false"), withAnnotation(AnnotationPausedReplicas, "0")), 4, true, ptr(int32(0)), 0, "True", false, false},
		{"paused-replicas not an int32: paused, error", object(trig, withAnnotation(AnnotationPausedReplicas, "two")), 4, true, nil, 4, "False", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := eval(t, tc.so, tc.current, value(9))
			if k.Pause.Paused != tc.paused || (k.Reason == explain.KEDAReasonPaused) != tc.paused || k.HPAActs != tc.hpaActs ||
				!cmp.Equal(k.KEDAScaleTo, tc.scaleTo) || k.ReplicasAfterKEDA != tc.after {
				t.Errorf("paused %v reason %s acts %v scaleTo %v after %d", k.Pause.Paused, k.Reason, k.HPAActs, fmtPtr(k.KEDAScaleTo), k.ReplicasAfterKEDA)
			}
			if c := findCondition(k, "Ready"); c == nil || c.Status != tc.ready {
				t.Errorf("Ready = %+v, want %s", c, tc.ready)
			}
			res, err := BuildHPA(tc.so, Newest(), nil)
			if err != nil || (res.HPA != nil) != tc.hpaResult {
				t.Errorf("BuildHPA = %+v, %v", res, err)
			}
			// Combine never asks a deleted HPA.
			n, err := Combine(k, func(int32) (int32, error) { return 99, nil })
			if err != nil || tc.hpaActs != (n == 99) {
				t.Errorf("Combine = %d, %v", n, err)
			}
		})
	}
}

// TestCombine: the HPA acts from what KEDA leaves.
func TestCombine(t *testing.T) {
	k := eval(t, object([]ScaleTrigger{metricsAPI("5")}, withMin(2)), 0, value(9))
	var seen int32 = -1
	n, err := Combine(k, func(r int32) (int32, error) { seen = r; return r + 3, nil })
	if err != nil || seen != 2 || n != 5 || *k.Replicas != 5 {
		t.Errorf("Combine = %d, %v (HPA asked at %d)", n, err, seen)
	}
	if _, err := Combine(k, nil); err == nil {
		t.Error("Combine without an HPA replay: no error")
	}
	if _, err := Combine(k, func(int32) (int32, error) { return 0, errors.New("boom") }); err == nil {
		t.Error("Combine: the HPA's error is lost")
	}
}

// TestFormula covers scalingModifiers: the composite value, activation
// above activationTarget (strict), its errors, and the HPA metric.
func TestFormula(t *testing.T) {
	a := metricsAPI("")
	a.Name = "queue"
	b := ScaleTrigger{Type: TypeKubernetesWorkload, Name: "pods", Metadata: map[string]string{"podSelector": "app=x", "value": "1"}}
	mods := func(formula, target, activation string) func(*ScaledObject) {
		return func(so *ScaledObject) {
			so.Spec.Advanced = &AdvancedConfig{ScalingModifiers: ScalingModifiers{Formula: formula, Target: target, ActivationTarget: activation}}
		}
	}
	for _, tc := range []struct {
		name     string
		opts     []func(*ScaledObject)
		results  []TriggerResult
		current  int32
		active   bool
		reason   explain.KEDAReason
		value    float64
		hpaValue string
	}{
		{"sum above activation", []func(*ScaledObject){mods("queue + pods", "5", "10")}, []TriggerResult{value(7), value(4)}, 0, true, explain.KEDAReasonActive, 11, "11"},
		{"sum equal to activation is inactive", []func(*ScaledObject){mods("queue + pods", "5", "11")}, []TriggerResult{value(7), value(4)}, 0, false, explain.KEDAReasonInactive, 11, "11"},
		{"ternary is cast to float", []func(*ScaledObject){mods("queue > 5 ? 1 : 0", "1", "")}, []TriggerResult{value(7), value(4)}, 0, true, explain.KEDAReasonActive, 1, "1"},
		{"triggers' own thresholds do not count", []func(*ScaledObject){mods("queue - pods", "1", "")}, []TriggerResult{value(3), value(3)}, 0, false, explain.KEDAReasonInactive, 0, "0"},
		{"a failing trigger makes the object inactive", []func(*ScaledObject){mods("queue + pods", "1", "")}, []TriggerResult{value(3), {Error: "down"}}, 0, false, explain.KEDAReasonError, 0, ""},
		{
			"scalingModifiers fallback: ?? takes over",
			[]func(*ScaledObject){mods("queue ?? 50", "5", ""), withFallback(0, 3, FallbackScalingModifiers)},
			[]TriggerResult{{Error: "down"}, value(1)},
			2, true, explain.KEDAReasonActive, 50, "50",
		},
		{
			"scalingModifiers fallback: nil result is replicas × target",
			[]func(*ScaledObject){mods("queue ?? pods ?? nil", "5", ""), withFallback(0, 3, FallbackScalingModifiers)},
			[]TriggerResult{{Error: "down"}, {Error: "down"}},
			2, true, explain.KEDAReasonActive, 15, "15",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := eval(t, object([]ScaleTrigger{a, b}, tc.opts...), tc.current, tc.results...)
			if k.Active != tc.active || k.Reason != tc.reason {
				t.Errorf("active %v reason %s, want %v %s\nsteps %v", k.Active, k.Reason, tc.active, tc.reason, k.Steps)
			}
			sm := k.ScalingModifiers
			if tc.reason != explain.KEDAReasonError && (sm.Value == nil || *sm.Value != tc.value) {
				t.Errorf("composite = %v (%s), want %v", fmtPtr(sm.Value), sm.Error, tc.value)
			}
			if len(k.HPAMetrics) != 1 || k.HPAMetrics[0].MetricName != CompositeMetricName {
				t.Fatalf("HPA metrics = %+v", k.HPAMetrics)
			}
			if mv := k.HPAMetrics[0]; tc.hpaValue != "" && (mv.Value == nil || mv.Value.String() != tc.hpaValue) || tc.hpaValue == "" && mv.Error == "" {
				t.Errorf("HPA metric = %+v, want %q", mv, tc.hpaValue)
			}
		})
	}
	// Without a formula each trigger's value is compared with the target.
	k := eval(t, object([]ScaleTrigger{a, b}, mods("", "5", "6")), 0, value(7), value(1))
	if !k.Active || k.KEDAScaleTo == nil || *k.KEDAScaleTo != 1 || k.ScalingModifiers.Error != "" {
		t.Errorf("no formula: active %v, %+v", k.Active, k.ScalingModifiers)
	}
	// An unparsable activationTarget stops every poll.
	k = eval(t, object([]ScaleTrigger{a, b}, mods("queue", "5", "ten")), 3, value(7), value(1))
	if k.Reason != explain.KEDAReasonError || k.KEDAScaleTo != nil {
		t.Errorf("bad activationTarget: %s %v", k.Reason, k.Summary)
	}
	// A formula that does not compile is the controller's error.
	k = eval(t, object([]ScaleTrigger{a, b}, mods("queue +", "5", "")), 3, value(7), value(1))
	if k.Reason != explain.KEDAReasonError || !strings.Contains(k.Summary, "formula") {
		t.Errorf("bad formula: %s %v", k.Reason, k.Summary)
	}
}

// TestCron: the window [start, end) in the trigger's zone, DST included.
func TestCron(t *testing.T) {
	trig := func(start, end, tz string) ScaleTrigger {
		return ScaleTrigger{Type: TypeCron, Metadata: map[string]string{"start": start, "end": end, "timezone": tz, "desiredReplicas": "4"}}
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		tr     ScaleTrigger
		now    time.Time
		active bool
	}{
		{"inside", trig("0 8 * * *", "0 18 * * *", "UTC"), time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC), true},
		{"at the start instant", trig("0 8 * * *", "0 18 * * *", "UTC"), time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC), true},
		{"at the end instant", trig("0 8 * * *", "0 18 * * *", "UTC"), time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC), false},
		{"before", trig("0 8 * * *", "0 18 * * *", "UTC"), time.Date(2026, 3, 2, 7, 59, 59, 0, time.UTC), false},
		{"overnight window", trig("0 22 * * *", "0 6 * * *", "UTC"), time.Date(2026, 3, 2, 23, 0, 0, 0, time.UTC), true},
		{"zone: 08:30 Paris is 07:30 UTC in winter", trig("0 8 * * *", "0 18 * * *", "Europe/Paris"), time.Date(2026, 1, 5, 7, 30, 0, 0, time.UTC), true},
		{"zone: 07:30 Paris is 06:30 UTC", trig("0 8 * * *", "0 18 * * *", "Europe/Paris"), time.Date(2026, 1, 5, 6, 30, 0, 0, time.UTC), false},
		{"zone in summer (UTC+2)", trig("0 8 * * *", "0 18 * * *", "Europe/Paris"), time.Date(2026, 7, 6, 6, 30, 0, 0, time.UTC), true},
		{"CRON_TZ prefix", trig("CRON_TZ=Europe/Paris 0 8 * * *", "CRON_TZ=Europe/Paris 0 18 * * *", "UTC"), time.Date(2026, 1, 5, 7, 30, 0, 0, paris).UTC(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			so := object([]ScaleTrigger{tc.tr})
			k, err := Evaluate(Input{ScaledObject: so, Now: tc.now, LoadLocation: time.LoadLocation})
			if err != nil {
				t.Fatal(err)
			}
			tr := k.Triggers[0]
			if tr.Active != tc.active || tr.Error != "" {
				t.Errorf("active %v (%s), want %v; %+v", tr.Active, tr.Error, tc.active, tr.Schedule)
			}
			if want := map[bool]float64{true: 4, false: 0}[tc.active]; *tr.Value != want {
				t.Errorf("value %v, want %v", *tr.Value, want)
			}
		})
	}
	// Without a zone loader only UTC works; the trigger is then in error.
	k, err := Evaluate(Input{ScaledObject: object([]ScaleTrigger{trig("0 8 * * *", "0 18 * * *", "Europe/Paris")}), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(k.Triggers[0].Error, "unable to load timezone") {
		t.Errorf("no loader: %+v", k.Triggers[0])
	}
}

// TestInputErrors: bad input is an error naming the object and the field.
func TestInputErrors(t *testing.T) {
	good := func() *ScaledObject { return object([]ScaleTrigger{metricsAPI("5")}) }
	for _, tc := range []struct {
		name string
		in   Input
		want string
	}{
		{"no object", Input{Now: t0}, "ScaledObject: missing"},
		{"no now", Input{ScaledObject: good()}, `ScaledObject "ns/web": the time of the poll (now) is required`},
		{"negative replicas", Input{ScaledObject: good(), Now: t0, CurrentReplicas: -1}, `ScaledObject "ns/web": current replicas: Invalid value: -1`},
		{"too many results", Input{ScaledObject: good(), Now: t0, Triggers: make([]TriggerResult, 2)}, `2 trigger results for 1 triggers`},
		{"missing value", Input{ScaledObject: good(), Now: t0}, `trigger 0 (metrics-api): no value given for s0-metric-api-queue-length`},
		{"unsupported version", Input{ScaledObject: good(), Now: t0, Version: MustParseVersion("2.19")}, "KEDA version v2.19 is not supported"},
		{
			"pollingInterval 0",
			Input{ScaledObject: object([]ScaleTrigger{metricsAPI("")}, func(so *ScaledObject) { so.Spec.PollingInterval = ptr(int32(0)) }), Now: t0},
			`ScaledObject "ns/web": spec.pollingInterval: Invalid value: 0: should be greater than or equal to 1`,
		},
		{"min above max", Input{ScaledObject: object([]ScaleTrigger{metricsAPI("")}, withMin(101)), Now: t0}, `spec: Invalid value: minReplicaCount must be less than or equal to maxReplicaCount (101 > 100)`},
		{"no triggers", Input{ScaledObject: object(nil), Now: t0}, `spec.triggers: Invalid value: should have at least 1 items`},
		{"no target", Input{ScaledObject: object([]ScaleTrigger{metricsAPI("")}, func(so *ScaledObject) { so.Spec.ScaleTargetRef.Name = "" }), Now: t0}, `spec.scaleTargetRef.name: Required value`},
		{"bad fallback behavior", Input{ScaledObject: object([]ScaleTrigger{metricsAPI("")}, withFallback(1, 1, "always")), Now: t0}, `spec.fallback.behavior: Unsupported value: "always"`},
		{"unreplayed trigger without activity", Input{ScaledObject: object([]ScaleTrigger{{Type: "kafka"}}), Now: t0}, `trigger 0 (kafka): its scaler is not replayed; give its activity`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v, want one line containing %q", err, tc.want)
			}
		})
	}
}

// TestControllerRejects: objects a cluster can hold but KEDA's controller
// refuses: Ready=False, nothing written.
func TestControllerRejects(t *testing.T) {
	dup := []ScaleTrigger{metricsAPI(""), metricsAPI("")}
	dup[0].Name, dup[1].Name = "a", "a"
	for _, tc := range []struct {
		name string
		so   *ScaledObject
		want string
	}{
		{"idle not below min", object([]ScaleTrigger{metricsAPI("")}, withMin(2), withIdle(2)), "IdleReplicaCount=2 must be less than MinReplicaCount=2"},
		{"duplicate trigger names", object(dup), `triggerName "a" is defined multiple times`},
		{"bad scaler parameter", object([]ScaleTrigger{{Type: TypeMetricsAPI, Metadata: map[string]string{"url": "u", "valueLocation": "v", "targetValue": "ten"}}}), `unable to set param "targetValue" value "ten"`},
		{"no targetValue", object([]ScaleTrigger{{Type: TypeMetricsAPI, Metadata: map[string]string{"url": "u", "valueLocation": "v"}}}), "no targetValue given in metadata"},
		{"cached metrics on cron", object([]ScaleTrigger{{Type: TypeCron, UseCachedMetrics: true, Metadata: map[string]string{}}}), `property "useCachedMetrics" is not supported for "cron" scaler`},
		{"Utilization on an External metric", object([]ScaleTrigger{{Type: TypeMetricsAPI, MetricType: "Utilization", Metadata: map[string]string{"url": "u", "valueLocation": "v", "targetValue": "1"}}}), "'Utilization' metric type is unsupported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := Evaluate(Input{ScaledObject: tc.so, Now: t0, CurrentReplicas: 3, Triggers: []TriggerResult{value(9)}})
			if err != nil {
				t.Fatal(err)
			}
			c := findCondition(k, "Ready")
			if k.Reason != explain.KEDAReasonError || k.KEDAScaleTo != nil || c.Status != "False" || !strings.Contains(c.Message, tc.want) {
				t.Errorf("reason %s, Ready %+v; want an error containing %q", k.Reason, c, tc.want)
			}
		})
	}
}

// TestUnreplayedTriggers: activity given or from status, names from status.
func TestUnreplayedTriggers(t *testing.T) {
	so := object([]ScaleTrigger{{Type: "kafka", Metadata: map[string]string{"lagThreshold": "10"}}}, func(so *ScaledObject) {
		so.Status.ExternalMetricNames = []string{"s0-kafka-orders"}
		so.Status.TriggersActivity = map[string]TriggerActivityStatus{"s0-kafka-orders": {IsActive: true}}
	})
	k := eval(t, so, 0)
	if !k.Active || k.Triggers[0].MetricName != "s0-kafka-orders" || k.Triggers[0].ActivitySource != explain.KEDAActivityStatus || len(k.Assumptions) == 0 {
		t.Errorf("from status: %+v", k.Triggers[0])
	}
	k = eval(t, so, 0, TriggerResult{Active: ptr(false), Value: ptr(3.0)})
	if k.Active || k.Triggers[0].ActivitySource != explain.KEDAActivityGiven {
		t.Errorf("given: %+v", k.Triggers[0])
	}
	res, err := BuildHPA(so, Newest(), nil)
	if err != nil || res.HPA == nil || res.HPA.Spec.Metrics[0].External.Metric.Name != "s0-kafka-orders" || len(res.Notes) == 0 {
		t.Errorf("BuildHPA = %+v, %v", res, err)
	}
}

// TestConditionsAndEvents: the conditions and events of a scale to zero
// and of a scale from zero.
func TestConditionsAndEvents(t *testing.T) {
	so := object([]ScaleTrigger{metricsAPI("5")}, withLastActive(t0.Add(-time.Hour)))
	so.Status.ScaleTargetKind = "apps/v1.Deployment"
	k := eval(t, so, 6, value(1))
	want := []explain.KEDACondition{
		{Type: "Ready", Status: "True", Reason: reasonReady, Message: msgReady},
		{Type: "Active", Status: "False", Reason: reasonNotActive, Message: msgNotActive},
		{Type: "Fallback", Status: "False", Reason: reasonNoFallback, Message: msgNoFallback},
		{Type: "Paused", Status: "False"},
	}
	if diff := cmp.Diff(want, k.Conditions); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]explain.Event{{Type: "Normal", Reason: "KEDAScaleTargetDeactivated", Message: "Deactivated apps/v1.Deployment ns/web from 6 to 0"}}, k.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	k = eval(t, so, 0, value(9))
	if diff := cmp.Diff([]explain.Event{{Type: "Normal", Reason: "KEDAScaleTargetActivated", Message: "Scaled apps/v1.Deployment ns/web from 0 to 1, triggered by s0-metric-api-queue-length"}}, k.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestSteps: the steps carry their numbers, as the CLI prints them.
func TestSteps(t *testing.T) {
	k := eval(t, object([]ScaleTrigger{metricsAPI("5")}), 0, value(3))
	want := "s0-metric-api-queue-length = 3 ≤ activationTargetValue 5: inactive"
	if k.Steps[0].Text != want || *k.Steps[0].Value != 3 || *k.Steps[0].Threshold != 5 || k.Steps[0].Operator != "≤" {
		t.Errorf("step = %+v, want %q", k.Steps[0], want)
	}
	k = eval(t, object([]ScaleTrigger{metricsAPI("5")}, withCooldown(30), withLastActive(time.Date(2026, 1, 1, 11, 59, 50, 0, time.UTC))), 6, value(3))
	last := k.Steps[len(k.Steps)-1]
	if last.Kind != explain.KEDAStepCooldown || !strings.Contains(last.Text, "lastActiveTime 2026-01-01T11:59:50Z + cooldown 30 s = 2026-01-01T12:00:20Z: KEDA scales 6 → 0") {
		t.Errorf("cooldown step = %+v", last)
	}
}

func mustQuantity(t *testing.T, s string) resource.Quantity {
	t.Helper()
	q, err := resource.ParseQuantity(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
