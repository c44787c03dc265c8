// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import "time"

// The fast replay's count of ready pods from moment to moment, and the
// share of the load each served (replayPath.mark, countFrom, shareOver,
// sampleShare), on times in nanoseconds.

// fastMark is the replay's count of ready pods from a moment on.
type fastMark struct {
	at int64
	n  int
}

// mark notes n ready pods from at on, as replayPath.mark does.
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
