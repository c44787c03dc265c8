// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// How the controller's syncs are inferred from the times of its events.
//
// The HPA controller syncs each HPA, then queues it again to be synced one
// sync period after that sync ended. Its syncs are therefore spaced by the
// period plus the time the sync itself took (tens of milliseconds, more
// when the controller is loaded), and their phase drifts steadily away from
// the multiples of the period. Every event the controller writes about the
// HPA is written during a sync, so the events' times sit on a grid
// anchor + n×step, step a little longer than the period, each off by the
// controller's own jitter and by the event time's precision (legacy events
// keep whole seconds).
//
// EstimateSyncs searches that grid: for every candidate period it tries
// steps from the period to maxSyncDrift above it, keeps the one the most
// times sit on, and fits anchor and step to those times by least squares.
// Which period to report when several fit, and how sure to be of it, is
// set out at EstimateSyncs.
const (
	// hpaControllerName is the component the HPA controller writes its
	// events as.
	hpaControllerName = "horizontal-pod-autoscaler"
	// defaultSyncPeriod is kube-controller-manager's default
	// --horizontal-pod-autoscaler-sync-period.
	defaultSyncPeriod = 15 * time.Second
	// longestSyncPeriod is the longest period searched when none is known.
	longestSyncPeriod = 60 * time.Second
	// syncJitter is how far an event's time may be from its sync's place
	// on the grid, beyond its precision: the controller's work before it
	// writes the event, and the variation of each sync's own duration. A
	// time is on a grid within its precision, the jitter and fitMargin (the
	// syncs' spacing wanders a little about the fitted step).
	syncJitter = 300 * time.Millisecond
	fitMargin  = 0.1
	// maxSyncDrift is how much longer than the period the syncs' spacing
	// may be, as a share of the period.
	maxSyncDrift = 0.05
	// minSyncShare is the share of the times a grid must hold to fit: the
	// rest are outliers (a restart moves the phase; another controller's
	// events).
	minSyncShare = 0.8
	// minSyncTimes is the fewest distinct times an estimate is tried on.
	minSyncTimes = 4
	// syncBeatOdds is how much likelier a longer period must be than a
	// divisor of it, after weighing their priors, to be taken over it.
	syncBeatOdds = 10
	// syncOutliers is the share of times taken to be outliers (a restart's,
	// another controller's) in weighing one grid against another.
	syncOutliers = 0.1
	// searchSlack is the most (in seconds) a searched step may put a time
	// off its place on the true grid: the search's step resolution is set
	// from it and the times' span.
	searchSlack = 0.2
	// maxBandSteps caps the steps tried per candidate period (the slack
	// grows instead, over a very long span).
	maxBandSteps = 3000
)

// commonSyncPeriods are the values the sync period is commonly set to: a
// fit of one of them is preferred to one of an unusual value that the
// times cannot tell from it.
var commonSyncPeriods = []time.Duration{
	1 * time.Second, 2 * time.Second, 3 * time.Second, 5 * time.Second, 10 * time.Second,
	15 * time.Second, 20 * time.Second, 30 * time.Second, 60 * time.Second,
}

// SyncTime is one sync of the HPA by the controller as an event tells it:
// the sync happened in [At, At+Precision). Precision is 0 for an event's
// precise eventTime and a second for the legacy whole-second timestamps.
type SyncTime struct {
	At        time.Time
	Precision time.Duration
}

// SyncTimesFromEvents returns the times at which the HPA controller synced
// the HPA, read off the HPA's events, earliest first. Every event the
// controller writes about an HPA is written during one of its syncs,
// whatever its reason (a rescale, a failure to get a metric or the scale),
// so each event the controller wrote counts: those whose source component
// or reporting controller is the HPA controller, and those that name
// neither. An event's precise eventTime (and its series' last observed
// time) are taken when set; otherwise its lastTimestamp and, for an event
// repeated (count above 1), its firstTimestamp, each true to the second
// (the times between, of the repeats, are lost). The same time read twice
// is returned once.
func SyncTimesFromEvents(events []corev1.Event) []SyncTime {
	var out []SyncTime
	for i := range events {
		e := &events[i]
		if !writtenByHPAController(e) {
			continue
		}
		if !e.EventTime.IsZero() {
			out = append(out, SyncTime{At: e.EventTime.Time})
			if e.Series != nil && !e.Series.LastObservedTime.IsZero() {
				out = append(out, SyncTime{At: e.Series.LastObservedTime.Time})
			}
			continue
		}
		last, first := e.LastTimestamp.Time, e.FirstTimestamp.Time
		if last.IsZero() {
			last = first
		}
		if last.IsZero() {
			continue
		}
		out = append(out, SyncTime{At: last.Truncate(time.Second), Precision: time.Second})
		if e.Count > 1 && !first.IsZero() && !first.Equal(last) {
			out = append(out, SyncTime{At: first.Truncate(time.Second), Precision: time.Second})
		}
	}
	slices.SortFunc(out, func(a, b SyncTime) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return cmp.Compare(a.Precision, b.Precision)
	})
	return slices.CompactFunc(out, func(a, b SyncTime) bool { return a.At.Equal(b.At) && a.Precision == b.Precision })
}

// writtenByHPAController says whether e is the HPA controller's: named as
// its source or reporting controller, or naming no writer at all.
func writtenByHPAController(e *corev1.Event) bool {
	named := false
	for _, n := range []string{e.Source.Component, e.ReportingController} {
		if n == hpaControllerName {
			return true
		}
		named = named || n != ""
	}
	return !named
}

// SyncEstimateOptions says what EstimateSyncs may assume.
type SyncEstimateOptions struct {
	// Default is the period assumed when the times do not tell another
	// (0: the controller's default, 15 s). Of the periods the times cannot
	// tell apart, it is the one preferred.
	Default time.Duration
	// Known is the period when it is known (given by a flag, read off the
	// controller): only the step, at least Known, and the anchor are then
	// estimated.
	Known time.Duration
	// Paced are the HPA's scaling policy periods and stabilization windows.
	// A rescale limited by a policy lands on the first sync a policy period
	// after the one before, so rescales in a row are spaced by a multiple of
	// the sync step near that period; a coarser grid they sit on for that
	// reason says nothing about the sync period.
	Paced []time.Duration
}

// SyncEstimate is when the controller synced the HPA, as its events' times
// tell it: at Anchor + k×Step for whole k, with Step the spacing the syncs
// really had (Period plus the controller's own work at each sync).
type SyncEstimate struct {
	// Period is the controller's sync period: the round value at or just
	// below Step that its flag would be set to.
	Period time.Duration
	Step   time.Duration
	// Anchor is one of the syncs, near the middle of the times.
	Anchor time.Time
	// Confidence is 1 less the chance that times as many and as spread as
	// these would fit a grid this tight by accident, lowered when other
	// periods the times fit are likely too (0 to 1; see EstimateSyncs).
	Confidence float64
	// Events is how many distinct times there were, Syncs how many distinct
	// syncs of the grid the ones on it fall on, Outliers how many are off
	// it, and Span the time from the first to the last.
	Events   int
	Syncs    int
	Outliers int
	Span     time.Duration
	// Fit is the largest distance of a time on the grid from its sync (of
	// the middle of its second, for a whole-second time).
	Fit time.Duration
	// Alternative is a longer period whose grid the times sit on too, not
	// taken because the HPA's policies pace its rescales on that grid or
	// the times are too few to rule out chance (0: none).
	Alternative time.Duration
	// Detail says it in a line of plain words.
	Detail string
}

// Sync returns the sync k steps from the anchor.
func (e SyncEstimate) Sync(k int) time.Time {
	return e.Anchor.Add(time.Duration(k) * e.Step)
}

// EstimateSyncs infers the controller's sync period, the syncs' real
// spacing and their phase from the times of its events (SyncTimesFromEvents).
//
// For each candidate period (each whole second from 1 s to 60 s, and
// o.Default; only o.Known when set) it searches the steps from the period
// to 5 % above it for the one whose grid the most times sit on (each within
// its precision plus syncJitter), and fits anchor and step to those times
// by least squares, a whole-second time taken at the middle of its second.
// A step the fit puts below the period is raised to it (the syncs are
// never closer than the period). A candidate fits when its grid holds at
// least 80 % of the times (the rest are outliers: a restart moves the
// phase) on at least 3 distinct syncs, and could not well do so by chance
// (the chance below, at most one half).
//
// Its confidence is 1 less the chance that this many times, uniformly
// spread, would sit by accident within an interval of this width of some
// grid with a step tried: for K syncs within a width w of a step s that is
// K×(w/s)^(K−1), times the ways of picking the times on the grid out of
// all of them, times the number of steps tried that give independent
// phases (those of the candidate and every longer one). The width is the
// spread of the residuals, but at least the times' precision (where in its
// second a whole-second time fell is unknown), and a precision more while
// the grid stays on whole seconds over the span (whole seconds on such a
// grid share their residuals whatever they are).
//
// Which period to report when several fit. Every divisor of the true
// period fits as well as it does (a 5 s controller's times sit on a 1 s or
// 2.5 s grid), with weaker evidence. A multiple fits only by chance (all
// the syncs evenly numbered on the true grid, 1 in 2^(K−1) for twice the
// period) or when the HPA's policies pace the rescales: one pod per 60 s
// lands a rescale on every fourth sync of a 15 s controller, and those
// times sit on a 60 s grid as well. The choice weighs odds between fits
// whose grids nest, and the priors of the periods:
//
//   - The priors weigh o.Default 10 times a common value (1, 2, 3, 5, 10,
//     15, 20, 30, 60 s), a common value about 3 times another multiple of
//     5 s, and that 3 times any other value.
//   - The odds for a fit L whose grid is every m-th sync of a shorter fit
//     D's are m for each gap between L's syncs (the chance that a
//     controller of D's period wrote its next time on L's grid is 1 in m),
//     except a gap that a period of o.Paced explains: one from that period
//     to it plus D's step is the first sync a policy allowed, and says
//     nothing. A time on D's grid and off L's is an outlier for L: it
//     costs the odds 0.1×(D's width/D's step); outliers in a row that sit
//     on L's step at a phase of their own cost that once, as one restart.
//     The odds are multiplied by the ratio of L's prior to D's.
//   - Taken shortest first, each longer fit replaces the one kept: when
//     its grid is a subgrid of the kept one's, if its odds over it are 10
//     or more; when a third fit's grid is a subgrid of both (the times
//     cannot tell them apart), if its prior is higher, or as high and its
//     evidence (minus the log of its chance) more; otherwise, if its
//     evidence plus the log of its prior is more.
//
// So the default gives way to a multiple of it only when the times leave
// little doubt (a 30 s grid needs 7 gaps on it no policy explains to win
// over 15 s, a 60 s one 4), and never to a grid its policies explain; a
// divisor wins over the default only when the default does not fit; and of
// grids the times cannot tell apart, the shorter is kept. The confidence
// reported is the chosen fit's, times its share of the odds among the fits
// the times cannot tell from it (nested with it, or under a common
// multiple): 1/(1 + the sum of their odds against it). The longest fit
// whose grid is a subgrid of the chosen one's is reported as the
// Alternative.
//
// ok is false, with Detail saying why, with fewer than 4 distinct times or
// when no candidate fits.
func EstimateSyncs(times []SyncTime, o SyncEstimateOptions) (SyncEstimate, bool) {
	times = distinctSyncTimes(times)
	est := SyncEstimate{Events: len(times)}
	if len(times) < minSyncTimes {
		est.Detail = fmt.Sprintf("%d distinct event time(s) of the controller: too few to infer its syncs (%d needed)", len(times), minSyncTimes)
		return est, false
	}
	def := o.Default
	if def <= 0 {
		def = defaultSyncPeriod
	}
	t0 := times[0].At
	xs := make([]obs, len(times))
	for i, t := range times {
		half := t.Precision.Seconds() / 2
		xs[i] = obs{x: t.At.Sub(t0).Seconds() + half, half: half}
	}
	// The span is between the first and the last time's middles.
	est.Span = time.Duration(math.Round((xs[len(xs)-1].x - xs[0].x) * float64(time.Second)))

	candidates := syncCandidates(def, o.Known)
	s := newSyncSearch(xs)
	fits := map[time.Duration]*syncFit{}
	for _, p := range candidates {
		f := s.fitBand(p, def, candidates, o.Known > 0)
		if f == nil || !s.fits(f) {
			continue
		}
		if g := fits[f.period]; g == nil || f.times > g.times || f.times == g.times && f.spread < g.spread {
			fits[f.period] = f
		}
	}
	var all []*syncFit
	for _, p := range candidates {
		f := fits[p]
		if f == nil {
			continue
		}
		s.weigh(f, candidates)
		// A grid the times could well sit on by chance is none.
		if f.evidence >= math.Ln2 {
			all = append(all, f)
		}
	}
	if len(all) == 0 {
		what := fmt.Sprintf("of a sync period from 1s to %s", longestSyncPeriod)
		if o.Known > 0 {
			what = "of the known " + o.Known.String() + " period"
		}
		est.Detail = fmt.Sprintf("no grid %s holds %d%% of the %d event times over %s better than chance would",
			what, int(minSyncShare*100), len(times), est.Span.Round(time.Second))
		return est, false
	}
	best, alt := chooseSyncFit(all, def, o.Paced)
	est.Period = best.period
	est.Step = time.Duration(math.Round(best.step * float64(time.Second)))
	est.Anchor = t0.Add(time.Duration(math.Round(best.anchor * float64(time.Second))))
	est.Confidence = best.confidence
	est.Syncs = best.syncs
	est.Outliers = len(times) - best.times
	est.Fit = time.Duration(math.Round(best.widest*1000)) * time.Millisecond
	if alt != nil {
		est.Alternative = alt.period
	}
	est.Detail = syncDetail(est, best, alt, times, o)
	return est, true
}

// distinctSyncTimes returns the times sorted, each once.
func distinctSyncTimes(times []SyncTime) []SyncTime {
	out := slices.Clone(times)
	slices.SortFunc(out, func(a, b SyncTime) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return cmp.Compare(a.Precision, b.Precision)
	})
	return slices.CompactFunc(out, func(a, b SyncTime) bool { return a.At.Equal(b.At) && a.Precision == b.Precision })
}

// syncCandidates returns the periods searched, shortest first: known
// alone when it is set, else every whole second up to longestSyncPeriod
// and def.
func syncCandidates(def, known time.Duration) []time.Duration {
	if known > 0 {
		return []time.Duration{known}
	}
	var out []time.Duration
	for p := time.Second; p <= longestSyncPeriod; p += time.Second {
		out = append(out, p)
	}
	if !slices.Contains(out, def) {
		out = append(out, def)
		slices.Sort(out)
	}
	return out
}

// ReplayGridAt places the replayed syncs on the controller's: the instants
// anchor + k×step that cover from to until, the first at or before from
// and the last at or before until. A zero anchor puts them on the
// multiples of step.
func ReplayGridAt(from, until time.Time, step time.Duration, anchor time.Time) (start time.Time, n int) {
	if step <= 0 {
		return from, 0
	}
	if anchor.IsZero() {
		start = from.Truncate(step)
	} else {
		d := from.Sub(anchor) % step
		if d < 0 {
			d += step
		}
		start = from.Add(-d)
	}
	if until.Before(start) {
		return start, 0
	}
	return start, int(until.Sub(start)/step) + 1
}
