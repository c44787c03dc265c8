// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

var bt0 = time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)

// btSnapshot is the live snapshot a backtest starts from: HPA web on cpu
// (50% of a 500m request), min 1, max 10, with behavior b.
func btSnapshot(b *autoscalingv2.HorizontalPodAutoscalerBehavior) *engine.Snapshot {
	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			MinReplicas:    ptr(int32(1)), MaxReplicas: 10, Behavior: b,
			Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
				Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(int32(50))},
			}}},
		},
	}
	engine.DefaultHPA(hpa)
	pod := corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-live", Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}}}}},
	}
	return &engine.Snapshot{
		HPA:    hpa,
		Target: engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", SpecReplicas: 3, StatusReplicas: 3, Selector: "app=web"},
		Pods:   []corev1.Pod{pod},
		Now:    bt0.Add(time.Hour),
	}
}

// world writes a recording the way a source fills one: pods with their
// lives and readiness, a cpu series per pod, and the real replica count.
type world struct {
	rec *recording.Recording
	cpu *recording.Metric
}

func newWorld(start time.Time, step time.Duration, n int) *world {
	w := &world{rec: &recording.Recording{
		Namespace: "shop", Workload: "Deployment/web", Start: start, Step: step, Len: n,
		SampleWindow: 10 * time.Second, SampleLag: 5 * time.Second,
		Replicas: recording.ReplicaHistory{Source: recording.SourceEvents},
	}}
	w.rec.Metrics = []recording.Metric{{Kind: recording.KindResource, Name: "cpu", PerPod: map[string]map[string]*recording.Series{}}}
	w.cpu = &w.rec.Metrics[0]
	return w
}

// pod adds a pod created at c, ready 2 s later, with a sample from 10 s
// after its creation on, of usage(t) cores.
func (w *world) pod(name string, c time.Time, deleted *time.Time, usage func(t time.Time) float64) {
	w.rec.Pods = append(w.rec.Pods, recording.Pod{
		Name: name, Labels: map[string]string{"app": "web"}, Created: c, Deleted: deleted,
		Ready:      []recording.ReadyChange{{At: c.Add(2 * time.Second), Ready: true}},
		Containers: []recording.Container{{Name: "app", Requests: map[string]int64{"cpu": 500}}},
	})
	s := &recording.Series{}
	for k := 0; k < w.rec.Len; k++ {
		t := w.rec.Instant(k)
		if t.Before(c.Add(10*time.Second)) || (deleted != nil && !t.Before(*deleted)) {
			continue
		}
		s.Set(k, usage(t))
	}
	w.cpu.PerPod[name] = map[string]*recording.Series{"app": s}
}

func (w *world) replicas(at time.Time, n int32) {
	w.rec.Replicas.Changes = append(w.rec.Replicas.Changes, recording.ReplicaChange{At: at, Replicas: n})
}

func rescalesOf(rs []explain.ProjectedRescale, start time.Time) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("+%s %d→%d", r.Time.Sub(start), r.From, r.To))
	}
	return strings.Join(parts, ", ")
}

// step returns a usage that is lo cores before at and hi from at on.
func step(at time.Time, lo, hi float64) func(time.Time) float64 {
	return func(t time.Time) float64 {
		if t.Before(at) {
			return lo
		}
		return hi
	}
}

// TestBacktestFollowsReality: the real workload went 3 → 6 two seconds
// after the load doubled (the controller's sync), its new pods ready 2 s
// later and reporting 10 s after their creation. The as-is replay, whose
// replicas are the real ones at every sync but the two seconds in between,
// makes the same rescale at the sync of the rise and no other; pod-hours
// and the peak follow.
func TestBacktestFollowsReality(t *testing.T) {
	start, step15 := bt0, 15*time.Second
	w := newWorld(start, step15, 81) // 20 minutes
	rise := start.Add(5 * time.Minute)
	for i := 0; i < 3; i++ {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, step(rise, 0.25, 0.5))
	}
	scaled := rise.Add(2 * time.Second)
	w.replicas(start.Add(-time.Hour), 3)
	w.replicas(scaled, 6)
	for i := 3; i < 6; i++ {
		// Six pods share the doubled load: 0.25 cores each after the rise.
		w.pod(fmt.Sprintf("web-%d", i), scaled, nil, step(rise, 0.25, 0.25))
	}
	for i := 0; i < 3; i++ {
		w.cpu.PerPod[fmt.Sprintf("web-%d", i)]["app"] = overwriteAfter(w.rec, w.cpu.PerPod[fmt.Sprintf("web-%d", i)]["app"], scaled.Add(10*time.Second), 0.25)
	}
	res, err := Backtest(btSnapshot(nil), w.rec, engine.DefaultSettings(), BacktestOptions{Start: start, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	bt, proj := res.Backtest, res.Projection
	if got, want := rescalesOf(bt.AsIs.Rescales, start), "+5m0s 3→6"; got != want {
		t.Errorf("as-is rescales %q, want %q", got, want)
	}
	if got, want := rescalesOf(bt.Actual.Rescales, start), "+5m2s 3→6"; got != want {
		t.Errorf("actual rescales %q, want %q", got, want)
	}
	if bt.Changed != nil {
		t.Errorf("a changed curve without changes: %+v", bt.Changed)
	}
	// One rescale in the 20 minutes from the first sync: 3 an hour, on
	// both curves (the actual's rescales are counted from the recording).
	for _, c := range []struct {
		name string
		sum  explain.PathSummary
	}{{"as-is", bt.AsIs.Summary}, {"actual", bt.Actual.Summary}} {
		if c.sum.Rescales != 1 || c.sum.RescalesPerHour != 3 {
			t.Errorf("%s: %d rescales, %v per hour; want 1 and 3", c.name, c.sum.Rescales, c.sum.RescalesPerHour)
		}
	}
	if bt.AsIs.Summary.PeakReplicas != 6 || bt.Actual.Summary.PeakReplicas != 6 {
		t.Errorf("peaks %d and %d, want 6", bt.AsIs.Summary.PeakReplicas, bt.Actual.Summary.PeakReplicas)
	}
	// 3 pods for 5 minutes, 6 for 15: 1.75 pod-hours.
	if got := bt.AsIs.Summary.PodHours; math.Abs(got-1.75) > 0.01 {
		t.Errorf("as-is pod-hours %v, want 1.75", got)
	}
	if len(proj.Steps) != 81 || proj.FinalReplicas != 6 || len(proj.Rescales) != 1 {
		t.Errorf("projection: %d steps, final %d, %d rescales", len(proj.Steps), proj.FinalReplicas, len(proj.Rescales))
	}
	// The rise is met at the first sync after it: no lag longer than the
	// sync that saw it.
	if bt.AsIs.Summary.LongestLag != "" {
		t.Errorf("as-is lag %s from %v", bt.AsIs.Summary.LongestLag, bt.AsIs.Summary.LagStart)
	}
	if len(bt.AsIs.Summary.AboveTarget) != 1 || bt.AsIs.Summary.AboveTarget[0].Metric != "cpu" {
		t.Fatalf("above target: %+v", bt.AsIs.Summary.AboveTarget)
	}
}

// overwriteAfter sets a series to v from instant at on.
func overwriteAfter(rec *recording.Recording, s *recording.Series, at time.Time, v float64) *recording.Series {
	for k := s.First; k < s.First+len(s.Values); k++ {
		if !rec.Instant(k).Before(at) {
			s.Values[k-s.First] = v
		}
	}
	return s
}

// TestBacktestChangedBehavior: the same rise, replayed with a scale-up
// policy of one pod a minute, goes 3 → 4 → 5 → 6 a minute apart, on pods
// the replay adds (the real workload had six at once), with the load
// shared by the pods that report.
func TestBacktestChangedBehavior(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 81)
	rise := start.Add(5 * time.Minute)
	for i := 0; i < 3; i++ {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, step(rise, 0.25, 0.5))
	}
	w.replicas(start.Add(-time.Hour), 3)
	slow := &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: &autoscalingv2.HPAScalingRules{
		StabilizationWindowSeconds: ptr(int32(0)),
		Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 60}},
	}}
	opts := BacktestOptions{Start: start, Changes: &Overrides{Behavior: slow, BehaviorSource: "slow.yaml"}, PodStartup: 2 * time.Second, SampleDelay: 10 * time.Second}
	res, err := Backtest(btSnapshot(nil), w.rec, engine.DefaultSettings(), opts)
	if err != nil {
		t.Fatal(err)
	}
	bt, proj := res.Backtest, res.Projection
	if bt.Changed == nil {
		t.Fatal("no changed curve")
	}
	if got, want := rescalesOf(bt.Changed.Rescales, start), "+5m0s 3→4, +6m0s 4→5, +7m0s 5→6"; got != want {
		t.Errorf("changed rescales %q, want %q", got, want)
	}
	// The real workload stayed at 3 (no HPA acted): the as-is replay
	// scales at once, on added pods.
	if got, want := rescalesOf(bt.AsIs.Rescales, start), "+5m0s 3→6"; got != want {
		t.Errorf("as-is rescales %q, want %q", got, want)
	}
	if len(bt.Actual.Rescales) != 0 || bt.Actual.Summary.PeakReplicas != 3 {
		t.Errorf("actual: %+v", bt.Actual)
	}
	if proj.FinalReplicas != 6 || len(proj.Rescales) != 3 {
		t.Errorf("the projection is the changed replay: final %d, %d rescales", proj.FinalReplicas, len(proj.Rescales))
	}
	if lag := bt.Changed.Summary.LongestLag; lag == "" {
		t.Error("the slow scale-up lags behind the rise, yet no lag")
	} else if d, _ := time.ParseDuration(lag); d < 2*time.Minute {
		t.Errorf("changed lag %s, want at least the two minutes to reach 6", lag)
	}
	if len(bt.Changes) != 1 || !strings.Contains(bt.Changes[0], "slow.yaml") {
		t.Errorf("changes %q", bt.Changes)
	}
}

// A backtest without its projection's steps (tune's) is the same
// backtest, with and without changes: the steps' fuller evaluation of
// each sync changes no outcome, and its replays are the fast path's (each
// checked against the reference one sync by sync, checkFastReplay).
func TestBacktestNoSteps(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 81)
	rise, fall := start.Add(5*time.Minute), start.Add(12*time.Minute)
	for i := 0; i < 3; i++ {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, func(t time.Time) float64 {
			if t.Before(rise) || !t.Before(fall) {
				return 0.25
			}
			return 0.5
		})
	}
	w.replicas(start.Add(-time.Hour), 3)
	slow := &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: &autoscalingv2.HPAScalingRules{
		Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 60}},
	}}
	for _, changes := range []*Overrides{nil, {Behavior: slow}} {
		opts := BacktestOptions{Start: start, Changes: changes, PodStartup: 2 * time.Second, SampleDelay: 10 * time.Second}
		full, err := Backtest(btSnapshot(nil), w.rec, engine.DefaultSettings(), opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.NoSteps = true
		served := fastServed.Load()
		bare, err := Backtest(btSnapshot(nil), w.rec, engine.DefaultSettings(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if n, want := fastServed.Load()-served, int64(len(full.Backtest.Changes)+1); n != want {
			t.Errorf("changes %v: the fast path served %d replays without steps, want %d", changes != nil, n, want)
		}
		if bare.AsIs != nil || bare.Changed != nil {
			t.Errorf("changes %v: last decisions kept without steps", changes != nil)
		}
		if len(full.Projection.Steps) == 0 || len(full.Backtest.AsIs.Rescales) == 0 {
			t.Fatalf("changes %v: %d steps, %d rescales: nothing to compare", changes != nil, len(full.Projection.Steps), len(full.Backtest.AsIs.Rescales))
		}
		if len(bare.Projection.Steps) != 0 || len(bare.Projection.Rescales) != 0 {
			t.Errorf("changes %v: %d steps, %d rescales without steps", changes != nil, len(bare.Projection.Steps), len(bare.Projection.Rescales))
		}
		a, _ := json.Marshal(full.Backtest)
		b, _ := json.Marshal(bare.Backtest)
		if !bytes.Equal(a, b) {
			t.Errorf("changes %v: the backtest differs without steps:\n%s\n%s", changes != nil, a, b)
		}
		if !reflect.DeepEqual(full.AsIsFigures, bare.AsIsFigures) || full.Projection.FinalReplicas != bare.Projection.FinalReplicas {
			t.Errorf("changes %v: figures %+v vs %+v, final %d vs %d", changes != nil, full.AsIsFigures, bare.AsIsFigures, full.Projection.FinalReplicas, bare.Projection.FinalReplicas)
		}
	}
}

// TestReplayAtHold: the load halves at +5m and the default 5-minute
// scale-down window holds 6; explaining +7m gives the hold and its end,
// five minutes after the last recommendation of 6.
func TestReplayAtHold(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 61)
	fall := start.Add(5 * time.Minute)
	for i := 0; i < 6; i++ {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, step(fall, 0.25, 0.125))
	}
	w.replicas(start.Add(-time.Hour), 6)
	at := start.Add(7 * time.Minute)
	d, err := ReplayAt(btSnapshot(nil), w.rec, engine.DefaultSettings(), at, BacktestOptions{Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if d.DecidedBy.Kind != explain.DecidedByScaleDownStabilization || d.DecidedBy.HeldUntil == nil {
		t.Fatalf("decided by %+v, want the scale-down window", d.DecidedBy)
	}
	// The last recommendation of 6 is the sync before the fall (+4m45s):
	// it leaves the window at +9m45s.
	if want := start.Add(4*time.Minute + 45*time.Second + 5*time.Minute); !d.DecidedBy.HeldUntil.Equal(want) {
		t.Errorf("held until %s, want %s", d.DecidedBy.HeldUntil, want)
	}
	if !d.Now.Equal(at) || d.CurrentReplicas != 6 || d.DesiredReplicas != 6 {
		t.Errorf("sync at %s: %d → %d", d.Now, d.CurrentReplicas, d.DesiredReplicas)
	}
	if !strings.Contains(strings.Join(d.Assumptions, "\n"), "replayed over recorded load (test)") {
		t.Errorf("assumptions %q", d.Assumptions)
	}
	if _, err := ReplayAt(btSnapshot(nil), w.rec, engine.DefaultSettings(), start.Add(-time.Second), BacktestOptions{}); err == nil || !strings.Contains(err.Error(), "before the recorded load") {
		t.Errorf("ReplayAt before the recording: %v", err)
	}
}

// TestBacktestExternal: an External metric's recorded total drives the
// replay; an instant without a value fails the metric as the controller's
// missing metric would.
func TestBacktestExternal(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 21)
	w.rec.Metrics = []recording.Metric{{Kind: recording.KindExternal, Name: "queue", Query: "sum(queue)", Total: &recording.Series{}}}
	for k := 0; k < 21; k++ {
		switch {
		case k == 10:
			// no sample
		case k < 5:
			w.rec.Metrics[0].Total.Set(k, 20)
		default:
			w.rec.Metrics[0].Total.Set(k, 80)
		}
	}
	for i := 0; i < 2; i++ {
		w.rec.Pods = append(w.rec.Pods, recording.Pod{
			Name: fmt.Sprintf("q-%d", i), Labels: map[string]string{"app": "web"}, Created: start.Add(-time.Hour),
			Ready: []recording.ReadyChange{{At: start.Add(-time.Hour), Ready: true}},
		})
	}
	w.replicas(start.Add(-time.Hour), 2)
	snap := btSnapshot(&autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(0))}})
	snap.HPA.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: "queue"}, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("10"))},
	}}}
	res, err := Backtest(snap, w.rec, engine.DefaultSettings(), BacktestOptions{Start: start})
	if err != nil {
		t.Fatal(err)
	}
	bt, proj := res.Backtest, res.Projection
	// The default scale-up policies allow 4 pods or 100% per 15 s.
	if got, want := rescalesOf(bt.AsIs.Rescales, start), "+1m15s 2→6, +1m30s 6→8"; got != want {
		t.Errorf("as-is rescales %q, want %q", got, want)
	}
	if s := proj.Steps[10]; s.Outcome != explain.OutcomeMetricsFailed {
		t.Errorf("the sync without a value: outcome %s (%s)", s.Outcome, s.Reason)
	}
}

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestBacktestViews renders the backtest of TestBacktestChangedBehavior in
// every view (the plain and styled text, JSON and YAML).
func TestBacktestViews(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 81)
	rise, fall := start.Add(5*time.Minute), start.Add(12*time.Minute)
	for i := 0; i < 3; i++ {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, func(t time.Time) float64 {
			switch {
			case t.Before(rise):
				return 0.25
			case t.Before(fall):
				return 0.5
			}
			return 0.2
		})
	}
	w.replicas(start.Add(-time.Hour), 3)
	w.rec.Sources = []recording.Source{{What: "cpu usage", Query: `irate(container_cpu_usage_seconds_total{namespace="shop"}[30s])`, Series: 3}}
	w.rec.Reconstructed = []string{"the pods' readiness, from their first sample"}
	slow := &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: &autoscalingv2.HPAScalingRules{
		StabilizationWindowSeconds: ptr(int32(0)),
		Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 60}},
	}}
	res, err := Backtest(btSnapshot(nil), w.rec, engine.DefaultSettings(), BacktestOptions{
		Start: start, Changes: &Overrides{Behavior: slow, BehaviorSource: "slow-up.yaml"}, Source: "Prometheus at http://127.0.0.1:9090",
	})
	if err != nil {
		t.Fatal(err)
	}
	wi := &explain.WhatIf{
		APIVersion: explain.APIVersion, Kind: explain.KindWhatIf, Changes: res.Backtest.Changes,
		Before: res.AsIs, After: res.Changed, Projection: res.Projection, Backtest: res.Backtest,
	}
	for _, v := range []struct {
		name   string
		format render.Format
		opts   render.Options
	}{
		{"plain", render.FormatText, render.Options{}},
		{"styled", render.FormatText, render.Options{Color: true, Palette: render.Palette256, Width: 100}},
		{"json", render.FormatJSON, render.Options{}},
	} {
		t.Run(v.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := render.WriteWhatIf(&buf, v.format, wi, v.opts); err != nil {
				t.Fatal(err)
			}
			testutil.AssertGolden(t, buf.Bytes(), *updateGolden)
		})
	}
}
