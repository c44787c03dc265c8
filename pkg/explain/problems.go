// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

// Problem names a kind of trouble a decision shows. `explain --exit-code`
// exits 2 when an HPA shows one of the problems --fail-on selects; the names
// are stable (docs/exit-codes.md).
type Problem string

// The problems, in the order Problems reports them.
const (
	// ProblemMetricFailed: the controller cannot compute a metric (the
	// metric carries an errorReason such as FailedGetResourceMetric), even
	// when other metrics still decide.
	ProblemMetricFailed Problem = "metric-failed"
	// ProblemScalingInactive: the ScalingActive condition is False, for any
	// reason but ScalingDisabled (see ProblemScalingDisabled).
	ProblemScalingInactive Problem = "scaling-inactive"
	// ProblemUnableToScale: the AbleToScale condition is False (the scale
	// cannot be read or updated).
	ProblemUnableToScale Problem = "unable-to-scale"
	// ProblemDisagrees: the replay disagrees with the status the controller
	// last wrote (agreement checked, and not agreeing).
	ProblemDisagrees Problem = "disagrees"
	// ProblemStaleStatus: the controller does not seem to be syncing the
	// HPA: its status differs from the replay in what every sync rewrites,
	// and nothing shows a sync for several sync periods (agreement.sync
	// stale). Such an HPA also shows ProblemDisagrees.
	ProblemStaleStatus Problem = "stale-status"
	// ProblemLimited: ScalingLimited is True because of a bound: the HPA
	// wants more than maxReplicas (TooManyReplicas) or fewer than
	// minReplicas (TooFewReplicas).
	ProblemLimited Problem = "limited"
	// ProblemRateLimited: ScalingLimited is True because a scaling policy
	// (or the legacy scale-up limit) capped the change (ScaleUpLimit,
	// ScaleDownLimit).
	ProblemRateLimited Problem = "rate-limited"
	// ProblemScalingDisabled: the target was scaled to zero replicas by
	// hand, which turns autoscaling off (ScalingActive False,
	// ScalingDisabled). A scale to zero by the HPA itself (minReplicas 0)
	// does not show it.
	ProblemScalingDisabled Problem = "scaling-disabled"
)

// AllProblems lists every problem, in the order Problems reports them.
func AllProblems() []Problem {
	return []Problem{
		ProblemMetricFailed, ProblemScalingInactive, ProblemUnableToScale, ProblemDisagrees,
		ProblemStaleStatus, ProblemLimited, ProblemRateLimited, ProblemScalingDisabled,
	}
}

// DefaultProblems are the problems --exit-code fails on without --fail-on:
// the ones that mean the HPA does not work as configured.
func DefaultProblems() []Problem {
	return []Problem{ProblemMetricFailed, ProblemScalingInactive, ProblemUnableToScale, ProblemDisagrees, ProblemStaleStatus}
}

// Condition types and statuses Problems reads.
const (
	conditionAbleToScale    = "AbleToScale"
	conditionScalingActive  = "ScalingActive"
	conditionScalingLimited = "ScalingLimited"
	statusTrue              = "True"
	statusFalse             = "False"
)

// Problems returns the problems the decision shows, in the order of
// AllProblems: its metrics, its conditions after the sync and its
// agreement with the controller.
func (d *Decision) Problems() []Problem {
	var out []Problem
	for i := range d.Metrics {
		if d.Metrics[i].ErrorReason != "" {
			out = append(out, ProblemMetricFailed)
			break
		}
	}
	var active, able, limited *Condition
	for i := range d.Conditions {
		switch c := &d.Conditions[i]; c.Type {
		case conditionScalingActive:
			active = c
		case conditionAbleToScale:
			able = c
		case conditionScalingLimited:
			limited = c
		}
	}
	if active != nil && active.Status == statusFalse && active.Reason != ReasonScalingDisabled {
		out = append(out, ProblemScalingInactive)
	}
	if able != nil && able.Status == statusFalse {
		out = append(out, ProblemUnableToScale)
	}
	if d.Agreement.Checked && !d.Agreement.Agrees {
		out = append(out, ProblemDisagrees)
		if s := d.Agreement.Sync; s != nil && s.Stale {
			out = append(out, ProblemStaleStatus)
		}
	}
	if limited != nil && limited.Status == statusTrue {
		switch limited.Reason {
		case ReasonTooManyReplicas, ReasonTooFewReplicas:
			out = append(out, ProblemLimited)
		case ReasonScaleUpLimit, ReasonScaleDownLimit:
			out = append(out, ProblemRateLimited)
		}
	}
	if active != nil && active.Status == statusFalse && active.Reason == ReasonScalingDisabled {
		out = append(out, ProblemScalingDisabled)
	}
	return out
}
