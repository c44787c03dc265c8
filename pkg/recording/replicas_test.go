// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

var replicasStart = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// replicasRec is nine instants 15 s apart (two minutes) with the pods
// given.
func replicasRec(pods ...Pod) *Recording {
	return &Recording{Start: replicasStart, Step: 15 * time.Second, Len: 9, Pods: pods}
}

func at(d time.Duration) time.Time { return replicasStart.Add(d) }

func tp(t time.Time) *time.Time { return &t }

func sizeEvent(n int, last time.Time) corev1.Event {
	return corev1.Event{
		Reason:  explain.ReasonSuccessfulRescale,
		Message: fmt.Sprintf("New size: %d; reason: cpu resource utilization (percentage of request) above target", n),
		Count:   1, FirstTimestamp: metav1.NewTime(last), LastTimestamp: metav1.NewTime(last),
	}
}

func changesString(cs []ReplicaChange) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s=%d", c.At.Sub(replicasStart), c.Replicas)
		if c.External {
			b.WriteString("(external)")
		}
		b.WriteString(" ")
	}
	return strings.TrimSpace(b.String())
}

func TestReplicasFromEvents(t *testing.T) {
	repeated := sizeEvent(5, at(90*time.Second))
	repeated.Count, repeated.FirstTimestamp = 2, metav1.NewTime(at(30*time.Second))
	combined := sizeEvent(5, at(90*time.Second))
	combined.Message = combinedPrefix + combined.Message
	combined.FirstTimestamp = metav1.NewTime(at(30 * time.Second))
	threePods := []Pod{{Name: "a", Created: at(-time.Hour)}, {Name: "b", Created: at(-time.Hour)}, {Name: "c", Created: at(-time.Hour)}}
	for _, tc := range []struct {
		name    string
		events  []corev1.Event
		pods    []Pod
		want    string
		spans   bool
		noFirst bool
	}{
		{
			name:   "sizes before and in the period",
			events: []corev1.Event{sizeEvent(3, at(90*time.Second)), sizeEvent(2, at(-time.Minute)), sizeEvent(4, at(30*time.Second))},
			want:   "0s=2 30s=4 1m30s=3",
		},
		{
			name:   "none in the period",
			events: []corev1.Event{sizeEvent(2, at(-time.Minute)), sizeEvent(4, at(10*time.Minute)), {Reason: "FailedGetResourceMetric", Message: "New size: 9; x", LastTimestamp: metav1.NewTime(at(time.Minute))}},
			want:   "",
		},
		{
			// Before the first event the pods tell the count, and their
			// changes are the workload's own (external).
			name:    "nothing before: the pods",
			events:  []corev1.Event{sizeEvent(3, at(60*time.Second))},
			pods:    []Pod{{Name: "a", Created: at(-time.Hour)}, {Name: "b", Created: at(20 * time.Second)}, {Name: "gone", Created: at(-time.Hour), Terminating: tp(at(-time.Minute))}},
			want:    "0s=1 30s=2(external) 1m0s=3",
			noFirst: true,
		},
		{
			name:   "a repeated event: the pods between its first and last time",
			events: []corev1.Event{sizeEvent(2, at(-10*time.Second)), repeated},
			pods:   threePods,
			want:   "0s=2 30s=3 1m30s=5",
			spans:  true,
		},
		{
			name:   "a combined event",
			events: []corev1.Event{sizeEvent(2, at(-10*time.Second)), combined},
			pods:   threePods,
			want:   "0s=2 30s=3 1m30s=5",
			spans:  true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := replicasRec(tc.pods...)
			h := ReplicasFromEvents(tc.events, rec)
			if got := changesString(h.Changes); got != tc.want {
				t.Fatalf("changes %q, want %q", got, tc.want)
			}
			if tc.want == "" {
				if h.Source != "" || len(rec.Reconstructed) > 0 {
					t.Fatalf("source %q, reconstructed %q; want nothing", h.Source, rec.Reconstructed)
				}
				return
			}
			if h.Source != SourceEvents {
				t.Errorf("source %q", h.Source)
			}
			if got := strings.Contains(h.Detail, "more than once or combined"); got != tc.spans {
				t.Errorf("detail %q: says spans %v, want %v", h.Detail, got, tc.spans)
			}
			want := 0
			if tc.spans {
				want++
			}
			if tc.noFirst {
				want++
			}
			if len(rec.Reconstructed) != want {
				t.Errorf("reconstructed %q, want %d line(s)", rec.Reconstructed, want)
			}
		})
	}
}

func TestLivePods(t *testing.T) {
	rec := replicasRec(
		Pod{Name: "a", Created: at(-time.Hour)},
		Pod{Name: "late", Created: at(20 * time.Second)},
		Pod{Name: "deleted", Created: at(-time.Hour), Deleted: tp(at(40 * time.Second))},
		Pod{Name: "terminating", Created: at(-time.Hour), Terminating: tp(at(10 * time.Second))},
	)
	var got []int32
	for k := range 4 {
		got = append(got, rec.LivePods(k))
	}
	if fmt.Sprint(got) != "[3 2 3 2]" {
		t.Errorf("live pods at 0, 15, 30, 45 s: %v, want [3 2 3 2]", got)
	}
}

func TestReplicasFromWatch(t *testing.T) {
	up := []explain.ScaleEvent{{Timestamp: at(30 * time.Second), ReplicaChange: 2}, {Timestamp: at(10 * time.Minute), ReplicaChange: 1}, {Timestamp: at(-time.Minute), ReplicaChange: 7}}
	down := []explain.ScaleEvent{{Timestamp: at(60 * time.Second), ReplicaChange: 1}}
	rec := replicasRec()
	h := ReplicasFromWatch(at(-time.Hour), up, down, 4, rec)
	// From 4 now: 3 before the rescale after the period, 4 before the
	// scale-down, 2 before the scale-up.
	if got := changesString(h.Changes); got != "0s=2 30s=4 1m0s=3" || h.Source != SourceWatch {
		t.Errorf("changes %q from %q, want \"0s=2 30s=4 1m0s=3\" from the watch", got, h.Source)
	}
	if !strings.Contains(h.Detail, "2026-11-27T11:00:00Z") {
		t.Errorf("detail %q does not say since when", h.Detail)
	}
	if h := ReplicasFromWatch(at(time.Second), up, down, 4, rec); len(h.Changes) > 0 {
		t.Errorf("a watch begun after the start: %q, want nothing", changesString(h.Changes))
	}
}

func TestNoteSyncPhase(t *testing.T) {
	rec := replicasRec()
	rec.NoteSyncPhase(15*time.Second, 0, 0)
	if len(rec.Reconstructed) != 0 {
		t.Fatalf("no events: %q", rec.Reconstructed)
	}
	rec.NoteSyncPhase(15*time.Second, 3456*time.Millisecond, 4)
	if len(rec.Reconstructed) != 1 || !strings.Contains(rec.Reconstructed[0], "every 15s at 3.46s past") || !strings.Contains(rec.Reconstructed[0], "from 4 SuccessfulRescale") {
		t.Errorf("reconstructed %q", rec.Reconstructed)
	}
}
