// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// MaxPointsPerSeries is the most points per series one query_range may
// return (Prometheus refuses more than 11,000).
const MaxPointsPerSeries = 11000

// DefaultPointBudget bounds the points of one answer (all its series):
// about 30 bytes of JSON each, so an answer stays near 60 MB however many
// pods a workload had.
const DefaultPointBudget = 2_000_000

// maxSampleInterval is the sparsest sampling a replay accepts: a store
// that keeps one sample every 5 minutes (a downsampled long-term store)
// cannot feed a controller that syncs every 15 seconds.
const maxSampleInterval = 2 * time.Minute

// Request says what to read.
type Request struct {
	// Namespace, Kind and Name identify the HPA's target workload.
	Namespace string
	Kind      string
	Name      string
	// Selector is the target's selector (scale.status.selector), for the
	// record; the pods are matched by owner, not by labels.
	Selector string

	// ReplicaSets are the target's ReplicaSets known live (current and
	// old), with their pod templates' containers: pods are named after
	// them, and a pod gone since takes its requests from its ReplicaSet's
	// template when kube-state-metrics does not give them.
	ReplicaSets []ReplicaSet
	// Pods are the target's live pods: their labels, readiness, start
	// times and requests are used for those still alive.
	Pods []corev1.Pod
	// Template is the pod template's containers: the requests of a pod
	// known neither to kube-state-metrics nor alive nor by ReplicaSet.
	Template []corev1.Container

	// Metrics are the HPA's metrics to read (see MetricsFor).
	Metrics []MetricRequest

	// Start, Step and Len are the instants read: Start + k×Step, k in
	// [0, Len). Step is the controller's sync period. Start is cut to the
	// millisecond (the API's precision).
	Start time.Time
	Step  time.Duration
	Len   int
	// PeriodStart is where the period the user asked for begins; the
	// instants before it are the controller's warm-up, read for its
	// history, where a workload younger than the warm-up has no samples
	// and is not too young to replay for that. Zero: Start.
	PeriodStart time.Time

	// SampleLag is how long before an instant the controller's resource
	// sample was taken (metrics-server's scrape lag): the resource values
	// of a user's query (--query cpu=PROMQL) and the throttling are read
	// that much earlier (PromQL's offset). Zero reads at the instant. The
	// container counters, read raw, are sampled at the scrapes instead
	// (Window, ScrapeAnchor).
	SampleLag time.Duration
	// Window is metrics-server's --metric-resolution: how often it scrapes
	// the kubelets, and the span of each sample it serves (the counter's
	// rate between its last two scrapes). The container counters are read
	// as the store's raw samples and resampled at those scrapes
	// (recording.Recording.Resample), so Window is required when a
	// resource metric is read from them (cpu or memory without a query).
	Window time.Duration
	// ScrapeAnchor is one of metrics-server's scrapes: the others are
	// Window apart. Zero places them half a window before the instants of
	// the sync grid (the anchor is Start − Window/2): with a sync period
	// that is a multiple of the window, each sync then reads a sample
	// taken half a window earlier, metrics-server's lag on average when
	// its phase is unknown.
	ScrapeAnchor time.Time
	// ScrapeInterval is how often the store sampled the container
	// counters; 0 measures it (count_over_time over 10 minutes, and the
	// raw samples' spacing when that count is low).
	ScrapeInterval time.Duration

	// NoKubeStateMetrics skips kube-state-metrics even when the store has
	// it (pods are then taken from the usage series).
	NoKubeStateMetrics bool

	// Progress, when set, is called after each answer; its calls never
	// overlap, though the reads that make them may run at once.
	Progress func(Progress)
	// Concurrency bounds the range and raw reads in flight at once (0:
	// DefaultConcurrency; 1: one after the other).
	Concurrency int
	// MaxPoints caps the points per series of one query_range, and of the
	// first chunk of a raw read (0: MaxPointsPerSeries); PointBudget the
	// points of one answer (0: DefaultPointBudget). Tests lower them.
	MaxPoints   int
	PointBudget int
}

// ReplicaSet is one of the target's ReplicaSets.
type ReplicaSet struct {
	Name       string
	Containers []corev1.Container
}

// MetricRequest is one metric of the HPA to read.
type MetricRequest struct {
	// Kind is recording.KindResource, KindPods, KindObject or
	// KindExternal; Name the resource ("cpu", "memory") or the HPA's
	// metric name. A ContainerResource metric is a resource: every
	// container is read.
	Kind string
	Name string
	// Query is the user's PromQL. Required for Pods (one series per pod,
	// with a pod label; several series of one pod are summed), Object and
	// External metrics (one series, or several that are summed). For a
	// resource it replaces the container counters (it must then return
	// pod and container labels, in cores or bytes).
	Query string
}

// Progress is how far a Read is: Done of Total instants of its range
// queries (a long period is read in pieces), and the requests made.
type Progress struct {
	Done, Total int64
	Requests    int
	// What names the figures being read.
	What string
}

// Fraction is Done/Total in [0, 1].
func (p Progress) Fraction() float64 {
	if p.Total <= 0 {
		return 0
	}
	return min(1, float64(p.Done)/float64(p.Total))
}

// Validate checks a request.
func (r *Request) Validate() error {
	var errs []error
	if r.Namespace == "" || r.Kind == "" || r.Name == "" {
		errs = append(errs, errors.New("the workload's namespace, kind and name are required"))
	}
	if r.Step < time.Millisecond {
		errs = append(errs, fmt.Errorf("the step must be at least 1ms, not %s", r.Step))
	}
	if r.Len <= 0 {
		errs = append(errs, fmt.Errorf("the period must hold at least one instant, not %d", r.Len))
	}
	if r.Start.IsZero() {
		errs = append(errs, errors.New("the period has no start"))
	}
	if r.SampleLag < 0 || r.ScrapeInterval < 0 || r.Window < 0 {
		errs = append(errs, errors.New("the sample lag, scrape interval and window must not be negative"))
	}
	if r.Window == 0 && r.readsRaw() {
		errs = append(errs, errors.New("the window (metrics-server's resolution) is required to sample the container counters as metrics-server does"))
	}
	for _, m := range r.Metrics {
		switch m.Kind {
		case recording.KindResource:
			if m.Name != "cpu" && m.Name != "memory" && m.Query == "" {
				errs = append(errs, fmt.Errorf("resource %q: only cpu and memory have container counters; give --%s %s=PROMQL", m.Name, FlagQuery, m.Name))
			}
		case recording.KindPods, recording.KindObject, recording.KindExternal:
			if m.Query == "" {
				errs = append(errs, fmt.Errorf("the %s metric %q needs a query: --%s %s=PROMQL", m.Kind, m.Name, FlagQuery, m.Name))
			}
		default:
			errs = append(errs, fmt.Errorf("metric %q: unknown kind %q", m.Name, m.Kind))
		}
	}
	return errors.Join(errs...)
}

// readsRaw reports whether a resource metric is read from the container
// counters' raw samples (cpu or memory without a query of the user's).
func (r *Request) readsRaw() bool {
	for _, m := range r.Metrics {
		if m.Kind == recording.KindResource && m.Query == "" && (m.Name == "cpu" || m.Name == "memory") {
			return true
		}
	}
	return false
}

// scrapes are the scrapes the raw counters are resampled at.
func (r *Request) scrapes(start time.Time) recording.Scrapes {
	anchor := r.ScrapeAnchor
	if anchor.IsZero() {
		anchor = start.Add(-r.Window / 2)
	}
	return recording.Scrapes{Anchor: anchor, Window: r.Window}
}
