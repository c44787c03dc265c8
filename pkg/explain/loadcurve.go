// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import "time"

// LoadCurve is one metric's recorded load over a period, as the HTML
// report of a tune or a backtest draws it beside the replica curves. No
// -o json document holds it: the documents sum the load up per curve
// (PathSummary), the report shows it.
type LoadCurve struct {
	// Metric names the metric as --slo takes it ("cpu", "queue").
	Metric string
	// Unit is what the values count: "% of request" for a utilization
	// target, "per pod" for an average value, "" for a value.
	Unit string
	// Target is the HPA's target and Bound the service bound, in Unit (0
	// when there is none); BoundWords says the bound as the summaries do.
	Target     float64
	Bound      float64
	BoundWords string
	// Points are the load at each sync of the period; a NaN Value is a
	// sync with nothing recorded.
	Points []LoadPoint
}

// LoadPoint is a metric's load at one sync.
type LoadPoint struct {
	Time  time.Time
	Value float64
}
