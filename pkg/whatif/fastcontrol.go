// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// The controller's decision of a fast replay's sync, on the accounting of
// the pods: what engine.Evaluate decides for the HPAs the fast path
// models, its outcome only (the figures and bits syncOutcome keeps).

// Reasons of a rescale, as the controller words them.
const (
	reasonAboveMax  = "Current number of replicas above Spec.MaxReplicas"
	reasonBelowMin  = "Current number of replicas below Spec.MinReplicas"
	reasonAllBelow  = "All metrics below target"
	reasonAboveWord = " above target"
)

// decide is the controller's sync at now over the accounting f.sums.
func (f *fastPath) decide(now int64, exact bool) (syncOutcome, fastMiss) {
	p := f.p
	cur := p.replicas
	if cur == 0 {
		return syncOutcome{}, missZeroReplicas
	}
	if !f.recsInit {
		f.recsInit = true
		f.recs = append(f.recs[:0], fastRec{n: cur, at: now - 1})
	}
	s := &f.spec
	o := syncOutcome{current: cur, maxReplicas: s.maxR}

	// The metrics (computed too where a bound decides, for what the
	// outcome shows of them).
	replicas, name, invalid := int32(0), "", 0
	for i := range s.metrics {
		m := &s.metrics[i]
		missing := f.missing
		if exact {
			missing = f.exactMiss[m.r]
		}
		n, ok := f.metric(m, i, &o, &f.sums[m.r], missing, cur, f.npods)
		if !ok {
			invalid++
			if i < 64 {
				o.failed |= 1 << i
			}
			continue
		}
		if replicas == 0 || n > replicas {
			replicas, name = n, m.name
		}
	}
	failed := invalid >= len(s.metrics) || invalid > 0 && replicas < cur
	if !failed {
		o.recommendation, o.recOK = replicas, true
	}
	var desired int32
	reason := ""
	switch {
	case cur > s.maxR:
		desired, reason = s.maxR, reasonAboveMax
	case cur < s.minR:
		desired, reason = s.minR, reasonBelowMin
	default:
		if failed {
			o.desired = f.statusDesired
			return o, ""
		}
		winner := ""
		if replicas > 0 {
			desired, winner = replicas, name
		}
		switch {
		case desired > cur:
			reason = winner + reasonAboveWord
		case desired < cur:
			reason = reasonAllBelow
		}
		desired = f.normalize(cur, desired, now)
	}
	if desired != cur {
		o.rescale, o.reason, o.desired = true, reason, desired
		f.storeEvent(cur, desired, now)
		f.statusDesired = desired
	} else {
		o.desired = cur
		f.statusDesired = cur
	}
	return o, ""
}

// within is the tolerance test of a usage ratio.
func (s *fastSpec) within(ratio float64) bool {
	if s.absolute {
		return math.Abs(1.0-ratio) <= s.tolUp
	}
	return (1.0-s.tolDown) <= ratio && ratio <= (1.0+s.tolUp)
}

// metric is metric i's proposal over its resource's accounting s, and
// what the outcome keeps of it (above, beyond, filled); ok false when
// the controller could not compute it.
func (f *fastPath) metric(m *fastMetric, i int, o *syncOutcome, s *podSums, missing []int64, cur int32, pods int) (int32, bool) {
	if s.items == 0 || pods == 0 || s.ready == 0 {
		return 0, false
	}
	spec := &f.spec
	miss := missing[s.missFrom : s.missFrom+s.missing]
	var ratio float64
	var above bool
	sumU, sumR, count := s.sumU, s.sumR, int64(s.ready)
	if m.raw {
		ratio = float64(sumU/count) / float64(m.value)
		above = ratio > 1
	} else {
		if sumR == 0 {
			return 0, false
		}
		util := int32((sumU * 100) / sumR)
		ratio = float64(util) / float64(m.util)
		above = util > m.util
	}
	within := spec.within(ratio)
	if i < 64 {
		if above {
			o.above |= 1 << i
		}
		if !within && ratio > 1.0+spec.tolUp {
			o.beyond |= 1 << i
		}
	}
	scaleUpWithUnready := s.unready > 0 && ratio > 1.0
	if !scaleUpWithUnready && s.missing == 0 {
		if within {
			return cur, true
		}
		return ceil32(ratio * float64(s.ready)), true
	}
	o.filled = true
	if s.missing > 0 {
		switch {
		case ratio < 1.0:
			if m.raw {
				sumU += m.value * int64(s.missing)
			} else {
				fallback := int64(max(100, m.util))
				for _, req := range miss {
					sumU += req * fallback / 100
					sumR += req
				}
			}
			count += int64(s.missing)
		case ratio > 1.0:
			for _, req := range miss {
				sumR += req
			}
			count += int64(s.missing)
		}
	}
	if scaleUpWithUnready {
		sumR += s.unreadyReq
		count += int64(s.unready)
	}
	var newRatio float64
	if m.raw {
		newRatio = float64(sumU/count) / float64(m.value)
	} else {
		newRatio = float64(int32((sumU*100)/sumR)) / float64(m.util)
	}
	if spec.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return cur, true
	}
	n := ceil32(newRatio * float64(count))
	if (newRatio < 1.0 && n > cur) || (newRatio > 1.0 && n < cur) {
		return cur, true
	}
	return n, true
}

// toInt32 is int32(f) as amd64 converts it (math.MinInt32 for NaN or a
// value out of range), which the controller's platform gives.
func toInt32(f float64) int32 {
	if math.IsNaN(f) || f >= 1<<31 || f < -(1<<31) {
		return math.MinInt32
	}
	return int32(f)
}

func ceil32(f float64) int32 { return toInt32(math.Ceil(f)) }

// normalize is the controller's stabilization and limits of desired.
func (f *fastPath) normalize(cur, desired int32, now int64) int32 {
	s := &f.spec
	if s.behavior == nil {
		window := f.p.set.DownscaleStabilization.Nanoseconds()
		cutoff := now - window
		stab := desired
		old := -1
		for i := range f.recs {
			r := &f.recs[i]
			if r.at < cutoff {
				old = i
			} else if r.n > stab {
				stab = r.n
			}
		}
		f.keepRec(old, desired, now)
		upLimit := toInt32(math.Max(f.factor*float64(cur), f.floor))
		upper := s.maxR
		if s.maxR > upLimit {
			upper = upLimit
		}
		switch {
		case stab < s.minR:
			return s.minR
		case stab > upper:
			return upper
		}
		return stab
	}
	upCut := now - int64(s.upWin)*1e9
	downCut := now - int64(s.downWin)*1e9
	upRec, downRec := desired, desired
	old := -1
	for i := range f.recs {
		r := &f.recs[i]
		if r.at > upCut {
			upRec = min(r.n, upRec)
		}
		if r.at > downCut {
			downRec = max(r.n, downRec)
		}
		if r.at < upCut && r.at < downCut {
			old = i
		}
	}
	stab := max(cur, upRec)
	stab = min(stab, downRec)
	f.keepRec(old, desired, now)
	b := s.behavior
	switch {
	case stab > cur:
		limit := max(f.upLimit(cur, b.ScaleUp, now), cur)
		upper := s.maxR
		if s.maxR > limit {
			upper = limit
		}
		if stab > upper {
			return upper
		}
	case stab < cur:
		limit := min(f.downLimit(cur, b.ScaleDown, now), cur)
		lower := s.minR
		if s.minR < limit {
			lower = limit
		}
		if stab < lower {
			return lower
		}
	}
	return stab
}

// keepRec records the recommendation desired at now in place of the
// last one out of the windows (old ≥ 0), else after the others.
func (f *fastPath) keepRec(old int, desired int32, now int64) {
	if old >= 0 {
		f.recs[old] = fastRec{n: desired, at: now}
		return
	}
	f.recs = append(f.recs, fastRec{n: desired, at: now})
}

// changeIn sums the changes of events strictly inside the last period
// seconds.
func changeIn(period int32, events []fastEvent, now int64) int32 {
	cutoff := now - int64(period)*1e9
	var sum int32
	for i := range events {
		if events[i].at > cutoff {
			sum += events[i].change
		}
	}
	return sum
}

func selectOf(r *autoscalingv2.HPAScalingRules) autoscalingv2.ScalingPolicySelect {
	if r == nil || r.SelectPolicy == nil {
		return autoscalingv2.MaxChangePolicySelect
	}
	return *r.SelectPolicy
}

// upLimit is the scale-up rules' limit from cur.
func (f *fastPath) upLimit(cur int32, rules *autoscalingv2.HPAScalingRules, now int64) int32 {
	sel := selectOf(rules)
	if sel == autoscalingv2.DisabledPolicySelect || rules == nil {
		return cur
	}
	minimum := sel == autoscalingv2.MinChangePolicySelect
	result := int32(math.MinInt32)
	if minimum {
		result = math.MaxInt32
	}
	var proposed int32
	for _, pol := range rules.Policies {
		start := cur - changeIn(pol.PeriodSeconds, f.up, now) + changeIn(pol.PeriodSeconds, f.down, now)
		switch pol.Type {
		case autoscalingv2.PodsScalingPolicy:
			proposed = start + pol.Value
		case autoscalingv2.PercentScalingPolicy:
			proposed = ceil32(float64(start) * (1 + float64(pol.Value)/100))
		}
		if minimum {
			result = min(result, proposed)
		} else {
			result = max(result, proposed)
		}
	}
	return result
}

// downLimit is the scale-down rules' limit from cur.
func (f *fastPath) downLimit(cur int32, rules *autoscalingv2.HPAScalingRules, now int64) int32 {
	sel := selectOf(rules)
	if sel == autoscalingv2.DisabledPolicySelect || rules == nil {
		return cur
	}
	minimum := sel == autoscalingv2.MinChangePolicySelect
	result := int32(math.MaxInt32)
	if minimum {
		result = math.MinInt32
	}
	var proposed int32
	for _, pol := range rules.Policies {
		start := cur - changeIn(pol.PeriodSeconds, f.up, now) + changeIn(pol.PeriodSeconds, f.down, now)
		switch pol.Type {
		case autoscalingv2.PodsScalingPolicy:
			proposed = start - pol.Value
		case autoscalingv2.PercentScalingPolicy:
			proposed = toInt32(float64(start) * (1 - float64(pol.Value)/100))
		}
		if minimum {
			result = max(result, proposed)
		} else {
			result = min(result, proposed)
		}
	}
	return result
}

// storeEvent records a rescale from prev to next among the scale events
// (with a behavior only), reusing the last slot that has left the longest
// period.
func (f *fastPath) storeEvent(prev, next int32, now int64) {
	b := f.spec.behavior
	if b == nil {
		return
	}
	store := func(events []fastEvent, rules *autoscalingv2.HPAScalingRules, change int32) []fastEvent {
		var longest int32
		if rules != nil {
			for _, pol := range rules.Policies {
				longest = max(longest, pol.PeriodSeconds)
			}
		}
		cutoff := now - int64(longest)*1e9
		idx := -1
		for i := range events {
			if events[i].at < cutoff {
				events[i].outdated = true
			}
			if events[i].outdated {
				idx = i
			}
		}
		ev := fastEvent{change: change, at: now}
		if idx >= 0 {
			events[idx] = ev
			return events
		}
		return append(events, ev)
	}
	if next > prev {
		f.up = store(f.up, b.ScaleUp, next-prev)
	} else {
		f.down = store(f.down, b.ScaleDown, prev-next)
	}
}

// over sets the outcome's bits of the metrics whose load per ready pod
// was above their bounds until the next sync (outcomeOf, after the
// decision was carried into the replay).
func (f *fastPath) over(o *syncOutcome, k int) {
	p := f.p
	share := 0.0
	shared := false
	for i := range f.spec.metrics {
		if i >= 64 {
			break
		}
		if !shared {
			share, shared = f.intervalShare(k), true
		}
		v, ok := p.servedPerPod(i, k, share, p.replicas)
		if ok && p.bounds[i].exceeded(v, p.demand[i].request) {
			o.over |= 1 << i
		}
	}
}

// intervalShare is replayRun.intervalShare with the recorded share
// worked out once.
func (f *fastPath) intervalShare(k int) float64 {
	p := f.p
	if f.sh.known[k] && f.sh.actual[k] == p.replicas && p.exactAt == k {
		return f.sh.readyShare[k]
	}
	t := f.sh.instant[k]
	return f.shareOver(t, t+f.step)
}
