// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package recording is the model of recorded load: what a workload's pods
// really used over a period, as a metrics store (Prometheus) recorded it,
// sampled at the instants a replay syncs. A source (pkg/prom) fills it; the
// backtest (pkg/whatif) replays the controller over it. It is pure data with
// small accessors, and the reconstructions of what a store does not record
// (syncgrid.go: the controller's sync phase from its rescale events, where a
// replay's instants go, how far back a sample is read; replicas.go: the
// actual replicas from the HPA's events or a watch's rescales, the live
// pods): no I/O, no clock.
//
// It is not the controller history (pkg/history): that is what the
// controller kept in memory; this is the load it was fed.
package recording

import (
	"fmt"
	"math"
	"sort"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// Metric kinds, as whatif's trace columns name them.
const (
	KindResource = "resource"
	KindPods     = "pods"
	KindObject   = "object"
	KindExternal = "external"
)

// KindOf returns the kind a recording keeps an HPA metric of source type t
// under: a Resource and a ContainerResource metric are both their
// resource's; "" for a type of none of the kinds.
func KindOf(t autoscalingv2.MetricSourceType) string {
	switch t {
	case autoscalingv2.ResourceMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType:
		return KindResource
	case autoscalingv2.PodsMetricSourceType:
		return KindPods
	case autoscalingv2.ObjectMetricSourceType:
		return KindObject
	case autoscalingv2.ExternalMetricSourceType:
		return KindExternal
	}
	return ""
}

// Recording is the load of one workload over a period, sampled at the
// instants Start + k×Step for k in [0, Len).
type Recording struct {
	// Namespace and Workload ("Deployment/web") name what was recorded.
	Namespace string
	Workload  string

	Start time.Time
	Step  time.Duration
	Len   int

	// SampleWindow is the window of a resource sample (the span its rate
	// covers, as a PodMetrics window); SampleLag how long before an
	// instant the sample valid at that instant was taken (metrics-server's
	// scrape lag: a PodMetrics timestamp is the instant minus the lag).
	SampleWindow time.Duration
	SampleLag    time.Duration
	// StoreInterval is how often the store sampled the container
	// counters.
	StoreInterval time.Duration
	// Clock is the cluster's timing the recording was read on (the sync
	// grid) and is resampled at (Resample): each figure with its origin.
	Clock Clock
	// scrapes are the scrapes of the last Resample (nil: none; the
	// samples are then read SampleLag before each instant).
	scrapes *Scrapes

	// Pods are every pod of the workload that existed at some instant of
	// the period, in order of creation.
	Pods []Pod

	// Metrics are the recorded values, one entry per metric the HPA reads
	// (resource metrics once per resource name).
	Metrics []Metric

	// Replicas is the workload's replica count over the period, as it
	// really was.
	Replicas ReplicaHistory

	// Throttling holds, per pod and container, the share (0 to 1) of the
	// container's CFS periods that were throttled in the window of each
	// instant; nil when the source has no throttling series.
	Throttling map[string]map[string]*Series
	// LimitsFrom says where the source looked for the containers' CPU
	// limits (LimitsKubeStateMetrics, LimitsSpecs), ThrottlingFrom where
	// the throttling series came from (ThrottlingCAdvisor); both "" when it
	// did not look (Censor then tells nothing, and a backtest says nothing
	// of censored demand).
	LimitsFrom     string
	ThrottlingFrom string

	// Sources say where each figure came from: the query, the series.
	Sources []Source
	// Reconstructed lists what was inferred rather than read (a pod's
	// readiness from its first sample, requests from the live template).
	Reconstructed []string
	// Warnings are what the source noticed about the data that a reader
	// of the backtest should know (the store's own warnings when they were
	// accepted, evaluation instants moved by the server).
	Warnings []string
}

// Pod is one pod of the workload over the period.
type Pod struct {
	Name string
	// Owner is the pod's controller ("ReplicaSet/web-5d4"), when known.
	Owner string
	// Labels are the pod's labels, when known; a pod of the workload
	// whose labels are unknown gets the selector's (see Labels).
	Labels map[string]string
	// Created is when the pod appeared (creation time, or the first
	// instant it was seen); Started its status.startTime (nil: unknown,
	// not started).
	Created time.Time
	Started *time.Time
	// Deleted is the first instant the pod no longer existed; nil when it
	// still existed at the end of the period.
	Deleted *time.Time
	// Terminating is the pod's deletionTimestamp, when it was being
	// deleted during the period: from then on the controller ignores it,
	// although it still exists. Nil when not known to be terminating.
	Terminating *time.Time
	// Phases is the pod's phase over time (PhasePending, PhaseRunning,
	// ...), each change oldest first; empty when the phase is unknown. The
	// controller ignores Failed pods and counts Pending ones as unready.
	Phases []PhaseChange
	// Ready is the pod's readiness over time: each change of its Ready
	// condition, oldest first. Before the first change the pod is not
	// ready.
	Ready []ReadyChange
	// Containers are the pod's containers with their requests.
	Containers []Container
}

// ReadyChange is a transition of a pod's Ready condition.
type ReadyChange struct {
	At    time.Time
	Ready bool
}

// PhaseChange is a change of a pod's phase (status.phase).
type PhaseChange struct {
	At    time.Time
	Phase string
}

// Pod phases, as status.phase spells them.
const (
	PhasePending   = "Pending"
	PhaseRunning   = "Running"
	PhaseSucceeded = "Succeeded"
	PhaseFailed    = "Failed"
	PhaseUnknown   = "Unknown"
)

// Container is one container of a pod with its requests and limits, in
// milli-units for cpu (millicores) and units for memory (bytes).
type Container struct {
	Name     string
	Requests map[string]int64
	// Limits are the container's limits, when known (only "cpu" is read:
	// see Censor); a resource without one is absent.
	Limits map[string]int64
}

// Metric is one metric's recorded values.
type Metric struct {
	// Kind is KindResource, KindPods, KindObject or KindExternal; Name the
	// resource ("cpu") or the metric name the HPA uses.
	Kind string
	Name string
	// Query is the query that produced the values.
	Query string
	// PerPod holds the values of resource and Pods metrics: pod name →
	// container name → series ("" for a Pods metric, which has no
	// container). Resource values are in cores for cpu and bytes for
	// memory; other values as the query returned them.
	PerPod map[string]map[string]*Series
	// Total holds the value of an Object or External metric.
	Total *Series
	// Raw holds, for a resource metric read from the kubelet's series,
	// each pod's and container's samples as the store keeps them: PerPod
	// is worked out of them at a phase of metrics-server's scrapes
	// (Resample). Cumulative says they are a counter (CPU seconds) rather
	// than a gauge (the memory working set). Nil when the metric was read
	// on the sync grid (a --query of the user's).
	Raw        map[string]map[string]*Raw
	Cumulative bool
	// Load and Served hold, for a metric with Raw, the load of all its
	// pods summed per container name: Load over the window of each
	// instant's sample (at the phase of the last Resample), Served over
	// each instant's sync interval (see Resample).
	Load   map[string]*Series
	Served map[string]*Series
}

// Series is a metric's value at the instants First..First+len(Values)-1 of a
// recording; NaN marks an instant without a sample.
type Series struct {
	First  int
	Values []float64
	// Scale multiplies every value as it is read (0: none): the resampled
	// variants of one phase share their Values (Recording.AtScrapesEach).
	Scale float64
}

// At returns the value at instant k, and whether there is one.
func (s *Series) At(k int) (float64, bool) {
	if s == nil || k < s.First || k >= s.First+len(s.Values) {
		return 0, false
	}
	v := s.Values[k-s.First]
	if math.IsNaN(v) {
		return 0, false
	}
	if s.Scale != 0 {
		v *= s.Scale
	}
	return v, true
}

// Set stores v at instant k, growing the series as needed (the gap filled
// with NaN). A scaled series gets values of its own first, scaled.
func (s *Series) Set(k int, v float64) {
	if s.Scale != 0 {
		own := make([]float64, len(s.Values))
		for i, x := range s.Values {
			own[i] = x * s.Scale
		}
		s.Values, s.Scale = own, 0
	}
	if len(s.Values) == 0 {
		s.First, s.Values = k, []float64{v}
		return
	}
	if k < s.First {
		grown := make([]float64, s.First-k+len(s.Values))
		for i := range grown[:s.First-k] {
			grown[i] = math.NaN()
		}
		copy(grown[s.First-k:], s.Values)
		s.First, s.Values = k, grown
	}
	for s.First+len(s.Values) <= k {
		s.Values = append(s.Values, math.NaN())
	}
	s.Values[k-s.First] = v
}

// ReplicaHistory is the workload's replica count over the period.
type ReplicaHistory struct {
	// Source names where it came from (SourceKubeStateMetrics,
	// SourceEvents, SourceWatch, or SourceNone).
	Source string
	// Detail says what exactly was read (the query, the events' span).
	Detail string
	// Changes are the counts from each instant on, oldest first; the
	// first is the count at the start when it is known.
	Changes []ReplicaChange
}

// Where the actual replicas came from.
const (
	SourceKubeStateMetrics = "kube-state-metrics"
	SourceEvents           = "events"
	SourceWatch            = "watch"
	SourceNone             = "none"
)

// ReplicaChange is the replica count from At on.
type ReplicaChange struct {
	At       time.Time
	Replicas int32
	// External marks a change the HPA controller did not make (the
	// workload created, or scaled by hand): a replay follows it too, as
	// the controller reads the new count at its next sync.
	External bool
}

// Source is the provenance of some of a recording's figures.
type Source struct {
	// What says which figures ("cpu usage", "pods and owners").
	What string
	// Query is the PromQL (or the API read) that produced them.
	Query string
	// Series counts the series returned.
	Series int
}

// Instant returns the time of instant k.
func (r *Recording) Instant(k int) time.Time {
	return r.Start.Add(time.Duration(k) * r.Step)
}

// End is the last instant of the period.
func (r *Recording) End() time.Time {
	if r.Len == 0 {
		return r.Start
	}
	return r.Instant(r.Len - 1)
}

// Index returns the last instant at or before t, and false when t is
// before the start or the recording is empty. Instants after the end map to
// the last one.
func (r *Recording) Index(t time.Time) (int, bool) {
	if r.Len == 0 || r.Step <= 0 || t.Before(r.Start) {
		return 0, false
	}
	k := int(t.Sub(r.Start) / r.Step)
	return min(k, r.Len-1), true
}

// Exists reports whether the pod existed at t.
func (p *Pod) Exists(t time.Time) bool {
	return !t.Before(p.Created) && (p.Deleted == nil || t.Before(*p.Deleted))
}

// ReadyAt returns whether the pod was ready at t, and since when its Ready
// condition had that status (its last transition; the creation time when
// it never changed).
func (p *Pod) ReadyAt(t time.Time) (bool, time.Time) {
	ready, since := false, p.Created
	for _, c := range p.Ready {
		if c.At.After(t) {
			break
		}
		if c.Ready != ready {
			ready, since = c.Ready, c.At
		}
	}
	return ready, since
}

// PhaseAt returns the pod's phase at t: the last change at or before t,
// or "" when none is recorded by then.
func (p *Pod) PhaseAt(t time.Time) string {
	phase := ""
	for _, c := range p.Phases {
		if c.At.After(t) {
			break
		}
		phase = c.Phase
	}
	return phase
}

// TerminatingAt reports whether the pod was being deleted at t.
func (p *Pod) TerminatingAt(t time.Time) bool {
	return p.Terminating != nil && !t.Before(*p.Terminating)
}

// PodsAt returns the indices of the pods that existed at instant k.
func (r *Recording) PodsAt(k int) []int {
	t := r.Instant(k)
	var out []int
	for i := range r.Pods {
		if r.Pods[i].Exists(t) {
			out = append(out, i)
		}
	}
	return out
}

// ReadyPods counts the pods that were ready at instant k (existing, not
// being deleted): the pods a load balancer shared the load over.
func (r *Recording) ReadyPods(k int) int { return r.readyAt(r.Instant(k)) }

// ReadyShare is the mean over [from, to) of 1/n, n being the pods ready
// at each moment (existing, not being deleted): each ready pod's share of
// a load the pods served together over that stretch, as a load balancer
// shares it. With no pod ready at a moment, the load is taken as one
// pod's.
func (r *Recording) ReadyShare(from, to time.Time) float64 {
	if !to.After(from) {
		return 1 / float64(max(r.readyAt(from), 1))
	}
	// The moments the count may change: every change of a pod's life and
	// readiness within the stretch.
	cuts := []time.Time{from, to}
	add := func(t time.Time) {
		if t.After(from) && t.Before(to) {
			cuts = append(cuts, t)
		}
	}
	for i := range r.Pods {
		p := &r.Pods[i]
		add(p.Created)
		if p.Deleted != nil {
			add(*p.Deleted)
		}
		if p.Terminating != nil {
			add(*p.Terminating)
		}
		for _, c := range p.Ready {
			add(c.At)
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].Before(cuts[j]) })
	sum := 0.0
	for i := 0; i+1 < len(cuts); i++ {
		if d := cuts[i+1].Sub(cuts[i]); d > 0 {
			sum += d.Seconds() / float64(max(r.readyAt(cuts[i]), 1))
		}
	}
	return sum / to.Sub(from).Seconds()
}

// readyAt counts the pods ready at t.
func (r *Recording) readyAt(t time.Time) int {
	n := 0
	for i := range r.Pods {
		p := &r.Pods[i]
		if !p.Exists(t) || p.TerminatingAt(t) {
			continue
		}
		if ready, _ := p.ReadyAt(t); ready {
			n++
		}
	}
	return n
}

// Metric returns the recorded metric of a kind and name, or nil.
func (r *Recording) Metric(kind, name string) *Metric {
	for i := range r.Metrics {
		if r.Metrics[i].Kind == kind && r.Metrics[i].Name == name {
			return &r.Metrics[i]
		}
	}
	return nil
}

// ReplicasAt returns the actual replica count at t, and false when the
// history does not reach back to t.
func (h *ReplicaHistory) ReplicasAt(t time.Time) (int32, bool) {
	i := sort.Search(len(h.Changes), func(i int) bool { return h.Changes[i].At.After(t) })
	if i == 0 {
		return 0, false
	}
	return h.Changes[i-1].Replicas, true
}

// Validate checks the invariants the replay relies on.
func (r *Recording) Validate() error {
	if r.Step <= 0 {
		return fmt.Errorf("recorded load of %s: the step must be positive, not %s", r.Workload, r.Step)
	}
	if r.Len <= 0 {
		return fmt.Errorf("recorded load of %s: no instants between %s and the end", r.Workload, r.Start.UTC().Format(time.RFC3339))
	}
	for i := range r.Pods {
		p := &r.Pods[i]
		if p.Name == "" {
			return fmt.Errorf("recorded load of %s: pod %d has no name", r.Workload, i)
		}
		if p.Deleted != nil && !p.Deleted.After(p.Created) {
			return fmt.Errorf("recorded load of %s: pod %s is deleted (%s) before it is created (%s)", r.Workload, p.Name,
				p.Deleted.UTC().Format(time.RFC3339), p.Created.UTC().Format(time.RFC3339))
		}
		for j := 1; j < len(p.Ready); j++ {
			if p.Ready[j].At.Before(p.Ready[j-1].At) {
				return fmt.Errorf("recorded load of %s: the readiness changes of pod %s are out of order", r.Workload, p.Name)
			}
		}
		for j := 1; j < len(p.Phases); j++ {
			if p.Phases[j].At.Before(p.Phases[j-1].At) {
				return fmt.Errorf("recorded load of %s: the phase changes of pod %s are out of order", r.Workload, p.Name)
			}
		}
	}
	for j := 1; j < len(r.Replicas.Changes); j++ {
		if r.Replicas.Changes[j].At.Before(r.Replicas.Changes[j-1].At) {
			return fmt.Errorf("recorded load of %s: the replica changes are out of order", r.Workload)
		}
	}
	for pod, byC := range r.Throttling {
		for c, s := range byC {
			if s != nil && (s.First < 0 || s.First+len(s.Values) > r.Len) {
				return fmt.Errorf("recorded load of %s: the throttling series of %s/%s spans instants %d..%d outside 0..%d",
					r.Workload, pod, c, s.First, s.First+len(s.Values)-1, r.Len-1)
			}
		}
	}
	for i := range r.Metrics {
		m := &r.Metrics[i]
		check := func(s *Series, what string) error {
			if s != nil && (s.First < 0 || s.First+len(s.Values) > r.Len) {
				return fmt.Errorf("recorded load of %s: the %s series of %s %s spans instants %d..%d outside 0..%d",
					r.Workload, what, m.Kind, m.Name, s.First, s.First+len(s.Values)-1, r.Len-1)
			}
			return nil
		}
		if err := check(m.Total, "total"); err != nil {
			return err
		}
		for pod, byC := range m.PerPod {
			for c, s := range byC {
				if err := check(s, pod+"/"+c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
