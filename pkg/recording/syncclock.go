// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
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

// obs is one time of a sync as EstimateSyncs works with it: x is the
// middle of its interval, in seconds from the first time's start, and half
// is half the interval's width.
type obs struct{ x, half float64 }

// tol is how far (seconds) from its sync's place on the grid the middle of
// t's interval may be: half the interval, the jitter and the margin.
func (t obs) tol() float64 { return t.half + syncJitter.Seconds() + fitMargin }

// syncFit is the grid of one candidate period that the most times sit on.
type syncFit struct {
	period time.Duration
	step   float64 // seconds
	anchor float64 // seconds from the first time, a sync near the middle
	on     []bool  // whether each time sits on the grid
	index  []int64 // the grid index of each time's sync, from the anchor
	// res is each time's residual from its sync, tol how far it may be.
	res, tol []float64
	// times and syncs count the times on the grid and the distinct syncs
	// they fall on; spread is the width of the interval holding all their
	// residuals, widest the largest residual's magnitude, and width the
	// phase interval the evidence is weighed on (spread, at least a
	// precision).
	times, syncs          int
	spread, widest, width float64
	logChance, confidence float64
	// evidence is minus the log of the chance before it is capped at 1:
	// it ranks fits whose chance is as high.
	evidence float64
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

// syncSearch holds the times and the scratch space of the search.
type syncSearch struct {
	obs  []obs
	span float64
	mid  float64
	// sameHalf is whether every time has the same precision, widest the
	// largest tolerance, and minOn the fewest times a step's grid must
	// hold for its band to fit (one less than the share needed: the fit
	// may gain one).
	sameHalf bool
	widest   float64
	minOn    int
	buckets  []int
	// starts and ends are the search's scratch space: where the arcs of
	// phases the times allow start and end on the circle of a step.
	starts, ends []float64
}

func newSyncSearch(o []obs) *syncSearch {
	s := &syncSearch{obs: o, span: o[len(o)-1].x - o[0].x, mid: (o[0].x + o[len(o)-1].x) / 2}
	s.starts, s.ends = make([]float64, 0, 2*len(o)), make([]float64, 0, 2*len(o))
	s.sameHalf = !slices.ContainsFunc(o, func(t obs) bool { return t.half != o[0].half })
	for _, t := range o {
		s.widest = max(s.widest, t.tol())
	}
	s.minOn = max(2, int(math.Ceil(minSyncShare*float64(len(o))))-1)
	return s
}

// fitBand searches the steps of candidate p and fits the grid the most
// times sit on. The fit is of the roundest candidate at or just below its
// step, which may be another than p (bands overlap from 20 s on); nil when
// no step's grid holds enough times.
func (s *syncSearch) fitBand(p, def time.Duration, candidates []time.Duration, known bool) *syncFit {
	ps := p.Seconds()
	// The slack stays a small part of a short step, whose circle the
	// tolerance would otherwise cover.
	slack := min(searchSlack, ps/20)
	n := int(math.Ceil(maxSyncDrift * s.span / (2 * slack)))
	if n > maxBandSteps {
		n = maxBandSteps
		slack = maxSyncDrift * s.span / (2 * float64(n))
	}
	n = max(n, 1)
	// The few best steps of the band, apart from one another (a step next
	// to a kept one is the same peak): the best of the search need not be
	// the best once fitted, when the slack lets in a time the fit leaves.
	var peaks []bandPeak
	for k := 0; k <= n; k++ {
		step := ps * (1 + maxSyncDrift*float64(k)/float64(n))
		// A step that cannot hold enough times, or more than the peaks
		// kept, is passed over without the exact count.
		need := s.minOn
		if len(peaks) == bandPeaks {
			need = max(need, peaks[len(peaks)-1].on)
		}
		if s.bound(step, slack) < need {
			continue
		}
		on, phase := s.stab(step, slack)
		if on < need {
			continue
		}
		c := bandPeak{k: k, on: on, step: step, phase: phase, spread: s.phaseSpread(step, phase, slack)}
		peaks = c.into(peaks)
	}
	var best *syncFit
	for _, c := range peaks {
		f := s.refine(p, def, candidates, c.step, s.mid+c.phase, slack, known)
		if f != nil && (best == nil || f.times > best.times || f.times == best.times && f.spread < best.spread) {
			best = f
		}
	}
	return best
}

// bandPeaks is how many of a band's best steps are fitted.
const bandPeaks = 6

// bandPeak is one of a band's best steps: the k-th tried, with on times
// within tolerance of its grid at phase, their residuals spread over
// spread.
type bandPeak struct {
	k, on               int
	step, phase, spread float64
}

// better says whether c has more times on its grid than d, or as many
// closer together.
func (c bandPeak) better(d bandPeak) bool {
	return c.on > d.on || c.on == d.on && c.spread < d.spread
}

// into returns peaks (best first, at most bandPeaks) with c in its place:
// it replaces a worse peak within two steps of it, and is left out when a
// better one is there.
func (c bandPeak) into(peaks []bandPeak) []bandPeak {
	for i, d := range peaks {
		if c.k-d.k <= 2 && d.k-c.k <= 2 {
			if !c.better(d) {
				return peaks
			}
			peaks = slices.Delete(peaks, i, i+1)
			break
		}
	}
	i := 0
	for i < len(peaks) && !c.better(peaks[i]) {
		i++
	}
	peaks = slices.Insert(peaks, i, c)
	if len(peaks) > bandPeaks {
		peaks = peaks[:bandPeaks]
	}
	return peaks
}

// bound returns at least as many times as stab finds on the grid of step:
// the most in two neighbouring buckets of its circle, each bucket as wide
// as the widest window a count takes in.
func (s *syncSearch) bound(step, slack float64) int {
	b := int(step / (2 * (s.widest + slack)))
	if b < 3 {
		return len(s.obs)
	}
	if cap(s.buckets) < b {
		s.buckets = make([]int, b)
	}
	counts := s.buckets[:b]
	clear(counts)
	for _, t := range s.obs {
		counts[min(int(wrap(t.x-s.mid, step)/step*float64(b)), b-1)]++
	}
	most := 0
	for i, c := range counts {
		most = max(most, c+counts[(i+1)%b])
	}
	return most
}

// stab returns the phase (from s.mid, in [0, step)) that the most times
// sit within their tolerance (half their interval, the jitter and slack) of
// on the circle of step, and how many: the point the most of the arcs of
// phases the times allow overlap at.
func (s *syncSearch) stab(step, slack float64) (int, float64) {
	if s.sameHalf {
		return s.stabEven(step, s.obs[0].tol()+slack)
	}
	starts, ends := s.starts[:0], s.ends[:0]
	always := 0
	for _, t := range s.obs {
		tol := t.tol() + slack
		if 2*tol >= step {
			always++
			continue
		}
		lo := wrap(t.x-s.mid-tol, step)
		hi := lo + 2*tol
		if hi <= step {
			starts, ends = append(starts, lo), append(ends, hi)
		} else {
			// The arc wraps past the step: it is two, one from 0.
			starts, ends = append(starts, lo, 0), append(ends, step, hi-step)
		}
	}
	s.starts, s.ends = starts, ends
	slices.Sort(starts)
	slices.Sort(ends)
	// Sweep the circle: an arc starting where another ends overlaps it.
	depth, best, at := 0, 0, 0.0
	j := 0
	for i, a := range starts {
		for j < len(ends) && ends[j] < a {
			depth--
			j++
		}
		depth++
		if depth > best {
			best = depth
			// The middle of the stretch of this depth.
			end := ends[j]
			if i+1 < len(starts) {
				end = min(end, starts[i+1])
			}
			at = (a + end) / 2
		}
	}
	return best + always, at
}

// stabEven is stab when every time has the same tolerance: the most
// phases a window of twice it holds, found by sliding it along the sorted
// phases.
func (s *syncSearch) stabEven(step, tol float64) (int, float64) {
	if 2*tol >= step {
		return len(s.obs), 0
	}
	ph := s.starts[:0]
	for _, t := range s.obs {
		ph = append(ph, wrap(t.x-s.mid, step))
	}
	slices.Sort(ph)
	n := len(ph)
	// The phases once more, a step on, for windows past the step.
	for i := 0; i < n; i++ {
		ph = append(ph, ph[i]+step)
	}
	s.starts = ph
	best, at := 0, 0.0
	j := 0
	for i := 0; i < n; i++ {
		for j < len(ph) && ph[j]-ph[i] <= 2*tol {
			j++
		}
		if j-i > best {
			best, at = j-i, wrap((ph[i]+ph[j-1])/2, step)
		}
	}
	return best, at
}

// wrap returns v modulo step, in [0, step).
func wrap(v, step float64) float64 {
	v -= step * math.Floor(v/step)
	if v >= step {
		v = 0
	}
	return v
}

// phaseSpread returns the width of the interval holding the residuals of
// the times that sit on the grid of step at phase (from s.mid).
func (s *syncSearch) phaseSpread(step, phase, slack float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range s.obs {
		r := s.mid + phase - t.x
		r = -(r - step*math.Round(r/step))
		if math.Abs(r) > t.tol()+slack {
			continue
		}
		lo, hi = min(lo, r), max(hi, r)
	}
	if hi < lo {
		return math.Inf(1)
	}
	return hi - lo
}

// refine fits anchor and step by weighted least squares to the times
// within tolerance of the grid of step through anchor (the search's slack
// added), then again to those within tolerance of the fitted grid, until
// the times on it hold. A whole-second time weighs less than a precise one:
// its variance adds a second's uniform spread to the jitter's.
func (s *syncSearch) refine(p, def time.Duration, candidates []time.Duration, step, anchor, slack float64, known bool) *syncFit {
	n := len(s.obs)
	f := &syncFit{period: p, step: step, anchor: anchor, on: make([]bool, n), index: make([]int64, n), res: make([]float64, n), tol: make([]float64, n)}
	jitter := syncJitter.Seconds()
	jv := jitter * jitter / 3
	for round := 0; ; round++ {
		changed := s.classify(f, slack)
		slack = 0
		if round > 0 && !changed || round == 8 {
			break
		}
		var sw, sn, sx, snn, snx float64
		for i, t := range s.obs {
			if !f.on[i] {
				continue
			}
			k := float64(f.index[i])
			w := 1 / (jv + t.half*t.half/3)
			sw += w
			sn += w * k
			sx += w * t.x
			snn += w * k * k
			snx += w * k * t.x
		}
		if sw == 0 {
			return nil
		}
		nBar, xBar := sn/sw, sx/sw
		sxx := snn - sw*nBar*nBar
		if sxx <= 1e-9 {
			return nil
		}
		step := (snx - sw*nBar*xBar) / sxx
		// The period is the roundest candidate (see syncPrior) at or below
		// the step by no more than the drift allowed, the step taken within
		// a few standard errors of it (the weights are the inverse
		// variances, so the step's variance is 1/sxx); of those as round,
		// the longest.
		eps := min(max(3/math.Sqrt(sxx), 0.001), 0.01*step)
		period := p
		if !known {
			period = 0
			for _, c := range candidates {
				if cs := c.Seconds(); cs <= step+eps && step <= cs*(1+maxSyncDrift)+eps &&
					(period == 0 || syncPrior(c, def) >= syncPrior(period, def)) {
					period = c
				}
			}
		}
		if period == 0 || step > period.Seconds()*(1+maxSyncDrift)+eps {
			return nil
		}
		f.period = period
		f.step = max(step, period.Seconds())
		// The anchor on the sync nearest the middle of the times' indices,
		// where the fit pins it best.
		f.anchor = xBar + (math.Round(nBar)-nBar)*f.step
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	f.times, f.widest = 0, 0
	for i, t := range s.obs {
		if !f.on[i] {
			continue
		}
		r := t.x - f.anchor - float64(f.index[i])*f.step
		lo, hi = min(lo, r), max(hi, r)
		f.widest = max(f.widest, math.Abs(r))
		f.times++
	}
	f.syncs = len(syncIndexes(f))
	if f.times > 0 {
		f.spread = hi - lo
	}
	return f
}

// classify puts each time on f's grid or off it (further than its half
// interval, the jitter and slack from its nearest sync), and says whether
// that or a time's sync changed.
func (s *syncSearch) classify(f *syncFit, slack float64) bool {
	changed := false
	for i, t := range s.obs {
		k := math.Round((t.x - f.anchor) / f.step)
		r := t.x - f.anchor - k*f.step
		on := math.Abs(r) <= t.tol()+slack
		if on != f.on[i] || int64(k) != f.index[i] {
			changed = true
		}
		f.on[i], f.index[i], f.res[i], f.tol[i] = on, int64(k), r, t.tol()
	}
	return changed
}

// fits says whether f holds enough of the times, on enough syncs.
func (s *syncSearch) fits(f *syncFit) bool {
	return f.times >= int(math.Ceil(minSyncShare*float64(len(s.obs)))) && f.syncs >= 3
}

// weigh works out f's confidence (see EstimateSyncs).
func (s *syncSearch) weigh(f *syncFit, candidates []time.Duration) {
	// A time known to a second is somewhere in its second: a spread of
	// the residuals below that is the middles' artefact (times of a grid
	// whose step is near a whole number of seconds, or near one over a
	// whole number, share their fractions), and says nothing. The width is
	// therefore at least the precision. And whole-second times on a grid
	// that stays on whole seconds over the span take only whole-second
	// residuals: any of them sit within a precision of one another, so the
	// precision that the grid's drift against the whole seconds over the
	// span has not spread is added.
	precision := 0.0
	for i, t := range s.obs {
		if f.on[i] {
			precision = max(precision, 2*t.half)
		}
	}
	drifted := math.Abs(f.step-math.Round(f.step)) * s.span / f.step
	f.width = max(f.spread, precision) + max(0, precision-drifted)
	share := f.width / f.step
	// The steps tried that give independent phases: those of this period
	// and of every longer one (a fit as tight at a shorter step is no
	// rival: it is likelier by chance).
	trials := 0.0
	for _, c := range candidates {
		if c >= f.period {
			trials += 1 + maxSyncDrift*s.span/(2*share*c.Seconds())
		}
	}
	n, k := float64(len(s.obs)), float64(f.times)
	lc := math.Log(trials) + lnChoose(n, k) + math.Log(float64(f.syncs)) + float64(f.syncs-1)*math.Log(share)
	f.evidence = -lc
	f.logChance = min(lc, 0)
	f.confidence = 1 - math.Exp(f.logChance)
}

// lnChoose returns the log of the number of ways to pick k of n.
func lnChoose(n, k float64) float64 {
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(k + 1)
	c, _ := math.Lgamma(n - k + 1)
	return a - b - c
}

// syncPrior is the prior weight of period p: how likely the flag is set to
// it, against the other values the times cannot tell it from (see
// EstimateSyncs). A multiple of 5 s is a rounder value than others.
func syncPrior(p, def time.Duration) float64 {
	switch {
	case p == def:
		return 100
	case slices.Contains(commonSyncPeriods, p):
		return 10
	case p%(5*time.Second) == 0:
		return 3
	}
	return 1
}

// chooseSyncFit picks the period to report out of the fits, shortest first
// (see EstimateSyncs), and the longest other fit whose grid is a subgrid of
// the chosen one's. It lowers the chosen fit's confidence to its share of
// the odds among the fits the times cannot tell from it.
func chooseSyncFit(all []*syncFit, def time.Duration, paced []time.Duration) (best, alt *syncFit) {
	// all is shortest first. Each longer fit replaces the one kept when
	// likelier: by odds of syncBeatOdds or more when its grid is a subgrid
	// of the kept one's; by the priors when a third fit's grid is a
	// subgrid of both (the times cannot tell them apart), by the evidence
	// when those are equal; else by evidence and prior.
	for _, f := range all {
		switch {
		case best == nil:
			best = f
		case nestedSync(f, best) >= 2:
			if pairOdds(f, best, def, paced) >= syncBeatOdds {
				best = f
			}
		case commonMultiple(all, f, best):
			if p, q := syncPrior(f.period, def), syncPrior(best.period, def); p > q || p == q && f.evidence > best.evidence {
				best = f
			}
		case f.evidence+math.Log(syncPrior(f.period, def)) > best.evidence+math.Log(syncPrior(best.period, def)):
			best = f
		}
	}
	// The odds of the others the times cannot tell from it, against it.
	others := 0.0
	for _, f := range all {
		switch {
		case f == best:
			continue
		case nestedSync(f, best) >= 2:
			others += pairOdds(f, best, def, paced)
		case nestedSync(best, f) >= 2:
			if o := pairOdds(best, f, def, paced); o > 0 {
				others += 1 / o
			}
		case commonMultiple(all, f, best):
			others += syncPrior(f.period, def) / syncPrior(best.period, def)
		}
		if f.period > best.period && nestedSync(f, best) >= 2 && (alt == nil || f.period > alt.period) {
			alt = f
		}
	}
	best.confidence /= 1 + others
	return best, alt
}

// pairOdds returns the odds for long over short when long's grid is every
// m-th sync of short's (0 when it is not): m for each gap between long's
// syncs that no paced period explains (a controller of short's period
// lands there one time in m), for each time on short's grid that is off
// long's the odds of it as an outlier against it on short's grid, times
// the ratio of their priors.
func pairOdds(long, short *syncFit, def time.Duration, paced []time.Duration) float64 {
	m := nestedSync(long, short)
	if m < 2 {
		return 0
	}
	odds := math.Pow(float64(m), float64(unpacedGaps(long, short, paced)))
	// A time on short's grid is there with a density step/width times the
	// uniform one; off long's, long takes it for an outlier. Outliers in a
	// row that sit on long's step at a phase of their own are one outlier:
	// the controller restarted, and its syncs went on at that phase.
	outlier := syncOutliers * short.width / short.step
	for _, run := range outlierRuns(long, short) {
		if len(run) >= 2 && long.onePhase(run) {
			odds *= outlier
		} else {
			odds *= math.Pow(outlier, float64(len(run)))
		}
	}
	return odds * syncPrior(long.period, def) / syncPrior(short.period, def)
}

// commonMultiple says whether some fit's grid is a subgrid of both a's and
// b's.
func commonMultiple(all []*syncFit, a, b *syncFit) bool {
	return slices.ContainsFunc(all, func(h *syncFit) bool { return nestedSync(h, a) >= 2 && nestedSync(h, b) >= 2 })
}

// nestedSync returns m when long's grid is every m-th sync of short's (its
// step m times the other's, to within a second over the span, and its
// times all, but for one, on short's grid), else 0.
func nestedSync(long, short *syncFit) int {
	m := math.Round(long.step / short.step)
	if m < 2 {
		return 0
	}
	var lo, hi int64 = math.MaxInt64, math.MinInt64
	missing := 0
	for i, on := range long.on {
		if !on {
			continue
		}
		lo, hi = min(lo, long.index[i]), max(hi, long.index[i])
		if !short.on[i] {
			missing++
		}
	}
	if missing > 1 || math.Abs(long.step-m*short.step)*float64(hi-lo) > 1 {
		return 0
	}
	return int(m)
}

// outlierRuns returns the times on short's grid and off long's, in runs of
// times in a row (in time) with none of long's between them.
func outlierRuns(long, short *syncFit) [][]int {
	var runs [][]int
	var run []int
	for i := range long.on {
		switch {
		case long.on[i]:
			if len(run) > 0 {
				runs, run = append(runs, run), nil
			}
		case short.on[i]:
			run = append(run, i)
		}
	}
	if len(run) > 0 {
		runs = append(runs, run)
	}
	return runs
}

// onePhase says whether the times idx sit on f's step at one phase of
// their own: their residuals on its grid, taken on the circle of its step
// near the first's, within twice the largest tolerance.
func (f *syncFit) onePhase(idx []int) bool {
	first := f.res[idx[0]]
	lo, hi, tol := first, first, 0.0
	for _, i := range idx {
		r := first + wrap(f.res[i]-first+f.step/2, f.step) - f.step/2
		lo, hi, tol = min(lo, r), max(hi, r), max(tol, f.tol[i])
	}
	return hi-lo <= 2*tol
}

// unpacedGaps counts the gaps between long's syncs that no paced period
// explains on short's grid.
func unpacedGaps(long, short *syncFit, paced []time.Duration) int {
	idx := syncIndexes(long)
	u := 0
	for i := 1; i < len(idx); i++ {
		if !pacedGap(float64(idx[i]-idx[i-1])*long.step, short.step, paced) {
			u++
		}
	}
	return u
}

// pacedGap says whether a gap between two syncs is the first sync of a
// controller of step that a policy period or window d allowed after the
// first: from d to d plus a step (half a second either way for the
// times' imprecision).
func pacedGap(gap, step float64, paced []time.Duration) bool {
	for _, d := range paced {
		if ds := d.Seconds(); ds > 0 && gap >= ds-0.5 && gap < ds+step+0.5 {
			return true
		}
	}
	return false
}

// syncIndexes returns the distinct grid indices of the times on f's grid,
// in order.
func syncIndexes(f *syncFit) []int64 {
	var idx []int64
	for i, on := range f.on {
		if on {
			idx = append(idx, f.index[i])
		}
	}
	slices.Sort(idx)
	return slices.Compact(idx)
}

// syncDetail says the estimate in a line.
func syncDetail(est SyncEstimate, best, alt *syncFit, times []SyncTime, o SyncEstimateOptions) string {
	var b strings.Builder
	if est.Outliers > 0 {
		fmt.Fprintf(&b, "%d of %d", best.times, est.Events)
	} else {
		fmt.Fprintf(&b, "%d", est.Events)
	}
	fmt.Fprintf(&b, " event times over %s fit a %s grid", est.Span.Round(time.Second), seconds(best.step, 3))
	switch {
	case o.Known > 0:
		fmt.Fprintf(&b, " of the known %s period", o.Known)
	case est.Step != est.Period:
		fmt.Fprintf(&b, " (a %s period)", est.Period)
	}
	fmt.Fprintf(&b, " within %s (%s)", seconds(best.widest, 1), precisionWords(times, best))
	fmt.Fprintf(&b, "; %s", chanceWords(best.logChance))
	if est.Outliers > 0 {
		fmt.Fprintf(&b, "; %d off it (a restart of the controller, or another's events)", est.Outliers)
	}
	if alt != nil {
		fmt.Fprintf(&b, "; they fit a %s grid too, not taken: ", seconds(alt.step, 3))
		if unpacedGaps(alt, best, o.Paced) == 0 {
			b.WriteString("the HPA's policies space its rescales so")
		} else {
			b.WriteString("too few times to rule out chance")
		}
	}
	if grid := 1 - math.Exp(best.logChance); est.Confidence < grid-1e-6 {
		// Other periods the times fit took their share.
		fmt.Fprintf(&b, "; confidence in the %s period %.2f", est.Period, est.Confidence)
	}
	return b.String()
}

// seconds writes d seconds with at most the given decimals ("5.021s",
// "15s").
func seconds(d float64, decimals int) string {
	s := strconv.FormatFloat(d, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "s"
}

// precisionWords says how precise the times on f's grid are.
func precisionWords(times []SyncTime, f *syncFit) string {
	precise, coarse := 0, 0
	for i, t := range times {
		if !f.on[i] {
			continue
		}
		if t.Precision == 0 {
			precise++
		} else {
			coarse++
		}
	}
	switch {
	case coarse == 0:
		return "precise times"
	case precise == 0:
		return "whole-second times"
	}
	return fmt.Sprintf("%d precise times, %d whole-second", precise, coarse)
}

// chanceWords says how likely a fit this good is by accident.
func chanceWords(logChance float64) string {
	l10 := logChance / math.Ln10
	switch {
	case l10 <= -3:
		return fmt.Sprintf("chance fit below 1 in 10^%d", int(math.Floor(-l10)))
	case l10 > math.Log10(0.5):
		return "could well be chance"
	}
	return fmt.Sprintf("chance fit about 1 in %d", int(math.Round(math.Pow(10, -l10))))
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
