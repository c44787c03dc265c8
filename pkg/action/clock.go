// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"slices"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/history"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The clock of a replay over recorded load: the controller's sync period
// and the times of its syncs, metrics-server's window and the times of its
// scrapes. Each is taken from the most trusted source that has it: the
// command line, then what the cluster says (the controller's flags, the
// PodMetrics metrics-server serves), then what the cluster did (the times
// of the HPA's events), then a default; the output says which, and for a
// guess what a wrong one shifts.

// minInferred is the confidence an inferred sync period needs to replace
// the default: below it the events could fit the period by chance, and
// the default stands (said, with the inference's words).
const minInferred = 0.9

// syncClock works out when the controller synced the HPA: the period as
// the settings have it (given, read, or assumed), checked against, and
// where assumed replaced by, what the HPA's events tell (EstimateSyncs:
// every event the controller wrote of the HPA was written at a sync); the
// spacing and phase of the syncs from the same events, where they reach
// the period.
func syncClock(in *snapshot, extra *recordedExtra, from, until time.Time) (recording.Clock, string) {
	c := recording.Clock{SyncPeriod: in.settings.SyncPeriod, SyncPeriodFrom: in.syncFrom, SyncStep: in.settings.SyncPeriod}
	c.SyncPhaseFrom = recording.Origin{Source: recording.OriginAssumed, Detail: "no event of the HPA tells it: the syncs are replayed on the multiples of the period"}
	var so SettingsInput
	flag := SettingsRows.Named(&so, &so.SyncPeriod).Flag()
	o := recording.SyncEstimateOptions{Default: engine.DefaultSettings().SyncPeriod, Paced: pacing(in.snap.HPA)}
	if !in.syncPeriodAssumed() {
		o.Known = c.SyncPeriod
	}
	times := recording.SyncTimesFromEvents(extra.events)
	est, ok := recording.EstimateSyncs(times, o)
	if !ok && o.Known > 0 {
		// The events do not sit on the grid of the period given or read:
		// what do they sit on?
		o.Known = 0
		if other, found := recording.EstimateSyncs(times, o); found && other.Confidence >= minInferred && other.Period != c.SyncPeriod {
			in.warnings = append(in.warnings, fmt.Sprintf("the HPA's events say the controller syncs every %s (%s), not every %s as %s: the replay keeps %s",
				other.Period, other.Detail, c.SyncPeriod, c.SyncPeriodFrom.Detail, c.SyncPeriod))
		}
		return c, ""
	}
	if !ok {
		if in.syncPeriodAssumed() && est.Detail != "" {
			c.SyncPeriodFrom.Detail += "; the HPA's events do not tell it: " + est.Detail
		}
		return c, ""
	}
	note := ""
	switch {
	case in.syncPeriodAssumed() && est.Confidence >= minInferred:
		if est.Period != c.SyncPeriod {
			note = fmt.Sprintf("the controller's sync period: %s, not the default %s: %s (%s sets it)", est.Period, c.SyncPeriod, est.Detail, flag)
		}
		c.SyncPeriod = est.Period
		c.SyncPeriodFrom = recording.Origin{Source: recording.OriginInferred, Detail: est.Detail, Confidence: est.Confidence}
		in.settings.SyncPeriod = est.Period
	case in.syncPeriodAssumed():
		c.SyncPeriodFrom.Detail += "; the HPA's events do not settle it: " + est.Detail
		if est.Period != c.SyncPeriod {
			return c, ""
		}
	case est.Period != c.SyncPeriod && est.Confidence >= minInferred:
		in.warnings = append(in.warnings, fmt.Sprintf("the HPA's events say the controller syncs every %s (%s), not every %s as %s: the replay keeps %s",
			est.Period, est.Detail, c.SyncPeriod, c.SyncPeriodFrom.Detail, c.SyncPeriod))
		return c, ""
	}
	c.SyncStep, c.SyncAnchor = est.Step, est.Anchor
	c.SyncPhaseFrom = recording.Origin{Source: recording.OriginInferred, Detail: est.Detail, Confidence: est.Confidence}
	// The phase holds over the events' span; beyond it the syncs drift by
	// whatever the step's estimate misses, a little more each sync, and a
	// restart of the controller moves them. A period far from the events
	// (they are kept an hour by default) is replayed on their grid all
	// the same, but its phase is not known there.
	reach := max(est.Span, 10*time.Minute)
	if until.Before(est.Anchor.Add(-reach)) || from.After(est.Anchor.Add(reach)) {
		c.SyncPhaseFrom = recording.Origin{Source: recording.OriginAssumed, Detail: fmt.Sprintf("the HPA's events (%s) are far from the period: their grid is carried over to it", est.Detail)}
	}
	return c, note
}

// pacing lists the periods that may space an HPA's rescales besides the
// controller's syncs: its policies' periods and its stabilization windows.
func pacing(hpa *autoscalingv2.HorizontalPodAutoscaler) []time.Duration {
	var out []time.Duration
	b := hpa.Spec.Behavior
	if b == nil {
		return nil
	}
	for _, r := range []*autoscalingv2.HPAScalingRules{b.ScaleUp, b.ScaleDown} {
		if r == nil {
			continue
		}
		if w := r.StabilizationWindowSeconds; w != nil && *w > 0 {
			out = append(out, time.Duration(*w)*time.Second)
		}
		for _, p := range r.Policies {
			if p.PeriodSeconds > 0 {
				out = append(out, time.Duration(p.PeriodSeconds)*time.Second)
			}
		}
	}
	return out
}

// scrapeClock works out metrics-server's window and the phase of its
// scrapes from what the snapshot holds: the window given, else read off
// its PodMetrics (the span of their samples), else metrics-server's
// default; the phase from the PodMetrics' timestamps (whole seconds:
// within half a second either way). A live run refines both
// (refineScrapes).
func scrapeClock(c *recording.Clock, in *snapshot, given time.Duration) {
	var res RecordedInput
	flag := res.flag(&res.MetricsResolution)
	var windows []time.Duration
	var latest time.Time
	// Not the PodMetrics of pods the target does not select: a live read
	// lists the workload's, files may hold the namespace's.
	others := map[string]bool{}
	for i := range in.snap.Pods {
		others[in.snap.Pods[i].Name] = true
	}
	for _, p := range targetPods(in.snap) {
		delete(others, p.Name)
	}
	for i := range in.snap.PodMetrics {
		pm := &in.snap.PodMetrics[i]
		if others[pm.Name] {
			continue
		}
		if pm.Window.Duration > 0 {
			windows = append(windows, pm.Window.Duration)
		}
		if pm.Timestamp.After(latest) {
			latest = pm.Timestamp.Time
		}
	}
	switch {
	case given > 0:
		c.Window = given
		c.WindowFrom = recording.Origin{Source: recording.OriginFlag, Detail: flag, Confidence: 1}
	case len(windows) > 0:
		slices.Sort(windows)
		w := windows[len(windows)/2]
		c.Window = wholeResolution(w)
		c.WindowFrom = recording.Origin{Source: recording.OriginRead, Detail: fmt.Sprintf("the window of %d PodMetrics (%s)", len(windows), w), Confidence: 1}
	default:
		c.Window = DefaultMetricsResolution
		c.WindowFrom = recording.Origin{Source: recording.OriginAssumed, Detail: fmt.Sprintf("metrics-server's default (no PodMetrics to read it from; %s sets it)", flag), Confidence: 1}
	}
	if latest.IsZero() {
		c.ScrapeFrom = recording.Origin{Source: recording.OriginUnknown, Detail: "no PodMetrics to read it from"}
		return
	}
	c.ScrapeAnchor, c.ScrapeSpread = latest.Add(500*time.Millisecond), 500*time.Millisecond
	c.ScrapeFrom = recording.Origin{Source: recording.OriginRead, Detail: fmt.Sprintf("the PodMetrics' timestamp %s (whole seconds); metrics-server's start is not known: the phase is taken to hold over the period", latest.UTC().Format(time.RFC3339)), Confidence: 1}
}

// refineScrapes takes what a live read of metrics-server's timing found
// (gather.ReadScrapeClock: a poll of a PodMetrics until its timestamp
// changes gives a scrape's moment to a tenth of a second) into the clock;
// from is the period's start, before which a metrics-server started since
// leaves the phase unknown.
func refineScrapes(c *recording.Clock, sc gather.ScrapeClock, from time.Time) {
	if c.WindowFrom.Source != recording.OriginFlag && sc.Resolution > 0 {
		c.Window = sc.Resolution
		c.WindowFrom = recording.Origin{Source: recording.OriginRead, Detail: sc.ResolutionFrom, Confidence: 1}
	}
	if sc.Anchor.IsZero() {
		return
	}
	c.ScrapeAnchor, c.ScrapeSpread = sc.Anchor, sc.Spread
	detail := sc.AnchorFrom
	switch ms := sc.MetricsServer; {
	case ms == nil:
		detail += "; metrics-server's start is not known: the phase is taken to hold over the period"
	case ms.Running > 1:
		c.ScrapeFrom = recording.Origin{Source: recording.OriginUnknown, Detail: fmt.Sprintf("%s; %d metrics-server pods run, each scraping at its own phase", detail, ms.Running)}
		return
	case ms.Started.After(from):
		c.ScrapeFrom = recording.Origin{Source: recording.OriginUnknown, Detail: fmt.Sprintf("%s; metrics-server (%s) started at %s, after the period began: before that its scrapes had another phase", detail, ms.Pod, stamp(ms.Started))}
		return
	default:
		detail += fmt.Sprintf("; metrics-server (%s) has run since %s, before the period: its ticker keeps the phase", ms.Pod, stamp(ms.Started))
	}
	c.ScrapeFrom = recording.Origin{Source: recording.OriginRead, Detail: detail, Confidence: 1}
}

// scrapesFromRecord takes what the store recorded of metrics-server's
// own series (its ticks: the window; its requests to the kubelets: the
// phase, in whole seconds) where the clock has nothing better, and says
// whether it changed anything.
func scrapesFromRecord(c *recording.Clock, sr *prom.ScrapeRecord) bool {
	changed := false
	if c.WindowFrom.Source == recording.OriginAssumed && sr.Window > 0 {
		c.Window = sr.Window
		c.WindowFrom = recording.Origin{Source: recording.OriginRead, Detail: "the store's record of metrics-server: " + sr.Detail, Confidence: 1}
		changed = true
	}
	if !sr.Anchor.IsZero() && (c.ScrapeFrom.Source == recording.OriginUnknown || c.ScrapeAnchor.IsZero() || sr.Spread < c.ScrapeSpread) {
		c.ScrapeAnchor, c.ScrapeSpread = sr.Anchor, sr.Spread
		c.ScrapeFrom = recording.Origin{Source: recording.OriginRead, Detail: "the store's record of metrics-server: " + sr.Detail, Confidence: 1}
		changed = true
	}
	return changed
}

// readScrapesLive starts a live read of metrics-server's timing (nil when
// the run is not live); its result comes on the channel. What an earlier
// run measured of the same cluster is taken instead of a poll when the
// snapshot's PodMetrics agree with it (cachedScrapes): metrics-server's
// ticker keeps its phase while it runs, and two runs over the same period
// then give the same answer.
func readScrapesLive(ctx context.Context, in *snapshot, extra *recordedExtra) <-chan scrapeRead {
	if extra.gather == nil {
		return nil
	}
	ch := make(chan scrapeRead, 1)
	store := scrapesStore()
	if sc, ok := cachedScrapes(store, extra.cluster, in); ok {
		ch <- scrapeRead{clock: sc}
		return ch
	}
	names := make([]string, 0, len(in.snap.Pods))
	for i := range in.snap.Pods {
		names = append(names, in.snap.Pods[i].Name)
	}
	go func() {
		sc, err := gather.ReadScrapeClock(ctx, extra.gather, in.snap.HPA.Namespace, names, gather.ScrapeClockOptions{Poll: true})
		if err == nil && sc.Polled {
			// Said as every later run that takes it from the cache says
			// it: two runs over the same period give the same document.
			at := stamp(time.Now())
			sc.AnchorFrom = fmt.Sprintf("measured at %s: %s", at, sc.AnchorFrom)
			sc.ResolutionFrom = fmt.Sprintf("measured at %s: %s", at, sc.ResolutionFrom)
		}
		if err == nil && sc.Polled && store != nil {
			// Another run may have kept a measurement meanwhile: where it
			// agrees with this one it stands, so that every run takes the
			// same. Else this one is kept for the next runs (a failure to
			// keep it costs them a poll).
			if kept, ok := cachedScrapes(store, extra.cluster, in); ok && sameScrapes(kept, sc) {
				sc = kept
			} else {
				_ = store.SaveScrapes(extra.cluster, &history.Scrapes{
					Window: sc.Resolution, Anchor: sc.Anchor, Spread: sc.Spread, Detail: sc.AnchorFrom, WindowDetail: sc.ResolutionFrom, Measured: time.Now(),
				})
			}
		}
		ch <- scrapeRead{sc, err}
	}()
	return ch
}

// scrapesStore is where runs keep what they measured of metrics-server
// (nil when there is no cache directory).
func scrapesStore() *history.Store {
	dir, err := history.DefaultDir()
	if err != nil {
		return nil
	}
	return &history.Store{Dir: dir}
}

// sameScrapes reports whether two measurements of metrics-server's timing
// are of the same scrapes: one window, and phases within their spreads
// and 50 ms of each other.
func sameScrapes(a, b gather.ScrapeClock) bool {
	if a.Resolution != b.Resolution || a.Resolution <= 0 {
		return false
	}
	d := recording.LastScrape(b.Anchor, a.Anchor, a.Resolution).Sub(b.Anchor)
	d = min(-d, d+a.Resolution)
	return d <= a.Spread+b.Spread+50*time.Millisecond
}

// keptScrapesFor is how long a kept measurement of metrics-server's timing
// is taken: a restarted metrics-server has another phase, which the
// PodMetrics' whole-second timestamps catch four times in five; after a
// day the phase is measured again.
const keptScrapesFor = 24 * time.Hour

// cachedScrapes is what an earlier run measured of the cluster's
// metrics-server, when the snapshot's PodMetrics agree with it: the same
// window (within 2%), and a scrape of the kept phase within the second of
// their latest timestamp (whole seconds), give or take the kept spread and
// 0.2 s.
func cachedScrapes(store *history.Store, cluster string, in *snapshot) (gather.ScrapeClock, bool) {
	if store == nil || cluster == "" {
		return gather.ScrapeClock{}, false
	}
	kept, err := store.LoadScrapes(cluster)
	if err != nil || kept == nil || kept.Window <= 0 || in.snap.Now.Sub(kept.Measured) > keptScrapesFor {
		return gather.ScrapeClock{}, false
	}
	var windows []time.Duration
	var latest time.Time
	// Not the PodMetrics of pods the target does not select: a live read
	// lists the workload's, files may hold the namespace's.
	others := map[string]bool{}
	for i := range in.snap.Pods {
		others[in.snap.Pods[i].Name] = true
	}
	for _, p := range targetPods(in.snap) {
		delete(others, p.Name)
	}
	for i := range in.snap.PodMetrics {
		pm := &in.snap.PodMetrics[i]
		if others[pm.Name] {
			continue
		}
		if pm.Window.Duration > 0 {
			windows = append(windows, pm.Window.Duration)
		}
		if pm.Timestamp.After(latest) {
			latest = pm.Timestamp.Time
		}
	}
	if len(windows) == 0 || latest.IsZero() {
		return gather.ScrapeClock{}, false
	}
	slices.Sort(windows)
	if w := windows[len(windows)/2]; w < kept.Window*98/100 || w > kept.Window*102/100 {
		return gather.ScrapeClock{}, false
	}
	mid := latest.Add(500 * time.Millisecond)
	prev := recording.LastScrape(mid, kept.Anchor, kept.Window)
	off := min(mid.Sub(prev), prev.Add(kept.Window).Sub(mid))
	if off > 500*time.Millisecond+kept.Spread+200*time.Millisecond {
		return gather.ScrapeClock{}, false
	}
	return gather.ScrapeClock{
		Window: kept.Window, Resolution: kept.Window, ResolutionFrom: kept.WindowDetail,
		Anchor: kept.Anchor, Spread: kept.Spread, Polled: true, AnchorFrom: kept.Detail,
	}, true
}

// scrapeRead is the outcome of readScrapesLive.
type scrapeRead struct {
	clock gather.ScrapeClock
	err   error
}

// wholeResolution is the --metric-resolution a PodMetrics window most
// likely comes from: the window is the span between the two scrapes'
// sample times, a few milliseconds off the resolution, so within 2% of a
// whole second it is that second.
func wholeResolution(w time.Duration) time.Duration {
	r := w.Round(time.Second)
	if r > 0 {
		if d := w - r; d < 0 && -d*50 <= r || d >= 0 && d*50 <= r {
			return r
		}
	}
	return w
}
