// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The load a ready pod served: one definition, for the time above a
// service bound (the risk tune compares candidates by, a backtest's
// aboveBound) and for the report's charts, for every metric type. For a
// resource or a Pods metric it is what the pods served between one sync
// and the next (the counters' difference, where the store kept them raw),
// shared by the ready pods over that interval; for an Object or External
// metric its recorded value (per replica for an AverageValue target). It
// is the load, not what the controller's samples, a window late, said of
// it: measured so, the HPA as it is and each candidate are measured
// alike.

// demandOf is what a metric's load per ready pod is worked out of.
type demandOf struct {
	// kind is the metric's kind as the recording keeps it ("" when
	// nothing recorded measures it).
	kind string
	// r is its load's index in recordedLoad (a resource, or Pods metric
	// r-len(resources)); c its container's index for a ContainerResource
	// metric (-1: every container of the pod).
	r, c int
	// request is a pod's (or the container's) request of the resource, in
	// the load's unit (cores, bytes), for a Utilization bound.
	request float64
	// total is an Object or External metric's recorded value;
	// perReplica says its target is an AverageValue.
	total      *recording.Metric
	perReplica bool
}

// demandsOf finds what each metric's load per ready pod is worked out of.
func (p *replayRun) demandsOf(hpa *autoscalingv2.HorizontalPodAutoscaler) []demandOf {
	out := make([]demandOf, len(hpa.Spec.Metrics))
	names := p.containerNames()
	for i := range out {
		d := demandOf{r: -1, c: -1}
		m := &hpa.Spec.Metrics[i]
		src, _ := metricsource.Given(m)
		switch kind := recording.KindOf(src.Type); kind {
		case recording.KindResource:
			for r, rm := range p.resources {
				if rm.Name == string(src.Resource) {
					d.kind, d.r = kind, r
				}
			}
			if src.Container != "" {
				d.c = -2 // a container not among the pods' own: nothing measures it
				for c, name := range names {
					if name == src.Container {
						d.c = c
					}
				}
			}
			d.request = requestOf(&p.template, src.Resource, src.Container)
		case recording.KindPods:
			for j, pm := range p.pods {
				if src.Metric != nil && pm.Name == src.Metric.Name {
					d.kind, d.r = kind, len(p.resources)+j
				}
			}
		case recording.KindObject, recording.KindExternal:
			if rm := p.rec.Metric(kind, src.Name()); rm != nil && rm.Total != nil {
				d.kind, d.total = kind, rm
				t := metricsource.Target(m)
				d.perReplica = t != nil && t.Type == autoscalingv2.AverageValueMetricType
			}
		}
		if d.c == -2 {
			d.kind = ""
		}
		out[i] = d
	}
	return out
}

// requestOf is a pod's request of res, of container c only when named, in
// the recorded load's unit (cores for cpu, bytes otherwise).
func requestOf(pod *corev1.Pod, res corev1.ResourceName, c string) float64 {
	total := 0.0
	for _, ctr := range usageContainers(pod) {
		if c != "" && ctr.Name != c {
			continue
		}
		if q, ok := ctr.Resources.Requests[res]; ok {
			if res == corev1.ResourceCPU {
				total += float64(q.MilliValue()) / 1000
			} else {
				total += q.AsApproximateFloat64()
			}
		}
	}
	return total
}

// servedPerPod is the load of metric i per ready pod between the sync at k
// and the next, in the metric's unit (cores or bytes for a resource); share
// is the ready pods' share over the interval (the mean of 1/n), replicas
// the count an AverageValue target divides by. ok is false when nothing
// recorded measures it.
func (p *replayRun) servedPerPod(i, k int, share float64, replicas int32) (float64, bool) {
	if i >= len(p.demand) {
		return 0, false
	}
	d := &p.demand[i]
	switch d.kind {
	case "":
		return 0, false
	case recording.KindObject, recording.KindExternal:
		v, ok := d.total.Total.At(k)
		if !ok {
			return 0, false
		}
		if d.perReplica {
			if replicas <= 0 {
				return 0, false
			}
			v /= float64(replicas)
		}
		return v, true
	}
	if p.load == nil {
		p.load = p.totalLoad()
	}
	if served, has := p.load.servedAt(d.r, k, d.c); has {
		if p.opts.LoadModel == explain.LoadConstantPerPod {
			if _, n := p.load.at(d.r, k); n > 0 {
				return served / float64(n), true
			}
			return 0, false
		}
		return served * share, true
	}
	// A recording of grid samples (whose pods' load between two syncs is
	// not known): the total a window later, where the samples show the
	// load of the sync's moment.
	kk := k
	if p.rec.Step > 0 {
		kk = min(k+int(p.rec.SampleWindow/p.rec.Step), p.rec.Len-1)
	}
	totals, n := p.load.at(d.r, kk)
	if n == 0 || len(totals) == 0 {
		return 0, false
	}
	total := 0.0
	for c, v := range totals {
		if d.c < 0 || c == d.c {
			total += v
		}
	}
	if p.opts.LoadModel == explain.LoadConstantPerPod {
		return total / float64(n), true
	}
	return total * share, true
}

// demandOver reports whether the load per ready pod of metric i was above
// its bound between the sync at k and the next (ok false when nothing
// recorded measures it: the controller's view stands, Bound.over).
func (p *replayRun) demandOver(i, k int) (over, ok bool) {
	v, ok := p.servedPerPod(i, k, p.intervalShare(k), p.replicas)
	if !ok {
		return false, i < len(p.demand) && p.demand[i].kind != ""
	}
	return p.bounds[i].exceeded(v, p.demand[i].request), true
}

// intervalShare is each ready pod's share of the load between the sync at
// k and the next: where the replay runs the real pods at the real count
// (its decision kept it), the recorded pods' readiness tells it, as for
// the recorded workload (ServedCurves); elsewhere the replay's own count
// from moment to moment (its marks).
func (p *replayRun) intervalShare(k int) float64 {
	t := p.rec.Instant(k)
	next := t.Add(p.rec.Step)
	if actual, known := p.actualAt(k); known && actual == p.replicas && p.exactAt == k {
		return p.rec.ReadyShare(t, next)
	}
	return p.shareOver(t, next)
}

// exceeded reports whether a load per pod v (cores or bytes for a
// resource, the metric's unit otherwise; request a pod's request of it) is
// above the bound.
func (b Bound) exceeded(v, request float64) bool {
	switch {
	case b.Utilization > 0:
		return request > 0 && v > b.Utilization*request
	case b.Milli > 0:
		return v*1000 > float64(b.Milli)
	}
	return false
}

// inBoundUnit gives a load per pod as a chart shows it against the bound:
// a percent of the request for a Utilization bound, the metric's unit
// otherwise (NaN without a request to be a percent of).
func (b Bound) inBoundUnit(v, request float64) float64 {
	if b.Utilization > 0 {
		if request <= 0 {
			return math.NaN()
		}
		return 100 * v / request
	}
	return v
}

// ServedCurves are each metric's load per ready pod of the recorded
// workload at every sync from opts.Start on, as the report's charts draw
// it: the same figure the time above the bound counts (servedPerPod), with
// the workload's own ready pods and replica count, in the unit of the
// metric's bound (bounds: Bound.Unit). A point above its bound is a sync
// the as-is replay counts above the bound wherever it ran the real pods.
func ServedCurves(snap *engine.Snapshot, rec *recording.Recording, set engine.Settings, opts BacktestOptions) ([][]explain.LoadPoint, []Bound, error) {
	first, opts, err := prepare(rec, opts)
	if err != nil {
		return nil, nil, err
	}
	path, err := newReplayRun("actual", snap, snap.HPA, rec, set, opts)
	if err != nil {
		return nil, nil, err
	}
	out := make([][]explain.LoadPoint, len(path.demand))
	for k := first; k < rec.Len; k++ {
		t := rec.Instant(k)
		ready := rec.ReadyPods(k)
		replicas, _ := path.actualAt(k)
		share := rec.ReadyShare(t, t.Add(rec.Step))
		for i := range path.demand {
			v, ok := path.servedPerPod(i, k, share, replicas)
			switch {
			case !ok, ready == 0 && path.demand[i].total == nil:
				v = math.NaN()
			default:
				v = path.bounds[i].inBoundUnit(v, path.demand[i].request)
			}
			out[i] = append(out[i], explain.LoadPoint{Time: t, Value: v})
		}
	}
	return out, path.bounds, nil
}

// LoadCurves are the report's charts of each metric's load per ready pod
// over the period (ServedCurves), with their units, targets and bounds:
// the utilization of the request for a Utilization target, the value per
// pod for an AverageValue target (an Object or External metric's over the
// actual replica count), the value otherwise. sum (the as-is replay's
// summary) words the bounds.
func LoadCurves(snap *engine.Snapshot, rec *recording.Recording, set engine.Settings, opts BacktestOptions, sum *explain.PathSummary) ([]explain.LoadCurve, error) {
	points, bnds, err := ServedCurves(snap, rec, set, opts)
	if err != nil {
		return nil, err
	}
	out := make([]explain.LoadCurve, 0, len(points))
	for i := range snap.HPA.Spec.Metrics {
		m := &snap.HPA.Spec.Metrics[i]
		src, _ := metricsource.Given(m)
		target := src.Target
		if target == nil || i >= len(points) {
			continue
		}
		lc := explain.LoadCurve{Metric: src.Name(), Points: points[i]}
		if i < len(sum.AboveBound) {
			lc.BoundWords = sum.AboveBound[i].Bound
		}
		b := bnds[i]
		switch target.Type {
		case autoscalingv2.UtilizationMetricType:
			lc.Unit = "% of request"
			if target.AverageUtilization != nil {
				lc.Target = float64(*target.AverageUtilization)
			}
			lc.Bound = b.Utilization * 100
		case autoscalingv2.AverageValueMetricType:
			lc.Unit = "per pod"
			if target.AverageValue != nil {
				lc.Target = target.AverageValue.AsApproximateFloat64()
			}
			lc.Bound = float64(b.Milli) / 1000
		default:
			if target.Value != nil {
				lc.Target = target.Value.AsApproximateFloat64()
			}
			lc.Bound = float64(b.Milli) / 1000
		}
		out = append(out, lc)
	}
	return out, nil
}
