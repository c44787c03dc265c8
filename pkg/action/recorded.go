// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/history"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// DefaultMetricsResolution is metrics-server's default --metric-resolution.
const DefaultMetricsResolution = 15 * time.Second

// RecordedLoad says where a run's recorded load comes from and how it
// maps onto what the controller read.
type RecordedLoad struct {
	// Prometheus reaches the store (its Endpoint, or KUBECTL_HPA_PROMETHEUS).
	Prometheus prom.Options
	// Queries are --query NAME=PROMQL, by metric name.
	Queries map[string]string
	// NoKubeStateMetrics ignores kube-state-metrics even when the store has
	// it.
	NoKubeStateMetrics bool
	// MetricsResolution is the resolution of the resource metrics the
	// controller read (metrics-server's --metric-resolution): a resource
	// sample covers that window and was taken half of it before the sync
	// on average. 0 means DefaultMetricsResolution.
	MetricsResolution time.Duration
	// Progress, when set, follows the read.
	Progress func(prom.Progress)
}

// BacktestConfig is a whatif over a past period.
type BacktestConfig struct {
	Source   Source
	Name     string
	Settings SettingsOverrides
	// Since and Until bound the period (Until zero: Source.Now).
	Since, Until time.Time
	// Changes are the HPA changes to replay besides it as it is; only
	// changes of its spec apply.
	Changes whatif.Overrides
	// LoadModel, PodStartup and SampleDelay: see whatif.BacktestOptions.
	LoadModel   string
	PodStartup  time.Duration
	SampleDelay time.Duration
	Load        RecordedLoad
}

// ExplainAtConfig is an explain of a past sync.
type ExplainAtConfig struct {
	Source   Source
	Name     string
	Settings SettingsOverrides
	At       time.Time
	Load     RecordedLoad
}

// Backtest reads one HPA, the recorded load of its target over the period
// (and the controller's warm-up before it), and replays the controller
// over it as the HPA is and with the changes.
func Backtest(ctx context.Context, cfg BacktestConfig) (*WhatIfResult, error) {
	until := cfg.Until
	if until.IsZero() {
		until = cfg.Source.Now
	}
	if !cfg.Since.Before(until) {
		return nil, fmt.Errorf("--since %s is not before --until %s", stamp(cfg.Since), stamp(until))
	}
	in, extra, err := readForRecorded(ctx, cfg.Source, cfg.Name, cfg.Settings)
	if err != nil {
		return nil, err
	}
	since := cfg.Since
	created := in.snap.HPA.CreationTimestamp.Time
	if !created.IsZero() && since.Before(created) {
		if !created.Before(until) {
			return nil, fmt.Errorf("HPA %s was created at %s, after --until %s: there is nothing of it to replay", hpaName(in.snap), stamp(created), stamp(until))
		}
		// Before it, no HPA of this name scaled anything; one of the same
		// name deleted before it (a namespace created again) had its own
		// pods and history, which are not this one's.
		since = created
		in.warnings = append(in.warnings, fmt.Sprintf("HPA %s was created at %s, after --since: the replay starts there, with no controller history", hpaName(in.snap), stamp(created)))
	}
	warm := whatif.WarmUp(in.snap.HPA, in.settings)
	if !cfg.Changes.Empty() {
		edited, _, err := whatif.Apply(in.snap, &cfg.Changes, in.settings)
		if err != nil {
			return nil, fmt.Errorf("HPA %s: %w", hpaName(in.snap), err)
		}
		warm = max(warm, whatif.WarmUp(edited.HPA, in.settings))
	}
	rec, err := readRecording(ctx, in, extra, notBefore(since.Add(-warm), created), until, cfg.Load)
	if err != nil {
		return nil, err
	}
	opts := whatif.BacktestOptions{
		Start: since, LoadModel: cfg.LoadModel, PodStartup: cfg.PodStartup, SampleDelay: cfg.SampleDelay,
		Source: extra.source,
	}
	if !cfg.Changes.Empty() {
		opts.Changes = &cfg.Changes
	}
	res, err := whatif.Backtest(in.snap, rec, in.settings, opts)
	if err != nil {
		return nil, fmt.Errorf("backtest of HPA %s: %w", hpaName(in.snap), err)
	}
	changes := res.Backtest.Changes
	if changes == nil {
		changes = []string{}
	}
	w := &explain.WhatIf{
		APIVersion: explain.APIVersion, Kind: explain.KindWhatIf, Changes: changes,
		Before: res.AsIs, After: res.Changed, Projection: res.Projection, Backtest: res.Backtest,
	}
	return &WhatIfResult{WhatIf: w, Settings: in.settings, Warnings: append(in.warnings, rec.Warnings...)}, nil
}

// ExplainAt replays the sync of a past instant: the controller over the
// recorded load from a warm-up before it, and explains that sync.
func ExplainAt(ctx context.Context, cfg ExplainAtConfig) (*ExplainResult, error) {
	in, extra, err := readForRecorded(ctx, cfg.Source, cfg.Name, cfg.Settings)
	if err != nil {
		return nil, err
	}
	if cfg.At.After(cfg.Source.Now) {
		return nil, fmt.Errorf("--at %s is in the future (now is %s)", stamp(cfg.At), stamp(cfg.Source.Now))
	}
	created := in.snap.HPA.CreationTimestamp.Time
	if cfg.At.Before(created) {
		return nil, fmt.Errorf("HPA %s was created at %s, after --at %s: no sync of it happened then", hpaName(in.snap), stamp(created), stamp(cfg.At))
	}
	warm := whatif.WarmUp(in.snap.HPA, in.settings)
	rec, err := readRecording(ctx, in, extra, notBefore(cfg.At.Add(-warm), created), cfg.At, cfg.Load)
	if err != nil {
		return nil, err
	}
	d, err := whatif.ReplayAt(in.snap, rec, in.settings, cfg.At, whatif.BacktestOptions{Source: extra.source})
	if err != nil {
		return nil, fmt.Errorf("replay HPA %s at %s: %w", hpaName(in.snap), stamp(cfg.At), err)
	}
	// The status the controller wrote then is not recorded: nothing to
	// compare the replay with.
	d.Agreement = explain.Agreement{NotChecked: "the status the controller wrote at that sync is not recorded"}
	return &ExplainResult{Decision: d, Snapshot: in.snap, Settings: in.settings, Warnings: append(in.warnings, rec.Warnings...)}, nil
}

// notBefore is t, or created when t is before it: the replay of an HPA
// begins at its creation at the earliest, with no controller history then.
func notBefore(t, created time.Time) time.Time {
	if t.Before(created) {
		return created
	}
	return t
}

// recordedExtra is what a recorded-load run reads besides the snapshot.
type recordedExtra struct {
	events      []corev1.Event
	replicaSets []prom.ReplicaSet
	kube        *rest.Config
	history     *history.Record
	source      string
}

// readForRecorded reads the HPA's snapshot, and live: its events, its
// target's ReplicaSets and the history a watch recorded.
func readForRecorded(ctx context.Context, src Source, name string, o SettingsOverrides) (*snapshot, *recordedExtra, error) {
	in, err := src.read(ctx, name, o)
	if err != nil {
		return nil, nil, err
	}
	extra := &recordedExtra{events: in.events}
	if !src.Live() {
		if src.Clients != nil {
			// A service endpoint is still reached through the kubeconfig's
			// API server.
			extra.kube, _ = src.Clients.RESTConfig()
		}
		return in, extra, nil
	}
	if extra.kube, err = src.Clients.RESTConfig(); err != nil {
		return nil, nil, err
	}
	clients, err := src.Clients.Gather()
	if err != nil {
		return nil, nil, err
	}
	rss, err := gather.WorkloadReplicaSets(ctx, clients, in.snap.HPA.Namespace, in.snap.Target)
	if err != nil {
		in.warnings = append(in.warnings, fmt.Sprintf("could not list the ReplicaSets of %s/%s (%v): its past pods are found by the usage series alone", in.snap.Target.Kind, in.snap.Target.Name, err))
	}
	for _, rs := range rss {
		extra.replicaSets = append(extra.replicaSets, prom.ReplicaSet{Name: rs.Name, Containers: rs.Spec.Template.Spec.Containers})
	}
	if src.History != nil {
		h := in.snap.HPA
		key := history.Key{Cluster: src.Clients.ClusterID(), Namespace: h.Namespace, Name: h.Name, UID: string(h.UID)}
		if r, err := src.History.Load(key); err == nil {
			extra.history = r
		}
	}
	return in, extra, nil
}

// readRecording reads the recorded load of the snapshot's target from
// from to until, on the grid of the controller's sync period, and fills
// the actual replicas from the events or a watch's history when the store
// has no record of them.
func readRecording(ctx context.Context, in *snapshot, extra *recordedExtra, from, until time.Time, load RecordedLoad) (*recording.Recording, error) {
	step := in.settings.SyncPeriod
	if step <= 0 {
		return nil, errors.New("the sync period must be positive")
	}
	start, n, phase, phaseEvents := replayGrid(extra.events, from, until, step)
	resolution := load.MetricsResolution
	if resolution <= 0 {
		resolution = DefaultMetricsResolution
	}
	o := load.Prometheus
	if err := o.Validate(); err != nil {
		return nil, err
	}
	client, err := prom.NewClient(o, extra.kube)
	if err != nil {
		return nil, err
	}
	extra.source = "Prometheus at " + client.Endpoint().String()
	metrics, err := prom.MetricsFor(in.snap.HPA.Spec.Metrics, load.Queries)
	if err != nil {
		return nil, fmt.Errorf("HPA %s: %w", hpaName(in.snap), err)
	}
	t := in.snap.Target
	req := prom.Request{
		Namespace: in.snap.HPA.Namespace, Kind: t.Kind, Name: t.Name, Selector: t.Selector,
		ReplicaSets: extra.replicaSets, Pods: in.snap.Pods, Metrics: metrics,
		Start: start, Step: step, Len: n, SampleLag: sampleLag(resolution),
		NoKubeStateMetrics: load.NoKubeStateMetrics, Progress: load.Progress,
	}
	if len(in.snap.Pods) > 0 {
		req.Template = in.snap.Pods[0].Spec.Containers
	}
	rec, err := client.Read(ctx, req)
	if err != nil {
		return nil, err
	}
	if rec.SampleWindow == 0 {
		rec.SampleWindow = resolution
	}
	if phaseEvents > 0 {
		rec.Reconstructed = append(rec.Reconstructed, fmt.Sprintf("the controller's sync times: every %s at %s past the period's multiples of it, estimated from %d SuccessfulRescale event time(s) of the period (whole seconds)",
			step, phase.Round(10*time.Millisecond), phaseEvents))
	}
	if rec.Replicas.Source == "" || rec.Replicas.Source == recording.SourceNone {
		switch h := replicasFromEvents(extra.events, rec); {
		case len(h.Changes) > 0:
			rec.Replicas = h
		default:
			if h := replicasFromWatch(extra.history, in.snap.Target.SpecReplicas, rec); len(h.Changes) > 0 {
				rec.Replicas = h
			}
		}
	}
	return rec, nil
}

// sampleLag is how long before a sync the store's sample is read. The
// controller's sample is metrics-server's: the rate between its two latest
// scrapes, one resolution apart, the latest anywhere in the last
// resolution, so its window ends half a resolution back and its middle a
// whole one back, on average. The store's irate spans its own last two
// scrapes before the point read, the latest half a scrape interval before
// that point on average: read half a resolution back, its window's middle
// is a resolution back when the store scrapes twice per resolution (the
// common setups: 5 s and 10 s, 15 s and 30 s), and its timestamps, half a
// resolution old, are as old as metrics-server's. (Three quarters, used
// before 2026-11-27, left every replayed rescale of the e2e proof 5-10 s
// late: the store's window sat a quarter resolution further back.)
func sampleLag(resolution time.Duration) time.Duration { return resolution / 2 }

// replayGrid places the replayed syncs: n instants step apart from start,
// the first at or before from and the last at or before until. They are at
// the controller's phase when its rescale events in the period tell it
// (phaseEvents > 0), else on the multiples of step: two runs over the same
// period replay the same syncs either way.
func replayGrid(events []corev1.Event, from, until time.Time, step time.Duration) (start time.Time, n int, phase time.Duration, phaseEvents int) {
	start = from.Truncate(step)
	phase, phaseEvents = syncPhase(events, from, until, step)
	if phaseEvents > 0 {
		if start = start.Add(phase); start.After(from) {
			start = start.Add(-step)
		}
	}
	return start, int(until.Sub(start)/step) + 1, phase, phaseEvents
}

// syncPhase estimates when in each sync period the controller syncs the
// HPA: its offset from the multiples of step since the epoch, from the
// times of the HPA's SuccessfulRescale events between from and until
// (each written at a sync; a repeated event's first and last times both
// count). The legacy event times are whole seconds, so each is taken at
// the middle of its second. The offsets are averaged on the circle (an
// offset just below step and one just above zero are neighbours); n is 0,
// and the phase unknown, without such events or when they disagree (the
// controller restarted within the period, at another phase).
func syncPhase(events []corev1.Event, from, until time.Time, step time.Duration) (phase time.Duration, n int) {
	var sx, sy float64
	add := func(at time.Time, precise bool) {
		if at.IsZero() || at.Before(from) || at.After(until) {
			return
		}
		if !precise {
			at = at.Add(500 * time.Millisecond)
		}
		off := at.Sub(at.Truncate(step))
		a := 2 * math.Pi * float64(off) / float64(step)
		sx += math.Cos(a)
		sy += math.Sin(a)
		n++
	}
	for i := range events {
		e := &events[i]
		if e.Reason != explain.ReasonSuccessfulRescale {
			continue
		}
		if !e.EventTime.IsZero() {
			add(e.EventTime.Time, true)
			continue
		}
		add(e.LastTimestamp.Time, false)
		if e.Count > 1 && !e.FirstTimestamp.Equal(&e.LastTimestamp) {
			add(e.FirstTimestamp.Time, false)
		}
	}
	// Agreeing phases average to a point near the circle; scattered ones
	// (a restart, several controllers) near its centre.
	if n == 0 || math.Hypot(sx, sy)/float64(n) < 0.8 {
		return 0, 0
	}
	a := math.Atan2(sy, sx)
	if a < 0 {
		a += 2 * math.Pi
	}
	phase = time.Duration(a / (2 * math.Pi) * float64(step)).Round(time.Millisecond)
	if phase >= step {
		phase -= step
	}
	return phase, n
}

var newSizeRE = regexp.MustCompile(`^New size: (\d+);`)

// combinedPrefix starts the message of an event the event recorder made of
// several similar ones (ten of one reason within ten minutes): it keeps the
// last message only.
const combinedPrefix = "(combined from similar events): "

// replicasFromEvents rebuilds the actual replica count over a recording
// from the HPA's SuccessfulRescale events ("New size: N"). An event seen
// more than once (count > 1), or combined from similar ones, tells only
// its first and last time: between them the count is the number of the
// target's pods the recording shows. Before the first event the count is
// the last size before the recording or, failing that, the number of pods
// too, and its changes there are marked external (the workload created or
// scaled by hand). Nothing when no event falls in the period.
func replicasFromEvents(events []corev1.Event, rec *recording.Recording) recording.ReplicaHistory {
	type size struct {
		at time.Time
		n  int32
	}
	var sizes []size
	var spans [][2]time.Time
	for i := range events {
		e := &events[i]
		if e.Reason != explain.ReasonSuccessfulRescale {
			continue
		}
		msg, combined := strings.CutPrefix(e.Message, combinedPrefix)
		m := newSizeRE.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		v, err := strconv.ParseInt(m[1], 10, 32)
		if err != nil {
			continue
		}
		last := e.LastTimestamp.Time
		if last.IsZero() {
			last = e.EventTime.Time
		}
		if combined || e.Count > 1 {
			first := e.FirstTimestamp.Time
			if first.IsZero() || first.After(last) {
				first = last
			}
			spans = append(spans, [2]time.Time{first, last})
		}
		sizes = append(sizes, size{last, int32(v)})
	}
	sort.SliceStable(sizes, func(i, j int) bool { return sizes[i].at.Before(sizes[j].at) })
	uncertain := func(t time.Time) bool {
		for _, sp := range spans {
			if t.After(sp[0].Add(-time.Second)) && t.Before(sp[1]) {
				return true
			}
		}
		return false
	}
	inPeriod, before := false, false
	var initial int32
	for _, s := range sizes {
		if s.at.After(rec.Start) && !s.at.After(rec.End()) {
			inPeriod = true
		}
		if !s.at.After(rec.Start) {
			initial, before = s.n, true
		}
	}
	if !inPeriod {
		return recording.ReplicaHistory{}
	}
	h := recording.ReplicaHistory{Source: recording.SourceEvents, Detail: fmt.Sprintf("%d SuccessfulRescale events", len(sizes))}
	add := func(at time.Time, n int32, external bool) {
		if len(h.Changes) == 0 || h.Changes[len(h.Changes)-1].Replicas != n {
			h.Changes = append(h.Changes, recording.ReplicaChange{At: at, Replicas: n, External: external && len(h.Changes) > 0})
		}
	}
	first := rec.End()
	for _, s := range sizes {
		if s.at.After(rec.Start) {
			first = s.at
			break
		}
	}
	if before {
		add(rec.Start, initial, false)
	}
	// Walk the period's instants and the events in time order: the pods
	// give the count before the first event (external changes) and inside
	// the spans the events do not tell.
	j := 0
	for k := 0; k < rec.Len; k++ {
		t := rec.Instant(k)
		for j < len(sizes) && !sizes[j].at.After(t) {
			if sizes[j].at.After(rec.Start) && !uncertain(sizes[j].at) {
				add(sizes[j].at, sizes[j].n, false)
			}
			j++
		}
		switch {
		case !before && t.Before(first):
			add(t, livePods(rec, k), true)
		case uncertain(t):
			add(t, livePods(rec, k), false)
		}
	}
	for ; j < len(sizes); j++ {
		if !uncertain(sizes[j].at) && !sizes[j].at.After(rec.End()) {
			add(sizes[j].at, sizes[j].n, false)
		}
	}
	if len(spans) > 0 {
		h.Detail += fmt.Sprintf("; %d were seen more than once or combined by the event recorder, and between their first and last time the count is the number of pods recorded", len(spans))
		rec.Reconstructed = append(rec.Reconstructed, "the replicas while SuccessfulRescale events were repeated or combined: the number of the target's pods recorded (a store sees a pod from its first sample to its last)")
	}
	if !before {
		rec.Reconstructed = append(rec.Reconstructed, "the replicas before the first rescale event of the period: the number of the target's pods that existed")
	}
	return h
}

// livePods counts the recording's pods that existed and were not being
// deleted at instant k.
func livePods(rec *recording.Recording, k int) int32 {
	t := rec.Instant(k)
	n := int32(0)
	for i := range rec.Pods {
		if rec.Pods[i].Exists(t) && !rec.Pods[i].TerminatingAt(t) {
			n++
		}
	}
	return n
}

// replicasFromWatch rebuilds the actual replica count from the rescales a
// watch recorded: counted back from the current count. Nothing when the
// record does not reach back to the start.
func replicasFromWatch(r *history.Record, current int32, rec *recording.Recording) recording.ReplicaHistory {
	if r == nil || r.Since.After(rec.Start) {
		return recording.ReplicaHistory{}
	}
	type change struct {
		at    time.Time
		delta int32
	}
	var all []change
	for _, e := range r.ScaleUpEvents {
		all = append(all, change{e.Timestamp, e.ReplicaChange})
	}
	for _, e := range r.ScaleDownEvents {
		all = append(all, change{e.Timestamp, -e.ReplicaChange})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	// Walk back from now: before each change the count was that much less.
	n := current
	var back []recording.ReplicaChange
	for _, c := range all {
		if c.at.After(rec.End()) {
			n -= c.delta
			continue
		}
		if !c.at.After(rec.Start) {
			break
		}
		back = append(back, recording.ReplicaChange{At: c.at, Replicas: n})
		n -= c.delta
	}
	h := recording.ReplicaHistory{Source: recording.SourceWatch, Detail: fmt.Sprintf("the history a watch recorded since %s", stamp(r.Since))}
	h.Changes = append(h.Changes, recording.ReplicaChange{At: rec.Start, Replicas: n})
	for i := len(back) - 1; i >= 0; i-- {
		h.Changes = append(h.Changes, back[i])
	}
	return h
}

func hpaName(s *engine.Snapshot) string { return s.HPA.Namespace + "/" + s.HPA.Name }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// ParsePast reads a past instant as --since, --until and --at take it: a
// duration before now ("2h", "90m"), an RFC 3339 time, a date and time in
// UTC ("2026-11-26T14:02", "2026-11-26 14:02:30"), or a time of day in UTC
// ("14:02", "14:02:30": today's, or yesterday's when that is still to
// come).
func ParsePast(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("%q: a duration before now must be positive", s)
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		if c, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			u := now.UTC()
			t := time.Date(u.Year(), u.Month(), u.Day(), c.Hour(), c.Minute(), c.Second(), 0, time.UTC)
			if t.After(now) {
				t = t.AddDate(0, 0, -1)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a duration before now (2h), an RFC 3339 time, or a UTC date and time (2026-11-26T14:02, 14:02)", s)
}
