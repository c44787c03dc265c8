// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"math"
	"slices"
	"time"
)

// How EstimateSyncs (syncclock.go) weighs the grids that fit: the chance
// that a fit this tight is an accident (its confidence), the priors of the
// periods, and the choice between grids that nest (one every m-th sync of
// another), with the odds of the longer over the shorter.

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
