// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"math"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Reasons and messages of the AbleToScale and ScalingLimited conditions
// written by normalization.
const (
	msgReadyForNewScale    = "recommended size matches current size"
	msgScaleDownStabilized = "recent recommendations were higher than current one, applying the highest recent recommendation"
	msgScaleUpStabilized   = "recent recommendations were lower than current one, applying the lowest recent recommendation"
	msgTooFew              = "the desired replica count is less than the minimum replica count"
	msgTooMany             = "the desired replica count is more than the maximum replica count"
	msgScaleUpLimit        = "the desired replica count is increasing faster than the maximum scale rate"
	msgScaleDownLimit      = "the desired replica count is decreasing faster than the maximum scale rate"
	msgWithinRange         = "the desired count is within the acceptable range"
)

// limitResult is one outcome of a bounds/rate-limit step.
type limitResult struct {
	replicas        int32
	reason, message string
}

// stabilizeLegacy mirrors stabilizeRecommendation: the highest recommendation
// not older than the window (inclusive), then the new one is recorded.
func stabilizeLegacy(recs []Recommendation, desired int32, window time.Duration, now time.Time, tr *explain.Stabilization) (int32, []Recommendation) {
	stab := desired
	cutoff := now.Add(-window)
	oldIdx := -1
	if len(recs) > 0 {
		tr.Considered = make([]explain.ConsideredRecommendation, 0, len(recs))
	}
	for i, r := range recs {
		in := !r.Timestamp.Before(cutoff)
		tr.Considered = append(tr.Considered, explain.ConsideredRecommendation{Timestamp: r.Timestamp, Replicas: r.Replicas, InDown: in})
		if !in {
			oldIdx = i
		} else if r.Replicas > stab {
			stab = r.Replicas
		}
	}
	out := append(make([]Recommendation, 0, len(recs)+1), recs...)
	rec := Recommendation{Replicas: desired, Timestamp: now}
	if oldIdx >= 0 {
		out[oldIdx] = rec
	} else {
		out = append(out, rec)
	}
	tr.DownRecommendation = stab
	tr.Result = stab
	if stab != desired {
		tr.HeldUntil = heldUntil(recs, stab, cutoff, window, true, false)
	}
	return stab, out
}

// heldUntil finds when the recommendations that hold the value at stab leave
// the window: the latest timestamp among in-window entries equal to stab (for
// the down window, entries >= stab keep holding it), plus the window.
func heldUntil(recs []Recommendation, stab int32, cutoff time.Time, window time.Duration, down, strict bool) *time.Time {
	var latest time.Time
	found := false
	for _, r := range recs {
		in := !r.Timestamp.Before(cutoff)
		if strict {
			in = r.Timestamp.After(cutoff)
		}
		if !in {
			continue
		}
		holds := r.Replicas >= stab
		if !down {
			holds = r.Replicas <= stab
		}
		if holds && (!found || r.Timestamp.After(latest)) {
			latest = r.Timestamp
			found = true
		}
	}
	if !found {
		return nil
	}
	t := latest.Add(window)
	return &t
}

// legacyClamp mirrors convertDesiredReplicasWithRules: min, max and the
// legacy scale-up limit max(factor × cur, minimum).
func legacyClamp(cur, desired, minR, maxR int32, set Settings, tr *explain.Limits) limitResult {
	upLimit := toInt32(math.Max(set.LegacyScaleUpLimitFactor*float64(cur), set.LegacyScaleUpLimitMinimum))
	tr.RateLimit = &upLimit
	var upper int32
	var upReason, upMsg string
	if maxR > upLimit {
		upper, upReason, upMsg = upLimit, explain.ReasonScaleUpLimit, msgScaleUpLimit
	} else {
		upper, upReason, upMsg = maxR, explain.ReasonTooManyReplicas, msgTooMany
	}
	switch {
	case desired < minR:
		tr.Bound = &minR
		return limitResult{minR, explain.ReasonTooFewReplicas, msgTooFew}
	case desired > upper:
		tr.Bound = &upper
		return limitResult{upper, upReason, upMsg}
	}
	return limitResult{desired, explain.ReasonDesiredWithinRange, msgWithinRange}
}

// stabilizeBehavior mirrors stabilizeRecommendationWithBehaviors: clamp cur
// into [lowest in the up window, highest in the down window], strict cutoffs.
func stabilizeBehavior(recs []Recommendation, cur, desired, upWindow, downWindow int32, now time.Time, tr *explain.Stabilization) (int32, string, string, []Recommendation) {
	upCutoff := now.Add(-time.Second * time.Duration(upWindow))
	downCutoff := now.Add(-time.Second * time.Duration(downWindow))
	upRec, downRec := desired, desired
	oldIdx := -1
	if len(recs) > 0 {
		tr.Considered = make([]explain.ConsideredRecommendation, 0, len(recs))
	}
	for i, r := range recs {
		inUp := r.Timestamp.After(upCutoff)
		inDown := r.Timestamp.After(downCutoff)
		if inUp {
			upRec = min(r.Replicas, upRec)
		}
		if inDown {
			downRec = max(r.Replicas, downRec)
		}
		if r.Timestamp.Before(upCutoff) && r.Timestamp.Before(downCutoff) {
			oldIdx = i
		}
		tr.Considered = append(tr.Considered, explain.ConsideredRecommendation{Timestamp: r.Timestamp, Replicas: r.Replicas, InUp: inUp, InDown: inDown})
	}
	stab := cur
	if stab < upRec {
		stab = upRec
	}
	if stab > downRec {
		stab = downRec
	}
	out := append(make([]Recommendation, 0, len(recs)+1), recs...)
	rec := Recommendation{Replicas: desired, Timestamp: now}
	if oldIdx >= 0 {
		out[oldIdx] = rec
	} else {
		out = append(out, rec)
	}
	u := upRec
	tr.UpRecommendation = &u
	tr.DownRecommendation = downRec
	tr.Result = stab
	reason, msg := explain.ReasonScaleDownStabilized, msgScaleDownStabilized
	if desired >= cur {
		reason, msg = explain.ReasonScaleUpStabilized, msgScaleUpStabilized
	}
	if stab != desired {
		if stab > desired {
			tr.HeldUntil = heldUntil(recs, stab, downCutoff, time.Duration(downWindow)*time.Second, true, true)
		} else {
			tr.HeldUntil = heldUntil(recs, stab, upCutoff, time.Duration(upWindow)*time.Second, false, true)
		}
	}
	return stab, reason, msg, out
}

// replicasChangeInPeriod sums the changes of events strictly inside the last
// periodSeconds. Outdated events still count.
func replicasChangeInPeriod(periodSeconds int32, events []ScaleEvent, now time.Time) int32 {
	cutoff := now.Add(-time.Second * time.Duration(periodSeconds))
	var sum int32
	for _, e := range events {
		if e.Timestamp.After(cutoff) {
			sum += e.ReplicaChange
		}
	}
	return sum
}

func selectPolicyOf(r *autoscalingv2.HPAScalingRules) autoscalingv2.ScalingPolicySelect {
	if r == nil || r.SelectPolicy == nil {
		return autoscalingv2.MaxChangePolicySelect
	}
	return *r.SelectPolicy
}

// scaleUpLimit mirrors calculateScaleUpLimitWithScalingRules.
func scaleUpLimit(cur int32, upEvents, downEvents []ScaleEvent, rules *autoscalingv2.HPAScalingRules, now time.Time, tr *explain.Limits) int32 {
	sel := selectPolicyOf(rules)
	if tr != nil {
		tr.SelectPolicy = string(sel)
	}
	if sel == autoscalingv2.DisabledPolicySelect || rules == nil {
		return cur
	}
	result := int32(math.MinInt32)
	pick := func(a, b int32) int32 { return max(a, b) }
	if sel == autoscalingv2.MinChangePolicySelect {
		result = math.MaxInt32
		pick = func(a, b int32) int32 { return min(a, b) }
	}
	var proposed int32
	idx := -1
	for _, p := range rules.Policies {
		added := replicasChangeInPeriod(p.PeriodSeconds, upEvents, now)
		removed := replicasChangeInPeriod(p.PeriodSeconds, downEvents, now)
		start := cur - added + removed
		switch p.Type {
		case autoscalingv2.PodsScalingPolicy:
			proposed = start + p.Value
		case autoscalingv2.PercentScalingPolicy:
			proposed = ceilInt32(float64(start) * (1 + float64(p.Value)/100))
		}
		next := pick(result, proposed)
		if tr != nil {
			tr.Policies = append(tr.Policies, explain.PolicyLimit{Type: string(p.Type), Value: p.Value, PeriodSeconds: p.PeriodSeconds, AddedInPeriod: added, RemovedInPeriod: removed, PeriodStart: start, Limit: proposed})
			if next != result || idx < 0 {
				idx = len(tr.Policies) - 1
			}
		}
		result = next
	}
	markSelected(tr, idx)
	return result
}

// scaleDownLimit mirrors calculateScaleDownLimitWithBehaviors; Percent
// truncates instead of rounding up.
func scaleDownLimit(cur int32, upEvents, downEvents []ScaleEvent, rules *autoscalingv2.HPAScalingRules, now time.Time, tr *explain.Limits) int32 {
	sel := selectPolicyOf(rules)
	if tr != nil {
		tr.SelectPolicy = string(sel)
	}
	if sel == autoscalingv2.DisabledPolicySelect || rules == nil {
		return cur
	}
	result := int32(math.MaxInt32)
	pick := func(a, b int32) int32 { return min(a, b) }
	if sel == autoscalingv2.MinChangePolicySelect {
		result = math.MinInt32
		pick = func(a, b int32) int32 { return max(a, b) }
	}
	var proposed int32
	idx := -1
	for _, p := range rules.Policies {
		added := replicasChangeInPeriod(p.PeriodSeconds, upEvents, now)
		removed := replicasChangeInPeriod(p.PeriodSeconds, downEvents, now)
		start := cur - added + removed
		switch p.Type {
		case autoscalingv2.PodsScalingPolicy:
			proposed = start - p.Value
		case autoscalingv2.PercentScalingPolicy:
			proposed = toInt32(float64(start) * (1 - float64(p.Value)/100))
		}
		next := pick(result, proposed)
		if tr != nil {
			tr.Policies = append(tr.Policies, explain.PolicyLimit{Type: string(p.Type), Value: p.Value, PeriodSeconds: p.PeriodSeconds, AddedInPeriod: added, RemovedInPeriod: removed, PeriodStart: start, Limit: proposed})
			if next != result || idx < 0 {
				idx = len(tr.Policies) - 1
			}
		}
		result = next
	}
	markSelected(tr, idx)
	return result
}

func markSelected(tr *explain.Limits, idx int) {
	if tr != nil && idx >= 0 && idx < len(tr.Policies) {
		tr.Policies[idx].Selected = true
	}
}

// behaviorRate mirrors convertDesiredReplicasWithBehaviorRate: policies and
// max apply only upwards, policies and min only downwards.
func behaviorRate(cur, desired, minR, maxR int32, up, down *autoscalingv2.HPAScalingRules, upEvents, downEvents []ScaleEvent, now time.Time, tr *explain.Limits) limitResult {
	switch {
	case desired > cur:
		tr.Direction = "up"
		limit := scaleUpLimit(cur, upEvents, downEvents, up, now, tr)
		if limit < cur {
			limit = cur
		}
		l := limit
		tr.RateLimit = &l
		upper, reason, msg := maxR, explain.ReasonTooManyReplicas, msgTooMany
		if maxR > limit {
			upper, reason, msg = limit, explain.ReasonScaleUpLimit, msgScaleUpLimit
		}
		tr.Bound = &upper
		if desired > upper {
			return limitResult{upper, reason, msg}
		}
	case desired < cur:
		tr.Direction = "down"
		limit := scaleDownLimit(cur, upEvents, downEvents, down, now, tr)
		if limit > cur {
			limit = cur
		}
		l := limit
		tr.RateLimit = &l
		lower, reason, msg := minR, explain.ReasonTooFewReplicas, msgTooFew
		if minR < limit {
			lower, reason, msg = limit, explain.ReasonScaleDownLimit, msgScaleDownLimit
		}
		tr.Bound = &lower
		if desired < lower {
			return limitResult{lower, reason, msg}
		}
	default:
		tr.Direction = "none"
	}
	return limitResult{desired, explain.ReasonDesiredWithinRange, msgWithinRange}
}

// longestPeriod is the longest periodSeconds among the rules' policies.
func longestPeriod(rules *autoscalingv2.HPAScalingRules) int32 {
	var longest int32
	if rules == nil {
		return 0
	}
	for _, p := range rules.Policies {
		if p.PeriodSeconds > longest {
			longest = p.PeriodSeconds
		}
	}
	return longest
}

// storeScaleEvent mirrors the controller's bookkeeping after a successful
// rescale: events older than the longest period are marked outdated (sticky)
// and the last outdated slot is reused.
func storeScaleEvent(behavior *autoscalingv2.HorizontalPodAutoscalerBehavior, state *ControllerState, prev, next int32, now time.Time) {
	if behavior == nil {
		return
	}
	store := func(events []ScaleEvent, rules *autoscalingv2.HPAScalingRules, change int32) []ScaleEvent {
		cutoff := now.Add(-time.Second * time.Duration(longestPeriod(rules)))
		idx := -1
		for i := range events {
			if events[i].Timestamp.Before(cutoff) {
				events[i].Outdated = true
			}
			if events[i].Outdated {
				idx = i
			}
		}
		ev := ScaleEvent{ReplicaChange: change, Timestamp: now}
		if idx >= 0 {
			events[idx] = ev
			return events
		}
		return append(events, ev)
	}
	if next > prev {
		state.ScaleUpEvents = store(state.ScaleUpEvents, behavior.ScaleUp, next-prev)
	} else {
		state.ScaleDownEvents = store(state.ScaleDownEvents, behavior.ScaleDown, prev-next)
	}
}
