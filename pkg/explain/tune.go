// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import "time"

// KindTune is the kind of the document `kubectl hpa tune -o json` prints.
const KindTune = "Tune"

// Tune is a search of an HPA's settings over a recorded period: every
// candidate replayed exactly (the backtest's replay, sync by sync), the
// frontier of cost against risk, and one recommendation.
type Tune struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// HPA is namespace/name.
	HPA string `json:"hpa"`
	// Start and End bound the period; SyncPeriod spaces the replayed
	// syncs; Source is where the recorded load came from; LoadModel how a
	// candidate's pods share it.
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"`
	SyncPeriod string    `json:"syncPeriod"`
	Source     string    `json:"source"`
	LoadModel  string    `json:"loadModel"`
	// Clock is the cluster's timing the replays follow, each figure with
	// where it came from.
	Clock *Clock `json:"clock,omitempty"`
	// CostUnit is what Cost counts: "core-hours" (requested CPU) where the
	// pods request CPU, else "pod-hours".
	CostUnit string `json:"costUnit"`
	// Bounds are the service bounds risk is measured against, one per
	// metric, in words.
	Bounds []MetricBound `json:"bounds"`
	// Space lists the dimensions varied and their values.
	Space []TuneAxis `json:"space"`
	// GridSize is how many settings the whole grid holds; Replayed how many
	// were replayed (each exactly), in Rounds refinement rounds after the
	// first; Exhausted says the budget ended the search.
	GridSize  int  `json:"gridSize"`
	Replayed  int  `json:"replayed"`
	Rounds    int  `json:"rounds"`
	Exhausted bool `json:"exhausted"`
	// Actual is what the workload really did; Reference the replay of the
	// HPA as it is (what every candidate is compared with).
	Actual    PathSummary `json:"actual"`
	Reference TuneFigures `json:"reference"`
	// Candidates are the replayed settings, cheapest first.
	Candidates []TuneCandidate `json:"candidates"`
	// Variants say how the finalists were replayed again: other phases of
	// metrics-server's scrapes (the load a recommendation meets steps
	// anywhere between two) and the load a little lower and higher. The finalists (the cheapest
	// candidates within the bound, and the current setting) carry the
	// range of their figures, and the recommendation is chosen on the
	// worse ends.
	Variants []string `json:"variants,omitempty"`
	// Current is the index in Candidates of the HPA's own setting
	// replayed as a candidate (-1 when it failed); Recommended that of the
	// recommendation (-1 when no candidate kept within the bound).
	Current     int `json:"current"`
	Recommended int `json:"recommended"`
	// RiskBound is the risk the recommendation had to keep within: the
	// worse end of the HPA's own setting over the variants (the
	// reference's without them), or --max-risk.
	RiskBound float64 `json:"riskBound"`
	// Recommendation details the recommended candidate: its changes in
	// words and the merge patch that applies it.
	Recommendation *TuneRecommendation `json:"recommendation,omitempty"`
	// Censored is where the recorded demand was censored (as in a
	// backtest): there every candidate's time above the bound is a lower
	// bound.
	Censored *Censored `json:"censored,omitempty"`
	// Notes state what the search assumed and what the recording cannot
	// tell.
	Notes []string `json:"notes"`
}

// MetricBound is one metric's service bound.
type MetricBound struct {
	Metric string `json:"metric"`
	Bound  string `json:"bound"`
}

// TuneAxis is one dimension of the search: its name, its values in order,
// and the HPA's own value.
type TuneAxis struct {
	Name    string   `json:"name"`
	Values  []string `json:"values"`
	Current string   `json:"current"`
}

// TuneFigures are one replay's cost, risk and churn.
type TuneFigures struct {
	// Cost is in the document's CostUnit; PodHours, CoreHours and
	// GiBHours are each figure alone.
	Cost      float64  `json:"cost"`
	PodHours  float64  `json:"podHours"`
	CoreHours *float64 `json:"coreHours,omitempty"`
	GiBHours  *float64 `json:"gibHours,omitempty"`
	// Risk is the share of the period (0 to 1) the load ran above its
	// bound, on the worst metric.
	Risk float64 `json:"risk"`
	// Rescales and RescalesPerHour count the changes of the count;
	// PeakReplicas is the highest count.
	Rescales        int     `json:"rescales"`
	RescalesPerHour float64 `json:"rescalesPerHour"`
	PeakReplicas    int32   `json:"peakReplicas"`
	// AboveBound, BeyondTolerance and MetricsFailed are per metric, as in
	// a backtest's summary; LongestLag the longest wait from a load rise to
	// the scale-up that met it.
	AboveBound      []BoundTime  `json:"aboveBound"`
	BeyondTolerance []MetricTime `json:"beyondTolerance"`
	MetricsFailed   []MetricTime `json:"metricsFailed"`
	LongestLag      string       `json:"longestLag,omitempty"`
}

// TuneCandidate is one replayed setting.
type TuneCandidate struct {
	// Values holds the setting's value on each axis of Space, in order.
	Values []string `json:"values"`
	// Figures are absent when the replay failed; Error says why.
	Figures *TuneFigures `json:"figures,omitempty"`
	Error   string       `json:"error,omitempty"`
	// Frontier is true when no other candidate is cheaper without more
	// risk, or less risky without more cost.
	Frontier bool `json:"frontier"`
	// Replicas is the candidate's replica curve, for the report (only
	// kept for the frontier, the current setting and the
	// recommendation).
	Replicas []ReplicaPoint `json:"replicas,omitempty"`
	// Range is a finalist's cost and risk over the variants of the
	// recording (Tune.Variants) as well as its first replay; absent for
	// the others.
	Range *TuneRange `json:"range,omitempty"`
}

// TuneRange is a candidate's figures over the variants of the recording:
// what no recording can tell (where metrics-server's scrapes fell, the
// last fraction of a percent of the load) moves them this much.
type TuneRange struct {
	CostMin float64 `json:"costMin"`
	CostMax float64 `json:"costMax"`
	RiskMin float64 `json:"riskMin"`
	RiskMax float64 `json:"riskMax"`
	// Replays is how many replays the range spans.
	Replays int `json:"replays"`
	// Swings says the figures move more than a twentieth of the cost or a
	// hundredth of the period (two syncs at least): the outcome turns on
	// what the recording cannot tell.
	Swings bool `json:"swings"`
}

// TuneRecommendation is the recommended setting and how to apply it.
type TuneRecommendation struct {
	// Changes say each change from the current setting in words.
	Changes []string `json:"changes"`
	// Patch is the JSON merge patch of the HPA (kubectl patch --type
	// merge -p); Command the kubectl command that applies it.
	Patch   string `json:"patch"`
	Command string `json:"command"`
	// Saving is how much less the recommendation costs than the
	// reference, in the cost unit and as a share.
	Saving         float64 `json:"saving"`
	SavingFraction float64 `json:"savingFraction"`
}
