// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package reportfixture holds a small hand-made tune and backtest for the
// HTML report's tests: the goldens of pkg/render/report and the browser
// test (test/browser) draw the same ones.
package reportfixture

import (
	"math"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render/report"
)

// Start is the period's start; the period is six hours of one-minute
// syncs.
var Start = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

const syncs = 360

// End is the period's end.
var End = Start.Add(syncs * time.Minute)

func at(m int) time.Time { return Start.Add(time.Duration(m) * time.Minute) }

// curve turns (minute, count) pairs into a replica curve.
func curve(pairs ...int) []explain.ReplicaPoint {
	var out []explain.ReplicaPoint
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, explain.ReplicaPoint{Time: at(pairs[i]), Replicas: int32(pairs[i+1])})
	}
	return out
}

// Loads are a CPU utilization with a daily-like swell, a spike and a gap
// in the recording, and a queue length per pod.
func Loads() []explain.LoadCurve {
	cpu := explain.LoadCurve{Metric: "cpu", Unit: "% of request", Target: 60, Bound: 90, BoundWords: "90% of the request"}
	queue := explain.LoadCurve{Metric: "queue", Unit: "per pod", Target: 30, Bound: 45, BoundWords: "45 per pod"}
	for k := range syncs + 1 {
		v := 45 + 30*math.Sin(2*math.Pi*float64(k)/240)
		if k >= 200 && k < 215 {
			v += 40
		}
		if k >= 100 && k < 105 {
			v = math.NaN()
		}
		cpu.Points = append(cpu.Points, explain.LoadPoint{Time: at(k), Value: math.Round(v*10) / 10})
		q := 22 + 14*math.Cos(2*math.Pi*float64(k)/180)
		queue.Points = append(queue.Points, explain.LoadPoint{Time: at(k), Value: math.Round(q*100) / 100})
	}
	return []explain.LoadCurve{cpu, queue}
}

func backtest(changed bool) *explain.Backtest {
	bt := &explain.Backtest{
		Start: Start, End: End, SyncPeriod: "1m0s", WarmUp: "10m0s", Source: "Prometheus at http://prometheus.example:9090",
		LoadModel: explain.LoadConstantTotal, PodStartup: "30s", SampleDelay: "15s",
		Actual: explain.BacktestPath{Name: "actual", Source: "kube-state-metrics", Replicas: curve(0, 4, 25, 6, 58, 8, 120, 6, 150, 4, 196, 7, 202, 10, 230, 7, 300, 5)},
		AsIs:   explain.BacktestPath{Name: "as-is", Source: "replay", Replicas: curve(-5, 4, 24, 6, 57, 8, 121, 6, 152, 4, 197, 7, 203, 10, 232, 7, 301, 5)},
		Notes:  []string{"every sync replays the controller on the recorded load from the state the sync before left; the HPA's spec is the one it has now (the past spec is not recorded)"},
	}
	bt.Actual.Summary = summary(36.4, 9, 10, 0.021)
	bt.AsIs.Summary = summary(36.1, 9, 10, 0.024)
	if changed {
		c := explain.BacktestPath{Name: "changed", Source: "replay", Replicas: curve(0, 4, 20, 5, 40, 7, 60, 8, 140, 5, 196, 8, 201, 11, 260, 6, 320, 4)}
		c.Summary = summary(35.2, 8, 11, 0.008)
		bt.Changed = &c
		bt.Changes = []string{"target cpu: 60% → 55%", "scale-down stabilization window: 300s → 60s"}
		bt.Reconstructed = []string{"the pods' readiness from their first sample"}
	}
	return bt
}

func summary(podHours float64, rescales int, peak int32, risk float64) explain.PathSummary {
	core := math.Round(podHours*0.5*1000) / 1000
	return explain.PathSummary{
		PodHours: podHours, CoreHours: &core, Rescales: rescales, RescalesPerHour: math.Round(float64(rescales)/6*1000) / 1000, PeakReplicas: peak,
		LongestLag: "2m0s",
		AboveBound: []explain.BoundTime{
			{Metric: "cpu", Bound: "90% of the request", Duration: "7m", Fraction: risk, Worst: "6m"},
			{Metric: "queue", Bound: "45 per pod", Duration: "0s", Fraction: 0, Worst: "0s"},
		},
	}
}

// Backtest is a backtest with changes.
func Backtest() report.Backtest {
	return report.Backtest{HPA: "shop/web", Backtest: backtest(true), Loads: Loads()}
}

// Tune is a tune of two axes, twelve candidates of which one failed and
// one is picked besides the recommendation.
func Tune() report.Tune {
	bt := backtest(false)
	t := &explain.Tune{
		APIVersion: explain.APIVersion, Kind: explain.KindTune, HPA: "shop/web",
		Start: Start, End: End, SyncPeriod: "1m0s", Source: bt.Source, LoadModel: bt.LoadModel, CostUnit: "core-hours",
		Bounds: []explain.MetricBound{{Metric: "cpu", Bound: "90% of the request"}, {Metric: "queue", Bound: "45 per pod"}},
		Space: []explain.TuneAxis{
			{Name: "target cpu", Values: []string{"50%", "55%", "60%", "65%", "70%"}, Current: "60%"},
			{Name: "down-window", Values: []string{"0s", "60s", "300s"}, Current: "300s"},
		},
		GridSize: 15, Replayed: 12, Rounds: 1, Actual: bt.Actual.Summary,
		Reference: explain.TuneFigures{Cost: 18.05, PodHours: 36.1, Risk: 0.024, Rescales: 9, RescalesPerHour: 1.5, PeakReplicas: 10, LongestLag: "2m0s"},
		RiskBound: 0.024,
	}
	type cand struct {
		target, window string
		cost, risk     float64
		frontier       bool
		err            string
		replicas       []explain.ReplicaPoint
	}
	cands := []cand{
		{target: "70%", window: "0s", cost: 14.2, risk: 0.061, frontier: true, replicas: curve(0, 3, 30, 5, 60, 6, 150, 3, 200, 7, 240, 4)},
		{target: "70%", window: "60s", cost: 14.9, risk: 0.052},
		{target: "65%", window: "0s", cost: 15.1, risk: 0.041, frontier: true, replicas: curve(0, 4, 28, 5, 60, 7, 145, 4, 199, 8, 250, 5)},
		{target: "65%", window: "60s", cost: 15.8, risk: 0.022, frontier: true, replicas: curve(0, 4, 26, 6, 58, 7, 140, 5, 198, 9, 262, 5)},
		{target: "65%", window: "300s", cost: 17.0, risk: 0.026},
		{target: "60%", window: "60s", cost: 16.6, risk: 0.019, frontier: true, replicas: curve(0, 4, 25, 6, 57, 8, 135, 5, 197, 9, 265, 5)},
		{target: "60%", window: "300s", cost: 18.05, risk: 0.024, replicas: curve(0, 4, 24, 6, 57, 8, 121, 6, 152, 4, 197, 7, 203, 10, 232, 7, 301, 5)},
		{target: "55%", window: "60s", cost: 17.9, risk: 0.009, frontier: true, replicas: curve(0, 5, 24, 7, 55, 9, 130, 6, 196, 10, 270, 6)},
		{target: "55%", window: "300s", cost: 19.6, risk: 0.011},
		{target: "50%", window: "0s", cost: 19.2, risk: 0.004, frontier: true, replicas: curve(0, 5, 22, 7, 50, 9, 128, 6, 195, 11, 280, 6)},
		{target: "50%", window: "300s", cost: 21.3, risk: 0.003, frontier: true, replicas: curve(0, 5, 22, 8, 50, 10, 200, 12, 300, 8)},
		{target: "45%", window: "0s", err: "spec.metrics[0].resource.target.averageUtilization: Invalid value"},
	}
	for _, c := range cands {
		tc := explain.TuneCandidate{Values: []string{c.target, c.window}, Frontier: c.frontier, Error: c.err, Replicas: c.replicas}
		if c.err == "" {
			tc.Figures = &explain.TuneFigures{
				Cost: c.cost, PodHours: c.cost * 2, Risk: c.risk, Rescales: 8, RescalesPerHour: 1.333, PeakReplicas: 10, LongestLag: "1m0s",
			}
		}
		t.Candidates = append(t.Candidates, tc)
	}
	t.Current, t.Recommended = 6, 5
	t.Recommendation = &explain.TuneRecommendation{
		Changes: []string{"scale-down stabilization window: 300s → 60s"},
		Patch:   `{"spec":{"behavior":{"scaleDown":{"stabilizationWindowSeconds":60}}}}`,
		Command: `kubectl patch hpa web -n shop --type merge -p '{"spec":{"behavior":{"scaleDown":{"stabilizationWindowSeconds":60}}}}'`,
		Saving:  1.45, SavingFraction: 0.08,
	}
	t.Notes = []string{
		"12 of the grid's 15 settings replayed, each over the whole period, sync by sync, by the same replay as a backtest (1 refinement rounds after the first)",
		"load model constant-total: a candidate that runs another number of pods than the workload really had shares the recorded total load over its ready pods",
	}
	return report.Tune{
		Tune: t, Backtest: bt, Loads: Loads(),
		Picked:     []report.Picked{{Index: 1, Replicas: curve(0, 3, 30, 5, 62, 6, 155, 4, 201, 7, 245, 4)}},
		PickOption: "--report-candidate",
	}
}

// Fleet is a hand-made fleet (tune without a NAME): two recommendations in two cost
// units, an HPA whose own setting is the cheapest, one whose replay
// strayed, and one that could not be tuned.
func Fleet() *explain.TuneFleet {
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	return &explain.TuneFleet{
		APIVersion: explain.APIVersion, Kind: explain.KindTuneFleet, Start: start, End: start.Add(7 * 24 * time.Hour), MinFidelity: 0.9,
		Items: []explain.FleetItem{
			{
				HPA: explain.ObjectRef{Namespace: "shop", Name: "web"}, CostUnit: "core-hours", Status: explain.FleetRecommended,
				AsIs: &explain.FleetFigures{Cost: 120.5, Risk: 0.031, RescalesPerHour: 4.2}, Recommended: &explain.FleetFigures{Cost: 88.25, Risk: 0.029, RescalesPerHour: 3.1},
				Saving: 32.25, SavingFraction: 0.268, Changes: []string{"target of cpu 50% → 65%", "down-window 5m0s → 1m0s"},
				Command:  `kubectl patch hpa web -n shop --type merge -p '{"spec":{}}'`,
				Fidelity: &explain.Fidelity{Source: "kube-state-metrics", Equal: 0.973, Rescales: 210, Matched: 204},
			},
			{
				HPA: explain.ObjectRef{Namespace: "batch", Name: "worker"}, CostUnit: "pod-hours", Status: explain.FleetRecommended,
				AsIs: &explain.FleetFigures{Cost: 40, Risk: 0, RescalesPerHour: 1}, Recommended: &explain.FleetFigures{Cost: 31, Risk: 0, RescalesPerHour: 1.5},
				Saving: 9, SavingFraction: 0.225, Changes: []string{"min-replicas 4 → 2"}, Command: "kubectl patch hpa worker -n batch --type merge -p '{}'",
				Fidelity: &explain.Fidelity{Source: "events", Equal: 0.991, Rescales: 12, Matched: 12},
			},
			{
				HPA: explain.ObjectRef{Namespace: "shop", Name: "cart"}, CostUnit: "core-hours", Status: explain.FleetNoChange,
				AsIs:     &explain.FleetFigures{Cost: 10, Risk: 0.05, RescalesPerHour: 0.5},
				Reason:   "the HPA's own setting is the cheapest within the bound",
				Fidelity: &explain.Fidelity{Source: "kube-state-metrics", Equal: 1, Rescales: 3, Matched: 3},
			},
			{
				HPA: explain.ObjectRef{Namespace: "shop", Name: "search"}, CostUnit: "core-hours", Status: explain.FleetUntrusted,
				AsIs:     &explain.FleetFigures{Cost: 55, Risk: 0.2, RescalesPerHour: 9},
				Reason:   "the as-is replay held the recorded replica count (pods) 61.0% of the period, below 90.0%, and made 20 of its 64 rescales: its figures are not to be trusted",
				Fidelity: &explain.Fidelity{Source: "pods", Equal: 0.61, Rescales: 64, Matched: 20},
			},
			{HPA: explain.ObjectRef{Namespace: "shop", Name: "legacy"}, Status: explain.FleetFailed, Reason: "HPA shop/legacy: metric 2 (queue): no query reads it (--query queue=PROMQL)"},
		},
		Totals: []explain.FleetTotal{
			{CostUnit: "core-hours", HPAs: 3, Recommended: 1, AsIs: 185.5, WithRecommendations: 153.25, Saving: 32.25},
			{CostUnit: "pod-hours", HPAs: 1, Recommended: 1, AsIs: 40, WithRecommendations: 31, Saving: 9},
		},
		Notes: []string{"each HPA tuned as tune NAME tunes it"},
	}
}
