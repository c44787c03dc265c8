// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func rescaleAt(last time.Time, count int32, first time.Time) corev1.Event {
	return corev1.Event{
		Reason: "SuccessfulRescale", Message: "New size: 3; reason: cpu resource utilization (percentage of request) above target",
		Count: count, FirstTimestamp: metav1.NewTime(first), LastTimestamp: metav1.NewTime(last),
	}
}

// The replay's syncs sit at the controller's phase, estimated from its
// rescale events (whole seconds, taken at the middle of their second).
func TestReplayGrid(t *testing.T) {
	base := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC) // a multiple of 5 s
	step := 5 * time.Second
	from, until := base.Add(7*time.Second), base.Add(10*time.Minute)
	at := base.Add
	for _, tc := range []struct {
		name       string
		events     []corev1.Event
		wantStart  time.Time
		wantPhase  time.Duration
		wantEvents int
	}{
		{name: "no events: the multiples of the sync period", wantStart: at(5 * time.Second)},
		{
			// The controller syncs at :x3.4 and :x8.4; the events say :x3 and :x8.
			name: "one phase",
			events: []corev1.Event{
				rescaleAt(at(63*time.Second), 1, at(63*time.Second)),
				rescaleAt(at(128*time.Second), 3, at(98*time.Second)),
				rescaleAt(at(243*time.Second), 1, at(243*time.Second)),
			},
			wantStart: at(3500 * time.Millisecond), wantPhase: 3500 * time.Millisecond, wantEvents: 4,
		},
		{
			// Phases either side of a multiple: :x4.6 and :x0.4 (0.5 s after
			// :x4 and :x0, seconds 4.5 and 0.5 averaged on the circle: 0).
			name: "around the multiple",
			events: []corev1.Event{
				rescaleAt(at(64*time.Second), 1, at(64*time.Second)),
				rescaleAt(at(120*time.Second), 1, at(120*time.Second)),
			},
			wantStart: at(5 * time.Second), wantPhase: 0, wantEvents: 2,
		},
		{
			// The controller restarted at another phase: not estimated.
			name: "scattered",
			events: []corev1.Event{
				rescaleAt(at(60*time.Second), 1, at(60*time.Second)),
				rescaleAt(at(122*time.Second), 1, at(122*time.Second)),
				rescaleAt(at(184*time.Second), 1, at(184*time.Second)),
			},
			wantStart: at(5 * time.Second),
		},
		{
			name: "outside the period or another reason",
			events: []corev1.Event{
				rescaleAt(at(2*time.Second), 1, at(2*time.Second)),
				rescaleAt(at(11*time.Minute), 1, at(11*time.Minute)),
				{Reason: "FailedGetResourceMetric", LastTimestamp: metav1.NewTime(at(63 * time.Second))},
			},
			wantStart: at(5 * time.Second),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start, n, phase, events := ReplayGrid(tc.events, from, until, step)
			if !start.Equal(tc.wantStart) || phase != tc.wantPhase || events != tc.wantEvents {
				t.Errorf("start %s, phase %s from %d events; want %s, %s from %d",
					start.Format("15:04:05.000"), phase, events, tc.wantStart.Format("15:04:05.000"), tc.wantPhase, tc.wantEvents)
			}
			last := start.Add(time.Duration(n-1) * step)
			if start.After(from) || last.After(until) || until.Sub(last) >= step {
				t.Errorf("%d syncs from %s to %s do not cover %s..%s", n, start.Format("15:04:05.000"), last.Format("15:04:05.000"), from.Format("15:04:05"), until.Format("15:04:05"))
			}
		})
	}
}

// An event whose time is precise (events.k8s.io's eventTime) is taken as
// it is.
func TestSyncPhasePrecise(t *testing.T) {
	base := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	e := corev1.Event{Reason: "SuccessfulRescale", EventTime: metav1.NewMicroTime(base.Add(61*time.Second + 250*time.Millisecond))}
	phase, n := SyncPhase([]corev1.Event{e}, base, base.Add(time.Hour), 15*time.Second)
	if phase != 1250*time.Millisecond || n != 1 {
		t.Errorf("phase %s from %d events, want 1.25s from 1", phase, n)
	}
}

// The events' times contradict an assumed sync period when they do not sit
// on one phase of it; the longest shorter common period they sit on is
// then the controller's.
func TestSyncPeriodFromEvents(t *testing.T) {
	base := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	from, until := base, base.Add(time.Hour)
	// events at the given seconds after base, 0.3 s past a whole second
	// (as a controller syncing at :x0.3 writes them).
	at := func(secs ...int) []corev1.Event {
		var out []corev1.Event
		for _, s := range secs {
			tm := base.Add(time.Duration(s)*time.Second + 300*time.Millisecond).Truncate(time.Second)
			out = append(out, rescaleAt(tm, 1, tm))
		}
		return out
	}
	for _, tc := range []struct {
		name        string
		events      []corev1.Event
		assumed     time.Duration
		want        time.Duration
		wantN       int
		contradicts bool
	}{
		// A 5 s controller's rescales, 20 and 25 s apart (a policy of one
		// pod per 20 s): not on a 15 s grid, nor a 10 s one.
		{name: "5 s under an assumed 15 s", events: at(40, 60, 85, 105, 130, 150), assumed: 15 * time.Second, want: 5 * time.Second, wantN: 6, contradicts: true},
		{name: "10 s under an assumed 15 s", events: at(30, 50, 80, 100, 140), assumed: 15 * time.Second, want: 10 * time.Second, wantN: 5, contradicts: true},
		// A 15 s controller's: on its grid, and on the 5 s one too; no
		// contradiction, so the default stays.
		{name: "15 s as assumed", events: at(30, 60, 105, 150, 240, 300), assumed: 15 * time.Second},
		// A 30 s controller's sit on the 15 s grid: not told apart.
		{name: "30 s under an assumed 15 s", events: at(30, 90, 120, 210, 300), assumed: 15 * time.Second},
		{name: "too few to tell", events: at(40, 60, 85, 105), assumed: 15 * time.Second},
		// Seconds that sit on no common grid (two controllers, a restart).
		{name: "no grid", events: at(41, 62, 83, 109, 127, 148), assumed: 15 * time.Second, contradicts: true},
		{name: "nothing shorter to offer", events: at(40, 60, 85, 105, 130, 150), assumed: 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, n, c := SyncPeriodFromEvents(tc.events, from, until, tc.assumed)
			if p != tc.want || n != tc.wantN || c != tc.contradicts {
				t.Errorf("SyncPeriodFromEvents = %s from %d times, contradicts %v; want %s from %d, %v", p, n, c, tc.want, tc.wantN, tc.contradicts)
			}
		})
	}
}
