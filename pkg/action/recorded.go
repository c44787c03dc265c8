// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
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
	Prometheus prom.Config
	// Queries are --query NAME=PROMQL, by metric name.
	Queries map[string]string
	// NoKubeStateMetrics ignores kube-state-metrics even when the store has
	// it.
	NoKubeStateMetrics bool
	// MetricsResolution is the resolution of the resource metrics the
	// controller read (metrics-server's --metric-resolution): a resource
	// sample covers that window. 0 reads it off the PodMetrics
	// metrics-server serves, else takes DefaultMetricsResolution.
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
	// Report asks for the recorded load the HTML report draws
	// (WhatIfResult.Loads).
	Report bool
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
	var opt WhatIfInput
	in, extra, since, until, err := readPeriod(ctx, cfg.Source, cfg.Name, cfg.Settings, cfg.Since, cfg.Until, opt.flag(&opt.Since), opt.flag(&opt.Until))
	if err != nil {
		return nil, err
	}
	created := in.snap.HPA.CreationTimestamp.Time
	warm := whatif.WarmUp(in.snap.HPA, in.settings)
	if !cfg.Changes.Empty() {
		edited, _, err := whatif.Apply(in.snap, &cfg.Changes, in.settings)
		if err != nil {
			return nil, fmt.Errorf("HPA %s: %w", hpaName(in.snap), err)
		}
		warm = max(warm, whatif.WarmUp(edited.HPA, in.settings))
	}
	rec, err := readRecording(ctx, in, extra, notBefore(since.Add(-warm), created), since, until, cfg.Load)
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
	out := &WhatIfResult{WhatIf: w, Settings: in.settings, Warnings: append(in.warnings, rec.Warnings...)}
	if cfg.Report {
		if out.Loads, err = whatif.LoadCurves(in.snap, rec, in.settings, opts, &res.Backtest.AsIs.Summary); err != nil {
			return nil, fmt.Errorf("backtest of HPA %s: %w", hpaName(in.snap), err)
		}
	}
	return out, nil
}

// ExplainAt replays the sync of a past instant: the controller over the
// recorded load from a warm-up before it, and explains that sync.
func ExplainAt(ctx context.Context, cfg ExplainAtConfig) (*ExplainResult, error) {
	in, extra, err := readForRecorded(ctx, cfg.Source, cfg.Name, cfg.Settings)
	if err != nil {
		return nil, err
	}
	var opt ExplainInput
	atFlag := opt.flag(&opt.At)
	if cfg.At.After(cfg.Source.Now) {
		return nil, fmt.Errorf("%s %s is in the future (now is %s)", atFlag, stamp(cfg.At), stamp(cfg.Source.Now))
	}
	created := in.snap.HPA.CreationTimestamp.Time
	if cfg.At.Before(created) {
		return nil, fmt.Errorf("HPA %s was created at %s, after %s %s: no sync of it happened then", hpaName(in.snap), stamp(created), atFlag, stamp(cfg.At))
	}
	warm := whatif.WarmUp(in.snap.HPA, in.settings)
	rec, err := readRecording(ctx, in, extra, notBefore(cfg.At.Add(-warm), created), cfg.At, cfg.At, cfg.Load)
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
	// gather reaches the cluster in a live run (nil otherwise); cluster
	// names it, for what a run keeps of it (history.Store).
	gather  *gather.Clients
	cluster string
	// context is the kubeconfig context read ("" in a pod, with no
	// kubeconfig): it picks the Prometheus of its cluster
	// (prom.Config.ForContext).
	context     string
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
	if src.Clients != nil {
		extra.context = src.Clients.ContextName()
	}
	if !src.Live() {
		if src.Clients != nil {
			// A service endpoint is still reached through the kubeconfig's
			// API server.
			extra.kube, _ = src.Clients.RESTConfig()
		}
		return in, extra, nil
	}
	clients, err := src.Clients.Gather()
	if err != nil {
		return nil, nil, err
	}
	extra.gather, extra.cluster = clients, src.Clients.ClusterID()
	// The config of the clients just built (nil for clients a test
	// injected: a service endpoint then says it needs a kubeconfig).
	extra.kube, _ = src.Clients.RESTConfig()
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
// from (the warm-up's start) to until, the period asked for beginning at
// asked, on the grid of the controller's syncs, resampled at
// metrics-server's scrapes (the clock: clock.go), and fills the actual
// replicas from the events or a watch's history when the store has no
// record of them.
func readRecording(ctx context.Context, in *snapshot, extra *recordedExtra, from, asked, until time.Time, load RecordedLoad) (*recording.Recording, error) {
	if in.settings.SyncPeriod <= 0 {
		return nil, errors.New("the sync period must be positive")
	}
	clock, periodNote := syncClock(in, extra, from, until)
	scrapeClock(&clock, in, load.MetricsResolution)
	// metrics-server's timing, read live beside the store's read (a poll
	// of up to a window).
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	live := readScrapesLive(rctx, in, extra)
	start, n := recording.ReplayGridAt(from, until, clock.SyncStep, clock.SyncAnchor)
	o := load.Prometheus.ForContext(extra.context)
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
	pods := targetPods(in.snap)
	req := prom.Request{
		Namespace: in.snap.HPA.Namespace, Kind: t.Kind, Name: t.Name, Selector: t.Selector,
		ReplicaSets: extra.replicaSets, Pods: pods, Metrics: metrics,
		Start: start, Step: clock.SyncStep, Len: n, PeriodStart: asked, SampleLag: recording.SampleLag(clock.Window),
		Window: clock.Window, ScrapeAnchor: clock.ScrapeAnchor,
		NoKubeStateMetrics: load.NoKubeStateMetrics, Progress: load.Progress,
	}
	if len(pods) > 0 {
		req.Template = pods[0].Spec.Containers
	}
	rec, err := client.Read(ctx, req)
	if err != nil {
		return nil, err
	}
	refined := false
	if live != nil {
		if r := <-live; r.err != nil {
			in.warnings = append(in.warnings, fmt.Sprintf("metrics-server's timing could not be read live (%v): %s", r.err, clock.ScrapeFrom.Detail))
		} else {
			refineScrapes(&clock, r.clock, from)
			refined = true
		}
	}
	// Where the cluster told nothing better, the store's record of
	// metrics-server's own series (where it scrapes metrics-server).
	if !refined && (clock.WindowFrom.Source == recording.OriginAssumed || clock.ScrapeFrom.Source == recording.OriginUnknown || clock.ScrapeSpread >= 500*time.Millisecond) {
		if sr, err := client.ReadScrapeRecord(ctx, from, until); err == nil && sr != nil {
			refined = scrapesFromRecord(&clock, sr)
		}
	}
	rec.Clock = clock
	if periodNote != "" {
		rec.Reconstructed = append(rec.Reconstructed, periodNote)
	}
	if !clock.SyncAnchor.IsZero() {
		rec.Reconstructed = append(rec.Reconstructed, "the controller's sync times: "+clock.SyncPhaseFrom.Detail)
	}
	defer keepRecording(in, rec)
	if rec.Replicas.Source == "" || rec.Replicas.Source == recording.SourceNone {
		switch h := recording.ReplicasFromEvents(extra.events, rec); {
		case len(h.Changes) > 0:
			rec.Replicas = h
		case extra.history != nil:
			r := extra.history
			if h := recording.ReplicasFromWatch(r.Since, r.ScaleUpEvents, r.ScaleDownEvents, in.snap.Target.SpecReplicas, rec); len(h.Changes) > 0 {
				rec.Replicas = h
			}
		}
	}
	// The samples again, now that the clock and the record of the count
	// are what they will be: at the scrapes read live, and with the pods
	// the controller's scale-downs removed ending at its syncs.
	switch {
	case refined:
		rec.Resample(recording.Scrapes{Anchor: clock.ScrapeAnchor, Window: clock.Window})
	case !clock.SyncAnchor.IsZero():
		rec.ResampleAgain()
	}
	if rec.SampleWindow == 0 {
		rec.SampleWindow = clock.Window
	}
	return rec, nil
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

// EnvKeepRecording names a directory where runs over recorded load keep
// what their replay stands on (whatif.Kept: the HPA, the recording with its
// clock and raw samples), to be replayed again offline: for a bug report,
// or a test of a real run.
const EnvKeepRecording = "KUBECTL_HPA_KEEP_RECORDING"

// keepRecording writes what the replay of in over rec stands on to
// $KUBECTL_HPA_KEEP_RECORDING, when set; a failure is a warning.
func keepRecording(in *snapshot, rec *recording.Recording) {
	dir := os.Getenv(EnvKeepRecording)
	if dir == "" {
		return
	}
	b, err := json.Marshal(whatif.KeptOf(in.snap, in.settings, rec))
	if err == nil {
		h := in.snap.HPA
		name := fmt.Sprintf("%s_%s_%s.json", h.Namespace, h.Name, rec.Start.UTC().Format("20060102T150405"))
		if err = os.MkdirAll(dir, 0o755); err == nil {
			err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
	}
	if err != nil {
		in.warnings = append(in.warnings, fmt.Sprintf("%s: the recording was not kept: %v", EnvKeepRecording, err))
	}
}

// targetPods are the snapshot's pods its target's selector selects: a live
// read lists only those, files may hold the namespace's other workloads'
// pods too (kubectl get pods -o yaml of a namespace), which are not the
// workload's to read the recording of, nor its template. An empty or
// unparsable selector keeps them all (the engine then says why it selects
// none).
func targetPods(snap *engine.Snapshot) []corev1.Pod {
	sel, err := labels.Parse(snap.Target.Selector)
	if err != nil || snap.Target.Selector == "" {
		return snap.Pods
	}
	var out []corev1.Pod
	for i := range snap.Pods {
		if sel.Matches(labels.Set(snap.Pods[i].Labels)) {
			out = append(out, snap.Pods[i])
		}
	}
	return out
}
