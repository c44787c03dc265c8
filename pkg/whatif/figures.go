// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Cost units: what a replay's cost counts.
const (
	CostPodHours  = "pod-hours"
	CostCoreHours = "core-hours"
)

// Figures are the figures tune compares replayed curves by, as the replay
// counted them: typed, worked out once per replay, beside the summary
// (explain.PathSummary) that says the same in the document's words.
type Figures struct {
	// Period is the counted part of the replay.
	Period time.Duration
	// PodHours, CoreHours and GiBHours are the curve's cost each way, to
	// the summary's three decimals (CoreHours and GiBHours nil when a pod
	// requests no CPU, or memory does not count).
	PodHours            float64
	CoreHours, GiBHours *float64
	// Rescales counts the curve's changes.
	Rescales int
	// AboveBound is each metric's time above its service bound.
	AboveBound []time.Duration
}

// Cost is the figure in unit: core-hours where the unit asks for them and
// the pods request CPU, else pod-hours.
func (f *Figures) Cost(unit string) float64 {
	if unit == CostCoreHours && f.CoreHours != nil {
		return *f.CoreHours
	}
	return f.PodHours
}

// Risk is the worst metric's share of the period above its bound (0 to
// 1).
func (f *Figures) Risk() float64 {
	risk := 0.0
	if f.Period <= 0 {
		return 0
	}
	for _, d := range f.AboveBound {
		risk = math.Max(risk, float64(d)/float64(f.Period))
	}
	return risk
}

// CostUnit is the unit tune counts the cost of curves summed up as s in:
// core-hours where the pods request CPU, else pod-hours.
func CostUnit(s *explain.PathSummary) string {
	if s.CoreHours != nil {
		return CostCoreHours
	}
	return CostPodHours
}

// TuneFigures are a replayed curve's figures as tune's document gives
// them: its summary's, and the cost in unit and the risk.
func TuneFigures(s *explain.PathSummary, f *Figures, unit string) explain.TuneFigures {
	return explain.TuneFigures{
		Cost: f.Cost(unit), Risk: f.Risk(),
		PodHours: s.PodHours, CoreHours: s.CoreHours, GiBHours: s.GiBHours, Rescales: s.Rescales,
		RescalesPerHour: s.RescalesPerHour, PeakReplicas: s.PeakReplicas, LongestLag: s.LongestLag,
		AboveBound: s.AboveBound, BeyondTolerance: s.BeyondTolerance, MetricsFailed: s.MetricsFailed,
	}
}

// Replayed is one replay of a recording under one HPA: its curve and
// summary, and its figures.
type Replayed struct {
	Path    *explain.BacktestPath
	Figures Figures
}
