// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The report's load is what the pods served per ready pod, the figure the
// time above the bound counts: the recorded total (a pod not yet ready
// served its part too) shared by the pods ready over each sync's interval
// (one deleted gone from it), nothing at an instant without samples, and an
// External average value shared by the actual replicas.
func TestLoadCurves(t *testing.T) {
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
	snap := &engine.Snapshot{HPA: hpa}
	got, err := LoadCurves(snap, rec, engine.DefaultSettings(), BacktestOptions{Start: at(1), Bounds: []Bound{{Metric: 0, Utilization: 0.8}}}, sum)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d curves, want 2", len(got))
	}
	cpu, queue := got[0], got[1]
	if cpu.Metric != "cpu" || cpu.Unit != "% of request" || cpu.Target != 60 || cpu.Bound != 80 || cpu.BoundWords != "80% of the request" {
		t.Errorf("cpu curve %+v", cpu)
	}
	// From at(1): a and c ready over the first minute (b from at(2): its
	// 0.1 is shared by the two), all three over the second, c gone at
	// at(3), no samples at at(3); a pod requests 0.5.
	want := []float64{100 * 0.9 / 2 / 0.5, 100 * 1.0 / 3 / 0.5, nan, 100 * 0.6 / 2 / 0.5}
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
