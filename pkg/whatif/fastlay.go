// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// lay builds the frames, the recorded counts and shares, and the exact
// accounting, replaying the first part of every sync (the real pods as
// refresh and alignToActual leave them) on p's pods. The syncs are laid
// out in spans at once (recording.Spans), each on a replay of its own
// (scratch makes them; the pods of a sync depend on its instant and
// count alone), and joined as one pass over them would have laid them.
func (sh *fastShared) lay(p *replayRun, scratch func() (*replayRun, error)) fastMiss {
	rec := p.rec
	nr := len(p.resources)
	sh.fstart, sh.fend = make([]int32, rec.Len), make([]int32, rec.Len)
	sh.actual, sh.known, sh.readyShare = make([]int32, rec.Len), make([]bool, rec.Len), make([]float64, rec.Len)
	sh.exact, sh.missReq, sh.exactOnce, sh.scratch = make([][]podSums, nr), make([][]int64, nr), make([]sync.Once, nr), p
	sh.instant, sh.sampleEnd, sh.sampleTs = make([]int64, rec.Len), make([]int64, rec.Len), make([]int64, rec.Len)
	sh.ext, sh.readyNow = make([]int32, rec.Len), make([]int32, rec.Len)
	spans := recording.Spans(rec.Len)
	parts := make([]laidSpan, len(spans))
	var wg sync.WaitGroup
	for j, span := range spans {
		q := p
		if j > 0 {
			var err error
			if q, err = scratch(); err != nil {
				return missNoPods
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[j] = sh.laySpan(q, span)
		}()
	}
	wg.Wait()
	for j, span := range spans {
		l := &parts[j]
		if l.miss != "" {
			return l.miss
		}
		// The span's first frame, at 0 in its own, is the frame before
		// it when the same: its leading syncs take that one.
		k, k0 := span[0], span[0]
		s0, e0 := sh.fstart[k0], sh.fend[k0]
		var drop int32
		if k0 > 0 && slices.Equal(l.frames[s0:e0], sh.frames[sh.fstart[k0-1]:sh.fend[k0-1]]) {
			for ; k < span[1] && sh.fstart[k] == s0 && sh.fend[k] == e0; k++ {
				sh.fstart[k], sh.fend[k] = sh.fstart[k0-1], sh.fend[k0-1]
			}
			drop = e0
		}
		base := int32(len(sh.frames)) - drop
		for ; k < span[1]; k++ {
			sh.fstart[k] += base
			sh.fend[k] += base
		}
		sh.frames = append(sh.frames, l.frames[drop:]...)
		sh.sorted = append(sh.sorted, l.sorted[drop:]...)
	}
	return ""
}

// laidSpan is one span of lay: its frames and their orders, the span's
// fstart and fend (in fastShared) bounding them in these.
type laidSpan struct {
	frames []framePod
	sorted []int32
	miss   fastMiss
}

// laySpan lays out the syncs of span on p's pods.
func (sh *fastShared) laySpan(p *replayRun, span [2]int) laidSpan {
	rec := p.rec
	var l laidSpan
	shares := newShareCuts(rec)
	for k := span[0]; k < span[1]; k++ {
		t := rec.Instant(k)
		sh.instant[k] = t.UnixNano()
		st := rec.SampleTime(k)
		sh.sampleEnd[k], sh.sampleTs[k] = st.UnixNano(), st.Truncate(time.Second).UnixNano()
		sh.ext[k] = -1
		if k > 0 {
			prev := rec.Instant(k - 1)
			for _, c := range rec.Replicas.Changes {
				if c.External && c.At.After(prev) && !c.At.After(t) {
					sh.ext[k] = c.Replicas
				}
			}
		}
		actual, known := p.actualAt(k)
		sh.actual[k], sh.known[k] = actual, known
		sh.readyShare[k] = shares.at(k)
		p.realPodsAt(t, actual)
		begin := len(l.frames)
		for j := range p.cur {
			sp := &p.cur[j]
			pod := sp.pod
			ph, ok := phaseOf(pod.Status.Phase)
			if !ok {
				l.miss = missUnknownPhases
				return l
			}
			fp := framePod{i: int32(sp.real), phase: ph, since: pod.Status.Conditions[0].LastTransitionTime.UnixNano()}
			if pod.Status.Conditions[0].Status == corev1.ConditionTrue {
				fp.st |= flagReady
			}
			if pod.DeletionTimestamp != nil {
				fp.st |= flagDeleting
			}
			if sp.early {
				fp.st |= flagEarly
			} else if p.reports(sp.real, k, t) {
				fp.st |= flagReports
			}
			l.frames = append(l.frames, fp)
			if fp.ready() {
				sh.readyNow[k]++
			}
		}
		fr := l.frames[begin:]
		if k > span[0] && slices.Equal(fr, l.frames[sh.fstart[k-1]:sh.fend[k-1]]) {
			// The pods of the sync before, as they were: kept once.
			l.frames = l.frames[:begin]
			sh.fstart[k], sh.fend[k] = sh.fstart[k-1], sh.fend[k-1]
			continue
		}
		sh.fstart[k], sh.fend[k] = int32(begin), int32(len(l.frames))
		// The order sortPods gives these pods.
		for j := range fr {
			l.sorted = append(l.sorted, int32(j))
		}
		perm := l.sorted[begin:]
		slices.SortStableFunc(perm, func(a, b int32) int { return sh.order(&fr[a], &fr[b], p) })
	}
	return l
}
