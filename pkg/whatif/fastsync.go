// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// fastPath is one fast replay: the replay's pods as flat arrays, the
// controller's memory as short lists, and p, the reference replay it
// stands for, whose load model (marks, shares, served load) it shares.
type fastPath struct {
	p    *replayRun
	sh   *fastShared
	spec fastSpec
	nr   int
	// st[i] is real pod i as the replay last left it (what refresh,
	// alignToActual and startedAgain write on its object); backAt[i]
	// when the replay took it back (noTime: never); inSync[i] 1 + the
	// last sync it was among the pods of.
	st     []podState
	backAt []int64
	inSync []int32
	// liveIn, elderAt, born and fresh are replayRun's (elders; elderAt
	// noTime for none); liveReal the real pods live in the last full
	// sync; elders how many pods stand in for the replay's own.
	liveIn   []int32
	elderAt  []int64
	born     []int64
	fresh    []int32
	liveReal []int32
	elders   int
	prevReal []int32
	gone     []int32
	vanished []int32
	extras   []fastExtra
	cur      []fastPod
	buf      []fastPod
	scaledUp int64
	started  bool
	lastK    int
	// diffAt is replayRun.diffAt, noTime for none.
	diffAt int64
	// recorded says the recording holds the real count; wasExact that the
	// last sync ran the real pods at it, skipped that the bookkeeping of
	// the syncs since skipped (the last of them; -1: none) is still to
	// be done.
	recorded bool
	wasExact bool
	skipped  int
	// marks and readyNow are the replay's count of ready pods over its
	// last syncs and at the sync being built (fastshare.go); window,
	// step and startup the samples' window, the sync period and a new
	// pod's start-up.
	// The steady lane (holdSteady): steadyOK says the last sync ran the
	// replay's own pods of frame steadyFrame at steadyReplicas with the
	// real count at steadyActual, nothing of them changing before
	// stableUntil (and the samples' time stableTs); steadyHas[r] whether
	// they showed a sample of resource r; steadyAt the last sync the lane
	// replayed (-1: none since a full sync).
	steadyOK                     bool
	steadyFrame                  int32
	steadyReplicas, steadyActual int32
	stableUntil, stableTs        int64
	steadyHas                    []bool
	steadyAt                     int
	marks                        []fastMark
	readyNow                     int
	npods                        int
	window, step, startup        int64
	// reads[r] says whether a metric reads resource r; sums[r] its
	// accounting at the sync being built, missing the requests of its
	// pods without a sample where the replay runs its own pods.
	reads   []bool
	sums    []podSums
	missing []int64
	// exact[r] and exactMiss[r] are the shared accounting of resource r
	// where the replay runs the real pods (fastShared.exactOf).
	exact     [][]podSums
	exactMiss [][]int64
	// The controller's memory: its recommendations, scale events and the
	// status's desired count.
	recsInit      bool
	recs          []fastRec
	up, down      []fastEvent
	statusDesired int32
	factor, floor float64
	cpuInit       int64
	readyDelay    int64
}

// podState is a pod's readiness, phase and deletion as the sync reads
// them.
type podState struct {
	since int64
	st    podFlags
	phase podPhase
}

func (s *podState) ready() bool { return s.phase == phaseRunning && s.st&flagReady != 0 }

// fastExtra is a pod the replay runs beyond the real ones (extraPod):
// kept ≥ 0 is the real pod it keeps.
type fastExtra struct {
	podState
	kept                     int32
	start, readyAt, reportAt int64
}

// fastPod is one pod of a sync: real pod real, or extra ext.
type fastPod struct {
	real, ext int32
	early     bool
	reports   bool
}

type fastRec struct {
	n  int32
	at int64
}

type fastEvent struct {
	change   int32
	at       int64
	outdated bool
}

// noTime is a time not set.
const noTime = math.MinInt64

func newFastPath(p *replayRun, sh *fastShared) (*fastPath, fastMiss) {
	spec, miss := specOf(p, sh)
	if miss != "" {
		return nil, miss
	}
	n := len(p.rec.Pods)
	f := &fastPath{
		p: p, sh: sh, spec: spec, nr: len(p.resources),
		st: make([]podState, n), backAt: make([]int64, n), inSync: make([]int32, n), liveIn: make([]int32, n), elderAt: make([]int64, n),
		scaledUp: noTime, diffAt: noTime, lastK: -1, skipped: -1, steadyAt: -1, recorded: len(p.rec.Replicas.Changes) > 0,
		window: p.rec.SampleWindow.Nanoseconds(), step: p.rec.Step.Nanoseconds(), startup: p.opts.PodStartup.Nanoseconds(),
		reads: make([]bool, len(p.resources)), sums: make([]podSums, len(p.resources)), steadyHas: make([]bool, len(p.resources)),
		factor: p.set.LegacyScaleUpLimitFactor, floor: p.set.LegacyScaleUpLimitMinimum,
		cpuInit: p.set.CPUInitializationPeriod.Nanoseconds(), readyDelay: p.set.InitialReadinessDelay.Nanoseconds(),
	}
	if f.factor == 0 && f.floor == 0 {
		f.factor, f.floor = 2, 4
	}
	for i := range f.backAt {
		f.backAt[i], f.elderAt[i] = noTime, noTime
	}
	f.exact, f.exactMiss = make([][]podSums, f.nr), make([][]int64, f.nr)
	for _, m := range spec.metrics {
		f.reads[m.r] = true
		f.exact[m.r], f.exactMiss[m.r] = sh.exactOf(m.r)
	}
	return f, ""
}

// each replays every sync, as replayRun.run does, and hands each
// outcome from first on to do as it comes, or says why it could not;
// after a miss, do has had those of the syncs before it.
func (f *fastPath) each(first int, do func(k int, o *syncOutcome)) fastMiss {
	p := f.p
	// One outcome for every sync: handed to do by its address, it lives
	// on the heap, and one declared in the loop would be allocated anew
	// at each sync.
	var o syncOutcome
	for k := 0; k < p.rec.Len; k++ {
		var miss fastMiss
		o, miss = f.sync(k)
		if miss != "" {
			return miss
		}
		if k >= first {
			f.over(&o, k)
			do(k, &o)
		}
	}
	f.describeFast()
	return ""
}

// syncAt replays the sync at k on the real pods at the count n, as
// replayRun.syncAt does (the actual curve's metrics), or says why it
// could not.
func (f *fastPath) syncAt(k int, n int32) (syncOutcome, fastMiss) {
	f.p.replicas, f.started = n, true
	o, miss := f.sync(k)
	if miss != "" {
		return syncOutcome{}, miss
	}
	f.over(&o, k)
	return o, ""
}

// outcomes lends the outcome lists of replays summed up and done with
// (a week of syncs is 3 MB a replay).
var outcomes sync.Pool

// outcomesFor is an empty outcome list with room for n.
func outcomesFor(n int) []syncOutcome {
	if l, ok := outcomes.Get().(*[]syncOutcome); ok && cap(*l) >= n {
		return (*l)[:0]
	}
	return make([]syncOutcome, 0, n)
}

// keepOutcomes takes back a list no one reads any more.
func keepOutcomes(l []syncOutcome) {
	if cap(l) > 0 {
		outcomes.Put(&l)
	}
}

// state is the pod sp of the sync.
func (f *fastPath) state(sp *fastPod) *podState {
	if sp.real >= 0 {
		return &f.st[sp.real]
	}
	return &f.extras[sp.ext].podState
}

func (f *fastPath) exists(i int32, t int64) bool {
	return t >= f.sh.created[i] && t < f.sh.deleted[i]
}

// sync replays the sync at k (replayRun.sync and engine.Evaluate) and
// carries its decision into the replay (replayRun.apply).
func (f *fastPath) sync(k int) (syncOutcome, fastMiss) {
	p, sh := f.p, f.sh
	tn := sh.instant[k]
	actual, known := sh.actual[k], sh.known[k]
	if !f.started || !known && f.recorded {
		p.replicas = actual
		f.started = known || !f.recorded
	}
	if x := sh.ext[k]; x >= 0 {
		p.replicas = x
	}
	exact := p.replicas == actual
	if !exact {
		f.diffAt = tn
	}
	samples := exactSamples(exact, f.diffAt, f.diffAt != noTime, sh.sampleEnd[k], f.window)
	if samples && f.wasExact && f.lastK == k-1 && f.elders == 0 {
		// A sync on the real pods after another: the replay's pods and
		// their bookkeeping are the recording's, worked out once.
		f.lastK, f.skipped = k, k
		p.exactAt = k
		f.npods = int(sh.fend[k] - sh.fstart[k])
		f.readyNow = int(sh.readyNow[k])
		for r := range f.sums {
			if f.reads[r] {
				f.sums[r] = f.exact[r][k]
			}
		}
		return f.finish(tn, true)
	}
	if !exact && f.steadyOK && f.elders == 0 && f.lastK == k-1 && sh.fstart[k] == f.steadyFrame && p.replicas == f.steadyReplicas &&
		actual == f.steadyActual && tn < f.stableUntil && sh.sampleTs[k] < f.stableTs {
		if o, ok := f.steady(k, tn); ok {
			return o, ""
		}
	}
	if f.steadyAt >= 0 {
		// The syncs the steady lane skipped kept the same pods.
		for _, i := range f.prevReal {
			f.inSync[i] = int32(f.steadyAt + 1)
		}
		for _, i := range f.liveReal {
			f.liveIn[i] = int32(f.steadyAt + 1)
		}
		f.steadyAt = -1
	}
	f.steadyOK = false
	if f.skipped >= 0 {
		// The bookkeeping of the syncs skipped: that of the last one (the
		// sync before this one in a replay of every sync; the actual
		// curve's replay skips syncs: syncAt).
		f.prevReal = f.prevReal[:0]
		fr := sh.frame(f.skipped)
		for j := range fr {
			if fp := &fr[j]; fp.st&flagEarly == 0 {
				f.st[fp.i] = podState{since: fp.since, st: fp.st & (flagReady | flagDeleting), phase: fp.phase}
				f.prevReal = append(f.prevReal, fp.i)
				f.inSync[fp.i] = int32(f.skipped + 1)
				if fp.st&flagDeleting == 0 {
					f.liveIn[fp.i] = int32(f.skipped + 1)
				}
			}
		}
	}
	f.skipped = -1
	f.wasExact = exact
	// The real pods, as refresh and alignToActual leave them.
	fr := sh.frame(k)
	f.cur = f.cur[:0]
	for j := range fr {
		fp := &fr[j]
		f.st[fp.i] = podState{since: fp.since, st: fp.st & (flagReady | flagDeleting), phase: fp.phase}
		f.cur = append(f.cur, fastPod{real: fp.i, ext: -1, early: fp.st&flagEarly != 0, reports: fp.st&flagReports != 0})
	}
	f.vanished = f.vanished[:0]
	for _, i := range f.prevReal {
		if !f.exists(i, tn) {
			f.vanished = append(f.vanished, i)
			if !slices.Contains(f.gone, i) {
				f.gone = append(f.gone, i)
			}
		}
	}
	f.prevReal = f.prevReal[:0]
	p.exactAt = -1
	if exact {
		p.exactAt = k
	}
	f.born = f.born[:0]
	if n := max(int(p.replicas-actual), 0); n < len(f.extras) {
		for e := range f.extras[n:] {
			if x := &f.extras[n+e]; x.kept < 0 {
				f.born = append(f.born, x.start)
			}
		}
	}
	switch {
	case p.replicas > actual:
		f.growExtras(int(p.replicas-actual), tn)
		for e := range f.extras {
			x := &f.extras[e]
			if x.kept < 0 && x.st&flagReady == 0 && tn >= x.readyAt {
				x.st |= flagReady
				x.since = x.readyAt
			}
			f.cur = append(f.cur, fastPod{real: -1, ext: int32(e), reports: tn >= x.reportAt})
		}
	case p.replicas < actual:
		f.extras, f.gone = f.extras[:0], f.gone[:0]
		drop := min(int(actual-p.replicas), len(f.cur))
		perm := sh.perm(k)
		f.buf = append(f.buf[:0], f.cur...)
		for j, at := range perm {
			f.cur[j] = f.buf[at]
		}
		f.cur = f.cur[:len(f.cur)-drop]
	default:
		f.extras, f.gone = f.extras[:0], f.gone[:0]
	}
	for j := range f.cur {
		if sp := &f.cur[j]; sp.real >= 0 && !sp.early {
			f.prevReal = append(f.prevReal, sp.real)
		}
	}
	// Real pods taken back (replayRun.sync).
	delay := p.opts.SampleDelay.Nanoseconds()
	var prevT int64
	if k > 0 {
		prevT = sh.instant[k-1]
	}
	stand := standIns(p.replicas, actual, len(f.vanished))
	for j := range f.cur {
		sp := &f.cur[j]
		if sp.real < 0 || sp.early {
			continue
		}
		i := sp.real
		if k > 0 && f.lastK >= 0 && int(f.inSync[i]) != f.lastK+1 && f.exists(i, prevT) {
			if stand > 0 {
				f.backAt[i] = f.backAt[f.vanished[len(f.vanished)-stand]]
				stand--
			} else {
				f.backAt[i] = tn
			}
		}
		back := f.backAt[i]
		sp.reports = sp.reports && (exact || back == noTime || tn >= back+delay)
		if !exact && back != noTime {
			f.startedAgain(&f.st[i], back, tn)
		}
	}
	if f.elderSync(k, tn, prevT) {
		fastElderSyncs.Add(1)
		f.diffAt = tn
		samples = false
		p.exactAt = -1
	}
	for _, i := range f.prevReal {
		f.inSync[i] = int32(k + 1)
	}
	f.liveReal = f.liveReal[:0]
	for j := range f.cur {
		if sp := &f.cur[j]; sp.real >= 0 && !sp.early && f.st[sp.real].st&flagDeleting == 0 {
			f.liveIn[sp.real] = int32(k + 1)
			f.liveReal = append(f.liveReal, sp.real)
		}
	}
	f.lastK = k

	f.npods = len(f.cur)
	f.readyNow = 0
	for j := range f.cur {
		if f.state(&f.cur[j]).ready() {
			f.readyNow++
		}
	}
	// The accounting of each resource a metric reads.
	f.missing = f.missing[:0]
	for r := range f.sums {
		if !f.reads[r] {
			continue
		}
		if samples {
			f.sums[r] = f.exact[r][k]
			continue
		}
		f.sums[r], f.steadyHas[r] = f.spread(r, k, tn)
	}
	if !exact && f.elders == 0 {
		f.holdSteady(k, tn)
	}
	return f.finish(tn, samples)
}

// fastElderSyncs counts the fast path's syncs with an elder (a test reads
// it: the random recordings must have some).
var fastElderSyncs atomic.Int64

// elderSync is replayRun.elders: it pairs, makes the elders the replay's
// pods, counts them (elders) and reports whether one ran in the sync.
func (f *fastPath) elderSync(k int, tn, prevT int64) bool {
	sh := f.sh
	for j := range f.cur {
		if i := f.cur[j].real; i >= 0 && f.elderAt[i] != noTime && int(f.liveIn[i]) != f.lastK+1 {
			f.elderAt[i] = noTime
		}
	}
	if len(f.born) > 0 && k > 0 && f.lastK >= 0 {
		slices.Sort(f.born)
		f.fresh = f.fresh[:0]
		for j := range f.cur {
			sp := &f.cur[j]
			if i := sp.real; i >= 0 && !sp.early && f.st[i].st&flagDeleting == 0 && int(f.liveIn[i]) != f.lastK+1 && f.elderAt[i] == noTime &&
				(int(f.inSync[i]) == f.lastK+1 || !f.exists(i, prevT)) {
				f.fresh = append(f.fresh, i)
			}
		}
		slices.SortStableFunc(f.fresh, func(a, b int32) int { return cmp.Compare(sh.created[a], sh.created[b]) })
		b := 0
		for _, i := range f.fresh {
			if b < len(f.born) && f.born[b] < sh.created[i] {
				f.elderAt[i] = f.born[b]
				b++
			}
		}
	}
	f.elders = 0
	startup, delay := f.p.opts.PodStartup.Nanoseconds(), f.p.opts.SampleDelay.Nanoseconds()
	for j := range f.cur {
		sp := &f.cur[j]
		i := sp.real
		if i < 0 || sp.early || f.elderAt[i] == noTime {
			continue
		}
		s := &f.st[i]
		if sp.reports && s.phase == phaseRunning && s.st&flagReady != 0 && sh.sampleEnd[k] >= s.since+f.window {
			f.elderAt[i] = noTime
			continue
		}
		f.elders++
		born := f.elderAt[i]
		s.phase = phaseRunning
		if readyAt := born + startup; tn < readyAt {
			s.st &^= flagReady
			s.since = born
		} else {
			s.st |= flagReady
			s.since = readyAt
		}
		sp.reports = tn >= born+delay
	}
	return f.elders > 0
}

// finish decides the sync at tn and carries the decision into the replay
// (replayRun.apply).
func (f *fastPath) finish(tn int64, exact bool) (syncOutcome, fastMiss) {
	p := f.p
	f.mark(tn, f.readyNow)
	o, miss := f.decide(tn, exact)
	if miss != "" {
		return o, miss
	}
	if o.rescale {
		switch {
		case o.desired < o.current:
			f.mark(tn, min(f.readyNow, int(o.desired)))
		case o.desired > o.current && f.startup < f.step:
			f.mark(tn+f.startup, f.readyNow+int(o.desired-o.current))
		}
		p.exactAt = -1
		if o.desired > p.replicas {
			f.scaledUp = tn
		}
		p.replicas = o.desired
	}
	return o, ""
}

// startedAgain is replayRun.startedAgain on a pod's state.
func (f *fastPath) startedAgain(s *podState, back, t int64) {
	readyAt := back + f.p.opts.PodStartup.Nanoseconds()
	ready := s.st&flagReady != 0
	switch {
	case t < readyAt:
		s.st &^= flagReady
		s.since = back
	case ready && s.since < readyAt:
		s.since = readyAt
	case !ready && s.since < back:
		s.since = back
	}
}

// growExtras is replayRun.growExtras.
func (f *fastPath) growExtras(n int, t int64) {
	if f.scaledUp != noTime && f.scaledUp < t {
		t = f.scaledUp
	}
	for len(f.extras) < n && len(f.gone) > 0 {
		i := f.gone[len(f.gone)-1]
		f.gone = f.gone[:len(f.gone)-1]
		s := f.st[i]
		s.st &^= flagDeleting
		s.phase = phaseRunning
		f.extras = append(f.extras, fastExtra{podState: s, kept: i, start: f.sh.start[i], readyAt: noTime, reportAt: noTime})
	}
	startup, delay := f.p.opts.PodStartup.Nanoseconds(), f.p.opts.SampleDelay.Nanoseconds()
	for len(f.extras) < n {
		f.extras = append(f.extras, fastExtra{podState: podState{since: t, phase: phaseRunning}, kept: -1, start: t, readyAt: t + startup, reportAt: t + delay})
	}
	f.extras = f.extras[:n]
}

// spread is the accounting of resource r at k where the replay runs its
// own pods: each reporting pod shows the recorded load spread by the load
// model (fillResource), the same for every one.
func (f *fastPath) spread(r, k int, now int64) (podSums, bool) {
	p, sh := f.p, f.sh
	res := corev1.ResourceName(p.resources[r].Name)
	totals, n := p.load.at(r, k)
	has := n != 0 && len(totals) >= sh.containers
	var milli int64
	if has {
		share := 0.0
		if p.opts.LoadModel == explain.LoadConstantTotal {
			share = f.sampleShare(k)
		}
		for c := range sh.containers {
			v := totals[c] / float64(n)
			if p.opts.LoadModel == explain.LoadConstantTotal {
				v = totals[c] * share
			}
			milli += usageMilli(res, v)
		}
	}
	ts, window := sh.sampleTs[k], f.window
	cpu := res == corev1.ResourceCPU
	s := podSums{missFrom: int32(len(f.missing))}
	for j := range f.cur {
		sp := &f.cur[j]
		st := f.state(sp)
		var start, req int64
		if sp.real >= 0 {
			start, req = sh.start[sp.real], sh.requests[int(sp.real)*f.nr+r]
		} else {
			x := &f.extras[sp.ext]
			start = x.start
			if x.kept >= 0 {
				req = sh.requests[int(x.kept)*f.nr+r]
			} else {
				req = sh.tmplRequests[r]
			}
		}
		if sp.reports {
			s.items++
		}
		cls := classify(st.st, st.phase, st.since, start, sp.reports && has, cpu, ts, window, now, f.cpuInit, f.readyDelay)
		s.add(cls, milli, req, &f.missing)
	}
	return s, has
}

// spreadMilli is the milli-value each reporting pod shows of resource r
// at k where the replay runs its own pods, and whether they show one.
func (f *fastPath) spreadMilli(r, k int) (int64, bool) {
	p := f.p
	res := corev1.ResourceName(p.resources[r].Name)
	totals, n := p.load.at(r, k)
	if n == 0 || len(totals) < f.sh.containers {
		return 0, false
	}
	share := 0.0
	if p.opts.LoadModel == explain.LoadConstantTotal {
		share = f.sampleShare(k)
	}
	var milli int64
	for c := range f.sh.containers {
		v := totals[c] / float64(n)
		if p.opts.LoadModel == explain.LoadConstantTotal {
			v = totals[c] * share
		}
		milli += usageMilli(res, v)
	}
	return milli, true
}

// holdSteady notes, after a sync on the replay's own pods, until when
// nothing of its pods can change while the recording's frame, the
// replay's count and the real one stay: the next moment a pod taken back
// reports or is ready again, an extra is ready or reports, a pod leaves
// the cpu initialization period or its samples leave the window of its
// last readiness change.
func (f *fastPath) holdSteady(k int, tn int64) {
	p, sh := f.p, f.sh
	until, untilTs := maxTime, maxTime
	soon := func(at int64) {
		if at > tn && at < until {
			until = at
		}
	}
	delay := p.opts.SampleDelay.Nanoseconds()
	ts := sh.sampleTs[k]
	for j := range f.cur {
		sp := &f.cur[j]
		var start int64
		switch {
		case sp.real >= 0:
			start = sh.start[sp.real]
			if back := f.backAt[sp.real]; back != noTime && !sp.early {
				soon(back + delay)
				soon(back + f.startup)
			}
		default:
			x := &f.extras[sp.ext]
			start = x.start
			if x.kept < 0 {
				soon(x.readyAt)
				soon(x.reportAt)
			}
		}
		soon(start + f.cpuInit)
		st := f.state(sp)
		if st.st&flagReady != 0 && start+f.cpuInit > tn && ts < st.since+f.window && st.since+f.window < untilTs {
			untilTs = st.since + f.window
		}
	}
	f.steadyOK, f.steadyFrame, f.steadyReplicas, f.steadyActual = true, sh.fstart[k], p.replicas, sh.actual[k]
	f.stableUntil, f.stableTs = until, untilTs
}

// steady replays the sync at k on the pods of the sync before, which
// nothing changed (holdSteady): their classes are the last sync's, the
// load they show this sync's.
func (f *fastPath) steady(k int, tn int64) (syncOutcome, bool) {
	for r := range f.sums {
		if !f.reads[r] {
			continue
		}
		milli, has := f.spreadMilli(r, k)
		if has != f.steadyHas[r] {
			return syncOutcome{}, false
		}
		f.sums[r].sumU = milli * int64(f.sums[r].ready)
	}
	f.lastK, f.steadyAt = k, k
	f.p.exactAt = -1
	o, _ := f.finish(tn, false)
	return o, true
}
