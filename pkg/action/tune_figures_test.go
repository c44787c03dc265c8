// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"errors"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

func twoMetricHPA() *autoscalingv2.HorizontalPodAutoscaler {
	u := int32(60)
	h := &autoscalingv2.HorizontalPodAutoscaler{}
	h.Namespace, h.Name = "shop", "web"
	h.Spec.Metrics = []autoscalingv2.MetricSpec{
		{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &u}}},
		{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: "queue"},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewQuantity(30, resource.DecimalSI)},
		}},
	}
	return h
}

// The bounds --slo gives: a share of the request for a Utilization target,
// a quantity otherwise; a metric the HPA does not have, or a bound that is
// not one, is a usage error naming the option.
func TestTuneBounds(t *testing.T) {
	h := twoMetricHPA()
	names := []string{"cpu", "queue"}
	got, err := tuneBounds(h, names, map[string]string{"cpu": "85%", "queue": "45"})
	if err != nil {
		t.Fatal(err)
	}
	want := []whatif.Bound{{Metric: 0, Utilization: 0.85}, {Metric: 1, Milli: 45000}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("bounds %+v, want %+v", got, want)
	}
	for slo, wantErr := range map[string]string{
		"memory=90%": `--slo memory: HPA shop/web has no metric "memory" (its metrics: cpu, queue)`,
		"cpu=lots":   `--slo cpu: "lots": want a percent of the request such as 90%`,
		"queue=-3":   `--slo queue: "-3": want a positive quantity such as 40 or 500m`,
	} {
		k, v, _ := strings.Cut(slo, "=")
		_, err := tuneBounds(h, names, map[string]string{k: v})
		var usage *UsageError
		if err == nil || err.Error() != wantErr || !asUsage(err, &usage) {
			t.Errorf("--slo %s: %v, want the usage error %q", slo, err, wantErr)
		}
	}
}

func asUsage(err error, target **UsageError) bool { return errors.As(err, target) }

// The notes of a tune say what it replayed, the load model, the clock's
// guesses, the variants and who swings, and why there is no
// recommendation when there is none.
func TestTuneNotes(t *testing.T) {
	doc := &explain.Tune{
		Replayed: 42, GridSize: 1000, Rounds: 3, LoadModel: explain.LoadConstantTotal, CostUnit: "core-hours",
		Recommended: -1, RiskBound: 0.05, Variants: []string{"scrapes 2.5s later", "the load 1% higher"},
		Clock: &explain.Clock{
			SyncPeriod:    explain.ClockFigure{Value: "15s", Source: "assumed", Detail: "kube-controller-manager's default", IfWrong: "a wrong period shifts every reaction"},
			MetricsWindow: explain.ClockFigure{Value: "10s", Source: "read", Detail: "PodMetrics"},
		},
	}
	res := &tune.Result{
		Candidates: []tune.Candidate{
			{Values: []string{"60%"}, Figures: tune.Figures{Cost: 1, Risk: 0.1}, Range: &tune.Range{Cost: [2]float64{1, 1.2}, Risk: [2]float64{0.1, 0.2}, Swings: true}},
			{Values: []string{"50%"}, Figures: tune.Figures{Cost: 2, Risk: 0.04}, Range: &tune.Range{Cost: [2]float64{2, 2}, Risk: [2]float64{0.04, 0.04}}},
		},
		Current: 1, Finalists: []int{0, 1},
	}
	bt := &explain.Backtest{AsIs: explain.BacktestPath{Summary: explain.PathSummary{MetricsFailed: []explain.MetricTime{{Metric: "queue", Duration: (30 * time.Second).String(), Fraction: 0.1}}}}}
	notes := strings.Join(tuneNotes(doc, res, bt), "\n")
	for _, want := range []string{
		"42 of the grid's 1000 settings replayed",
		"load model constant-total",
		"the controller's sync period 15s (assumed: kube-controller-manager's default): a wrong period shifts every reaction",
		"the 2 finalists",
		"under 2 variants of the recording (scrapes 2.5s later; the load 1% higher)",
		"60% swings with what the recording cannot tell",
		"cost 1.000–1.200 core-hours, above the bound 10.0%–20.0% of the period",
		"metric queue could not be computed for 10.0% of the period",
		"no candidate kept the time above the bound within 5.0% of the period",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes do not say %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "metrics-server's window") {
		t.Errorf("a read figure of the clock got a note:\n%s", notes)
	}
	if strings.Contains(notes, "the HPA's own setting swings") {
		t.Errorf("the current setting, which does not swing, got a note:\n%s", notes)
	}
}
