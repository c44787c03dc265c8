// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"math"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Where a figure of the clock came from, most trusted first.
const (
	// OriginFlag: the user gave it.
	OriginFlag = "flag"
	// OriginRead: read off the cluster (the controller's flags, the
	// PodMetrics metrics-server serves) or off the store's record of it.
	OriginRead = "read"
	// OriginInferred: worked out from what the cluster did (the times of
	// the controller's events), with a stated confidence.
	OriginInferred = "inferred"
	// OriginAssumed: nothing told it; the default is taken.
	OriginAssumed = "assumed"
	// OriginUnknown: nothing told it and no single value is taken (a
	// scrape phase tune replays at several values).
	OriginUnknown = "unknown"
)

// Origin says where one figure of a Clock came from.
type Origin struct {
	// Source is OriginFlag, OriginRead, OriginInferred, OriginAssumed or
	// OriginUnknown.
	Source string
	// Detail says how ("--sync-period", "the window of 3 PodMetrics",
	// "14 event times of the HPA over 8m0s fit a 5.021s grid within
	// 0.5s").
	Detail string
	// Confidence is, for an inferred figure, how sure the inference is (0
	// to 1); 1 otherwise.
	Confidence float64
}

// Clock is the timing of the cluster that no object states and every
// replay over recorded load stands on: when the controller syncs the HPA,
// and when metrics-server takes the samples it reads.
//
// The controller syncs each HPA every sync period, counted from the end of
// its previous sync, so its syncs come a little later than the period each
// time (SyncStep, the spacing they really have) and their phase drifts.
// metrics-server scrapes every kubelet on a ticker of its resolution, at a
// phase that holds while it runs: its sample of a pod is the rate of the
// container's CPU counter between its last two scrapes (Window apart), and
// the controller reads the one of the last scrape before its sync.
type Clock struct {
	// SyncPeriod is the controller's --horizontal-pod-autoscaler-sync-period.
	SyncPeriod     time.Duration
	SyncPeriodFrom Origin
	// SyncStep is the spacing of the HPA's syncs as they happened (the
	// period and the controller's own work at each sync), and SyncAnchor
	// one of them: the syncs are at SyncAnchor + k×SyncStep. SyncAnchor is
	// zero when their phase is not known (the syncs are then replayed on
	// the multiples of the step).
	SyncStep      time.Duration
	SyncAnchor    time.Time
	SyncPhaseFrom Origin
	// Window is metrics-server's --metric-resolution: the span of its
	// samples and the time between its scrapes.
	Window     time.Duration
	WindowFrom Origin
	// ScrapeAnchor is one of metrics-server's scrapes (zero: unknown): they
	// are at ScrapeAnchor + n×Window. ScrapeSpread is how far off it may
	// be either way (the PodMetrics' whole-second timestamps, a poll's
	// interval, metrics-server's per-node stagger).
	ScrapeAnchor time.Time
	ScrapeSpread time.Duration
	ScrapeFrom   Origin
}

// LastScrape returns metrics-server's last scrape at or before t when its
// scrapes are at anchor + n×window.
func LastScrape(t, anchor time.Time, window time.Duration) time.Time {
	if window <= 0 {
		return t
	}
	d := t.Sub(anchor) % window
	if d < 0 {
		d += window
	}
	return t.Add(-d)
}

// ScrapeOffset is the scrapes' phase as an offset in [0, window) from the
// multiples of window since the Unix epoch (how the outputs give it).
func ScrapeOffset(anchor time.Time, window time.Duration) time.Duration {
	if window <= 0 || anchor.IsZero() {
		return 0
	}
	d := time.Duration(anchor.UnixNano() % int64(window))
	if d < 0 {
		d += window
	}
	return d
}

// ScrapeAt returns the anchor of scrapes at offset off from the multiples
// of their window since the Unix epoch.
func ScrapeAt(off time.Duration) time.Time {
	return time.Unix(0, 0).Add(off)
}

// IsSet reports whether the clock was worked out (a recording read by a
// run knows it; one built by hand may not).
func (c *Clock) IsSet() bool { return c.SyncPeriod > 0 }

// Describe gives the clock as the outputs show it: each figure, where it
// came from, and for an assumed or unknown one what a wrong guess shifts.
func (c *Clock) Describe() *explain.Clock {
	if !c.IsSet() {
		return nil
	}
	fig := func(value string, o Origin, ifWrong string) explain.ClockFigure {
		f := explain.ClockFigure{Value: value, Source: o.Source, Detail: o.Detail}
		if f.Source == "" {
			f.Source = OriginAssumed
		}
		if f.Source == OriginInferred {
			conf := math.Round(o.Confidence*1000) / 1000
			f.Confidence = &conf
		}
		if f.Source == OriginAssumed || f.Source == OriginUnknown {
			f.IfWrong = ifWrong
		}
		return f
	}
	out := &explain.Clock{
		SyncPeriod: fig(c.SyncPeriod.String(), c.SyncPeriodFrom,
			"a replay at the wrong period reacts a period's difference earlier or later at every sync, and its policies act at another pace"),
		MetricsWindow: fig(c.Window.String(), c.WindowFrom,
			"each sample spans the window: a wrong one changes how soon a step of the load shows in the samples and how much of it the first one holds"),
	}
	syncs := "every " + c.SyncStep.String()
	if !c.SyncAnchor.IsZero() {
		syncs += ", " + phaseWords(c.SyncAnchor, c.SyncPeriod)
	}
	out.Syncs = fig(syncs, c.SyncPhaseFrom, "the replayed syncs fall up to a period away from the controller's: a rescale may come a sync earlier or later")
	scrapes := ""
	if !c.ScrapeAnchor.IsZero() {
		scrapes = phaseWords(c.ScrapeAnchor, c.Window)
		if c.ScrapeSpread > 0 {
			scrapes += fmt.Sprintf(" (±%s)", c.ScrapeSpread.Round(time.Millisecond))
		}
	}
	out.Scrapes = fig(scrapes, c.ScrapeFrom, "where a step of the load falls between two scrapes decides how much of it the first sample after it holds: a reaction up to a window earlier or later per change of the load")
	return out
}

// phaseWords says where in each period anchor falls: "2.41s past the
// multiples of 10s".
func phaseWords(anchor time.Time, period time.Duration) string {
	if period <= 0 {
		return ""
	}
	off := time.Duration(anchor.UnixNano() % int64(period))
	if off < 0 {
		off += period
	}
	return fmt.Sprintf("%s past the multiples of %s", off.Round(10*time.Millisecond), period)
}
