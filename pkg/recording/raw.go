// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"math"
	"sort"
	"sync"
	"time"
)

// Raw is one series as the store keeps it: each sample's time and value,
// oldest first. A counter's (Metric.Cumulative) resets are taken out when
// it is read, so its values never fall: the work done between two moments
// is the difference of its values there (ValueAt).
type Raw struct {
	// T holds the samples' times in Unix milliseconds, ascending; V their
	// values.
	T []int64
	V []float64
	// offset is what Append adds to a counter's values since its last
	// reset.
	offset float64
	// steps holds, once worked out (stepsOnce), where in each interval a
	// counter's load stepped (see ValueAt): steps[i] is the step's offset
	// in ms from sample i-1, -1 where the interval is a straight line.
	// Four bytes an interval: the rates it needs are the samples' own,
	// worked out again where a step is (rates).
	stepsOnce sync.Once
	steps     []int32
}

// Len is the number of samples.
func (r *Raw) Len() int {
	if r == nil {
		return 0
	}
	return len(r.T)
}

// First is the time of the first sample.
func (r *Raw) First() time.Time { return time.UnixMilli(r.T[0]) }

// Last is the time of the last sample.
func (r *Raw) Last() time.Time { return time.UnixMilli(r.T[len(r.T)-1]) }

// Append adds a sample after the last one; one at or before the last
// sample's time is dropped (a piece of a read that overlaps the one
// before), as is a NaN or an infinite value. A counter's value below the
// last one is a reset: the counter started again from zero, so from then
// on its values are raised by the last value before it, as a rate over the
// reset counts them.
func (r *Raw) Append(ms int64, v float64, counter bool) {
	if n := len(r.T); n > 0 && ms <= r.T[n-1] {
		return
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	if counter {
		if n := len(r.V); n > 0 && v+r.offset < r.V[n-1] {
			r.offset = r.V[n-1]
		}
		v += r.offset
	}
	r.T = append(r.T, ms)
	r.V = append(r.V, v)
}

// rate is the counter's rate per second over samples i-1..i, and false
// outside the samples.
func (r *Raw) rate(i int) (float64, bool) {
	if i < 1 || i >= len(r.T) {
		return 0, false
	}
	dt := float64(r.T[i]-r.T[i-1]) / 1000
	if dt <= 0 {
		return 0, false
	}
	return (r.V[i] - r.V[i-1]) / dt, true
}

// perMs is the counter's rate per millisecond over samples i-1..i; NaN
// outside the samples.
func (r *Raw) perMs(i int) float64 {
	if i < 1 || i >= len(r.T) || r.T[i] <= r.T[i-1] {
		return math.NaN()
	}
	return (r.V[i] - r.V[i-1]) / float64(r.T[i]-r.T[i-1])
}

// stepsOf works out once where each interval's load stepped (see
// ValueAt). The samples must not be appended to after: a Raw is read whole
// before it is resampled.
func (r *Raw) stepsOf() []int32 {
	r.stepsOnce.Do(func() {
		n := len(r.T)
		if n < 2 {
			return
		}
		r.steps = make([]int32, n)
		r.steps[0] = -1
		for i := 1; i < n; i++ {
			r.steps[i] = -1
			rate, left, right := r.perMs(i), r.perMs(i-1), r.perMs(i+1)
			if !math.IsNaN(left) && !math.IsNaN(right) && math.Min(left, right) < rate && rate < math.Max(left, right) {
				// The step's moment, as a share of the interval:
				// left·f + right·(1-f) = rate.
				f := (right - rate) / (right - left)
				if at := math.Round(f * float64(r.T[i]-r.T[i-1])); at <= math.MaxInt32 {
					r.steps[i] = int32(at)
				}
			}
		}
	})
	return r.steps
}

// ValueAt is the series' value at t, with ok false outside its samples'
// span widened by before and after.
//
// A gauge is interpolated linearly between the samples around t. So is a
// counter, unless the rates of the intervals on either side say the load
// stepped inside this one: when the interval's own rate lies strictly
// between the rate before it and the rate after it, the counter ran at the
// rate before it up to a moment and at the rate after it from then on, the
// moment being where the interval's work comes out right. That is exact
// for a load that steps once between two of the store's scrapes (where a
// straight line would smear the step over the whole interval, and a
// sample of metrics-server's that ends inside it would get a share of the
// new load it never saw), and at either end of the interval (its rate
// equal to the rate before or after it) it is the straight line.
//
// Before the first sample a counter runs back at its first interval's
// rate (not below zero), after the last one on at its last interval's;
// a gauge keeps its first and last values.
func (r *Raw) ValueAt(t time.Time, counter bool, before, after time.Duration) (float64, bool) {
	ms := t.UnixMilli()
	return r.valueWith(ms, sort.Search(len(r.T), func(i int) bool { return r.T[i] > ms }), counter, before, after)
}

// valueWith is ValueAt at ms, given i, the index of the first sample after
// ms.
func (r *Raw) valueWith(ms int64, i int, counter bool, before, after time.Duration) (float64, bool) {
	n := len(r.T)
	if n == 0 {
		return 0, false
	}
	if ms < r.T[0]-before.Milliseconds() || ms > r.T[n-1]+after.Milliseconds() {
		return 0, false
	}
	if n < 2 {
		return r.V[0], true
	}
	switch i {
	case 0:
		if !counter {
			return r.V[0], true
		}
		return max(0, r.V[0]-r.perMs(1)*float64(r.T[0]-ms)), true
	case n:
		if !counter {
			return r.V[n-1], true
		}
		return r.V[n-1] + r.perMs(n-1)*float64(ms-r.T[n-1]), true
	}
	dt := ms - r.T[i-1]
	if dt == 0 {
		return r.V[i-1], true
	}
	if !counter {
		return r.V[i-1] + float64(dt)*(r.V[i]-r.V[i-1])/float64(r.T[i]-r.T[i-1]), true
	}
	step := int64(r.stepsOf()[i])
	if step < 0 {
		return r.V[i-1] + float64(dt)*(r.V[i]-r.V[i-1])/float64(r.T[i]-r.T[i-1]), true
	}
	left := r.perMs(i - 1)
	if dt <= step {
		return r.V[i-1] + left*float64(dt), true
	}
	return r.V[i-1] + left*float64(step) + r.perMs(i+1)*float64(dt-step), true
}

// cursor reads a Raw at times that mostly rise: it keeps the index of the
// first sample after the last time asked and walks on from there, so that
// a pass over a series costs its length, not a search per time.
type cursor struct {
	raw *Raw
	i   int
}

func (r *Raw) cursor() *cursor { return &cursor{raw: r} }

// valueAt is the Raw's ValueAt at ms (Unix milliseconds).
func (c *cursor) valueAt(ms int64, counter bool, before, after time.Duration) (float64, bool) {
	T := c.raw.T
	if c.i > 0 && T[c.i-1] > ms || c.i == 0 && len(T) > 0 && T[0] <= ms {
		// Back in time, or a first time beyond the first sample (a span
		// of Resample's that begins late): search.
		c.i = sort.Search(len(T), func(i int) bool { return T[i] > ms })
	}
	for c.i < len(T) && T[c.i] <= ms {
		c.i++
	}
	return c.raw.valueWith(ms, c.i, counter, before, after)
}
