// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import "time"

// The inputs several commands share, each declared once with its rows
// (options.go): whatif and tune embed PeriodInput and ReplayInput,
// explain and whatif HistoryInput.

// PeriodInput is a past period over recorded load (PeriodRows): whatif
// --since's backtest, tune's search.
type PeriodInput struct {
	// Since and Until are past instants: a duration ago, an RFC 3339 time,
	// or a UTC time of day (ParsePast); Until "" is now.
	Since, Until string
}

// ReplayInput is how the pods a replay adds start and how the load
// spreads over them (ReplayRows): a projection's, a backtest's, tune's
// candidates'.
type ReplayInput struct {
	// LoadModel is explain.LoadConstantTotal or LoadConstantPerPod.
	LoadModel string
	// PodStartup nil is whatif.DefaultPodStartup in a projection, and
	// measured on the recorded pods over recorded load; SampleDelay 0 is
	// measured likewise.
	PodStartup  *time.Duration
	SampleDelay time.Duration
}

// HistoryInput says whether a run uses the controller history that
// watches recorded (HistoryRows).
type HistoryInput struct {
	// NoHistory ignores it (and a watch records none).
	NoHistory bool
}
