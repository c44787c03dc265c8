// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

// The pods of a replayed sync: the real ones as they were, aligned to the
// real count, taken back, standing in for pods of the replay that ended
// (standIns) or for the replay's own older pods (elders), and the replay's
// extra pods.

import (
	"fmt"
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// lookAhead is how far ahead of a sync a pod the recording has not seen
// yet may already exist: a store sees a new pod at its first sample, some
// scrapes after the pod was created.
const lookAhead = 30 * time.Second

// alignToActual makes the real pods of a sync agree with the real count
// where the recording sees pods late (at their first sample) or lets them
// linger (until their last): with fewer live pods than the real count, the
// pods the recording shows within lookAhead are added, Pending; with more,
// the newest are marked terminating, as the controller ignores the pods a
// scale-down is removing.
func (p *replayRun) alignToActual(actual, live int, t time.Time) {
	switch {
	case live < actual:
		for i := range p.rec.Pods {
			if live >= actual {
				break
			}
			rp := &p.rec.Pods[i]
			if !rp.Created.After(t) || rp.Created.After(t.Add(lookAhead)) {
				continue
			}
			pod := &p.real[i]
			pod.Status.Phase = corev1.PodPending
			pod.Status.Conditions[0].Status, pod.Status.Conditions[0].LastTransitionTime = corev1.ConditionFalse, metav1.NewTime(t)
			pod.DeletionTimestamp = nil
			p.cur = append(p.cur, syncPod{pod: pod, metrics: &p.realMetrics[i], real: i, early: true})
			live++
		}
	case live > actual:
		idx := make([]int, 0, len(p.cur))
		for j := range p.cur {
			if p.cur[j].pod.DeletionTimestamp == nil {
				idx = append(idx, j)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool {
			return p.rec.Pods[p.cur[idx[a]].real].Created.After(p.rec.Pods[p.cur[idx[b]].real].Created)
		})
		for _, j := range idx[:live-actual] {
			p.cur[j].pod.DeletionTimestamp = &metav1.Time{Time: t}
		}
	}
}

// reports says whether real pod i has a sample at k: a recorded one, once
// its creation is SampleDelay old.
func (p *replayRun) reports(i, k int, t time.Time) bool {
	if !p.hasSample(i, k) {
		return false
	}
	// A pod whose creation is known (before its first recorded sample)
	// reports to the metrics API SampleDelay after it; one created at its
	// first sample as far as the recording knows reports from then on.
	if c := p.rec.Pods[i].Created; p.firstSample[i] >= 0 && c.Before(p.rec.Instant(p.firstSample[i]).Add(-p.rec.Step)) {
		return !t.Before(c.Add(p.opts.SampleDelay))
	}
	return true
}

// hasSample reports whether real pod i has a recorded sample at k.
func (p *replayRun) hasSample(i, k int) bool {
	for _, s := range p.samples[i] {
		if _, ok := s.At(k); ok {
			return true
		}
	}
	return false
}

// realPodsAt makes the sync's pods the recorded ones that exist at t, as
// they were then, less or more to the actual count (alignToActual).
func (p *replayRun) realPodsAt(t time.Time, actual int32) {
	p.cur = p.cur[:0]
	live := 0
	for i := range p.rec.Pods {
		if p.rec.Pods[i].Exists(t) {
			p.refresh(i, t)
			p.cur = append(p.cur, syncPod{pod: &p.real[i], metrics: &p.realMetrics[i], real: i})
			if p.real[i].DeletionTimestamp == nil {
				live++
			}
		}
	}
	p.alignToActual(int(actual), live, t)
}

// startedAgain makes a real pod the replay took back at back (zero: never)
// a pod that started then, in the replay's world: not ready until
// PodStartup after it, and ready since then at the earliest.
func (p *replayRun) startedAgain(pod *corev1.Pod, back, t time.Time) {
	if back.IsZero() {
		return
	}
	c := &pod.Status.Conditions[0]
	readyAt := back.Add(p.opts.PodStartup)
	switch {
	case t.Before(readyAt):
		c.Status, c.LastTransitionTime = corev1.ConditionFalse, metav1.NewTime(back)
	case c.Status == corev1.ConditionTrue && c.LastTransitionTime.Time.Before(readyAt):
		c.LastTransitionTime = metav1.NewTime(readyAt)
	case c.Status != corev1.ConditionTrue && c.LastTransitionTime.Time.Before(back):
		c.LastTransitionTime = metav1.NewTime(back)
	}
}

// refresh sets a real pod's readiness at t.
func (p *replayRun) refresh(i int, t time.Time) {
	rp, pod := &p.rec.Pods[i], &p.real[i]
	ready, since := rp.ReadyAt(t)
	c := &pod.Status.Conditions[0]
	c.Status, c.LastTransitionTime = corev1.ConditionFalse, metav1.NewTime(since)
	if ready {
		c.Status = corev1.ConditionTrue
	}
	pod.Status.Phase = corev1.PodRunning
	if ph := rp.PhaseAt(t); ph != "" {
		pod.Status.Phase = corev1.PodPhase(ph)
	}
	pod.DeletionTimestamp = nil
	if rp.TerminatingAt(t) {
		pod.DeletionTimestamp = &metav1.Time{Time: *rp.Terminating}
	}
}

// growExtras keeps n extra pods: new ones are created at the replay's last
// scale-up (at t when there was none since the period began), the newest
// go first.
func (p *replayRun) growExtras(n int, t time.Time) {
	if !p.scaledUp.IsZero() && p.scaledUp.Before(t) {
		t = p.scaledUp
	}
	// First the real pods the workload removed and the replay keeps: as
	// they were, ready and reporting.
	for len(p.extras) < n && len(p.gone) > 0 {
		i := p.gone[len(p.gone)-1]
		p.gone = p.gone[:len(p.gone)-1]
		e := &extraPod{pod: *p.real[i].DeepCopy(), kept: i}
		e.pod.DeletionTimestamp = nil
		e.pod.Status.Phase = corev1.PodRunning
		e.metrics = podMetricsFor(&e.pod)
		p.extras = append(p.extras, e)
	}
	for len(p.extras) < n {
		p.serial++
		e := &extraPod{pod: *p.template.DeepCopy(), readyAt: t.Add(p.opts.PodStartup), reportAt: t.Add(p.opts.SampleDelay), kept: -1}
		e.pod.Name = fmt.Sprintf("replayed-%d", p.serial)
		e.pod.UID = ""
		e.pod.CreationTimestamp = metav1.NewTime(t)
		e.pod.Status = corev1.PodStatus{
			Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: t},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(t)}},
		}
		e.metrics = podMetricsFor(&e.pod)
		p.extras = append(p.extras, e)
	}
	p.extras = p.extras[:n]
}

func (p *replayRun) refreshExtra(e *extraPod, t time.Time) {
	if e.kept >= 0 {
		return
	}
	if c := &e.pod.Status.Conditions[0]; c.Status != corev1.ConditionTrue && !t.Before(e.readyAt) {
		c.Status, c.LastTransitionTime = corev1.ConditionTrue, metav1.NewTime(e.readyAt)
	}
}

// elders pairs the real pods that run in the replay from this sync on
// with the replay's own pods the sync no longer runs (born: created before
// them), and makes each real pod that stands in for one (an elder) the
// replay's pod: started, ready and reporting as that pod, until its own
// recorded sample is of it ready (elderHolds). A replay that scaled up
// before the workload did ran a pod of its own, and where the workload's
// new pod takes its place the replay's world had that pod since its own
// scale-up: the workload's is younger, without a sample and not ready yet
// when the replay's would have had both (a kept run: the controller
// running a candidate stepped 4 → 5 15 s after its 3 → 4, the replay 10 s
// later). It reports whether an elder ran in the sync.
func (p *replayRun) elders(k int, t time.Time) bool {
	rec := p.rec
	// A pod stands in only while it runs in the replay, sync after sync.
	for j := range p.cur {
		if i := p.cur[j].real; i >= 0 && !p.elderAt[i].IsZero() && p.liveIn[i] != p.lastK+1 {
			p.elderAt[i] = time.Time{}
		}
	}
	if len(p.born) > 0 && k > 0 && p.lastK >= 0 {
		slices.SortFunc(p.born, time.Time.Compare)
		p.fresh = p.fresh[:0]
		for j := range p.cur {
			sp := &p.cur[j]
			if i := sp.real; i >= 0 && !sp.early && sp.pod.DeletionTimestamp == nil && p.liveIn[i] != p.lastK+1 && p.elderAt[i].IsZero() &&
				!(p.inSync[i] != p.lastK+1 && rec.Pods[i].Exists(rec.Instant(k-1))) {
				p.fresh = append(p.fresh, i)
			}
		}
		slices.SortStableFunc(p.fresh, func(a, b int) int { return rec.Pods[a].Created.Compare(rec.Pods[b].Created) })
		b := 0
		for _, i := range p.fresh {
			if b < len(p.born) && p.born[b].Before(rec.Pods[i].Created) {
				p.elderAt[i] = p.born[b]
				b++
			}
		}
	}
	ran := false
	for j := range p.cur {
		sp := &p.cur[j]
		i := sp.real
		if i < 0 || sp.early || p.elderAt[i].IsZero() {
			continue
		}
		if !p.elderHolds(i, k, t, sp.reports) {
			p.elderAt[i] = time.Time{}
			continue
		}
		ran = true
		born := p.elderAt[i]
		pod, readyAt := sp.pod, born.Add(p.opts.PodStartup)
		pod.Status.Phase = corev1.PodRunning
		c := &pod.Status.Conditions[0]
		if t.Before(readyAt) {
			c.Status, c.LastTransitionTime = corev1.ConditionFalse, metav1.NewTime(born)
		} else {
			c.Status, c.LastTransitionTime = corev1.ConditionTrue, metav1.NewTime(readyAt)
		}
		sp.reports = !t.Before(born.Add(p.opts.SampleDelay))
	}
	return ran
}

// elderHolds says whether real pod i still stands in for the replay's pod
// at k: until it reports, is ready and its sample began after it was
// (recorded; then the controller counts it as it would the replay's).
func (p *replayRun) elderHolds(i, k int, t time.Time, reports bool) bool {
	if !reports || p.real[i].Status.Phase != corev1.PodRunning {
		return true
	}
	ready, since := p.rec.Pods[i].ReadyAt(t)
	return !ready || p.rec.SampleTime(k).Before(since.Add(p.rec.SampleWindow))
}

// standIns is how many of the real pods a sync takes back stand in for
// the pods of the last sync that the workload removed (vanished of them):
// all of them while the replay runs no more pods than the workload
// (replicas ≤ actual, so a subset of the real pods). The replay's own pod
// did not end there: the workload ended the real pod that played it, and
// another real pod, running and reporting all along, plays it on, as it
// was (taken back when it was, or never). Without this, a scale-down of
// the workload that removed one of the replay's pods made the replay see
// a new, unready pod, counted at its full request on the way down, and
// hold its count for a window (a kept run of the e2e proof: the replay
// with B's behavior stepped 4 → 3 and 3 → 2 35 s after B did). Above the
// real count, the pods the workload removed are kept as they were
// (growExtras), and a pod taken back is a new one.
func standIns(replicas, actual int32, vanished int) int {
	if replicas > actual {
		return 0
	}
	return vanished
}
