// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// epsilon is how much later than the vector's "now" the controller reads the
// clock (see testdata/vectors/README.md, "Clock convention").
const epsilon = time.Microsecond

// Vector is one test vector; the schema is described in
// testdata/vectors/README.md.
type Vector struct {
	ID           string                `json:"id"`
	Source       string                `json:"source"`
	Level        string                `json:"level"`
	Step         string                `json:"step"`
	Now          time.Time             `json:"now"`
	FeatureGates map[profile.Gate]bool `json:"featureGates"`
	// EmulationVersion: the test ran the release's controller with its
	// feature gates emulating this older minor ("1.36"); featureGates are
	// then that minor's gates.
	EmulationVersion string                                       `json:"emulationVersion"`
	Controller       *VectorController                            `json:"controller"`
	Calculator       *VectorCalculator                            `json:"calculator"`
	Input            json.RawMessage                              `json:"input"`
	HPA              *autoscalingv2.HorizontalPodAutoscaler       `json:"hpa"`
	Target           *VectorTarget                                `json:"target"`
	Pods             []corev1.Pod                                 `json:"pods"`
	PodMetrics       []metricsv1beta1.PodMetrics                  `json:"podMetrics"`
	CustomMetrics    []custommetricsv1beta2.MetricValue           `json:"customMetrics"`
	ExternalMetrics  []externalmetricsv1beta1.ExternalMetricValue `json:"externalMetrics"`
	MetricErrors     map[string]string                            `json:"metricErrors"`
	State            *VectorState                                 `json:"state"`
	Expect           json.RawMessage                              `json:"expect"`
	Notes            string                                       `json:"notes"`

	// Version is the controller release whose tests the vector comes from
	// (its directory under testdata/vectors); it is not in the file.
	Version profile.Version `json:"-"`
}

// VectorController holds controller flags in Go duration syntax.
type VectorController struct {
	Tolerance                 *float64 `json:"tolerance"`
	CPUInitializationPeriod   string   `json:"cpuInitializationPeriod"`
	InitialReadinessDelay     string   `json:"initialReadinessDelay"`
	DownscaleStabilization    string   `json:"downscaleStabilization"`
	LegacyScaleUpLimitFactor  *float64 `json:"legacyScaleUpLimitFactor"`
	LegacyScaleUpLimitMinimum *float64 `json:"legacyScaleUpLimitMinimum"`
}

// VectorCalculator names a ReplicaCalculator call and its arguments.
type VectorCalculator struct {
	Function          string `json:"function"`
	CurrentReplicas   int32  `json:"currentReplicas"`
	TargetUtilization *int32 `json:"targetUtilization"`
	TargetMilli       *int64 `json:"targetMilli"`
	Resource          string `json:"resource"`
	Container         string `json:"container"`
	MetricName        string `json:"metricName"`
	Tolerances        struct {
		ScaleDown float64 `json:"scaleDown"`
		ScaleUp   float64 `json:"scaleUp"`
	} `json:"tolerances"`
}

// VectorTarget is the scale subresource plus update outcomes.
type VectorTarget struct {
	Target
	UpdateResults []string `json:"updateResults"`
}

// VectorState is the controller's memory in a vector.
type VectorState struct {
	RecommendationsInitialized bool             `json:"recommendationsInitialized"`
	Recommendations            []Recommendation `json:"recommendations"`
	ScaleUpEvents              []ScaleEvent     `json:"scaleUpEvents"`
	ScaleDownEvents            []ScaleEvent     `json:"scaleDownEvents"`
	Events                     []ScaleEvent     `json:"events"`
	OtherHPAs                  []HPASelector    `json:"otherHPAs"`
}

// vectorVersions lists the releases under testdata/vectors (one directory
// each, named like v1.37.2), oldest first.
func vectorVersions(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", "vectors"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "v1.") {
			out = append(out, e.Name())
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := profile.MustParse(out[i]), profile.MustParse(out[j])
		if a.Minor != b.Minor {
			return a.Minor < b.Minor
		}
		return a.Patch < b.Patch
	})
	if len(out) == 0 {
		t.Fatal("no vector directories")
	}
	return out
}

// loadVectors reads one file of one release; a release may lack a level
// (TestVectorCoverage pins which files exist).
func loadVectors(t *testing.T, version, file string) []Vector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "vectors", version, file))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var vs []Vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatalf("%s/%s: %v", version, file, err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s/%s: no vectors", version, file)
	}
	ver := profile.MustParse(version)
	for i := range vs {
		vs[i].Version = ver
	}
	return vs
}

// forEachVector runs fn as a subtest per vector of file, in a subtest per
// release.
func forEachVector(t *testing.T, file string, name func(Vector) string, fn func(t *testing.T, v Vector)) {
	t.Helper()
	for _, version := range vectorVersions(t) {
		vs := loadVectors(t, version, file)
		if vs == nil {
			continue
		}
		t.Run(version, func(t *testing.T) {
			for _, v := range vs {
				t.Run(name(v), func(t *testing.T) { fn(t, v) })
			}
		})
	}
}

func vectorID(v Vector) string { return v.ID }

func decode[T any](t *testing.T, v Vector, raw json.RawMessage) T {
	t.Helper()
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s (%s): decoding: %v", v.ID, v.Source, err)
	}
	return out
}

func mustDuration(t *testing.T, s string, def time.Duration) time.Duration {
	t.Helper()
	if s == "" {
		return def
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("bad duration %q: %v", s, err)
	}
	return d
}

// VectorSettings turns a vector's controller and gate fields into Settings.
func vectorSettings(t *testing.T, v Vector) Settings {
	t.Helper()
	s := DefaultSettings()
	if c := v.Controller; c != nil {
		if c.Tolerance != nil {
			s.Tolerance = *c.Tolerance
		}
		s.CPUInitializationPeriod = mustDuration(t, c.CPUInitializationPeriod, s.CPUInitializationPeriod)
		s.InitialReadinessDelay = mustDuration(t, c.InitialReadinessDelay, s.InitialReadinessDelay)
		s.DownscaleStabilization = mustDuration(t, c.DownscaleStabilization, s.DownscaleStabilization)
		if c.LegacyScaleUpLimitFactor != nil {
			s.LegacyScaleUpLimitFactor = *c.LegacyScaleUpLimitFactor
		}
		if c.LegacyScaleUpLimitMinimum != nil {
			s.LegacyScaleUpLimitMinimum = *c.LegacyScaleUpLimitMinimum
		}
	}
	var p profile.Profile
	var err error
	if v.EmulationVersion != "" {
		var minor int
		if _, serr := fmt.Sscanf(v.EmulationVersion, "1.%d", &minor); serr != nil {
			t.Fatalf("%s: emulationVersion %q: %v", v.ID, v.EmulationVersion, serr)
		}
		p, err = profile.NewEmulated(v.Version, minor, v.FeatureGates)
	} else {
		p, err = profile.New(v.Version, v.FeatureGates)
	}
	if err != nil {
		t.Fatalf("%s (%s): feature gates: %v", v.ID, v.Source, err)
	}
	s.Profile = p
	return s
}

// vectorSnapshot builds the engine input of a calculator or reconcile vector.
func vectorSnapshot(t *testing.T, v Vector) *Snapshot {
	t.Helper()
	snap := &Snapshot{
		HPA:             v.HPA,
		Pods:            v.Pods,
		PodMetrics:      v.PodMetrics,
		CustomMetrics:   v.CustomMetrics,
		ExternalMetrics: v.ExternalMetrics,
		APIErrors:       v.MetricErrors,
		Now:             v.Now.Add(epsilon),
	}
	if v.Target != nil {
		snap.Target = v.Target.Target
	}
	if st := v.State; st != nil {
		snap.State = ControllerState{
			RecommendationsInitialized: st.RecommendationsInitialized,
			Recommendations:            st.Recommendations,
			ScaleUpEvents:              st.ScaleUpEvents,
			ScaleDownEvents:            st.ScaleDownEvents,
			Provenance:                 explain.Observed,
		}
		snap.OtherHPAs = st.OtherHPAs
	}
	adaptExternalLabels(snap)
	return snap
}

// adaptExternalLabels: the upstream fixtures return the same external items
// for any metric selector and leave metricLabels empty. The snapshot format
// filters by labels, as the real API does, so items without labels are given
// the labels of the selector that asked for them.
func adaptExternalLabels(snap *Snapshot) {
	if snap.HPA == nil {
		return
	}
	for _, m := range snap.HPA.Spec.Metrics {
		if m.External == nil || m.External.Metric.Selector == nil {
			continue
		}
		for i := range snap.ExternalMetrics {
			ev := &snap.ExternalMetrics[i]
			if ev.MetricName == m.External.Metric.Name && len(ev.MetricLabels) == 0 {
				ev.MetricLabels = map[string]string{}
				for k, val := range m.External.Metric.Selector.MatchLabels {
					ev.MetricLabels[k] = val
				}
			}
		}
	}
}

func TestVectorsCalculator(t *testing.T) {
	forEachVector(t, "replica_calculator.json", vectorID, checkCalculator)
}

type calculatorExpect struct {
	MetricReplicas *int32     `json:"metricReplicas"`
	Utilization    *int32     `json:"utilization"`
	RawValueMilli  *int64     `json:"rawValueMilli"`
	UsageMilli     *int64     `json:"usageMilli"`
	RawValue       string     `json:"rawValue"`
	Timestamp      *time.Time `json:"timestamp"`
	Error          string     `json:"error"`
}

func checkCalculator(t *testing.T, v Vector) {
	t.Helper()
	exp := decode[calculatorExpect](t, v, v.Expect)
	snap := vectorSnapshot(t, v)
	set := vectorSettings(t, v)
	sel, err := labels.Parse(snap.Target.Selector)
	if err != nil {
		t.Fatalf("%s: selector: %v", v.ID, err)
	}
	run := &syncRun{snap: snap, set: set, now: snap.Now}
	run.init()
	calc := run.newCalculator(sel, run.podLister(sel))
	c := v.Calculator
	tol := tolerances{down: c.Tolerances.ScaleDown, up: c.Tolerances.ScaleUp, absolute: set.Profile.Switches.AbsoluteTolerance}
	in := metricInput{hpa: snap.HPA, specReplicas: snap.Target.SpecReplicas, statusReplicas: snap.Target.StatusReplicas, tol: tol, calc: calc, sw: set.Profile.Switches}
	spec := snap.HPA.Spec.Metrics[0]
	tr := &explain.MetricResult{}
	n, st, ts, fail := computeReplicasForMetric(in, spec, tr)
	if tr.Calculation != c.Function && fail == nil {
		t.Errorf("%s (%s): ran %s, vector names %s", v.ID, v.Source, tr.Calculation, c.Function)
	}
	if exp.Error != "" {
		if fail == nil {
			t.Fatalf("%s (%s): expected error containing %q, got replicas %d", v.ID, v.Source, exp.Error, n)
		}
		if !strings.Contains(fail.err.Error(), exp.Error) {
			t.Fatalf("%s (%s): error %q does not contain %q", v.ID, v.Source, fail.err.Error(), exp.Error)
		}
		return
	}
	if fail != nil {
		t.Fatalf("%s (%s): unexpected error: %v", v.ID, v.Source, fail.err)
	}
	if exp.MetricReplicas == nil || n != *exp.MetricReplicas {
		t.Errorf("%s (%s): replicas %d, want %v", v.ID, v.Source, n, deref(exp.MetricReplicas))
	}
	q, util := statusValue(st)
	if exp.Utilization != nil && (util == nil || *util != *exp.Utilization) {
		t.Errorf("%s (%s): utilization %v, want %d", v.ID, v.Source, deref(util), *exp.Utilization)
	}
	wantMilli := exp.RawValueMilli
	if wantMilli == nil {
		wantMilli = exp.UsageMilli
	}
	if wantMilli != nil && (q == nil || q.MilliValue() != *wantMilli) {
		t.Errorf("%s (%s): value %v, want %dm", v.ID, v.Source, q, *wantMilli)
	}
	if exp.RawValue != "" && (q == nil || q.String() != exp.RawValue) {
		t.Errorf("%s (%s): status quantity %v, want %s", v.ID, v.Source, q, exp.RawValue)
	}
	if exp.Timestamp != nil && !ts.Equal(*exp.Timestamp) && !(ts.IsZero() && exp.Timestamp.IsZero()) {
		t.Errorf("%s (%s): timestamp %v, want %v", v.ID, v.Source, ts, *exp.Timestamp)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// The calculator vectors also run through the whole reconcile: the metric's
// proposal must come out the same, whether or not a short-circuit is taken.
func TestVectorsCalculatorThroughEvaluate(t *testing.T) {
	forEachVector(t, "replica_calculator.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		exp := decode[calculatorExpect](t, v, v.Expect)
		snap := vectorSnapshot(t, v)
		snap.State = ControllerState{}
		if v.Calculator.Tolerances.ScaleUp != v.Calculator.Tolerances.ScaleDown {
			if snap.HPA.Spec.Behavior == nil {
				t.Fatalf("%s: per-direction tolerances without behavior", v.ID)
			}
			// The calculator takes per-direction tolerances whatever the
			// gates (v1.33+); a reconcile passes those of spec.behavior only
			// with HPAConfigurableTolerance on (alpha in v1.33 and v1.34,
			// off in those releases' tests), so the synthesised HPA is
			// replayed with the gate on.
			gates := maps.Clone(v.FeatureGates)
			if gates == nil {
				gates = map[profile.Gate]bool{}
			}
			gates[profile.HPAConfigurableTolerance] = true
			v.FeatureGates = gates
		}
		set := vectorSettings(t, v)
		set.Tolerance = v.Calculator.Tolerances.ScaleDown
		dec, err := Evaluate(snap, set)
		if err != nil {
			t.Fatal(err)
		}
		m := dec.Metrics[0]
		if exp.Error != "" {
			if m.Error == nil {
				t.Fatalf("%s (%s): expected an error containing %q, got %v", v.ID, v.Source, exp.Error, deref(m.ProposedReplicas))
			}
			return
		}
		if m.Error != nil {
			t.Fatalf("%s (%s): unexpected error %s", v.ID, v.Source, *m.Error)
		}
		if m.ProposedReplicas == nil || *m.ProposedReplicas != *exp.MetricReplicas {
			t.Errorf("%s (%s): proposed %v, want %d", v.ID, v.Source, deref(m.ProposedReplicas), *exp.MetricReplicas)
		}
	})
}

type reconcileExpect struct {
	DesiredReplicas *int32 `json:"desiredReplicas"`
	Conditions      []struct {
		Type   string `json:"type"`
		Status string `json:"status"`
		Reason string `json:"reason"`
	} `json:"conditions"`
	ScaleUpdated  *bool            `json:"scaleUpdated"`
	Utilization   *int32           `json:"utilization"`
	Events        *[]explain.Event `json:"events"`
	StatusUpdated *bool            `json:"statusUpdated"`
}

// ReconcileVectorDecision evaluates a reconcile vector.
func reconcileVectorDecision(t *testing.T, v Vector) (*explain.Decision, Settings) {
	t.Helper()
	snap := vectorSnapshot(t, v)
	set := vectorSettings(t, v)
	if v.Target != nil {
		snap.Target.UpdateError = ScaleUpdateOutcome(v.Target.UpdateResults, set.Profile.Switches)
	}
	dec, err := Evaluate(snap, set)
	if err != nil {
		t.Fatalf("%s: %v", v.ID, err)
	}
	return dec, set
}

func checkReconcile(t *testing.T, v Vector, dec *explain.Decision) {
	t.Helper()
	exp := decode[reconcileExpect](t, v, v.Expect)
	where := fmt.Sprintf("%s (%s)", v.ID, v.Source)
	if exp.DesiredReplicas != nil && dec.DesiredReplicas != *exp.DesiredReplicas {
		t.Errorf("%s: desiredReplicas %d, want %d\n%s", where, dec.DesiredReplicas, *exp.DesiredReplicas, dec.Summary)
	}
	if exp.Conditions != nil {
		var got, want []string
		for _, c := range dec.Conditions {
			got = append(got, c.Type+"/"+c.Status+"/"+c.Reason)
		}
		for _, c := range exp.Conditions {
			want = append(want, c.Type+"/"+c.Status+"/"+c.Reason)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: conditions (-want +got):\n%s", where, diff)
		}
	}
	if exp.ScaleUpdated != nil {
		got := dec.Rescale && dec.Outcome != explain.OutcomeFailedUpdateScale
		if got != *exp.ScaleUpdated {
			t.Errorf("%s: scale updated %v, want %v", where, got, *exp.ScaleUpdated)
		}
	}
	if exp.Utilization != nil {
		var got *int32
		for _, m := range dec.CurrentMetrics {
			if m.Resource != nil && m.Resource.Name == corev1.ResourceCPU {
				got = m.Resource.Current.AverageUtilization
			}
		}
		if got == nil || *got != *exp.Utilization {
			t.Errorf("%s: cpu utilization %v, want %d", where, deref(got), *exp.Utilization)
		}
	}
	if exp.Events != nil {
		want := *exp.Events
		if want == nil {
			want = []explain.Event{}
		}
		if diff := cmp.Diff(want, dec.Events); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", where, diff)
		}
	}
	if exp.StatusUpdated != nil && dec.StatusChanged != *exp.StatusUpdated {
		t.Errorf("%s: status changed %v, want %v", where, dec.StatusChanged, *exp.StatusUpdated)
	}
}

func TestVectorsReconcile(t *testing.T) {
	forEachVector(t, "reconcile.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		dec, _ := reconcileVectorDecision(t, v)
		checkReconcile(t, v, dec)
	})
}

// The upstream tests run the legacy path with scaleUpLimitFactor 8; the
// README says every reconcile vector also holds with the production 2.
func TestVectorsReconcileProductionFactor(t *testing.T) {
	forEachVector(t, "reconcile.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		if v.Controller != nil {
			f := 2.0
			v.Controller.LegacyScaleUpLimitFactor = &f
		}
		dec, _ := reconcileVectorDecision(t, v)
		checkReconcile(t, v, dec)
	})
}

func TestVectorsGroupPods(t *testing.T) {
	type input struct {
		Resource string       `json:"resource"`
		Pods     []corev1.Pod `json:"pods"`
		Metrics  map[string]struct {
			Value     int64     `json:"value"`
			Timestamp time.Time `json:"timestamp"`
			Window    string    `json:"window"`
		} `json:"metrics"`
	}
	type expect struct {
		ReadyPodCount int      `json:"readyPodCount"`
		UnreadyPods   []string `json:"unreadyPods"`
		MissingPods   []string `json:"missingPods"`
		IgnoredPods   []string `json:"ignoredPods"`
	}
	forEachVector(t, "group_pods.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		in := decode[input](t, v, v.Input)
		exp := decode[expect](t, v, v.Expect)
		set := vectorSettings(t, v)
		samples := podSamples{}
		for name, m := range in.Metrics {
			samples[name] = podSample{value: m.Value, timestamp: m.Timestamp, window: mustDuration(t, m.Window, 0)}
		}
		pods := make([]*corev1.Pod, len(in.Pods))
		for i := range in.Pods {
			pods[i] = &in.Pods[i]
		}
		g := groupPods(pods, samples, corev1.ResourceName(in.Resource), set.CPUInitializationPeriod, set.InitialReadinessDelay, v.Now.Add(epsilon), true)
		got := expect{ReadyPodCount: g.readyCount, UnreadyPods: sortedNames(g.unready), MissingPods: sortedNames(g.missing), IgnoredPods: sortedNames(g.ignored)}
		for _, s := range []*[]string{&exp.UnreadyPods, &exp.MissingPods, &exp.IgnoredPods} {
			if *s == nil {
				*s = []string{}
			}
			sort.Strings(*s)
		}
		if diff := cmp.Diff(exp, got); diff != "" {
			t.Errorf("%s (%s): (-want +got)\n%s", v.ID, v.Source, diff)
		}
	})
}

func TestVectorsRequests(t *testing.T) {
	type input struct {
		Resource  string       `json:"resource"`
		Container string       `json:"container"`
		Pods      []corev1.Pod `json:"pods"`
	}
	type expect struct {
		RequestsMilli map[string]int64 `json:"requestsMilli"`
		Error         string           `json:"error"`
	}
	forEachVector(t, "requests.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		in := decode[input](t, v, v.Input)
		exp := decode[expect](t, v, v.Expect)
		pods := make([]*corev1.Pod, len(in.Pods))
		for i := range in.Pods {
			pods[i] = &in.Pods[i]
		}
		got, err := calculateRequests(pods, in.Container, corev1.ResourceName(in.Resource), vectorSettings(t, v).Profile.Switches)
		if exp.Error != "" {
			if err == nil || err.Error() != exp.Error {
				t.Fatalf("%s (%s): error %v, want %q", v.ID, v.Source, err, exp.Error)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s (%s): %v", v.ID, v.Source, err)
		}
		if diff := cmp.Diff(exp.RequestsMilli, got); diff != "" {
			t.Errorf("%s (%s): (-want +got)\n%s", v.ID, v.Source, diff)
		}
	})
}

func TestVectorsQuantity(t *testing.T) {
	type input struct {
		Resource      string `json:"resource"`
		RawValueMilli int64  `json:"rawValueMilli"`
	}
	type expect struct {
		Quantity   string `json:"quantity"`
		Format     string `json:"format"`
		MilliValue int64  `json:"milliValue"`
	}
	forEachVector(t, "quantity.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		in := decode[input](t, v, v.Input)
		exp := decode[expect](t, v, v.Expect)
		q := buildQuantity(corev1.ResourceName(in.Resource), in.RawValueMilli, vectorSettings(t, v).Profile.Switches.MemoryStatusBinarySI)
		got := expect{Quantity: q.String(), Format: string(q.Format), MilliValue: q.MilliValue()}
		if diff := cmp.Diff(exp, got); diff != "" {
			t.Errorf("%s (%s): (-want +got)\n%s", v.ID, v.Source, diff)
		}
	})
}

func TestVectorsUtilization(t *testing.T) {
	type input struct {
		Function          string           `json:"function"`
		Metrics           map[string]int64 `json:"metrics"`
		Requests          map[string]int64 `json:"requests"`
		TargetUtilization int32            `json:"targetUtilization"`
		TargetMilli       int64            `json:"targetMilli"`
	}
	type expect struct {
		Ratio           *float64 `json:"ratio"`
		Utilization     *int32   `json:"utilization"`
		UsageMilli      *int64   `json:"usageMilli"`
		RawAverageMilli *int64   `json:"rawAverageMilli"`
		Error           string   `json:"error"`
	}
	forEachVector(t, "utilization.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		in := decode[input](t, v, v.Input)
		exp := decode[expect](t, v, v.Expect)
		samples := podSamples{}
		for k, val := range in.Metrics {
			samples[k] = podSample{value: val}
		}
		var got expect
		switch in.Function {
		case "GetResourceUtilizationRatio":
			u, err := utilizationRatio(samples, in.Requests, in.TargetUtilization)
			if err != nil {
				got.Error = err.Error()
			} else {
				got.Ratio, got.Utilization, got.RawAverageMilli = &u.ratio, &u.util, &u.rawAvg
			}
		case "GetMetricUsageRatio":
			ratio, avg, _ := usageRatio(samples, in.TargetMilli)
			got.Ratio, got.UsageMilli = &ratio, &avg
		default:
			t.Fatalf("unknown function %s", in.Function)
		}
		if diff := cmp.Diff(exp, got); diff != "" {
			t.Errorf("%s (%s): (-want +got)\n%s", v.ID, v.Source, diff)
		}
	})
}

func TestVectorsMetricsClient(t *testing.T) {
	type input struct {
		Call           string                                     `json:"call"`
		Namespace      string                                     `json:"namespace"`
		Selector       string                                     `json:"selector"`
		Resource       string                                     `json:"resource"`
		Container      string                                     `json:"container"`
		MetricName     string                                     `json:"metricName"`
		MetricSelector *metav1.LabelSelector                      `json:"metricSelector"`
		ObjectRef      *autoscalingv2.CrossVersionObjectReference `json:"objectRef"`
	}
	type sample struct {
		Value     int64     `json:"value"`
		Timestamp time.Time `json:"timestamp"`
		Window    string    `json:"window"`
	}
	type expect struct {
		Metrics   map[string]sample `json:"metrics"`
		Values    []int64           `json:"values"`
		Value     *int64            `json:"value"`
		Timestamp *time.Time        `json:"timestamp"`
		Error     string            `json:"error"`
	}
	forEachVector(t, "metrics_client.json", vectorID, func(t *testing.T, v Vector) {
		t.Helper()
		in := decode[input](t, v, v.Input)
		exp := decode[expect](t, v, v.Expect)
		snap := &Snapshot{PodMetrics: v.PodMetrics, CustomMetrics: v.CustomMetrics, ExternalMetrics: v.ExternalMetrics, APIErrors: v.MetricErrors}
		sel := labels.Everything()
		if in.Selector != "" {
			var err error
			if sel, err = labels.Parse(in.Selector); err != nil {
				t.Fatal(err)
			}
		}
		api := &metricsAPI{snap: snap, namespace: in.Namespace, selector: sel}
		var got expect
		var ts time.Time
		var err error
		toMap := func(s podSamples) map[string]sample {
			out := map[string]sample{}
			for k, x := range s {
				out[k] = sample{Value: x.value, Timestamp: x.timestamp, Window: fmtDuration(x.window)}
			}
			return out
		}
		switch in.Call {
		case "GetResourceMetric":
			var s podSamples
			s, ts, err = api.resourceMetric(corev1.ResourceName(in.Resource), sel, in.Container)
			if err == nil {
				got.Metrics = toMap(s)
			}
		case "GetRawMetric":
			var s podSamples
			s, ts, err = api.podsMetric(in.MetricName)
			if err == nil {
				got.Metrics = toMap(s)
			}
		case "GetObjectMetric":
			var val int64
			val, ts, err = api.objectMetric(in.MetricName, in.ObjectRef)
			if err == nil {
				got.Value = &val
			}
		case "GetExternalMetric":
			// Same adaptation as adaptExternalLabels: the fixture's items
			// answer any selector.
			for i := range snap.ExternalMetrics {
				if len(snap.ExternalMetrics[i].MetricLabels) == 0 && in.MetricSelector != nil {
					snap.ExternalMetrics[i].MetricLabels = in.MetricSelector.MatchLabels
				}
			}
			es, _ := externalSelector(in.MetricSelector)
			got.Values, ts, err = api.externalMetric(in.MetricName, es)
		default:
			t.Fatalf("unknown call %s", in.Call)
		}
		if err != nil {
			got = expect{Error: err.Error()}
		} else {
			got.Timestamp = &ts
		}
		if exp.Timestamp == nil {
			got.Timestamp = nil
		}
		if diff := cmp.Diff(exp, got); diff != "" {
			t.Errorf("%s (%s): (-want +got)\n%s", v.ID, v.Source, diff)
		}
	})
}

// fmtDuration prints a duration the way the vectors do ("30s", "1m").
func fmtDuration(d time.Duration) string {
	if d%time.Minute == 0 && d != 0 {
		return fmt.Sprintf("%dm", int64(d/time.Minute))
	}
	return fmt.Sprintf("%ds", int64(d/time.Second))
}

func TestVectorsNormalize(t *testing.T) {
	forEachVector(t, "normalize.json", func(v Vector) string { return v.Step + "/" + v.ID }, checkNormalize)
}

type normalizeInput struct {
	CurrentReplicas int32                                          `json:"currentReplicas"`
	DesiredReplicas int32                                          `json:"desiredReplicas"`
	MinReplicas     int32                                          `json:"minReplicas"`
	MaxReplicas     int32                                          `json:"maxReplicas"`
	UpWindow        int32                                          `json:"scaleUpStabilizationWindowSeconds"`
	DownWindow      int32                                          `json:"scaleDownStabilizationWindowSeconds"`
	Behavior        *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior"`
	Rules           *autoscalingv2.HPAScalingRules                 `json:"rules"`
	ScaleUpEvents   []ScaleEvent                                   `json:"scaleUpEvents"`
	ScaleDownEvents []ScaleEvent                                   `json:"scaleDownEvents"`
	ReplicaChange   int32                                          `json:"replicaChange"`
	PrevReplicas    int32                                          `json:"prevReplicas"`
	PeriodForCount  int32                                          `json:"periodSecondsForCount"`
}

type normalizeExpect struct {
	DesiredReplicas       *int32   `json:"desiredReplicas"`
	Reason                string   `json:"reason"`
	StabilizedReplicas    *int32   `json:"stabilizedReplicas"`
	RecommendationsLength *int     `json:"recommendationsLength"`
	RecommendationsAfter  *[]int32 `json:"recommendationsAfter"`
	Limit                 *int32   `json:"limit"`
	ReplicaChangeBefore   *int32   `json:"replicaChangeInPeriodBefore"`
	EventsAfter           []struct {
		ReplicaChange int32 `json:"replicaChange"`
		Outdated      bool  `json:"outdated"`
	} `json:"eventsAfter"`
}

func checkNormalize(t *testing.T, v Vector) {
	t.Helper()
	in := decode[normalizeInput](t, v, v.Input)
	exp := decode[normalizeExpect](t, v, v.Expect)
	set := vectorSettings(t, v)
	now := v.Now.Add(epsilon)
	var st VectorState
	if v.State != nil {
		st = *v.State
	}
	where := fmt.Sprintf("%s (%s)", v.ID, v.Source)
	eq := func(what string, got int32, want *int32) {
		t.Helper()
		if want == nil {
			t.Fatalf("%s: vector has no expected %s", where, what)
		}
		if got != *want {
			t.Errorf("%s: %s %d, want %d", where, what, got, *want)
		}
	}
	switch v.Step {
	case "legacyClamp":
		r := legacyClamp(in.CurrentReplicas, in.DesiredReplicas, in.MinReplicas, in.MaxReplicas, set, &explain.Limits{})
		eq("desired", r.replicas, exp.DesiredReplicas)
		if r.reason != exp.Reason {
			t.Errorf("%s: reason %s, want %s", where, r.reason, exp.Reason)
		}
	case "legacyStabilize":
		stab, recs := stabilizeLegacy(st.Recommendations, in.DesiredReplicas, set.DownscaleStabilization, now, &explain.Stabilization{})
		eq("stabilized", stab, exp.StabilizedReplicas)
		if exp.RecommendationsLength == nil || len(recs) != *exp.RecommendationsLength {
			t.Errorf("%s: %d recommendations after, want %v", where, len(recs), deref(exp.RecommendationsLength))
		}
	case "behaviorStabilize":
		stab, _, _, recs := stabilizeBehavior(st.Recommendations, in.CurrentReplicas, in.DesiredReplicas, in.UpWindow, in.DownWindow, now, &explain.Stabilization{})
		eq("stabilized", stab, exp.StabilizedReplicas)
		if exp.RecommendationsAfter == nil {
			break
		}
		got := []int32{}
		for _, r := range recs {
			got = append(got, r.Replicas)
		}
		if diff := cmp.Diff(*exp.RecommendationsAfter, got); diff != "" {
			t.Errorf("%s: recommendations after (-want +got)\n%s", where, diff)
		}
	case "behaviorRateLimit":
		if in.Behavior == nil {
			t.Fatalf("%s: no behavior", where)
		}
		r := behaviorRate(in.CurrentReplicas, in.DesiredReplicas, in.MinReplicas, in.MaxReplicas, in.Behavior.ScaleUp, in.Behavior.ScaleDown, st.ScaleUpEvents, st.ScaleDownEvents, now, &explain.Limits{})
		eq("desired", r.replicas, exp.DesiredReplicas)
		if r.reason != exp.Reason {
			t.Errorf("%s: reason %s, want %s", where, r.reason, exp.Reason)
		}
	case "scaleUpLimit":
		eq("limit", scaleUpLimit(in.CurrentReplicas, in.ScaleUpEvents, in.ScaleDownEvents, in.Rules, now, &explain.Limits{}), exp.Limit)
	case "scaleDownLimit":
		eq("limit", scaleDownLimit(in.CurrentReplicas, in.ScaleUpEvents, in.ScaleDownEvents, in.Rules, now, &explain.Limits{}), exp.Limit)
	case "storeScaleEvent":
		for _, up := range []bool{true, false} {
			var behavior *autoscalingv2.HorizontalPodAutoscalerBehavior
			if in.Rules != nil {
				behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
				if up {
					behavior.ScaleUp = in.Rules
				} else {
					behavior.ScaleDown = in.Rules
				}
			}
			events := append([]ScaleEvent(nil), st.Events...)
			eq("change in period before", replicasChangeInPeriod(in.PeriodForCount, events, now), exp.ReplicaChangeBefore)
			state := ControllerState{}
			next := in.PrevReplicas - in.ReplicaChange
			if up {
				state.ScaleUpEvents = events
				next = in.PrevReplicas + in.ReplicaChange
			} else {
				state.ScaleDownEvents = events
			}
			storeScaleEvent(behavior, &state, in.PrevReplicas, next, now)
			after := state.ScaleDownEvents
			if up {
				after = state.ScaleUpEvents
			}
			type ev struct {
				ReplicaChange int32
				Outdated      bool
			}
			var got, want []ev
			for _, e := range after {
				got = append(got, ev{e.ReplicaChange, e.Outdated})
			}
			for _, e := range exp.EventsAfter {
				want = append(want, ev{e.ReplicaChange, e.Outdated})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (up=%v): events after (-want +got)\n%s", where, up, diff)
			}
		}
	default:
		t.Fatalf("%s: unknown step %q", where, v.Step)
	}
}

// vectorCounts pins, per release, how many vectors each file holds; a file
// with no entry must not exist (testdata/vectors/README.md lists what was not
// converted for each release, and why).
var vectorCounts = map[string]map[string]int{
	"v1.37.2":  {"replica_calculator.json": 76, "reconcile.json": 107},
	"v1.35.4":  {"replica_calculator.json": 78, "reconcile.json": 89},
	"v1.34.4":  {"replica_calculator.json": 76, "reconcile.json": 89},
	"v1.33.13": {"replica_calculator.json": 74, "reconcile.json": 88},
	"v1.32.13": {"replica_calculator.json": 64, "reconcile.json": 84},
	"v1.31.14": {"replica_calculator.json": 64, "reconcile.json": 84},
	"v1.30.14": {"replica_calculator.json": 64, "reconcile.json": 84},
	"v1.29.15": {"replica_calculator.json": 64, "reconcile.json": 85},
	"v1.36.3": {
		"replica_calculator.json": 57, "group_pods.json": 11, "requests.json": 9, "reconcile.json": 84,
		"normalize.json": 54, "quantity.json": 6, "utilization.json": 5, "metrics_client.json": 10,
	},
}

// Every release directory is pinned, and every file holds its count.
func TestVectorCoverage(t *testing.T) {
	files := []string{
		"replica_calculator.json", "group_pods.json", "requests.json", "reconcile.json",
		"normalize.json", "quantity.json", "utilization.json", "metrics_client.json",
	}
	versions := vectorVersions(t)
	if len(versions) != len(vectorCounts) {
		t.Errorf("vector directories %v, pinned %d releases", versions, len(vectorCounts))
	}
	for _, version := range versions {
		want, ok := vectorCounts[version]
		if !ok {
			t.Errorf("%s: no pinned counts", version)
			continue
		}
		for _, file := range files {
			if got := len(loadVectors(t, version, file)); got != want[file] {
				t.Errorf("%s/%s: %d vectors, want %d", version, file, got, want[file])
			}
		}
	}
}
