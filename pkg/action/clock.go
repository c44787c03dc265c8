// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"slices"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The clock of a replay over recorded load: the controller's sync period
// and the phase of its syncs, metrics-server's window and the phase of its
// scrapes. Each is taken from the most trusted source that has it: the
// command line, then what the cluster says (the controller's flags, the
// PodMetrics metrics-server serves), then what the cluster did (the times
// of the HPA's events), then a default, and the output says which.

// syncClock works out when the controller synced the HPA: the period as
// the settings have it (given, read, or assumed), checked against, and
// where assumed replaced by, what the HPA's events tell; their phase and
// spacing from the same events.
func syncClock(in *snapshot, extra *recordedExtra, from, until time.Time) (recording.Clock, string) {
	c := recording.Clock{SyncPeriod: in.settings.SyncPeriod, SyncPeriodFrom: in.syncFrom}
	note := ""
	step := c.SyncPeriod
	if in.syncPeriodAssumed() {
		var so SettingsInput
		flag := SettingsOptions.Named(&so, &so.SyncPeriod).Flag()
		switch p, k, wrong := recording.SyncPeriodFromEvents(extra.events, from, until, step); {
		case p > 0:
			note = fmt.Sprintf("the controller's sync period: %s, from %d SuccessfulRescale event time(s) of the period: they sit on a %s grid, not on the default %s one (%s sets it)", p, k, p, step, flag)
			c.SyncPeriod, step = p, p
			c.SyncPeriodFrom = recording.Origin{Source: recording.OriginInferred, Detail: fmt.Sprintf("%d SuccessfulRescale event times sit on a %s grid", k, p), Confidence: 0.9}
			in.settings.SyncPeriod = p
		case wrong:
			in.warnings = append(in.warnings, fmt.Sprintf("the HPA's rescale events of the period do not sit on the grid of the %s sync period assumed (the default), nor on a shorter common one: give the controller's with %s", step, flag))
		}
	}
	c.SyncStep = step
	start, _, phase, phaseEvents := recording.ReplayGrid(extra.events, from, until, step)
	if phaseEvents > 0 {
		c.SyncAnchor = start
		c.SyncPhaseFrom = recording.Origin{Source: recording.OriginInferred, Detail: fmt.Sprintf("%d SuccessfulRescale event times of the period (whole seconds) sit %s past the period's multiples", phaseEvents, phase.Round(10*time.Millisecond)), Confidence: 0.9}
	} else {
		c.SyncPhaseFrom = recording.Origin{Source: recording.OriginAssumed, Detail: "no event of the period tells it: the syncs are replayed on the multiples of the period"}
	}
	return c, note
}

// scrapeClock works out metrics-server's window and the phase of its
// scrapes: the window given, else read off the PodMetrics of the
// snapshot (the span of their samples), else metrics-server's default;
// the phase from the PodMetrics' timestamps (whole seconds: within a
// second).
func scrapeClock(c *recording.Clock, in *snapshot, given time.Duration) {
	var res RecordedInput
	flag := res.flag(&res.MetricsResolution)
	var windows []time.Duration
	var latest time.Time
	for i := range in.snap.PodMetrics {
		pm := &in.snap.PodMetrics[i]
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
		c.Window = resolutionOf(w)
		c.WindowFrom = recording.Origin{Source: recording.OriginRead, Detail: fmt.Sprintf("the window of %d PodMetrics (%s)", len(windows), w), Confidence: 1}
	default:
		c.Window = DefaultMetricsResolution
		c.WindowFrom = recording.Origin{Source: recording.OriginAssumed, Detail: "metrics-server's default (no PodMetrics to read it from)", Confidence: 1}
	}
	if latest.IsZero() {
		c.ScrapeFrom = recording.Origin{Source: recording.OriginUnknown, Detail: "no PodMetrics to read it from"}
		return
	}
	c.ScrapeAnchor, c.ScrapeSpread = latest.Add(500*time.Millisecond), 500*time.Millisecond
	c.ScrapeFrom = recording.Origin{Source: recording.OriginRead, Detail: fmt.Sprintf("the PodMetrics' timestamp %s (whole seconds)", latest.UTC().Format(time.RFC3339)), Confidence: 1}
}

// resolutionOf is the --metric-resolution a PodMetrics window most likely
// comes from: the window is the span between the two scrapes' sample
// times, a few milliseconds off the resolution, so within 2% of a whole
// second it is that second.
func resolutionOf(w time.Duration) time.Duration {
	r := w.Round(time.Second)
	if r > 0 {
		if d := w - r; d < 0 && -d*50 <= r || d >= 0 && d*50 <= r {
			return r
		}
	}
	return w
}
