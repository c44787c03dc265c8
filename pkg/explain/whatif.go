// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import "time"

// KindWhatIf is the kind of the document `kubectl hpa whatif -o json` prints.
const KindWhatIf = "WhatIf"

// WhatIf is one replay before and after a set of changes, and optionally the
// projection of the changed state over successive syncs.
type WhatIf struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`

	// Changes describes each override as it was applied, in words.
	Changes []string `json:"changes"`
	// Before is the replay of the objects as read; After the replay of the
	// edited objects. Each is the document `explain -o json` prints.
	Before *Decision `json:"before"`
	After  *Decision `json:"after"`
	// Projection is present when a projection was asked for; in a
	// backtest, every sync of the replay with the changes (or as-is,
	// without changes).
	Projection *Projection `json:"projection,omitempty"`
	// Backtest is present for a replay over recorded load (whatif
	// --since).
	Backtest *Backtest `json:"backtest,omitempty"`
}

// Load models of a projection.
const (
	// LoadConstantTotal keeps the total load constant: it is spread evenly
	// over the pods that serve (ready and reporting).
	LoadConstantTotal = "constant-total"
	// LoadConstantPerPod keeps each pod's value as given, whatever the
	// number of pods.
	LoadConstantPerPod = "constant-per-pod"
)

// Projection is a sequence of replayed syncs from the edited state, each one
// starting from the state the previous one left.
type Projection struct {
	// Start is the instant of the first sync, SyncPeriod the spacing.
	Start      time.Time `json:"start"`
	SyncPeriod string    `json:"syncPeriod"`
	// Duration is the projected span; Auto is true when it was chosen by
	// running until the replicas settled.
	Duration string `json:"duration"`
	Auto     bool   `json:"auto,omitempty"`
	// Settled is true when the last syncs left nothing pending: no rescale
	// for the longest window or policy period, and no stabilization hold.
	Settled bool `json:"settled"`
	// LoadModel is LoadConstantTotal or LoadConstantPerPod.
	LoadModel string `json:"loadModel"`
	// PodStartup is how long a new pod takes to become ready and report.
	PodStartup string `json:"podStartup"`
	// Trace names the load trace replayed, if any.
	Trace string `json:"trace,omitempty"`
	// Notes state the simplifications of the simulation.
	Notes []string `json:"notes,omitempty"`
	// Steps has one entry per sync.
	Steps []ProjectionStep `json:"steps"`
	// Rescales lists the syncs that changed the replica count.
	Rescales []ProjectedRescale `json:"rescales"`
	// FinalReplicas is the replica count after the last sync.
	FinalReplicas int32 `json:"finalReplicas"`
}

// ProjectionStep is one projected sync.
type ProjectionStep struct {
	Time time.Time `json:"time"`
	// Offset is the time since the projection's start ("1m30s").
	Offset string `json:"offset"`
	// Replicas is the scale before this sync; Desired what it writes.
	Replicas int32 `json:"replicas"`
	Desired  int32 `json:"desired"`
	// ReadyPods counts the pods that are ready at this sync.
	ReadyPods int `json:"readyPods"`
	// Metrics gives each metric's current value in words ("75% (375m)").
	Metrics []ProjectedMetric `json:"metrics"`
	// Recommendation is the combined proposal (null when the metrics failed),
	// Stabilized the value after the stabilization window.
	Recommendation *int32 `json:"recommendation"`
	Stabilized     *int32 `json:"stabilized"`
	// DecidedBy is the step that decided this sync's desired replicas, as
	// the sync's Decision records it: a stabilization hold, a rate limit or
	// a bound when one capped the metrics' proposal.
	DecidedBy DecidedBy `json:"decidedBy"`
	// Outcome and Reason are the decision's outcome and its summary.
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason"`
}

// ProjectedMetric is one metric's value at a projected sync.
type ProjectedMetric struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Proposal *int32 `json:"proposal"`
}

// ProjectedRescale is one projected change of the replica count.
type ProjectedRescale struct {
	Time   time.Time `json:"time"`
	Offset string    `json:"offset"`
	From   int32     `json:"from"`
	To     int32     `json:"to"`
	Reason string    `json:"reason"`
}

// HPAName names the HPA of a what-if, namespace/name, from its replayed
// decision ("" without one).
func (w *WhatIf) HPAName() string {
	if d := w.Before; d != nil {
		return d.HPA.Namespace + "/" + d.HPA.Name
	}
	return ""
}
