// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import (
	"slices"
	"testing"
)

func TestProblems(t *testing.T) {
	cond := func(typ, status, reason string) Condition {
		return Condition{Type: typ, Status: status, Reason: reason}
	}
	healthy := []Condition{
		cond("AbleToScale", "True", ReasonReadyForNewScale),
		cond("ScalingActive", "True", ReasonValidMetricFound),
		cond("ScalingLimited", "False", ReasonDesiredWithinRange),
	}
	with := func(c Condition) []Condition {
		out := slices.Clone(healthy)
		for i := range out {
			if out[i].Type == c.Type {
				out[i] = c
			}
		}
		return out
	}
	failed := "unable to get metrics"
	for _, tc := range []struct {
		name string
		d    Decision
		want []Problem
	}{
		{"healthy", Decision{Conditions: healthy, Agreement: Agreement{Checked: true, Agrees: true}}, nil},
		{"no conditions, not checked", Decision{}, nil},
		{
			"metric failed while another decides",
			Decision{Conditions: healthy, Metrics: []MetricResult{{}, {Error: &failed, ErrorReason: ReasonFailedGetPods}}},
			[]Problem{ProblemMetricFailed},
		},
		{
			// A metric not computed because the scale could not be read
			// has an error but no reason: the metric did not fail.
			"metric not computed",
			Decision{Conditions: with(cond("AbleToScale", "False", ReasonFailedGetScale)), Metrics: []MetricResult{{Error: &failed}}},
			[]Problem{ProblemUnableToScale},
		},
		{
			"every metric failed",
			Decision{Conditions: with(cond("ScalingActive", "False", ReasonFailedGetResource)), Metrics: []MetricResult{{Error: &failed, ErrorReason: ReasonFailedGetResource}}},
			[]Problem{ProblemMetricFailed, ProblemScalingInactive},
		},
		{"invalid selector", Decision{Conditions: with(cond("ScalingActive", "False", ReasonInvalidSelector))}, []Problem{ProblemScalingInactive}},
		{"scaled to zero by hand", Decision{Conditions: with(cond("ScalingActive", "False", ReasonScalingDisabled))}, []Problem{ProblemScalingDisabled}},
		{"scale update fails", Decision{Conditions: with(cond("AbleToScale", "False", ReasonFailedUpdateScale))}, []Problem{ProblemUnableToScale}},
		{
			"disagrees",
			Decision{Conditions: healthy, Agreement: Agreement{Checked: true, Differences: []Difference{{Field: "desiredReplicas"}}}},
			[]Problem{ProblemDisagrees},
		},
		{"not checked is no disagreement", Decision{Conditions: healthy, Agreement: Agreement{}}, nil},
		{
			"stale status",
			Decision{Conditions: healthy, Agreement: Agreement{Checked: true, Differences: []Difference{{Field: "currentMetrics"}}, Sync: &SyncCheck{Periods: 13, Stale: true}}},
			[]Problem{ProblemDisagrees, ProblemStaleStatus},
		},
		{
			// An old status write alone is no problem: the controller
			// writes only what changes.
			"old write, agreeing",
			Decision{Conditions: healthy, Agreement: Agreement{Checked: true, Agrees: true, Sync: &SyncCheck{Periods: 400}}},
			nil,
		},
		{
			"differs, a sync seen lately",
			Decision{Conditions: healthy, Agreement: Agreement{Checked: true, Differences: []Difference{{Field: "currentMetrics"}}, Sync: &SyncCheck{Periods: 1}}},
			[]Problem{ProblemDisagrees},
		},
		{"at max", Decision{Conditions: with(cond("ScalingLimited", "True", ReasonTooManyReplicas))}, []Problem{ProblemLimited}},
		{"at min", Decision{Conditions: with(cond("ScalingLimited", "True", ReasonTooFewReplicas))}, []Problem{ProblemLimited}},
		{"scale-up policy", Decision{Conditions: with(cond("ScalingLimited", "True", ReasonScaleUpLimit))}, []Problem{ProblemRateLimited}},
		{"scale-down policy", Decision{Conditions: with(cond("ScalingLimited", "True", ReasonScaleDownLimit))}, []Problem{ProblemRateLimited}},
		{"the HPA scaled to zero", Decision{Conditions: append(slices.Clone(healthy), cond("ScaledToZero", "True", ReasonScaledToZero))}, nil},
		{
			"all at once, in order",
			Decision{
				Conditions: []Condition{
					cond("AbleToScale", "False", ReasonFailedUpdateScale),
					cond("ScalingActive", "False", ReasonFailedGetExternal),
					cond("ScalingLimited", "True", ReasonScaleUpLimit),
				},
				Metrics:   []MetricResult{{Error: &failed, ErrorReason: ReasonFailedGetExternal}},
				Agreement: Agreement{Checked: true},
			},
			[]Problem{ProblemMetricFailed, ProblemScalingInactive, ProblemUnableToScale, ProblemDisagrees, ProblemRateLimited},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.Problems(); !slices.Equal(got, tc.want) {
				t.Errorf("Problems() = %q, want %q", got, tc.want)
			}
		})
	}
}

// The default problems are a subset of all, and every name is distinct.
func TestProblemNames(t *testing.T) {
	all := AllProblems()
	seen := map[Problem]bool{}
	for _, p := range all {
		if seen[p] {
			t.Errorf("%s twice", p)
		}
		seen[p] = true
	}
	for _, p := range DefaultProblems() {
		if !seen[p] {
			t.Errorf("default %s is not in AllProblems", p)
		}
	}
}
