// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// summer sums one curve up over the counted syncs.
type summer struct {
	rec       *recording.Recording
	first     int
	labels    []string
	points    []explain.ReplicaPoint
	rescales  []explain.ProjectedRescale
	podSec    float64
	peak      int32
	above     []time.Duration
	lagStart  *time.Time
	lagNeed   int32
	longest   time.Duration
	longestAt time.Time
}

func newSummer(rec *recording.Recording, first int) *summer {
	return &summer{rec: rec, first: first, above: make([]time.Duration, 64)}
}

// add counts the sync at k, after which the curve had n replicas; o, when
// given, is a replayed sync on this curve's pods (its metrics and
// recommendation).
func (s *summer) add(k int, n int32, o *syncOutcome) {
	t := s.rec.Instant(k)
	if len(s.points) == 0 || s.points[len(s.points)-1].Replicas != n {
		s.points = append(s.points, explain.ReplicaPoint{Time: t, Replicas: n})
	}
	step := s.rec.Step
	if k == s.rec.Len-1 {
		step = 0
	}
	s.podSec += float64(n) * step.Seconds()
	s.peak = max(s.peak, n)
	if o == nil {
		return
	}
	for i := range s.above {
		if o.above&(1<<i) != 0 {
			s.above[i] += step
		}
	}
	// A lag begins when the metrics ask for more replicas than the curve
	// has, and ends when the curve has what they asked for then, or when
	// the load itself fell back (the metrics ask for no more than the
	// curve has, counting every pod: a proposal lowered by a fill-in of
	// new pods does not end it).
	switch {
	case s.lagStart == nil && o.recOK && o.recommendation > n:
		at := t
		s.lagStart, s.lagNeed = &at, min(o.recommendation, o.maxReplicas)
	case s.lagStart != nil && (n >= s.lagNeed || (o.recOK && o.recommendation <= n && !o.filled)):
		if lag := t.Sub(*s.lagStart); lag > s.longest {
			s.longest, s.longestAt = lag, *s.lagStart
		}
		s.lagStart = nil
	}
}

func (s *summer) rescale(t time.Time, o *syncOutcome) {
	s.rescales = append(s.rescales, explain.ProjectedRescale{Time: t, Offset: offset(t.Sub(s.rec.Instant(s.first))), From: o.current, To: o.desired, Reason: o.reason})
}

// filledIn reports whether a metric of d had pods without a sample or not
// ready, whose fill-in shaped its proposal.
func filledIn(d *explain.Decision) bool {
	for i := range d.Metrics {
		if d.Metrics[i].FillIn != nil {
			return true
		}
	}
	return false
}

// aboveTarget reports whether a metric's value was above its target.
func aboveTarget(m *explain.MetricResult) bool {
	switch {
	case m.Error != nil:
		return false
	case m.TargetUtilization != nil && m.Utilization != nil:
		return *m.Utilization > *m.TargetUtilization
	case m.TargetValue != nil && m.Usage != nil && m.Usage.RatioUndefined == "":
		return float64(m.Usage.Ratio) > 1
	case m.TargetValue != nil && m.Value != nil:
		return m.Value.Cmp(*m.TargetValue) > 0
	}
	return false
}

func (s *summer) path(name, source string) explain.BacktestPath {
	if s.lagStart != nil {
		if lag := s.rec.End().Sub(*s.lagStart); lag > s.longest {
			s.longest, s.longestAt = lag, *s.lagStart
		}
	}
	out := explain.BacktestPath{Name: name, Source: source, Replicas: s.points, Rescales: s.rescales}
	if out.Rescales == nil {
		out.Rescales = []explain.ProjectedRescale{}
	}
	if out.Replicas == nil {
		out.Replicas = []explain.ReplicaPoint{}
	}
	period := s.rec.End().Sub(s.rec.Instant(s.first))
	out.Summary = explain.PathSummary{
		PodHours: math.Round(s.podSec/3600*1000) / 1000, Rescales: len(s.rescales), PeakReplicas: s.peak,
		AboveTarget: make([]explain.MetricTime, 0, len(s.labels)),
	}
	for i, m := range s.labels {
		if i >= len(s.above) {
			break
		}
		f := 0.0
		if period > 0 {
			f = math.Round(float64(s.above[i])/float64(period)*1000) / 1000
		}
		out.Summary.AboveTarget = append(out.Summary.AboveTarget, explain.MetricTime{Metric: m, Duration: s.above[i].String(), Fraction: f})
	}
	if s.longest > 0 {
		at := s.longestAt
		out.Summary.LongestLag, out.Summary.LagStart = s.longest.String(), &at
	}
	return out
}
