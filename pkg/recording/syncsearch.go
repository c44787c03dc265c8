// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"math"
	"slices"
	"time"
)

// The search of EstimateSyncs (syncclock.go): for one candidate period, the
// steps of its band tried on the circle of each step (the most times within
// their tolerance of one phase), the best few fitted by least squares, and
// the times put on the fitted grid or off it.

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
