// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

// KindExplanationList is the kind of the document a many-HPA explain
// prints with -o json|yaml.
const KindExplanationList = "ExplanationList"

// ExplanationList is the document `explain -A|-l -o json|yaml` prints
// (also without a NAME): one Explanation per HPA. pkg/render writes it
// item by item as the replays come (ListWriter), in this field order.
type ExplanationList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Items has one Explanation per HPA, in namespace and name order;
	// empty ([], never null) when no HPA matched.
	Items []Decision `json:"items"`
}
