// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

// KindExplanationSummaryList is the kind of a page of summaries.
const KindExplanationSummaryList = "ExplanationSummaryList"

// ExplanationSummaryList is a page of the summaries of many HPAs' replays,
// what the MCP tool hpa_explain_many returns (kubectl hpa mcp): small
// enough for a model's context, where the ExplanationList of `explain -A -o
// json` is not. hpa_explain gives one HPA's whole Explanation.
type ExplanationSummaryList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Total is the number of HPAs selected, on every page.
	Total int `json:"total"`
	// Items are the summaries of this page, in namespace and name order;
	// empty ([], never null) when no HPA is left.
	Items []ExplanationSummary `json:"items"`
	// NextCursor, when set, asks for the next page; absent on the last.
	NextCursor string `json:"nextCursor,omitempty"`
}

// ExplanationSummary is one HPA's replay in brief: the fields of its
// Explanation that the one line of `explain -A` shows, and its problems.
type ExplanationSummary struct {
	HPA ObjectRef `json:"hpa"`
	// Target is the scale target as KIND/NAME (Deployment/web).
	Target          string `json:"target"`
	CurrentReplicas int32  `json:"currentReplicas"`
	DesiredReplicas int32  `json:"desiredReplicas"`
	Rescale         bool   `json:"rescale"`
	// Outcome, DecidedBy and Summary are the Explanation's.
	Outcome   Outcome   `json:"outcome"`
	DecidedBy DecidedBy `json:"decidedBy"`
	Summary   string    `json:"summary"`
	// Agreement is the Explanation's comparison with the status the
	// controller last wrote.
	Agreement Agreement `json:"agreement"`
	// Problems are the decision's problems (explain --exit-code's names);
	// empty ([], never null) when it has none.
	Problems []Problem `json:"problems"`
}

// Summarize returns the summary of a decision.
func Summarize(d *Decision) ExplanationSummary {
	problems := d.Problems()
	if problems == nil {
		problems = []Problem{}
	}
	return ExplanationSummary{
		HPA: d.HPA, Target: d.Target.Kind + "/" + d.Target.Name,
		CurrentReplicas: d.CurrentReplicas, DesiredReplicas: d.DesiredReplicas, Rescale: d.Rescale,
		Outcome: d.Outcome, DecidedBy: d.DecidedBy, Summary: d.Summary, Agreement: d.Agreement, Problems: problems,
	}
}
