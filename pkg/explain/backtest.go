// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import "time"

// Backtest compares, over a past period, the replica count the workload
// really had with the controller replayed over the load that was recorded:
// once with the HPA as it is (which follows what happened wherever its pods
// are the real pods) and, when changes were asked for, once with them.
type Backtest struct {
	// Start and End bound the period; SyncPeriod is the spacing of the
	// replayed syncs; WarmUp is how long before Start the replay began, so
	// that the controller history (stabilization windows, policy periods) at
	// Start is the replayed one.
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"`
	SyncPeriod string    `json:"syncPeriod"`
	WarmUp     string    `json:"warmUp"`
	// Clock is the cluster's timing the replay follows, each figure with
	// where it came from.
	Clock *Clock `json:"clock,omitempty"`
	// Source names where the recorded load came from ("Prometheus at
	// http://...").
	Source string `json:"source"`
	// LoadModel says how recorded load is spread over a pod count that
	// differs from the real one; PodStartup and SampleDelay how long a pod
	// the replay adds takes to become ready and to have a sample.
	LoadModel   string `json:"loadModel"`
	PodStartup  string `json:"podStartup"`
	SampleDelay string `json:"sampleDelay"`

	// Actual is the replica count the workload really had; AsIs the replay
	// of the HPA as it is; Changed the replay with the changes (absent
	// without changes).
	Actual  BacktestPath  `json:"actual"`
	AsIs    BacktestPath  `json:"asIs"`
	Changed *BacktestPath `json:"changed,omitempty"`
	// Changes describes each change of the Changed path, in words.
	Changes []string `json:"changes,omitempty"`

	// Censored says where the recorded CPU usage was capped (pods at
	// their CPU limit, or throttled), so that the demand may have been
	// higher than recorded; absent when the source could not look.
	Censored *Censored `json:"censored,omitempty"`

	// Sources say where each recorded figure came from: the query and the
	// number of series.
	Sources []BacktestSource `json:"sources"`
	// Reconstructed lists what was inferred rather than read.
	Reconstructed []string `json:"reconstructed,omitempty"`
	// Notes state the simplifications of the replay.
	Notes []string `json:"notes,omitempty"`
}

// BacktestPath is one replica curve of a backtest.
type BacktestPath struct {
	// Name is "actual", "as-is" or "changed".
	Name string `json:"name"`
	// Source says where the curve comes from: for the actual curve
	// kube-state-metrics, events, watch or pods (reconstructed from the
	// pods that existed); for a replay "replay".
	Source string `json:"source"`
	// Replicas is the curve: the count from each point on, oldest first.
	Replicas []ReplicaPoint `json:"replicas"`
	// Rescales lists each change of the count.
	Rescales []ProjectedRescale `json:"rescales"`
	// Summary sums the curve up over the period.
	Summary PathSummary `json:"summary"`
}

// ReplicaPoint is the replica count from Time on.
type ReplicaPoint struct {
	Time     time.Time `json:"time"`
	Replicas int32     `json:"replicas"`
}

// PathSummary sums up a replica curve over the period.
type PathSummary struct {
	// PodHours is the integral of the replica count over the period.
	PodHours float64 `json:"podHours"`
	// AboveTarget is, per metric, how long its value was above its target
	// on this curve.
	AboveTarget []MetricTime `json:"aboveTarget"`
	// Rescales counts the changes of the count in the period.
	Rescales int `json:"rescales"`
	// PeakReplicas is the highest count.
	PeakReplicas int32 `json:"peakReplicas"`
	// LongestLag is the longest time from a load rise (the metrics asking
	// for more replicas than the curve had) to the scale-up that met it,
	// and LagStart when that rise began; absent when nothing lagged.
	LongestLag string     `json:"longestLag,omitempty"`
	LagStart   *time.Time `json:"lagStart,omitempty"`

	// CoreHours is the CPU the curve's pods requested over the period (the
	// replica count times a pod's CPU request), GiBHours the memory; absent
	// when a pod requests none.
	CoreHours *float64 `json:"coreHours,omitempty"`
	GiBHours  *float64 `json:"gibHours,omitempty"`
	// RescalesPerHour is Rescales over the period's length in hours.
	RescalesPerHour float64 `json:"rescalesPerHour"`
	// BeyondTolerance is, per metric, how long its usage ratio was above
	// the target by more than the scale-up tolerance: the HPA wanted more
	// replicas than the curve had.
	BeyondTolerance []MetricTime `json:"beyondTolerance"`
	// AboveBound is, per metric, how long its load per ready pod was above
	// the service bound (BacktestOptions.Bounds), and the longest stretch.
	AboveBound []BoundTime `json:"aboveBound"`
	// MetricsFailed is, per metric, how long the controller could not
	// compute it (no metrics): those syncs are replayed as the controller
	// runs them, with the metric left out.
	MetricsFailed []MetricTime `json:"metricsFailed"`
	// Lags lists every load rise (the metrics asking for more replicas than
	// the curve had) with how long until the curve met it or the load fell
	// back; Met is false for one still open at the end of the period.
	Lags []Lag `json:"lags"`
}

// BoundTime is how long one metric's load per ready pod was above its
// service bound.
type BoundTime struct {
	Metric string `json:"metric"`
	// Bound is the bound in words ("90% of the request", "40 per pod").
	Bound string `json:"bound"`
	// Duration is the time above the bound; Fraction its share of the
	// period.
	Duration string  `json:"duration"`
	Fraction float64 `json:"fraction"`
	// Worst is the longest continuous stretch above it, from WorstStart.
	Worst      string     `json:"worst"`
	WorstStart *time.Time `json:"worstStart,omitempty"`
	// LowerBound is true when the period had stretches of censored demand
	// (Backtest.Censored): the load there may have been higher than
	// recorded, so the time above the bound may have been longer.
	// CensoredTime is the part of Duration that fell in those stretches.
	// Both absent when nothing was censored.
	LowerBound   bool   `json:"lowerBound,omitempty"`
	CensoredTime string `json:"censoredTime,omitempty"`
}

// Censored is where a recording's demand was censored: stretches of time
// when at least one ready pod of the workload ran at its CPU limit or was
// throttled, so that its usage is a lower bound of its demand.
type Censored struct {
	// Duration is the time in such stretches, Fraction its share of the
	// period.
	Duration string  `json:"duration"`
	Fraction float64 `json:"fraction"`
	// Source says what told it ("limits from kube-state-metrics,
	// throttling from cAdvisor"), or why nothing could ("not known: no
	// limits and no throttling series").
	Source string `json:"source"`
	// Stretches are the longest stretches (at most 20), oldest first;
	// MoreStretches counts those left out.
	Stretches     []CensoredStretch `json:"stretches"`
	MoreStretches int               `json:"moreStretches,omitempty"`
}

// CensoredStretch is a maximal run of censored time.
type CensoredStretch struct {
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	Duration string    `json:"duration"`
	// Pods is how many different ready pods were censored during it.
	Pods int `json:"pods"`
}

// Lag is one load rise and how long the curve took to meet it.
type Lag struct {
	Start    time.Time `json:"start"`
	Duration string    `json:"duration"`
	Met      bool      `json:"met"`
}

// MetricTime is how long one metric was above its target.
type MetricTime struct {
	Metric string `json:"metric"`
	// Duration is the time above the target; Fraction its share of the
	// period.
	Duration string  `json:"duration"`
	Fraction float64 `json:"fraction"`
}

// BacktestSource is the provenance of some recorded figures.
type BacktestSource struct {
	What   string `json:"what"`
	Query  string `json:"query"`
	Series int    `json:"series"`
}
