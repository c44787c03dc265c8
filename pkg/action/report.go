// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"math"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// ReportInput is where the HTML report of a tune or a backtest goes
// (ReportOptions).
type ReportInput struct {
	File string
}

// TuneReport is what the HTML report of a tune draws beyond the tune
// document: the recorded load, and the curves of the candidates the user
// picked. The document keeps only the frontier's, the current setting's
// and the recommendation's curves.
type TuneReport struct {
	Loads  []explain.LoadCurve
	Picked []PickedCurve
}

// PickedCurve is a picked candidate's replica curve, by its index in the
// tune's candidates.
type PickedCurve struct {
	Index    int
	Replicas []explain.ReplicaPoint
}

// tuneReport gathers the report's data from the search, which still holds
// every candidate's replay: a picked candidate needs no second replay. A
// pick that names no replayed candidate is a warning, not an error: the
// search behind it took long, and the report is still worth writing.
func tuneReport(cfg TuneConfig, hpa *autoscalingv2.HorizontalPodAutoscaler, rec *recording.Recording, bounds []whatif.Bound, res *tune.Result, replays *candidateReplays, bt *explain.Backtest, warnings []string) (*TuneReport, []string) {
	r := &TuneReport{Loads: recordedLoads(hpa, rec, bounds, &bt.AsIs.Summary, bt.Start)}
	flag := tuneFlag(func(in *TuneInput) any { return &in.ReportCandidates })
	for _, i := range cfg.ReportCandidates {
		if i >= len(res.Candidates) {
			warnings = append(warnings, fmt.Sprintf("%s %d: only %d candidates were replayed (0 to %d); the report leaves it out", flag, i, len(res.Candidates), len(res.Candidates)-1))
			continue
		}
		c := &res.Candidates[i]
		path, _, ok := replays.get(c)
		switch {
		case c.Err != "":
			warnings = append(warnings, fmt.Sprintf("%s %d: that candidate could not be replayed (%s); the report leaves it out", flag, i, c.Err))
			continue
		case !ok:
			warnings = append(warnings, fmt.Sprintf("%s %d: the search kept no curve of that candidate; the report leaves it out", flag, i))
			continue
		}
		r.Picked = append(r.Picked, PickedCurve{Index: i, Replicas: path.Replicas})
	}
	return r, warnings
}

// recordedLoads returns each metric's load over the period from start on,
// as the workload's ready pods recorded it, for the report's charts: the
// utilization of their requests for a utilization target, the value per
// pod for an average value (an Object or External metric's value over the
// actual replica count), the value otherwise. It is the recording read
// as it is, not a replay's view of it: the controller's own figures
// (with its fill-ins for unready and missing pods) are each curve's
// summary. given are the --slo bounds (whatif.DefaultBound for the
// others); sum's AboveBound words them.
func recordedLoads(hpa *autoscalingv2.HorizontalPodAutoscaler, rec *recording.Recording, given []whatif.Bound, sum *explain.PathSummary, start time.Time) []explain.LoadCurve {
	out := make([]explain.LoadCurve, 0, len(hpa.Spec.Metrics))
	for i := range hpa.Spec.Metrics {
		m := &hpa.Spec.Metrics[i]
		target := metricsource.Target(m)
		if target == nil {
			continue
		}
		bound := whatif.DefaultBound(i, m)
		for _, b := range given {
			if b.Metric == i {
				bound = b
			}
		}
		lc := explain.LoadCurve{Metric: specMetricName(m)}
		if i < len(sum.AboveBound) {
			lc.BoundWords = sum.AboveBound[i].Bound
		}
		switch target.Type {
		case autoscalingv2.UtilizationMetricType:
			lc.Unit = "% of request"
			if target.AverageUtilization != nil {
				lc.Target = float64(*target.AverageUtilization)
			}
			lc.Bound = bound.Utilization * 100
		case autoscalingv2.AverageValueMetricType:
			lc.Unit = "per pod"
			if target.AverageValue != nil {
				lc.Target = target.AverageValue.AsApproximateFloat64()
			}
			lc.Bound = float64(bound.Milli) / 1000
		default:
			if target.Value != nil {
				lc.Target = target.Value.AsApproximateFloat64()
			}
			lc.Bound = float64(bound.Milli) / 1000
		}
		for k := 0; k < rec.Len; k++ {
			t := rec.Instant(k)
			if t.Before(start) {
				continue
			}
			lc.Points = append(lc.Points, explain.LoadPoint{Time: t, Value: loadAt(rec, m, target.Type, k)})
		}
		out = append(out, lc)
	}
	return out
}

// loadAt is a metric's recorded load at instant k; NaN when nothing was
// recorded.
func loadAt(rec *recording.Recording, m *autoscalingv2.MetricSpec, typ autoscalingv2.MetricTargetType, k int) float64 {
	t := rec.Instant(k)
	src, _ := metricsource.Given(m)
	kind, resource, container := recording.KindOf(src.Type), string(src.Resource), src.Container
	rm := rec.Metric(kind, specMetricName(m))
	if rm == nil {
		return math.NaN()
	}
	if kind == recording.KindObject || kind == recording.KindExternal {
		v, ok := rm.Total.At(k)
		if !ok {
			return math.NaN()
		}
		if typ == autoscalingv2.AverageValueMetricType {
			n, ok := rec.Replicas.ReplicasAt(t)
			if !ok {
				n = rec.LivePods(k)
			}
			if n <= 0 {
				return math.NaN()
			}
			return v / float64(n)
		}
		return v
	}
	var used, requested float64
	pods := 0
	for i := range rec.Pods {
		p := &rec.Pods[i]
		if !p.Exists(t) || p.TerminatingAt(t) {
			continue
		}
		if ready, _ := p.ReadyAt(t); !ready {
			continue
		}
		series := rm.PerPod[p.Name]
		var u, req float64
		seen := false
		for _, c := range p.Containers {
			if container != "" && c.Name != container {
				continue
			}
			key := c.Name
			if kind == recording.KindPods {
				key = ""
			}
			if v, ok := series[key].At(k); ok {
				u += v
				seen = true
			}
			req += float64(c.Requests[resource])
			if kind == recording.KindPods {
				break
			}
		}
		if kind == recording.KindPods && len(p.Containers) == 0 {
			if v, ok := series[""].At(k); ok {
				u, seen = v, true
			}
		}
		if !seen {
			continue
		}
		used += u
		requested += req
		pods++
	}
	switch {
	case pods == 0:
		return math.NaN()
	case typ == autoscalingv2.UtilizationMetricType:
		if requested <= 0 {
			return math.NaN()
		}
		// Usage is recorded in cores and bytes, requests in millicores
		// and bytes.
		if resource == "cpu" {
			used *= 1000
		}
		return 100 * used / requested
	}
	return used / float64(pods)
}
