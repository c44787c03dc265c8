// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

var newSizeRE = regexp.MustCompile(`^New size: (\d+);`)

// combinedPrefix starts the message of an event the event recorder made of
// several similar ones (ten of one reason within ten minutes): it keeps the
// last message only.
const combinedPrefix = "(combined from similar events): "

// ReplicasFromEvents rebuilds the actual replica count over a recording
// from the HPA's SuccessfulRescale events ("New size: N"). An event seen
// more than once (count > 1), or combined from similar ones, tells only
// its first and last time: between them the count is the number of the
// target's pods the recording shows. Before the first event the count is
// the last size before the recording or, failing that, the number of pods
// too, and its changes there are marked external (the workload created or
// scaled by hand). Nothing when no event falls in the period.
func ReplicasFromEvents(events []corev1.Event, rec *Recording) ReplicaHistory {
	type size struct {
		at time.Time
		n  int32
	}
	var sizes []size
	var spans [][2]time.Time
	for i := range events {
		e := &events[i]
		if e.Reason != explain.ReasonSuccessfulRescale {
			continue
		}
		msg, combined := strings.CutPrefix(e.Message, combinedPrefix)
		m := newSizeRE.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		v, err := strconv.ParseInt(m[1], 10, 32)
		if err != nil {
			continue
		}
		last := e.LastTimestamp.Time
		if last.IsZero() {
			last = e.EventTime.Time
		}
		if combined || e.Count > 1 {
			first := e.FirstTimestamp.Time
			if first.IsZero() || first.After(last) {
				first = last
			}
			spans = append(spans, [2]time.Time{first, last})
		}
		sizes = append(sizes, size{last, int32(v)})
	}
	sort.SliceStable(sizes, func(i, j int) bool { return sizes[i].at.Before(sizes[j].at) })
	uncertain := func(t time.Time) bool {
		for _, sp := range spans {
			if t.After(sp[0].Add(-time.Second)) && t.Before(sp[1]) {
				return true
			}
		}
		return false
	}
	inPeriod, before := false, false
	var initial int32
	for _, s := range sizes {
		if s.at.After(rec.Start) && !s.at.After(rec.End()) {
			inPeriod = true
		}
		if !s.at.After(rec.Start) {
			initial, before = s.n, true
		}
	}
	if !inPeriod {
		return ReplicaHistory{}
	}
	h := ReplicaHistory{Source: SourceEvents, Detail: fmt.Sprintf("%d SuccessfulRescale events", len(sizes))}
	add := func(at time.Time, n int32, external bool) {
		if len(h.Changes) == 0 || h.Changes[len(h.Changes)-1].Replicas != n {
			h.Changes = append(h.Changes, ReplicaChange{At: at, Replicas: n, External: external && len(h.Changes) > 0})
		}
	}
	first := rec.End()
	for _, s := range sizes {
		if s.at.After(rec.Start) {
			first = s.at
			break
		}
	}
	if before {
		add(rec.Start, initial, false)
	}
	// Walk the period's instants and the events in time order: the pods
	// give the count before the first event (external changes) and inside
	// the spans the events do not tell.
	j := 0
	for k := 0; k < rec.Len; k++ {
		t := rec.Instant(k)
		for j < len(sizes) && !sizes[j].at.After(t) {
			if sizes[j].at.After(rec.Start) && !uncertain(sizes[j].at) {
				add(sizes[j].at, sizes[j].n, false)
			}
			j++
		}
		switch {
		case !before && t.Before(first):
			add(t, rec.LivePods(k), true)
		case uncertain(t):
			add(t, rec.LivePods(k), false)
		}
	}
	for ; j < len(sizes); j++ {
		if !uncertain(sizes[j].at) && !sizes[j].at.After(rec.End()) {
			add(sizes[j].at, sizes[j].n, false)
		}
	}
	if len(spans) > 0 {
		h.Detail += fmt.Sprintf("; %d were seen more than once or combined by the event recorder, and between their first and last time the count is the number of pods recorded", len(spans))
		rec.Reconstructed = append(rec.Reconstructed, "the replicas while SuccessfulRescale events were repeated or combined: the number of the target's pods recorded (a store sees a pod from its first sample to its last)")
	}
	if !before {
		rec.Reconstructed = append(rec.Reconstructed, "the replicas before the first rescale event of the period: the number of the target's pods that existed")
	}
	return h
}

// LivePods counts the recording's pods that existed and were not being
// deleted at instant k.
func (r *Recording) LivePods(k int) int32 {
	t := r.Instant(k)
	n := int32(0)
	for i := range r.Pods {
		if r.Pods[i].Exists(t) && !r.Pods[i].TerminatingAt(t) {
			n++
		}
	}
	return n
}

// ReplicasFromWatch rebuilds the actual replica count from the rescales a
// watch recorded since since (up and down, each a change in replicas):
// counted back from the current count. Nothing when the record does not
// reach back to the start.
func ReplicasFromWatch(since time.Time, up, down []explain.ScaleEvent, current int32, rec *Recording) ReplicaHistory {
	if since.After(rec.Start) {
		return ReplicaHistory{}
	}
	type change struct {
		at    time.Time
		delta int32
	}
	var all []change
	for _, e := range up {
		all = append(all, change{e.Timestamp, e.ReplicaChange})
	}
	for _, e := range down {
		all = append(all, change{e.Timestamp, -e.ReplicaChange})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	// Walk back from now: before each change the count was that much less.
	n := current
	var back []ReplicaChange
	for _, c := range all {
		if c.at.After(rec.End()) {
			n -= c.delta
			continue
		}
		if !c.at.After(rec.Start) {
			break
		}
		back = append(back, ReplicaChange{At: c.at, Replicas: n})
		n -= c.delta
	}
	h := ReplicaHistory{Source: SourceWatch, Detail: fmt.Sprintf("the history a watch recorded since %s", since.UTC().Format(time.RFC3339))}
	h.Changes = append(h.Changes, ReplicaChange{At: rec.Start, Replicas: n})
	for i := len(back) - 1; i >= 0; i-- {
		h.Changes = append(h.Changes, back[i])
	}
	return h
}
