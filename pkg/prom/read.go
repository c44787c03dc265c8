// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// reader is one Read in progress.
type reader struct {
	c   *Client
	req *Request
	rec *recording.Recording
	g   grid
	q   queries
	// mu guards prog and the progress reports, and noPodLabel: the range
	// and raw reads of step 3 run at once (runReads).
	mu   sync.Mutex
	prog Progress
	// firstData is the earliest instant any read found data at (-1:
	// none yet).
	firstData int
	warnings  []string
	// noPodLabel names the Pods metrics whose query returned a series
	// without a pod label.
	noPodLabel map[string]bool
	// sparse is the first stretch of a usage read with too few samples.
	sparse *sparseSpan
	// interval is how often the store scraped the container counters.
	interval time.Duration
	// match recognises the workload's pods (set by findPods).
	match *podMatcher
}

// sparseSpan is a stretch of instants, from and to, where a usage read had
// values at only a share (density) of the syncs, or of the samples the
// store's interval gives when read raw (interval > 0).
type sparseSpan struct {
	from, to int
	density  float64
	what     string
	interval time.Duration
}

// Read reads the workload's recorded load over the period.
func (c *Client) Read(ctx context.Context, req Request) (*recording.Recording, error) {
	if err := req.Validate(); err != nil {
		return nil, fmt.Errorf("prometheus read of %s/%s: %w", req.Kind, req.Name, err)
	}
	start := req.Start.Truncate(time.Millisecond)
	step := req.Step.Round(time.Millisecond)
	rd := &reader{
		c: c, req: &req, firstData: -1, noPodLabel: map[string]bool{},
		g: newGrid(start, step, req.Len),
		rec: &recording.Recording{
			Namespace: req.Namespace, Workload: req.Kind + "/" + req.Name,
			Start: start, Step: step, Len: req.Len, SampleLag: req.SampleLag,
			Replicas: recording.ReplicaHistory{Source: recording.SourceNone},
		},
	}
	end := rd.g.at(req.Len - 1)
	rd.q = queries{ns: req.Namespace, scope: c.scope, lag: req.SampleLag, period: end.Sub(start) + staleLookback}
	if err := rd.read(ctx); err != nil {
		return nil, err
	}
	rd.rec.Warnings = append(rd.rec.Warnings, rd.warnings...)
	rd.report("")
	if err := rd.rec.Validate(); err != nil {
		return nil, fmt.Errorf("prometheus %s: %w", c.endpoint, err)
	}
	return rd.rec, nil
}

// readState is what the steps of one read hand on to the next.
type readState struct {
	pods *podSet
	// ksm is true when kube-state-metrics knows the workload's pods.
	ksm   bool
	match *podMatcher
	// resources and others are the metrics requested, resource metrics
	// apart.
	resources, others []MetricRequest
	// reads are the range reads planned; existence the usage series that
	// only tell when a pod existed (no resource metric asked for memory).
	reads     []rangeRead
	existence map[string]*recording.Series
	// replicasQuery reads the workload's replicas into replicaSeries ("":
	// not read).
	replicasQuery string
	replicaSeries recording.Series
}

// rangeRead is one planned read: its query and how each series returned
// folds into the recording. A read of raw samples (raw set: the metric
// they go to) has a selector for query and no fold. metric is the
// recording's metric its series go to (nil: none, or the read's own).
type rangeRead struct {
	what, query string
	fold        func(model.Metric) func(k int, v float64)
	usage       bool
	raw         *recording.Metric
	metric      *recording.Metric
}

// readOut is what one read leaves besides the series it folds into the
// recording: its warnings, the first stretch it found too sparse, the
// first instant it found data at, and the progress it made. Reads that run
// at once each fill their own, and runReads takes them in in the planned
// order, so a read's outcome is the one of the reads one after the other.
type readOut struct {
	warnings  []string
	sparse    *sparseSpan
	firstData int
	// done is the instants of the read reported done so far.
	done int64
}

func newReadOut() *readOut { return &readOut{firstData: -1} }

func (o *readOut) seen(k int) {
	if o.firstData < 0 || k < o.firstData {
		o.firstData = k
	}
}

// take merges a read's warnings and first instant into the reader's (the
// reads one at a time, or in the planned order).
func (rd *reader) take(o *readOut) {
	rd.warnings = append(rd.warnings, o.warnings...)
	if o.firstData >= 0 {
		rd.seen(o.firstData)
	}
}

// DefaultConcurrency is how many of a read's range and raw reads (cpu,
// memory, the pods' phases and readiness, the replicas, each user query)
// are in flight at once: few, so that a store that limits its concurrent
// queries (Prometheus's --query.max-concurrency is 20 for every client)
// is not flooded by one read.
const DefaultConcurrency = 3

// read fills the recording in five steps, each a function below.
func (rd *reader) read(ctx context.Context) error {
	st := &readState{pods: newPodSet(), existence: map[string]*recording.Series{}}
	if err := rd.findPods(ctx, st); err != nil {
		return err
	}
	if err := rd.scrapeInterval(ctx, st); err != nil {
		return err
	}
	rd.planReads(st)
	if err := rd.runReads(ctx, st); err != nil {
		return err
	}
	if err := rd.readPods(ctx, st); err != nil {
		return err
	}
	if err := rd.readThrottling(ctx, st); err != nil {
		return err
	}
	return rd.checkData(ctx)
}

// findPods is step 1: the pods, from kube-state-metrics' owners, and the
// matcher that recognises them.
func (rd *reader) findPods(ctx context.Context, st *readState) error {
	req := rd.req
	rsNames := make([]string, 0, len(req.ReplicaSets))
	for _, rs := range req.ReplicaSets {
		rsNames = append(rsNames, rs.Name)
	}
	statefulSet := ""
	switch req.Kind {
	case "ReplicaSet":
		rsNames = append(rsNames, req.Name)
	case "StatefulSet":
		statefulSet = req.Name
	}
	if !req.NoKubeStateMetrics {
		var err error
		st.ksm, rsNames, err = rd.readOwners(ctx, st.pods, rsNames)
		if err != nil {
			return err
		}
	}
	var names []string
	for name := range st.pods.byName {
		names = append(names, name)
	}
	for i := range req.Pods {
		names = append(names, req.Pods[i].Name)
	}
	st.match = newPodMatcher(rsNames, statefulSet, names)
	if st.match.Empty() {
		return fmt.Errorf("prometheus %s: no pod of %s in namespace %s can be recognised: no ReplicaSet, no live pod, and no kube-state-metrics owner over the period",
			rd.c.endpoint, rd.rec.Workload, req.Namespace)
	}
	rd.q.pods = st.match.expr
	rd.match = st.match
	return nil
}

// scrapeInterval is step 2: the scrape interval, for the rate's range and
// the freshness.
func (rd *reader) scrapeInterval(ctx context.Context, st *readState) error {
	req := rd.req
	// Metrics never grows past this: the folds keep pointers into it.
	rd.rec.Metrics = make([]recording.Metric, 0, len(req.Metrics))
	for _, m := range req.Metrics {
		if m.Kind == recording.KindResource {
			st.resources = append(st.resources, m)
		} else {
			st.others = append(st.others, m)
		}
	}
	needUsage := len(st.resources) > 0 || !st.ksm
	interval := req.ScrapeInterval
	if needUsage && interval == 0 {
		var err error
		if interval, err = rd.probeInterval(ctx); err != nil {
			return err
		}
	}
	if interval == 0 {
		interval = 30 * time.Second
	}
	rd.interval = interval
	rd.q.rng = 4 * interval
	rd.q.fresh = 2 * interval
	rd.rec.SampleWindow = interval
	rd.rec.StoreInterval = interval
	return nil
}

// planReads is step 3's plan: every range read, so that progress has a
// total. Their order is the recording's metrics' order.
func (rd *reader) planReads(st *readState) {
	rd.planUsage(st)
	if st.ksm {
		rd.planPodStates(st)
	}
	if !rd.req.NoKubeStateMetrics {
		st.replicasQuery = rd.q.replicas(rd.req.Kind, rd.req.Name)
	}
	if st.replicasQuery != "" {
		st.reads = append(st.reads, rangeRead{what: "replicas", query: st.replicasQuery, fold: func(model.Metric) func(int, float64) {
			return func(k int, v float64) { rd.set(&st.replicaSeries, k, v) }
		}})
	}
	rd.planOthers(st)
	rd.prog.Total = int64(len(st.reads)) * int64(rd.req.Len)
	rd.report("")
}

// planUsage plans the resource usage reads, per pod and container, and
// without kube-state-metrics and a memory metric one more that tells when
// each pod existed.
func (rd *reader) planUsage(st *readState) {
	addUsage := func(name, query string, scale float64, metric *recording.Metric) {
		st.reads = append(st.reads, rangeRead{what: name + " usage", query: query, usage: true, metric: metric, fold: func(m model.Metric) func(int, float64) {
			pod, container := string(m["pod"]), string(m["container"])
			if pod == "" || !st.match.Match(pod) {
				return nil
			}
			var s *recording.Series
			if metric != nil {
				s = perPodSeries(metric, pod, container)
			} else {
				s = st.existence[pod]
				if s == nil {
					s = &recording.Series{}
					st.existence[strings.Clone(pod)] = s
				}
			}
			return func(k int, v float64) { rd.set(s, k, v*scale) }
		}})
	}
	haveMemory := false
	for _, m := range st.resources {
		metric := rd.addMetric(m)
		if m.Query != "" {
			metric.Query = m.Query
			addUsage(m.Name, m.Query, 1, metric)
			continue
		}
		// The container counters: their raw samples, resampled at
		// metrics-server's scrapes once read.
		metric.Cumulative = m.Name == "cpu"
		metric.Query = rd.q.rawMemory()
		if metric.Cumulative {
			metric.Query = rd.q.rawCPU()
		} else {
			haveMemory = true
		}
		st.reads = append(st.reads, rangeRead{what: m.Name + " usage", query: metric.Query, usage: true, raw: metric, metric: metric})
	}
	if !st.ksm && !haveMemory {
		addUsage("memory (pod existence)", rd.q.memory(), 1, nil)
	}
}

// planPodStates plans kube-state-metrics' reads of the pods' phases and
// readiness.
func (rd *reader) planPodStates(st *readState) {
	pods := st.pods
	st.reads = append(st.reads,
		rangeRead{what: "pod phases", query: rd.q.phase(), fold: func(m model.Metric) func(int, float64) {
			p := pods.byName[string(m["pod"])]
			phase := string(m["phase"])
			if p == nil || phase == "" {
				return nil
			}
			return func(k int, _ float64) { p.phases.add(k, phase) }
		}},
		rangeRead{what: "pod readiness", query: rd.q.ready(), fold: func(m model.Metric) func(int, float64) {
			p := pods.byName[string(m["pod"])]
			if p == nil {
				return nil
			}
			return func(k int, v float64) {
				if v == 1 {
					p.ready.add(k, "true")
				} else {
					p.ready.add(k, "false")
				}
			}
		}})
}

// planOthers plans the reads of the Pods, Object and External metrics.
func (rd *reader) planOthers(st *readState) {
	for _, m := range st.others {
		metric := rd.addMetric(m)
		metric.Query = m.Query
		m := m
		st.reads = append(st.reads, rangeRead{what: m.Kind + " metric " + m.Name, query: m.Query, metric: metric, fold: func(lbl model.Metric) func(int, float64) {
			if m.Kind == recording.KindPods {
				pod := string(lbl["pod"])
				if pod == "" {
					rd.mu.Lock()
					rd.noPodLabel[m.Name] = true
					rd.mu.Unlock()
					return nil
				}
				if !st.match.Match(pod) && st.pods.byName[pod] == nil {
					return nil
				}
				s := perPodSeries(metric, pod, "")
				return func(k int, v float64) { rd.add(s, k, v) }
			}
			if metric.Total == nil {
				metric.Total = &recording.Series{}
			}
			s := metric.Total
			return func(k int, v float64) { rd.add(s, k, v) }
		}})
	}
}

// runReads is step 3's reads and the raw samples resampled at
// metrics-server's scrapes; a Pods metric without a pod label, or usage
// too sparse to replay, stops the read. The reads are independent, and
// run at once within Request.Concurrency: the raw reads one after the
// other (each is the most of a read's bytes, in chunks within the point
// budget: two at once would hold twice the chunks), the range reads
// beside them, each kind in the planned order. Their outcomes (sources,
// warnings, the error of the first in the planned order that failed) are
// taken in that order, as if they had run one after the other; once one
// has failed, no other begins.
func (rd *reader) runReads(ctx context.Context, st *readState) error {
	n := len(st.reads)
	outs := make([]*readOut, n)
	kept, dropped := make([]int, n), make([]int, n)
	errs := make([]error, n)
	var failed atomic.Bool
	run := func(i int) {
		r := st.reads[i]
		outs[i] = newReadOut()
		if r.raw != nil {
			kept[i], dropped[i], errs[i] = rd.readRaw(ctx, outs[i], r, st)
		} else {
			kept[i], dropped[i], errs[i] = rd.readRange(ctx, outs[i], r.what, r.query, r.usage, r.fold)
		}
		if errs[i] != nil {
			failed.Store(true)
		}
	}
	var raws, ranges []int
	for i, r := range st.reads {
		if r.raw != nil {
			raws = append(raws, i)
		} else {
			ranges = append(ranges, i)
		}
	}
	// lane runs the reads of one queue, one at a time, until it is empty
	// or a read has failed.
	lane := func(next *atomic.Int64, queue []int) {
		for !failed.Load() {
			k := int(next.Add(1) - 1)
			if k >= len(queue) {
				return
			}
			run(queue[k])
		}
	}
	if workers := rd.concurrency(st); workers <= 1 {
		var next atomic.Int64
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		lane(&next, all)
	} else {
		var nextRaw, nextRange atomic.Int64
		var wg sync.WaitGroup
		if len(raws) > 0 {
			wg.Go(func() { lane(&nextRaw, raws) })
			workers--
		}
		for range workers {
			wg.Go(func() { lane(&nextRange, ranges) })
		}
		wg.Wait()
	}
	last := n
	for i, err := range errs {
		if err != nil {
			last = i
			break
		}
	}
	for i, r := range st.reads[:last] {
		rd.take(outs[i])
		if rd.sparse == nil {
			rd.sparse = outs[i].sparse
		}
		what := r.what
		if dropped[i] > 0 {
			what += fmt.Sprintf(" (%d series of other pods left out)", dropped[i])
		}
		rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: what, Query: r.query, Series: kept[i]})
	}
	if last < n {
		return errs[last]
	}
	for _, m := range st.others {
		if m.Kind != recording.KindPods || !rd.noPodLabel[m.Name] {
			continue
		}
		rm := rd.rec.Metric(recording.KindPods, m.Name)
		return &QueryError{
			Endpoint: rd.c.endpoint.String(), What: "pods metric " + rm.Name, Query: rm.Query,
			Err: errors.New("a series has no pod label: a Pods metric's query must return one series per pod, with a pod label"),
		}
	}
	rd.resample()
	if rd.sparse != nil {
		if err := rd.tooYoung(ctx); err != nil {
			return err
		}
		s := rd.sparse
		share := fmt.Sprintf("has a sample at only %.0f%% of the %s syncs", 100*s.density, rd.g.step)
		if s.interval > 0 {
			share = fmt.Sprintf("holds only %.0f%% of the samples of a %s scrape interval", 100*s.density, s.interval)
		}
		return fmt.Errorf("prometheus %s: %s of %s %s between %s and %s (a downsampled long-term store?): too sparse to replay them; start the period after %s",
			rd.c.endpoint, s.what, rd.rec.Workload, share, stamp(rd.g.at(s.from)), stamp(rd.g.at(s.to)), stamp(rd.g.at(s.to)))
	}
	return nil
}

// concurrency is how many of the planned reads may run at once: the
// request's bound, and one when two reads fold into one metric of the
// recording (a request that names a metric twice).
func (rd *reader) concurrency(st *readState) int {
	seen := map[*recording.Metric]bool{}
	for _, r := range st.reads {
		if r.metric == nil {
			continue
		}
		if seen[r.metric] {
			return 1
		}
		seen[r.metric] = true
	}
	if c := rd.req.Concurrency; c > 0 {
		return c
	}
	return DefaultConcurrency
}

// readPods is step 4: the instant reads of kube-state-metrics, then the
// pods and the replicas assembled.
func (rd *reader) readPods(ctx context.Context, st *readState) error {
	if st.ksm {
		if err := rd.readPodFacts(ctx, st.pods, rd.g.at(rd.req.Len-1)); err != nil {
			return err
		}
	}
	rd.trim()
	rd.assemblePods(st.pods, st.match, st.existence, st.ksm)
	if st.replicasQuery != "" && len(st.replicaSeries.Values) > 0 {
		rd.rec.Replicas = replicaHistory(rd.g, &st.replicaSeries, st.replicasQuery)
	}
	return nil
}

// readThrottling is step 4's last read: the share of each container's CFS
// periods throttled, which with the CPU limits tells where the recorded
// usage was capped (recording.Censor). Only a container with a CPU limit
// can be throttled, so without one the read is left out. The store may
// not have the series (a kubelet's /metrics/resource has no CFS counters):
// that is no error, and neither is a query the store refuses, since the
// backtest does not need it; the warning says so.
func (rd *reader) readThrottling(ctx context.Context, st *readState) error {
	if rd.rec.LimitsFrom == "" {
		rd.rec.LimitsFrom = recording.LimitsSpecs
	}
	limited := false
	for i := range rd.rec.Pods {
		for _, c := range rd.rec.Pods[i].Containers {
			limited = limited || c.Limits["cpu"] > 0
		}
	}
	if !limited {
		return nil
	}
	// The window is the metrics resolution (twice the sample lag), and at
	// least two of the store's scrapes, which a rate needs.
	q := rd.q.throttled(max(2*rd.req.SampleLag, 2*rd.interval))
	throttling := map[string]map[string]*recording.Series{}
	rd.prog.Total += int64(rd.req.Len)
	out := newReadOut()
	kept, _, err := rd.readRange(ctx, out, "cpu throttling", q, false, func(m model.Metric) func(int, float64) {
		pod, container := string(m["pod"]), string(m["container"])
		if pod == "" || container == "" || !st.match.Match(pod) {
			return nil
		}
		byC := throttling[pod]
		if byC == nil {
			byC = map[string]*recording.Series{}
			throttling[strings.Clone(pod)] = byC
		}
		// A long period comes in pieces: each piece's series goes on
		// the one the pieces before began.
		s := byC[container]
		if s == nil {
			s = &recording.Series{}
			byC[strings.Clone(container)] = s
		}
		return func(k int, v float64) {
			if !math.IsNaN(v) {
				rd.set(s, k, v)
			}
		}
	})
	rd.take(out)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		rd.warnings = append(rd.warnings, fmt.Sprintf("cpu throttling not read (censored demand is told by the CPU limits alone): %v", err))
		return nil
	}
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "cpu throttling (cAdvisor)", Query: q, Series: kept})
	for _, byC := range throttling {
		for _, s := range byC {
			fitSeries(s)
		}
	}
	if kept > 0 {
		rd.rec.Throttling = throttling
		rd.rec.ThrottlingFrom = recording.ThrottlingCAdvisor
	}
	return nil
}

func queryOf(ms []MetricRequest, m *recording.Metric) string {
	for _, r := range ms {
		if r.Kind == m.Kind && r.Name == m.Name {
			return r.Query
		}
	}
	return ""
}

func (rd *reader) addMetric(m MetricRequest) *recording.Metric {
	if existing := rd.rec.Metric(m.Kind, m.Name); existing != nil {
		return existing
	}
	rd.rec.Metrics = append(rd.rec.Metrics, recording.Metric{Kind: m.Kind, Name: m.Name})
	return &rd.rec.Metrics[len(rd.rec.Metrics)-1]
}

func perPodSeries(m *recording.Metric, pod, container string) *recording.Series {
	if m.PerPod == nil {
		m.PerPod = map[string]map[string]*recording.Series{}
	}
	byC := m.PerPod[pod]
	if byC == nil {
		byC = map[string]*recording.Series{}
		m.PerPod[strings.Clone(pod)] = byC
	}
	s := byC[container]
	if s == nil {
		s = &recording.Series{}
		byC[strings.Clone(container)] = s
	}
	return s
}

// set stores v at instant k. It grows a series by doubling, up to the
// instants left in the period, rather than by append's quarter steps (which
// allocate about five times a long series' size); trim gives short series
// their slack back.
func (rd *reader) set(s *recording.Series, k int, v float64) {
	if n := len(s.Values); n > 0 && k >= s.First+n && k-s.First >= cap(s.Values) {
		limit := rd.g.n - s.First
		want := min(limit, max(2*cap(s.Values), k-s.First+1))
		s.Values = slices.Grow(s.Values, want-n)
	}
	s.Set(k, v)
}

// add adds v to the value at k (series summed into one).
func (rd *reader) add(s *recording.Series, k int, v float64) {
	if old, ok := s.At(k); ok {
		v += old
	}
	rd.set(s, k, v)
}

// trim copies the series that hold much more room than values into
// exact ones, and drops the NaN tail a series may end with.
func (rd *reader) trim() {
	fit := fitSeries
	for i := range rd.rec.Metrics {
		m := &rd.rec.Metrics[i]
		fit(m.Total)
		for _, byC := range m.PerPod {
			for _, s := range byC {
				fit(s)
			}
		}
	}
}

// fitSeries drops a series' NaN tail and copies it into an exact one when
// it holds much more room than values.
func fitSeries(s *recording.Series) {
	if s == nil {
		return
	}
	end := len(s.Values)
	for end > 0 && math.IsNaN(s.Values[end-1]) {
		end--
	}
	s.Values = s.Values[:end]
	if cap(s.Values) > len(s.Values)+len(s.Values)/4+64 {
		s.Values = slices.Clone(s.Values)
	}
}

// report calls Request.Progress with the progress so far; what names the
// read that advanced ("" for none). The reads that run at once report
// one at a time.
func (rd *reader) report(what string) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	rd.reportLocked(what)
}

func (rd *reader) reportLocked(what string) {
	if rd.req.Progress != nil {
		p := rd.prog
		p.What = what
		rd.req.Progress(p)
	}
}

// requested counts a request sent.
func (rd *reader) requested() {
	rd.mu.Lock()
	rd.prog.Requests++
	rd.mu.Unlock()
}

// advance counts n more instants of read o done and reports them (what
// names the read; "" reports nothing).
func (rd *reader) advance(o *readOut, n int64, what string) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	o.done += n
	rd.prog.Done += n
	if what != "" {
		rd.reportLocked(what)
	}
}

func (rd *reader) seen(k int) {
	if rd.firstData < 0 || k < rd.firstData {
		rd.firstData = k
	}
}

// readRange reads a range query over the whole period, in pieces of at
// most MaxPoints instants (fewer when the previous answer had many series,
// to keep each answer within the point budget), each folded into the
// recording as it comes and then dropped; its warnings, sparse stretch and
// first data go to out. It returns how many series were kept and how many
// left out (other pods').
func (rd *reader) readRange(ctx context.Context, out *readOut, what, query string, usage bool, fold func(model.Metric) func(int, float64)) (kept, dropped int, err error) {
	maxPoints := rd.req.MaxPoints
	if maxPoints <= 0 {
		maxPoints = MaxPointsPerSeries
	}
	budget := rd.req.PointBudget
	if budget <= 0 {
		budget = DefaultPointBudget
	}
	// seriesSeen tells, for each series, whether it was kept, and the
	// last piece it came in: a series twice in one answer is a duplicate.
	type seen struct {
		kept  bool
		piece int
	}
	seriesSeen := map[string]seen{}
	lastSeries := max(1, len(rd.req.Pods))
	misaligned := false
	infinite := 0
	var duplicate string
	type stat struct{ first, last, present int }
	for piece, from := 1, 0; from < rd.g.n; piece++ {
		n := min(maxPoints, max(1, budget/lastSeries), rd.g.n-from)
		to := from + n - 1
		var stats []*stat
		series, warnings, err := rd.c.queryRange(ctx, what, query, v1.Range{Start: rd.g.at(from), End: rd.g.at(to), Step: rd.g.step},
			func(lbl model.Metric) func(model.Time, float64) {
				key := lbl.String()
				was, ok := seriesSeen[key]
				if ok && was.piece == piece {
					// Two series with one label set (a Thanos without
					// deduplication, a federation that joins two
					// sources): summed or overwritten, either would
					// replay a wrong load.
					if duplicate == "" {
						duplicate = key
					}
					return nil
				}
				sink := fold(lbl)
				if !ok {
					was.kept = sink != nil
				}
				was.piece = piece
				seriesSeen[key] = was
				if sink == nil {
					return nil
				}
				st := &stat{first: -1}
				stats = append(stats, st)
				return func(ts model.Time, v float64) {
					k, exact, ok := rd.g.index(ts)
					if !ok || k < from || k > to {
						return
					}
					// NaN is no value (a 0/0 of a ratio); an infinite
					// one (a division by zero) is taken as none too, and
					// said.
					if math.IsNaN(v) {
						return
					}
					if math.IsInf(v, 0) {
						infinite++
						return
					}
					misaligned = misaligned || !exact
					if st.first < 0 {
						st.first = k
					}
					st.last = k
					st.present++
					out.seen(k)
					sink(k, v)
				}
			})
		rd.requested()
		if err != nil {
			return 0, 0, err
		}
		if duplicate != "" {
			return 0, 0, &QueryError{
				Endpoint: rd.c.endpoint.String(), What: what, Query: query,
				Err: fmt.Errorf("the answer has the series %s twice: a query must return each label set once (deduplicate the replicas' series, e.g. Thanos' dedup, or aggregate with max by (...))", oneLine(duplicate)),
			}
		}
		out.warnings = append(out.warnings, warnings...)
		var present, span int
		for _, st := range stats {
			if st.first >= 0 {
				present += st.present
				span += st.last - st.first + 1
			}
		}
		lastSeries = max(1, series)
		if usage && span >= 40 && float64(present) < 0.5*float64(span) && out.sparse == nil {
			out.sparse = &sparseSpan{from: from, to: to, density: float64(present) / float64(span), what: what}
		}
		rd.advance(out, int64(n), what)
		from = to + 1
	}
	if misaligned {
		out.warnings = append(out.warnings, fmt.Sprintf("%s: the server evaluated at instants off the sync grid (a query frontend aligning to the step?); values were taken at the nearest sync", what))
	}
	if infinite > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("%s: %d samples were +Inf or -Inf (a division by zero in the query?); they were taken as missing", what, infinite))
	}
	for _, k := range seriesSeen {
		if k.kept {
			kept++
		} else {
			dropped++
		}
	}
	return kept, dropped, nil
}
