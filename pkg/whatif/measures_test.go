// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// TestSummerMeasures sums a hand-made curve: 10 syncs 15 s apart, 2
// replicas, then 3 from the sixth on; metric 0 above its bound at syncs
// 1-2 and 4-6 (the second stretch the worst, 45 s), beyond the tolerance
// at 1-2, failed at 8; a pod requests 250m and 512 MiB (memory not
// counted: the HPA does not scale on it).
func TestSummerMeasures(t *testing.T) {
	rec := &recording.Recording{Start: bt0, Step: 15 * time.Second, Len: 10}
	s := newPathTally(rec, 0)
	s.labels = []string{"cpu"}
	s.bounds = []string{"90% of the request"}
	s.cpuMilli = 250
	over := map[int]bool{1: true, 2: true, 4: true, 5: true, 6: true}
	for k := range 10 {
		n := int32(2)
		if k >= 5 {
			n = 3
		}
		o := &syncOutcome{current: n, desired: n}
		if over[k] {
			o.over = 1
		}
		if k == 1 || k == 2 {
			o.beyond = 1
			o.recOK, o.recommendation, o.maxReplicas = true, 3, 10
		}
		if k == 8 {
			o.failed = 1
		}
		s.add(k, n, o)
	}
	sum := s.path("x", "replay").Summary
	// 9 steps of 15 s are counted (the last instant ends the period).
	period := 135 * time.Second
	if want := (2*5 + 3*4) * 15.0 / 3600; math.Abs(sum.PodHours-math.Round(want*1000)/1000) > 1e-9 {
		t.Errorf("pod-hours %v, want %v", sum.PodHours, want)
	}
	if sum.CoreHours == nil || math.Abs(*sum.CoreHours-math.Round(0.25*(2*5+3*4)*15.0/3600*1000)/1000) > 1e-9 {
		t.Errorf("core-hours %v", sum.CoreHours)
	}
	if sum.GiBHours != nil {
		t.Errorf("GiB-hours %v without a memory metric", *sum.GiBHours)
	}
	ab := sum.AboveBound[0]
	if ab.Duration != "1m15s" || ab.Worst != "45s" || ab.WorstStart == nil || !ab.WorstStart.Equal(bt0.Add(60*time.Second)) || ab.Bound != "90% of the request" {
		t.Errorf("above the bound: %+v", ab)
	}
	if f := math.Round(float64(75*time.Second)/float64(period)*1000) / 1000; ab.Fraction != f {
		t.Errorf("fraction %v, want %v", ab.Fraction, f)
	}
	if sum.BeyondTolerance[0].Duration != "30s" || sum.MetricsFailed[0].Duration != "15s" {
		t.Errorf("beyond %+v, failed %+v", sum.BeyondTolerance, sum.MetricsFailed)
	}
	// The rise at sync 1 (3 asked for, 2 had) was met at sync 5 (3 pods).
	if len(sum.Lags) != 1 || !sum.Lags[0].Start.Equal(bt0.Add(15*time.Second)) || sum.Lags[0].Duration != "1m0s" || !sum.Lags[0].Met {
		t.Errorf("lags %+v", sum.Lags)
	}
	if sum.RescalesPerHour != 0 {
		t.Errorf("rescales per hour %v with no rescale", sum.RescalesPerHour)
	}
}

// TestBoundOver: each target type against its bound.
func TestBoundOver(t *testing.T) {
	u := func(v int32) *int32 { return &v }
	q := func(s string) *resource.Quantity { v := resource.MustParse(s); return &v }
	for _, c := range []struct {
		b    Bound
		m    explain.MetricResult
		want bool
	}{
		{Bound{Utilization: 0.9}, explain.MetricResult{Utilization: u(91)}, true},
		{Bound{Utilization: 0.9}, explain.MetricResult{Utilization: u(90)}, false},
		{Bound{Milli: 40000}, explain.MetricResult{TargetType: "AverageValue", Usage: &explain.Usage{AverageMilli: 40001}}, true},
		{Bound{Milli: 40000}, explain.MetricResult{TargetType: "AverageValue", Usage: &explain.Usage{AverageMilli: 40000}}, false},
		{Bound{Milli: 1500}, explain.MetricResult{TargetType: "Value", Value: q("1600m")}, true},
		{Bound{Utilization: 0.9}, explain.MetricResult{Utilization: u(120), Error: ptr("no metrics")}, false},
	} {
		if got := c.b.over(&c.m); got != c.want {
			t.Errorf("%+v over %+v: %v, want %v", c.b, c.m, got, c.want)
		}
	}
	cpu := autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: u(85)},
	}}
	if b := DefaultBound(0, &cpu); b.Utilization != 0.925 {
		t.Errorf("default bound at an 85%% target: %v", b.Utilization)
	}
	ext := autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: q("30")},
	}}
	if b := DefaultBound(1, &ext); b.Milli != 45000 || b.Metric != 1 {
		t.Errorf("default bound of an average value of 30: %+v", b)
	}
}

// TestReplayHPAEqualsBacktest: a candidate's replay is the backtest's
// replay with the same changes, figure for figure (the property tune's
// reported figures rest on).
func TestReplayHPAEqualsBacktest(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 81)
	rise, fall := start.Add(5*time.Minute), start.Add(12*time.Minute)
	for i := range 3 {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, func(t time.Time) float64 {
			switch {
			case t.Before(rise):
				return 0.25
			case t.Before(fall):
				return 0.5
			}
			return 0.1
		})
	}
	w.replicas(start.Add(-time.Hour), 3)
	for _, ch := range []*Overrides{
		{Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: &autoscalingv2.HPAScalingRules{
			StabilizationWindowSeconds: ptr(int32(0)),
			Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 60}},
		}}, BehaviorSource: "slow.yaml"},
		{Targets: []TargetOverride{mustTarget(t, "cpu=70%")}},
	} {
		snap := btSnapshot(nil)
		// At the rise each pod serves 0.5 cores of its 0.5 requested; a
		// fourth pod (the slow candidate's first step) leaves each 0.375,
		// still above 70%.
		opts := BacktestOptions{Start: start, Changes: ch, PodStartup: 2 * time.Second, SampleDelay: 10 * time.Second, Bounds: []Bound{{Metric: 0, Utilization: 0.7}}}
		res, err := Backtest(snap, w.rec, engine.DefaultSettings(), opts)
		if err != nil {
			t.Fatal(err)
		}
		edited, _, err := Apply(snap, ch, engine.DefaultSettings())
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReplayHPA(snap, w.rec, engine.DefaultSettings(), edited.HPA, opts)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(res.Backtest.Changed)
		b, _ := json.Marshal(got)
		if !bytes.Equal(a, b) {
			t.Errorf("changes %+v:\nbacktest %s\nreplay   %s", ch, a, b)
		}
		// The slow candidate spends time above the bound; the one at 70%
		// (3 → 5 at once) none.
		if got.Summary.AboveBound[0].Bound != "70% of the request" || (got.Summary.AboveBound[0].Fraction == 0) == (ch.Behavior != nil) {
			t.Errorf("above the bound: %+v", got.Summary.AboveBound)
		}
	}
}

// TestReplayHPAConcurrent: tune replays its candidates on every core, over
// one recording and one snapshot; replays running at once give what each
// gives alone (and, under -race, share nothing they write).
func TestReplayHPAConcurrent(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 61)
	rise := start.Add(5 * time.Minute)
	for i := range 3 {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, step(rise, 0.25, 0.5))
	}
	w.replicas(start.Add(-time.Hour), 3)
	snap := btSnapshot(nil)
	set := engine.DefaultSettings()
	opts := BacktestOptions{Start: start}
	var hpas []*autoscalingv2.HorizontalPodAutoscaler
	var want [][]byte
	for _, target := range []int32{40, 50, 60, 70} {
		h := snap.HPA.DeepCopy()
		h.Spec.Metrics[0].Resource.Target.AverageUtilization = ptr(target)
		path, err := ReplayHPA(snap, w.rec, set, h, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(path)
		hpas, want = append(hpas, h), append(want, b)
	}
	got := make([][]byte, len(hpas))
	errs := make([]error, len(hpas))
	var wg sync.WaitGroup
	for i, h := range hpas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path, err := ReplayHPA(snap, w.rec, set, h, opts)
			errs[i] = err
			got[i], _ = json.Marshal(path)
		}()
	}
	wg.Wait()
	for i := range hpas {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("target %d%%: the replay run beside others differs from the one run alone", *hpas[i].Spec.Metrics[0].Resource.Target.AverageUtilization)
		}
	}
}

// The time above a bound is measured on the load each ready pod served:
// the recorded total at the sync's moment (the samples a resolution
// later), shared by the sync's ready pods, whatever the controller's
// samples said then.
func TestDemandOver(t *testing.T) {
	every := 5 * time.Second
	w := newWorld(bt0, every, 8)
	// Two pods of a 500m request: 0.4 cores each until instant 4, then
	// 0.5 (a rise to 1 core; the samples show it two instants late).
	for _, name := range []string{"web-a", "web-b"} {
		w.pod(name, bt0.Add(-time.Minute), nil, step(bt0.Add(4*every), 0.4, 0.5))
	}
	hpa := btSnapshot(nil).HPA // cpu at 50%; the default bound is 90% of 500m
	for _, tc := range []struct {
		model string
		ready []int // the sync's ready pods, instant by instant
		want  string
	}{
		// 800m over 2 pods is 80%, then 1000m 100% from instant 2 (the
		// samples of 4): above; over 3 pods, never.
		{explain.LoadConstantTotal, []int{2, 2, 2, 2, 2, 2, 2, 2}, "..######"},
		{explain.LoadConstantTotal, []int{3, 3, 3, 3, 3, 3, 3, 3}, "........"},
		// Ready pods from 2 to 3 at instant 5: above from 2 to 4.
		{explain.LoadConstantTotal, []int{2, 2, 2, 2, 2, 3, 3, 3}, "..###..."},
		// Constant-per-pod: each pod serves the recorded average.
		{explain.LoadConstantPerPod, []int{3, 3, 3, 3, 3, 3, 3, 3}, "..######"},
	} {
		p, err := newReplayRun("as-is", btSnapshot(nil), hpa, w.rec, engine.Settings{}, BacktestOptions{LoadModel: tc.model})
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		for k, n := range tc.ready {
			p.readyNow = n
			over, ok := p.demandOver(0, k)
			if !ok {
				t.Fatalf("%s: the cpu bound is not on the recorded load", tc.model)
			}
			got.WriteByte(".#"[b2i(over)])
		}
		if got.String() != tc.want {
			t.Errorf("%s, ready %v: above the bound %q, want %q", tc.model, tc.ready, got.String(), tc.want)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
