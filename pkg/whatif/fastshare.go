// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"slices"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The fast replay's count of ready pods from moment to moment, and the
// share of the load each served (replayRun.mark, countFrom, shareOver,
// sampleShare), on times in nanoseconds.

// fastMark is the replay's count of ready pods from a moment on.
type fastMark struct {
	at int64
	n  int
}

// mark notes n ready pods from at on, as replayRun.mark does.
func (f *fastPath) mark(at int64, n int) {
	for len(f.marks) > 0 && f.marks[len(f.marks)-1].at >= at {
		f.marks = f.marks[:len(f.marks)-1]
	}
	f.marks = append(f.marks, fastMark{at: at, n: n})
	horizon := at - 2*f.window - 2*f.step
	drop := 0
	for drop+1 < len(f.marks) && f.marks[drop+1].at <= horizon {
		drop++
	}
	if drop > 0 {
		f.marks = append(f.marks[:0], f.marks[drop:]...)
	}
}

// countFrom is the count at t and when it next changes (noTime: not
// before the last mark).
func (f *fastPath) countFrom(t int64) (int, int64) {
	n := f.readyNow
	next := int64(noTime)
	for i := len(f.marks) - 1; i >= 0; i-- {
		if f.marks[i].at <= t {
			n = f.marks[i].n
			break
		}
		next = f.marks[i].at
	}
	return n, next
}

// shareOver is the mean over [from, to) of 1/n.
func (f *fastPath) shareOver(from, to int64) float64 {
	span := to - from
	if span <= 0 {
		n, _ := f.countFrom(to)
		return 1 / float64(max(n, 1))
	}
	sum := 0.0
	at := from
	for at < to {
		n, next := f.countFrom(at)
		if next == noTime || next > to {
			next = to
		}
		sum += time.Duration(next-at).Seconds() / float64(max(n, 1))
		at = next
	}
	return sum / time.Duration(span).Seconds()
}

// sampleShare is the share of the sample read at k.
func (f *fastPath) sampleShare(k int) float64 {
	if f.window <= 0 {
		return 1 / float64(max(f.readyNow, 1))
	}
	end := f.sh.sampleEnd[k]
	return f.shareOver(end-f.window, end)
}

// shareCuts works out Recording.ReadyShare between each sync and the
// next in one pass: where no pod is created, deleted, starts terminating
// or changes readiness within the interval, the share is that of the
// pods ready at its start, which change only at those moments; elsewhere
// Recording.ReadyShare itself.
type shareCuts struct {
	rec   *recording.Recording
	cuts  []int64
	next  int
	ready int
	known bool
}

func newShareCuts(rec *recording.Recording) *shareCuts {
	s := &shareCuts{rec: rec}
	for i := range rec.Pods {
		p := &rec.Pods[i]
		s.cuts = append(s.cuts, p.Created.UnixNano())
		if p.Deleted != nil {
			s.cuts = append(s.cuts, p.Deleted.UnixNano())
		}
		if p.Terminating != nil {
			s.cuts = append(s.cuts, p.Terminating.UnixNano())
		}
		for _, c := range p.Ready {
			s.cuts = append(s.cuts, c.At.UnixNano())
		}
	}
	slices.Sort(s.cuts)
	return s
}

// at is ReadyShare(Instant(k), Instant(k)+Step), for k ascending.
func (s *shareCuts) at(k int) float64 {
	rec := s.rec
	t := rec.Instant(k)
	if rec.Step <= 0 {
		return rec.ReadyShare(t, t.Add(rec.Step))
	}
	tn, end := t.UnixNano(), t.Add(rec.Step).UnixNano()
	// The pods ready at t change only at a cut at or before t.
	moved := !s.known
	for s.next < len(s.cuts) && s.cuts[s.next] <= tn {
		s.next++
		moved = true
	}
	if moved {
		s.ready, s.known = rec.ReadyPods(k), true
	}
	if s.next < len(s.cuts) && s.cuts[s.next] < end {
		return rec.ReadyShare(t, t.Add(rec.Step))
	}
	return rec.Step.Seconds() / float64(max(s.ready, 1)) / rec.Step.Seconds()
}
