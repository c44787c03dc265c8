// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// The report's load is the recording read per ready pod: a pod not yet
// ready, one already deleted and an instant without samples are left
// out, and an External average value is shared by the actual replicas.
func TestRecordedLoads(t *testing.T) {
	start := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	step := time.Minute
	at := func(k int) time.Time { return start.Add(time.Duration(k) * step) }
	late := at(2)
	gone := at(3)
	pod := func(name string, created time.Time, readyAt time.Time, deleted *time.Time) recording.Pod {
		return recording.Pod{
			Name: name, Created: created, Deleted: deleted, Ready: []recording.ReadyChange{{At: readyAt, Ready: true}},
			Containers: []recording.Container{{Name: "app", Requests: map[string]int64{"cpu": 500}}},
		}
	}
	series := func(vs ...float64) *recording.Series { return &recording.Series{First: 0, Values: vs} }
	nan := math.NaN()
	rec := &recording.Recording{
		Start: start, Step: step, Len: 5,
		Pods: []recording.Pod{pod("a", start, start, nil), pod("b", start, late, nil), pod("c", start, start, &gone)},
		Metrics: []recording.Metric{
			{Kind: recording.KindResource, Name: "cpu", PerPod: map[string]map[string]*recording.Series{
				"a": {"app": series(0.3, 0.3, 0.3, nan, 0.4)},
				"b": {"app": series(0.1, 0.1, 0.2, nan, 0.2)},
				"c": {"app": series(0.5, 0.5, 0.5, nan, 0.5)},
			}},
			{Kind: recording.KindExternal, Name: "queue", Total: series(90, 90, 90, 90, 90)},
		},
		Replicas: recording.ReplicaHistory{Changes: []recording.ReplicaChange{{At: start, Replicas: 3}, {At: at(3), Replicas: 2}}},
	}
	util := int32(60)
	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MaxReplicas: 10, Metrics: []autoscalingv2.MetricSpec{
			{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
				Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &util},
			}},
			{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: "queue"},
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewQuantity(20, resource.DecimalSI)},
			}},
		}},
	}
	sum := &explain.PathSummary{AboveBound: []explain.BoundTime{{Metric: "cpu", Bound: "80% of the request"}, {Metric: "queue", Bound: "30 per pod"}}}
	got := recordedLoads(hpa, rec, []whatif.Bound{{Metric: 0, Utilization: 0.8}}, sum, at(1))
	if len(got) != 2 {
		t.Fatalf("%d curves, want 2", len(got))
	}
	cpu, queue := got[0], got[1]
	if cpu.Metric != "cpu" || cpu.Unit != "% of request" || cpu.Target != 60 || cpu.Bound != 80 || cpu.BoundWords != "80% of the request" {
		t.Errorf("cpu curve %+v", cpu)
	}
	// from at(1): a and c ready (b from at(2)), c gone at at(3), no
	// samples at at(3).
	want := []float64{100 * 0.8 / 1.0, 100 * 1.0 / 1.5, nan, 100 * 0.6 / 1.0}
	checkPoints(t, "cpu", cpu.Points, at(1), want)
	if queue.Unit != "per pod" || queue.Target != 20 || queue.Bound != 30 {
		t.Errorf("queue curve %+v (the default bound is 1.5 times the target)", queue)
	}
	checkPoints(t, "queue", queue.Points, at(1), []float64{30, 30, 45, 45})
}

func checkPoints(t *testing.T, name string, pts []explain.LoadPoint, from time.Time, want []float64) {
	t.Helper()
	if len(pts) != len(want) {
		t.Fatalf("%s: %d points, want %d", name, len(pts), len(want))
	}
	for i, p := range pts {
		if !p.Time.Equal(from.Add(time.Duration(i) * time.Minute)) {
			t.Errorf("%s: point %d at %s", name, i, p.Time)
		}
		if math.IsNaN(want[i]) != math.IsNaN(p.Value) || (!math.IsNaN(want[i]) && math.Abs(p.Value-want[i]) > 1e-9) {
			t.Errorf("%s: point %d is %v, want %v", name, i, p.Value, want[i])
		}
	}
}

func TestReportOptionsChecks(t *testing.T) {
	src := Source{Now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)}
	in := DefaultTuneInput()
	in.Since = "1h"
	in.Recorded.Prometheus.Endpoint = "http://prometheus:9090"
	in.ReportCandidates = []string{"3"}
	_, err := in.Config(src, "web", SettingsOverrides{})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--report-candidate goes with --report") {
		t.Errorf("--report-candidate without --report: %v", err)
	}
	in.Report.File = "r.html"
	for _, bad := range []string{"x", "-1", "300"} {
		in.ReportCandidates = []string{bad}
		if _, err := in.Config(src, "web", SettingsOverrides{}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "want a candidate's index, 0 to 299") {
			t.Errorf("--report-candidate %s: %v", bad, err)
		}
	}
	in.ReportCandidates = []string{"3", " 7", "3"}
	cfg, err := in.Config(src, "web", SettingsOverrides{})
	if err != nil || !cfg.Report || len(cfg.ReportCandidates) != 2 || cfg.ReportCandidates[1] != 7 {
		t.Errorf("--report r.html --report-candidate 3,7,3: %+v, %v", cfg, err)
	}

	w := DefaultWhatIfInput()
	w.CPU = "200m"
	w.Report.File = "r.html"
	if _, err := w.Plan(src, "web", SettingsOverrides{}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "--report goes with --since") {
		t.Errorf("whatif --report without --since: %v", err)
	}
	w.CPU, w.Since = "", "1h"
	w.Recorded.Prometheus.Endpoint = "http://prometheus:9090"
	p, err := w.Plan(src, "web", SettingsOverrides{})
	if err != nil || p.Backtest == nil || !p.Backtest.Report {
		t.Errorf("whatif --since 1h --report r.html: %+v, %v", p, err)
	}
}

// A picked candidate's curve comes from the search's own replay; a pick
// beyond the candidates, of a failed one or of one whose curve was not
// kept is a warning, and the report goes on without it.
func TestTuneReportPicks(t *testing.T) {
	start := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	curve := []explain.ReplicaPoint{{Time: start, Replicas: 3}, {Time: start.Add(time.Minute), Replicas: 5}}
	var replays candidateReplays
	res := &tune.Result{Candidates: []tune.Candidate{
		{Figures: tune.Figures{Ref: replays.keep(&explain.BacktestPath{Replicas: curve}, explain.TuneFigures{})}},
		{Err: "invalid"},
		{Figures: tune.Figures{Ref: -1}},
	}}
	rec := &recording.Recording{Start: start, Step: time.Minute, Len: 2}
	hpa := &autoscalingv2.HorizontalPodAutoscaler{}
	bt := &explain.Backtest{Start: start}
	r, warnings := tuneReport(TuneConfig{Report: true, ReportCandidates: []int{2, 0, 1, 9}}, hpa, rec, nil, res, &replays, bt, []string{"earlier"})
	if len(r.Picked) != 1 || r.Picked[0].Index != 0 || len(r.Picked[0].Replicas) != 2 || r.Picked[0].Replicas[1].Replicas != 5 {
		t.Errorf("picked %+v, want candidate 0's curve alone", r.Picked)
	}
	want := []string{
		"earlier",
		"--report-candidate 2: the search kept no curve of that candidate; the report leaves it out",
		"--report-candidate 1: that candidate could not be replayed (invalid); the report leaves it out",
		"--report-candidate 9: only 3 candidates were replayed (0 to 2); the report leaves it out",
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
}
