// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import "time"

// KindTuneFleet is the kind of the document `kubectl hpa tune` prints
// without a NAME (-n, -A, -l): every selected HPA tuned alike.
const KindTuneFleet = "TuneFleet"

// TuneFleet is the tune of many HPAs over one period, ranked by what each
// recommendation saves: per HPA its summary and patch, not its candidates
// or curves (tune NAME -o json has those).
type TuneFleet struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Start and End are the period asked for (an HPA created later starts
	// at its creation).
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// MinFidelity is the share of the period an HPA's as-is replay must
	// hold the recorded replica count for its recommendation to be made.
	MinFidelity float64 `json:"minFidelity"`
	// Items are the HPAs, ranked by saving (the greatest first, in the
	// cost unit, then by namespace and name); an HPA without a
	// recommendation comes after those with one, and one that could not be
	// tuned last. Empty ([], never null) when nothing was selected.
	Items []FleetItem `json:"items"`
	// Totals sum the fleet per cost unit: what the HPAs cost as they are,
	// with every recommendation applied, and the difference.
	Totals []FleetTotal `json:"totals"`
	// Notes say what the whole run assumed.
	Notes []string `json:"notes"`
	// Shard, in a document of one shard (--shard), says which share of
	// the HPAs it holds; a merge of every shard's documents has none.
	Shard *FleetShard `json:"shard,omitempty"`
}

// FleetShard is one share of the HPAs (tune --shard INDEX/COUNT): those
// whose hash of context, namespace and name, modulo Count, is Index.
type FleetShard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// FleetItem is one HPA of a fleet tune.
type FleetItem struct {
	// Context is the kubeconfig context the HPA was read through ("" in
	// a pod, with no kubeconfig).
	Context string    `json:"context,omitempty"`
	HPA     ObjectRef `json:"hpa"`
	// CostUnit is what the HPA's costs count ("core-hours" or
	// "pod-hours", as tune NAME says).
	CostUnit string `json:"costUnit,omitempty"`
	// AsIs is the replay of the HPA as it is over the period.
	AsIs *FleetFigures `json:"asIs,omitempty"`
	// Recommended is the recommendation's figures: its cost at the worse
	// end of its range (what the saving counts), its risk and churn at the
	// recording's own phase, as AsIs's; absent without a recommendation.
	Recommended *FleetFigures `json:"recommended,omitempty"`
	// Saving is AsIs's cost less Recommended's, in the cost unit and as a
	// share of AsIs's; 0 without a recommendation.
	Saving         float64 `json:"saving"`
	SavingFraction float64 `json:"savingFraction"`
	// Changes say the recommendation's changes in words; Patch is its
	// JSON merge patch and Command the kubectl command that applies it.
	Changes []string `json:"changes,omitempty"`
	Patch   string   `json:"patch,omitempty"`
	Command string   `json:"command,omitempty"`
	// Fidelity is how far the as-is replay reproduced the recorded
	// replica count: what the recommendation's figures rest on.
	Fidelity *Fidelity `json:"fidelity,omitempty"`
	// Status is "recommended", "no-change" (nothing cheaper within the
	// bound), "untrusted" (the as-is replay strayed from the record
	// beyond MinFidelity) or "failed" (the HPA could not be tuned);
	// Reason says why there is no recommendation, in one line.
	Status FleetStatus `json:"status"`
	Reason string      `json:"reason,omitempty"`
	// Warnings are what the read warned of.
	Warnings []string `json:"warnings,omitempty"`
}

// FleetStatus says what became of one HPA of a fleet tune.
type FleetStatus string

const (
	// FleetRecommended has a recommendation.
	FleetRecommended FleetStatus = "recommended"
	// FleetNoChange found no candidate cheaper than the HPA's own setting
	// within the bound.
	FleetNoChange FleetStatus = "no-change"
	// FleetUntrusted replayed the HPA's own history too far from the
	// record for its figures to be trusted: no recommendation.
	FleetUntrusted FleetStatus = "untrusted"
	// FleetFailed could not be tuned (no recording, a metric no query
	// reads, ...).
	FleetFailed FleetStatus = "failed"
)

// FleetFigures are one replay's figures in a fleet tune.
type FleetFigures struct {
	// Cost is in the item's CostUnit.
	Cost float64 `json:"cost"`
	// Risk is the share of the period (0 to 1) the load ran above its
	// bound, on the worst metric.
	Risk            float64 `json:"risk"`
	RescalesPerHour float64 `json:"rescalesPerHour"`
}

// Fidelity compares the as-is replay of an HPA with the replica count its
// workload really had over the period.
type Fidelity struct {
	// Source is where the real count came from (as a backtest's actual
	// curve says: kube-state-metrics, events, pods).
	Source string `json:"source"`
	// Equal is the share of the period (0 to 1) the replay's count was the
	// real one.
	Equal float64 `json:"equal"`
	// Rescales is how many times the real count changed; Matched how many
	// of those the replay made too, the same sizes within two syncs.
	Rescales int `json:"rescales"`
	Matched  int `json:"matched"`
}

// FleetTotal sums a fleet's HPAs of one cost unit.
type FleetTotal struct {
	CostUnit string `json:"costUnit"`
	// HPAs counts the HPAs summed; Recommended those with a
	// recommendation.
	HPAs        int `json:"hpas"`
	Recommended int `json:"recommended"`
	// AsIs is what they cost as they are; WithRecommendations with each
	// recommendation applied (the others as they are); Saving the
	// difference.
	AsIs                float64 `json:"asIs"`
	WithRecommendations float64 `json:"withRecommendations"`
	Saving              float64 `json:"saving"`
}
