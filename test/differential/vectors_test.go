// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"encoding/json"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// calcVector is the subset of a shared calculator vector this harness reads
// (pkg/engine/testdata/vectors/<version>/replica_calculator.json).
type calcVector struct {
	ID           string                `json:"id"`
	Now          time.Time             `json:"now"`
	FeatureGates map[profile.Gate]bool `json:"featureGates"`
	Controller   map[string]any        `json:"controller"`
	Calculator   struct {
		Function   string
		Tolerances *struct {
			ScaleDown float64 `json:"scaleDown"`
			ScaleUp   float64 `json:"scaleUp"`
		} `json:"tolerances"`
	} `json:"calculator"`
	HPA          *autoscalingv2.HorizontalPodAutoscaler       `json:"hpa"`
	Target       engine.Target                                `json:"target"`
	Pods         []corev1.Pod                                 `json:"pods"`
	PodMetrics   []metricsv1beta1.PodMetrics                  `json:"podMetrics"`
	Custom       []custommetricsv1beta2.MetricValue           `json:"customMetrics"`
	External     []externalmetricsv1beta1.ExternalMetricValue `json:"externalMetrics"`
	MetricErrors map[string]string                            `json:"metricErrors"`
	Expect       struct {
		MetricReplicas *int32  `json:"metricReplicas"`
		Utilization    *int32  `json:"utilization"`
		RawValueMilli  *int64  `json:"rawValueMilli"`
		UsageMilli     *int64  `json:"usageMilli"`
		Error          *string `json:"error"`
	} `json:"expect"`
}

func (v *calcVector) toCase(t *testing.T) *Case {
	set := upstreamSettings()
	gates := maps.Clone(v.FeatureGates)
	if tol := v.Calculator.Tolerances; tol != nil && tol.ScaleUp != tol.ScaleDown {
		// The calculator takes per-direction tolerances whatever the gates
		// (v1.33+); the controller derives them from spec.behavior only with
		// HPAConfigurableTolerance on (alpha in v1.33 and v1.34, off in those
		// releases' tests), so such a vector is replayed with the gate on.
		if gates == nil {
			gates = map[profile.Gate]bool{}
		}
		gates[profile.HPAConfigurableTolerance] = true
	}
	set.Profile = withGates(set.Profile, gates)
	if tol, ok := v.Controller["tolerance"].(float64); ok {
		set.Tolerance = tol
	}
	if tol := v.Calculator.Tolerances; tol != nil {
		set.Tolerance = tol.ScaleDown
	}
	dur := func(k string, def time.Duration) time.Duration {
		s, ok := v.Controller[k].(string)
		if !ok {
			return def
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("%s: %s: %v", v.ID, k, err)
		}
		return d
	}
	set.CPUInitializationPeriod = dur("cpuInitializationPeriod", set.CPUInitializationPeriod)
	set.InitialReadinessDelay = dur("initialReadinessDelay", set.InitialReadinessDelay)
	// The upstream fixtures return their external items for any selector and
	// give them no labels; label them so that they match the metric's
	// selector, which is what the fixture's answer means.
	if m := v.HPA.Spec.Metrics[0].External; m != nil && m.Metric.Selector != nil {
		for i := range v.External {
			if v.External[i].MetricLabels == nil {
				v.External[i].MetricLabels = m.Metric.Selector.MatchLabels
			}
		}
	}
	errs := v.MetricErrors
	if errs == nil {
		errs = map[string]string{}
	}
	return &Case{Label: v.ID, Settings: set, Snapshot: &engine.Snapshot{
		HPA: v.HPA, Target: v.Target, Pods: v.Pods, PodMetrics: v.PodMetrics, CustomMetrics: v.Custom,
		ExternalMetrics: v.External, APIErrors: errs, Now: v.Now.Add(engineEpsilon),
		State: engine.ControllerState{RecommendationsInitialized: false, Provenance: "assumed"},
	}}
}

// vectorsFile is the calculator vectors of upstreamVersion, generated from
// that version's own upstream tests (pkg/engine/testdata/vectors).
func vectorsFile() string {
	return "../../pkg/engine/testdata/vectors/" + upstreamVersion.String() + "/replica_calculator.json"
}

func loadCalcVectors(t *testing.T) []calcVector {
	b, err := os.ReadFile(vectorsFile())
	if err != nil {
		t.Fatal(err)
	}
	var vs []calcVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestUpstreamVectors proves the harness: every shared calculator vector,
// fed through this package's fakes and clock shift, gives upstream's own
// expected result. It does not involve the engine.
func TestUpstreamVectors(t *testing.T) {
	for _, v := range loadCalcVectors(t) {
		t.Run(v.ID, func(t *testing.T) {
			c := v.toCase(t)
			up := runUpstreamStable(c)
			if up.Function != v.Calculator.Function {
				t.Errorf("dispatched to %s, vector names %s", up.Function, v.Calculator.Function)
			}
			e := v.Expect
			if e.Error != nil {
				if up.Err == nil || !strings.Contains(*up.Err, *e.Error) {
					t.Errorf("error: got %q, want %q", up.errText(), *e.Error)
				}
				return
			}
			if up.Err != nil {
				t.Fatalf("unexpected error %v", *up.Err)
			}
			if e.MetricReplicas != nil && up.Replicas != *e.MetricReplicas {
				t.Errorf("replicas %d, want %d", up.Replicas, *e.MetricReplicas)
			}
			if e.Utilization != nil && (up.Utilization == nil || *up.Utilization != *e.Utilization) {
				t.Errorf("utilization %s, want %d", fmtI32(up.Utilization), *e.Utilization)
			}
			want := e.RawValueMilli
			if want == nil {
				want = e.UsageMilli
			}
			if want != nil && (up.Value == nil || up.Value.Milli != *want) {
				t.Errorf("value %s, want milli %d", fmtWQ(up.Value), *want)
			}
		})
	}
}

// TestEngineVectors compares the engine with upstream on the shared
// calculator vectors (the same comparison as TestDifferential).
func TestEngineVectors(t *testing.T) {
	for _, v := range loadCalcVectors(t) {
		t.Run(v.ID, func(t *testing.T) {
			c := v.toCase(t)
			up := runUpstreamStable(c)
			dec, err := runEngine(c)
			for _, m := range compare(c, up, dec, err) {
				t.Error(m.String())
			}
		})
	}
}
