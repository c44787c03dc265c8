// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// SampleLag is how long before a sync the store's sample is read. The
// controller's sample is metrics-server's: the rate between its two latest
// scrapes, one resolution apart, the latest anywhere in the last
// resolution, so its window ends half a resolution back and its middle a
// whole one back, on average. The store's irate spans its own last two
// scrapes before the point read, the latest half a scrape interval before
// that point on average: read half a resolution back, its window's middle
// is a resolution back when the store scrapes twice per resolution (the
// common setups: 5 s and 10 s, 15 s and 30 s), and its timestamps, half a
// resolution old, are as old as metrics-server's. (Three quarters
// left every replayed rescale of the e2e proof 5-10 s late: the store's
// window sat a quarter resolution further back.)
func SampleLag(resolution time.Duration) time.Duration { return resolution / 2 }

// ReplayGrid places the replayed syncs: n instants step apart from start,
// the first at or before from and the last at or before until. They are at
// the controller's phase when its rescale events in the period tell it
// (phaseEvents > 0), else on the multiples of step: two runs over the same
// period replay the same syncs either way. The phase is one for the whole
// period; ReplayGridAt places them on the drifting grid EstimateSyncs
// fits.
func ReplayGrid(events []corev1.Event, from, until time.Time, step time.Duration) (start time.Time, n int, phase time.Duration, phaseEvents int) {
	start = from.Truncate(step)
	phase, phaseEvents = SyncPhase(events, from, until, step)
	if phaseEvents > 0 {
		if start = start.Add(phase); start.After(from) {
			start = start.Add(-step)
		}
	}
	return start, int(until.Sub(start)/step) + 1, phase, phaseEvents
}

// SyncPhase estimates when in each sync period the controller syncs the
// HPA: its offset from the multiples of step since the epoch, from the
// times of the HPA's SuccessfulRescale events between from and until
// (each written at a sync; a repeated event's first and last times both
// count). The legacy event times are whole seconds, so each is taken at
// the middle of its second. The offsets are averaged on the circle (an
// offset just below step and one just above zero are neighbours); n is 0,
// and the phase unknown, without such events or when they disagree (the
// controller restarted within the period, at another phase).
func SyncPhase(events []corev1.Event, from, until time.Time, step time.Duration) (phase time.Duration, n int) {
	var sx, sy float64
	eachRescaleTime(events, from, until, func(at time.Time) {
		off := at.Sub(at.Truncate(step))
		a := 2 * math.Pi * float64(off) / float64(step)
		sx += math.Cos(a)
		sy += math.Sin(a)
		n++
	})
	// Agreeing phases average to a point near the circle; scattered ones
	// (a restart, several controllers) near its centre. Syncs whose phase
	// drifts (the controller's own work delays each) scatter too:
	// EstimateSyncs fits the drift.
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

// NoteSyncPhase says in r's reconstructions that its instants sit at the
// controller's phase in each step, estimated from n rescale events (none
// said when n is 0: the instants are on the multiples of step).
func (r *Recording) NoteSyncPhase(step, phase time.Duration, n int) {
	if n > 0 {
		r.Reconstructed = append(r.Reconstructed, fmt.Sprintf("the controller's sync times: every %s at %s past the period's multiples of it, estimated from %d SuccessfulRescale event time(s) of the period (whole seconds)",
			step, phase.Round(10*time.Millisecond), n))
	}
}

// minPeriodEvents is how many rescale times it takes to call an assumed
// sync period wrong: fewer can sit on any grid by chance.
const minPeriodEvents = 5

// shorterSyncPeriods are the periods SyncPeriodFromEvents offers in place
// of an assumed one the events contradict, longest first: the values
// clusters commonly set below the controller's default of 15 s.
var shorterSyncPeriods = []time.Duration{10 * time.Second, 5 * time.Second}

// SyncPeriodFromEvents checks an assumed sync period against the times of
// the HPA's rescale events between from and until. Each rescale happens
// at a sync, so the times sit on the controller's grid: when at least
// minPeriodEvents of them do not sit on one phase of assumed, assumed is
// wrong, and the longest of the shorter common periods whose grid they do
// sit on is returned, with the number of times it rests on. A grid whose
// multiples hold the events (30 s, a policy's 60 s) cannot be told from
// the assumed one this way, so the check only ever shortens the period.
// It returns 0 when the events do not contradict assumed (or are too
// few), and contradicts true when they do, whatever it found.
// EstimateSyncs infers the period from the times of all the controller's
// events, longer or shorter than assumed.
func SyncPeriodFromEvents(events []corev1.Event, from, until time.Time, assumed time.Duration) (period time.Duration, n int, contradicts bool) {
	if _, k := SyncPhase(events, from, until, assumed); k > 0 {
		return 0, 0, false
	}
	times := 0
	eachRescaleTime(events, from, until, func(time.Time) { times++ })
	if times < minPeriodEvents {
		return 0, 0, false
	}
	for _, p := range shorterSyncPeriods {
		if p >= assumed {
			continue
		}
		if _, k := SyncPhase(events, from, until, p); k >= minPeriodEvents {
			return p, k, true
		}
	}
	return 0, 0, true
}

// eachRescaleTime calls f with each time of a SuccessfulRescale event
// between from and until: the precise eventTime, else the last time and
// (for a repeated event) the first, whole seconds taken at the middle of
// their second.
func eachRescaleTime(events []corev1.Event, from, until time.Time, f func(time.Time)) {
	add := func(at time.Time, precise bool) {
		if at.IsZero() || at.Before(from) || at.After(until) {
			return
		}
		if !precise {
			at = at.Add(500 * time.Millisecond)
		}
		f(at)
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
}
