// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// summarize says in one sentence what decided a normal sync: its parts
// joined by "; ".
func summarize(d *explain.Decision) string {
	var room [256]byte
	text := sentence(room[:0])
	if r := d.Recommendation; r != nil && r.Replicas >= 0 {
		// "metrics propose %d (from %s)", or "metrics propose %d"
		text = text.str("metrics propose ").int(int64(r.Replicas))
		if r.WinningMetric != "" {
			text = text.str(" (from ").str(winnerWords(d)).str(")")
		}
		if r.Invalid > 0 {
			// "%d of %d metrics are invalid but do not block this direction"
			text = text.str("; ").int(int64(r.Invalid)).str(" of ").int(int64(r.Total)).str(" metrics are invalid but do not block this direction")
		}
	}
	// next separates a part from the one before it.
	next := func(text sentence) sentence {
		if len(text) == 0 {
			return text
		}
		return text.str("; ")
	}
	if n := d.Normalization; n != nil {
		st := n.Stabilization
		if st.Result != n.Input {
			// "the stabilization window holds it at %d (%s)"
			text = next(text).str("the stabilization window holds it at ").int(int64(st.Result)).str(" (").str(st.Reason).str(")")
			if st.HeldUntil != nil {
				text = text.str(" until ").str(st.HeldUntil.UTC().Format(time.RFC3339))
			}
		}
		if n.Limits.Limited {
			// "%s limits it to %d"
			text = next(text).str(limitWords(n.Limits.Reason)).str(" limits it to ").int(int64(n.Limits.Result))
		}
		if n.ScaleFromZeroFloor {
			// "the scale-from-zero floor raises it to minReplicas %d"
			text = next(text).str("the scale-from-zero floor raises it to minReplicas ").int(int64(n.Result))
		}
	}
	switch {
	case d.Rescale:
		// "the controller scales %d → %d"
		text = next(text).str("the controller scales ").int(int64(d.CurrentReplicas)).str(" → ").int(int64(d.DesiredReplicas))
	default:
		// "replicas stay at %d"
		text = next(text).str("replicas stay at ").int(int64(d.CurrentReplicas))
	}
	return text.String()
}

// winnerWords names the winning metric for the summary, with the
// arithmetic of a proposal from zero replicas, which has no ratio: "external
// metric queue{q=jobs}: 35 over a target of 10 per pod, from 0 replicas".
func winnerWords(d *explain.Decision) string {
	r := d.Recommendation
	if r.WinningIndex < 0 || r.WinningIndex >= len(d.Metrics) {
		return r.WinningMetric
	}
	m := &d.Metrics[r.WinningIndex]
	if u := m.Usage; u != nil && u.RatioUndefined == explain.RatioFromZero {
		return fmt.Sprintf("%s: %s over a target of %s per pod, from 0 replicas", m.DisplayName(), milliWords(u.SumMilli), milliWords(u.TargetMilli))
	}
	return m.DisplayName()
}

// milliWords prints a milli-value as a quantity (35000 → "35").
func milliWords(v int64) string {
	return resource.NewMilliQuantity(v, resource.DecimalSI).String()
}

func limitWords(reason string) string {
	switch reason {
	case explain.ReasonTooFewReplicas:
		return "minReplicas"
	case explain.ReasonTooManyReplicas:
		return "maxReplicas"
	case explain.ReasonScaleUpLimit:
		return "the scale-up rate limit"
	case explain.ReasonScaleDownLimit:
		return "the scale-down rate limit"
	}
	return reason
}

// decidedBy names the step that decided the desired replicas, with its
// operands, from the replay's steps.
func decidedBy(d *explain.Decision) explain.DecidedBy {
	out := explain.DecidedBy{Replicas: d.DesiredReplicas}
	if r := d.Recommendation; r != nil && r.Replicas >= 0 {
		p := r.Replicas
		out.Proposal = &p
	}
	winner := func() {
		r := d.Recommendation
		if r == nil || r.WinningIndex < 0 || r.WinningIndex >= len(d.Metrics) {
			return
		}
		i := r.WinningIndex
		m := &d.Metrics[i]
		out.MetricIndex, out.Metric = &i, m.Name
		// The operands of ceil(ratio × base), where the proposal was
		// computed that way (not for per-pod targets or kept replicas) and
		// the ratio is a number.
		switch {
		case m.FillIn != nil && m.FillIn.NewReplicas != nil && !m.FillIn.WrongWay && m.FillIn.NewRatio.Finite():
			ratio, base := float64(m.FillIn.NewRatio), int32(m.FillIn.Samples)
			out.Ratio, out.Base = &ratio, &base
		case m.FillIn == nil && m.Usage != nil && m.Usage.Replicas != nil && m.Usage.Ratio.Finite():
			ratio, base := float64(m.Usage.Ratio), m.Usage.ReplicaBase
			out.Ratio, out.Base = &ratio, &base
		}
	}
	switch d.Outcome {
	case explain.OutcomeScalingDisabled:
		out.Kind, out.Reason = explain.DecidedByDisabled, explain.ReasonScalingDisabled
		return out
	case explain.OutcomeAboveMax:
		out.Kind, out.Reason, out.Bound = explain.DecidedByMaxReplicas, d.RescaleReason, &d.Target.MaxReplicas
		return out
	case explain.OutcomeBelowMin:
		out.Kind, out.Reason, out.Bound = explain.DecidedByMinReplicas, d.RescaleReason, &d.Target.MinReplicas
		return out
	case explain.OutcomeFailedGetScale, explain.OutcomeInvalidSelector, explain.OutcomeFailedUpdateScale:
		out.Kind, out.Reason = explain.DecidedByFailure, string(d.Outcome)
		return out
	case explain.OutcomeMetricsFailed:
		out.Kind, out.Reason = explain.DecidedByFailure, string(d.Outcome)
		for i := range d.Metrics {
			if d.Metrics[i].Error != nil {
				idx := i
				out.MetricIndex, out.Metric, out.Reason = &idx, d.Metrics[i].Name, d.Metrics[i].ErrorReason
				break
			}
		}
		return out
	case explain.OutcomeRescale, explain.OutcomeNoChange:
	}
	if n := d.Normalization; n != nil {
		switch l := &n.Limits; {
		case l.Limited && (l.Reason == explain.ReasonScaleUpLimit || l.Reason == explain.ReasonScaleDownLimit):
			out.Kind = explain.DecidedByScaleUpRateLimit
			if l.Reason == explain.ReasonScaleDownLimit {
				out.Kind = explain.DecidedByScaleDownRateLimit
			}
			out.Reason, out.Bound = l.Reason, l.Bound
			for i := range l.Policies {
				if l.Policies[i].Selected {
					p := l.Policies[i]
					out.Policy = &p
				}
			}
			return out
		case l.Limited:
			out.Kind = explain.DecidedByMaxReplicas
			if l.Reason == explain.ReasonTooFewReplicas {
				out.Kind = explain.DecidedByMinReplicas
			}
			out.Reason, out.Bound = l.Reason, l.Bound
			return out
		}
		if st := n.Stabilization; st.Result != n.Input {
			out.Kind, out.Reason, out.HeldUntil = explain.DecidedByScaleDownStabilization, st.Reason, st.HeldUntil
			w := st.DownWindowSeconds
			if st.Reason == explain.ReasonScaleUpStabilized {
				out.Kind, w = explain.DecidedByScaleUpStabilization, st.UpWindowSeconds
			}
			out.WindowSeconds = &w
			return out
		}
		if n.ScaleFromZeroFloor {
			out.Kind, out.Bound = explain.DecidedByScaleFromZero, &d.Target.MinReplicas
			return out
		}
	}
	winner()
	out.Kind = explain.DecidedByMetric
	if i := out.MetricIndex; i != nil && !d.Rescale {
		if tc := d.Metrics[*i].Tolerance; tc != nil && tc.Within {
			out.Kind = explain.DecidedByTolerance
			out.Ratio, out.Base = nil, nil
		}
	}
	return out
}
