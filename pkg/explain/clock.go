// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

// Clock is the cluster's timing a replay over recorded load stands on, and
// that no object states: when the controller synced the HPA, and when
// metrics-server took the samples it read. Each figure says where it came
// from; an assumed one says what a wrong guess shifts.
type Clock struct {
	// SyncPeriod is the controller's sync period
	// (--horizontal-pod-autoscaler-sync-period).
	SyncPeriod ClockFigure `json:"syncPeriod"`
	// Syncs is when the replayed syncs fall: their spacing (the period and
	// the controller's own work at each sync) and phase.
	Syncs ClockFigure `json:"syncs"`
	// MetricsWindow is metrics-server's resolution (--metric-resolution):
	// the span of its samples and the time between its scrapes.
	MetricsWindow ClockFigure `json:"metricsWindow"`
	// Scrapes is when metrics-server scraped: the phase of its scrapes
	// within the window.
	Scrapes ClockFigure `json:"scrapes"`
}

// ClockFigure is one figure of the clock and where it came from.
type ClockFigure struct {
	// Value is the figure ("5s"; for a phase "2.41s past the multiples of
	// 10s", or "" when unknown).
	Value string `json:"value"`
	// Source is where it came from: flag (the user gave it), read (off
	// the cluster or the store), inferred (from what the cluster did,
	// with Confidence), assumed (a default), or unknown.
	Source string `json:"source"`
	// Confidence is how sure an inference is, 0 to 1.
	Confidence *float64 `json:"confidence,omitempty"`
	// Detail says how it was found.
	Detail string `json:"detail,omitempty"`
	// IfWrong says, for an assumed or unknown figure, what a wrong guess
	// shifts.
	IfWrong string `json:"ifWrong,omitempty"`
}
