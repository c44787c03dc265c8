// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"math/bits"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// pathTally sums one curve up over the counted syncs.
type pathTally struct {
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
	lags      []explain.Lag

	// beyond, over and failed are each metric's time beyond the tolerance,
	// above its bound and failed; overFrom the start of a stretch above
	// the bound still running, worst and worstAt the longest one.
	beyond, over, failed []time.Duration
	overFrom             []*time.Time
	// open has bit i set while metric i's stretch above its bound runs.
	open    uint64
	worst   []time.Duration
	worstAt []time.Time
	// bounds name each metric's bound; cpuMilli and memBytes are a pod's
	// requests (memBytes only counted when the HPA scales on memory).
	bounds   []string
	cpuMilli int64
	memBytes int64
	// censored marks the instants of censored demand; overCensored is each
	// metric's time above its bound at them.
	censored     *recording.Censoring
	overCensored []time.Duration
}

func newPathTally(rec *recording.Recording, first int) *pathTally {
	const n = 64
	return &pathTally{
		rec: rec, first: first, above: make([]time.Duration, n),
		beyond: make([]time.Duration, n), over: make([]time.Duration, n), failed: make([]time.Duration, n),
		overFrom: make([]*time.Time, n), worst: make([]time.Duration, n), worstAt: make([]time.Time, n),
		overCensored: make([]time.Duration, n),
	}
}

// describe gives the pathTally what names the metrics, their bounds and a
// pod's requests: those of the replay p.
func (s *pathTally) describe(p *replayRun) {
	s.labels = p.labels
	s.bounds = make([]string, len(p.bounds))
	for i, b := range p.bounds {
		var m *explain.MetricResult
		if p.last != nil && i < len(p.last.Metrics) {
			m = &p.last.Metrics[i]
		}
		s.bounds[i] = b.words(m)
	}
	s.cpuMilli, s.memBytes = podRequests(&p.template)
	if !hasMemoryMetric(p.snap.HPA) {
		s.memBytes = 0
	}
}

// add counts the sync at k, after which the curve had n replicas; o, when
// given, is a replayed sync on this curve's pods (its metrics and
// recommendation).
func (s *pathTally) add(k int, n int32, o *syncOutcome) {
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
	// Only the metrics with a bit set, or a stretch above the bound open,
	// have anything to count.
	for todo := o.above | o.beyond | o.failed | o.over | s.open; todo != 0; todo &= todo - 1 {
		i := bits.TrailingZeros64(todo)
		bit := uint64(1) << i
		if o.above&bit != 0 {
			s.above[i] += step
		}
		if o.beyond&bit != 0 {
			s.beyond[i] += step
		}
		if o.failed&bit != 0 {
			s.failed[i] += step
		}
		switch {
		case o.over&bit != 0:
			s.over[i] += step
			if s.censored.At(k) {
				s.overCensored[i] += step
			}
			if s.overFrom[i] == nil {
				at := t
				s.overFrom[i] = &at
				s.open |= bit
			}
		case s.overFrom[i] != nil:
			s.endStretch(i, t)
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
		lag := t.Sub(*s.lagStart)
		if lag > s.longest {
			s.longest, s.longestAt = lag, *s.lagStart
		}
		s.lags = append(s.lags, explain.Lag{Start: *s.lagStart, Duration: lag.String(), Met: true})
		s.lagStart = nil
	}
}

// endStretch closes metric i's stretch above its bound at t.
func (s *pathTally) endStretch(i int, t time.Time) {
	if d := t.Sub(*s.overFrom[i]); d > s.worst[i] {
		s.worst[i], s.worstAt[i] = d, *s.overFrom[i]
	}
	s.overFrom[i] = nil
	s.open &^= 1 << i
}

func (s *pathTally) rescale(t time.Time, o *syncOutcome) {
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

// figures are the curve's typed figures (after path, which closes the
// stretches still open at the end).
func (s *pathTally) figures(sum *explain.PathSummary) Figures {
	f := Figures{
		Period: s.rec.End().Sub(s.rec.Instant(s.first)), PodHours: sum.PodHours, CoreHours: sum.CoreHours, GiBHours: sum.GiBHours,
		Rescales: len(s.rescales), AboveBound: make([]time.Duration, 0, len(s.labels)),
	}
	for i := range s.labels {
		if i < len(s.over) {
			f.AboveBound = append(f.AboveBound, s.over[i])
		}
	}
	return f
}

func (s *pathTally) path(name, source string) explain.BacktestPath {
	end := s.rec.End()
	if s.lagStart != nil {
		lag := end.Sub(*s.lagStart)
		if lag > s.longest {
			s.longest, s.longestAt = lag, *s.lagStart
		}
		s.lags = append(s.lags, explain.Lag{Start: *s.lagStart, Duration: lag.String()})
		s.lagStart = nil
	}
	for i := range s.overFrom {
		if s.overFrom[i] != nil {
			s.endStretch(i, end)
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
	s.measures(&out.Summary, period)
	return out
}

// measures fills in the cost and risk figures tune compares curves by.
func (s *pathTally) measures(sum *explain.PathSummary, period time.Duration) {
	share := func(d time.Duration) float64 {
		if period <= 0 {
			return 0
		}
		return math.Round(float64(d)/float64(period)*1000) / 1000
	}
	hours := func(perPod float64) *float64 {
		v := math.Round(s.podSec/3600*perPod*1000) / 1000
		return &v
	}
	if s.cpuMilli > 0 {
		sum.CoreHours = hours(float64(s.cpuMilli) / 1000)
	}
	if s.memBytes > 0 {
		sum.GiBHours = hours(float64(s.memBytes) / (1 << 30))
	}
	sum.RescalesPerHour = perHour(sum.Rescales, period)
	sum.BeyondTolerance = make([]explain.MetricTime, 0, len(s.labels))
	sum.AboveBound = make([]explain.BoundTime, 0, len(s.labels))
	sum.MetricsFailed = make([]explain.MetricTime, 0, len(s.labels))
	for i, m := range s.labels {
		if i >= len(s.beyond) {
			break
		}
		sum.BeyondTolerance = append(sum.BeyondTolerance, explain.MetricTime{Metric: m, Duration: s.beyond[i].String(), Fraction: share(s.beyond[i])})
		sum.MetricsFailed = append(sum.MetricsFailed, explain.MetricTime{Metric: m, Duration: s.failed[i].String(), Fraction: share(s.failed[i])})
		bt := explain.BoundTime{Metric: m, Duration: s.over[i].String(), Fraction: share(s.over[i]), Worst: s.worst[i].String()}
		if i < len(s.bounds) {
			bt.Bound = s.bounds[i]
		}
		if s.worst[i] > 0 {
			at := s.worstAt[i]
			bt.WorstStart = &at
		}
		s.markCensored(&bt, i)
		sum.AboveBound = append(sum.AboveBound, bt)
	}
	sum.Lags = s.lags
	if sum.Lags == nil {
		sum.Lags = []explain.Lag{}
	}
}

// perHour is n rescales over the period, per hour, to two decimals (0 for
// an empty period).
func perHour(n int, period time.Duration) float64 {
	if period <= 0 {
		return 0
	}
	return math.Round(float64(n)/period.Hours()*100) / 100
}
