// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The fast replay: the syncs of a replay worked out on counts, sums and
// flat arrays instead of pod objects and the engine's full sync, for the
// HPAs and recordings it models (resource metrics of the pods, read with a
// Utilization or an AverageValue target). It decides what the reference
// replay (replayRun.run, engine.Evaluate at every sync) decides, sync by
// sync: the tests run both and compare every outcome (checkFastReplay,
// fastreplay_test.go). Where it does not model a case it says so before
// the first sync (fastMiss), or gives up at the sync that meets it, and
// the replay is the reference one. Only the replay chooses: its callers
// see one replay.

// fastReplay says whether a replay may take the fast path; the tests turn
// it off for the reference alone.
var fastReplay = true

// checkFastReplay makes every fast replay run the reference one too and
// compare their outcomes sync by sync (the tests set it): a difference
// panics, naming the sync.
var checkFastReplay bool

// fastServed and fastFellBack count the replays the fast path served and
// those it left to the reference (the tests read them).
var fastServed, fastFellBack atomic.Int64

// fastRestarts counts the streamed replays (replayEach) the fast path
// missed a sync of after it had handed out outcomes, which the reference
// replay then handed out again.
var fastRestarts atomic.Int64

// fastMiss is why the fast path does not serve a replay ("" when it does).
type fastMiss string

// The cases the fast path does not model; a replay meeting one is the
// reference replay.
const (
	missMetricType    fastMiss = "a metric other than a Resource metric of the pods"
	missTarget        fastMiss = "a Resource metric without an AverageValue or a positive AverageUtilization target"
	missNoMetrics     fastMiss = "an HPA without metrics"
	missUnmeasured    fastMiss = "a metric whose resource the recording does not hold"
	missSelector      fastMiss = "a selector that is empty, does not parse, or misses a pod"
	missOtherHPAs     fastMiss = "another HPA of the namespace whose selector selects a pod of the replay"
	missTargetRef     fastMiss = "a target that cannot be read (its apiVersion or a get error)"
	missScaleError    fastMiss = "a failing scale update (Target.UpdateError)"
	missNoPods        fastMiss = "a recording without pods"
	missContainers    fastMiss = "pods whose containers differ from one another"
	missRequests      fastMiss = "a pod without a request of a resource a Utilization target reads"
	missPodLevel      fastMiss = "pod-level requests"
	missZeroReplicas  fastMiss = "a sync at zero replicas"
	missUnknownPhases fastMiss = "a pod phase other than Pending, Running, Failed or Succeeded"
	missPodNames      fastMiss = "two recorded pods of one name, or one named as the replay names its own"
)

// fastEach replays every sync of p's recording, as p.run(first, nil)
// does, by the fast path where it serves: it hands the outcome of each
// sync from first on to do as it comes, and served is true. Where the
// fast path does not serve, it returns the reference replay's outcomes
// (served false), and do has none of them; if the fast path missed a sync
// after it had handed out outcomes, restart is called first.
func (r *Replayer) fastEach(p *replayRun, first int, do func(k int, o *syncOutcome), restart func()) (ref []syncOutcome, served bool, err error) {
	if fastReplay {
		sh := r.fastShared(p)
		miss := sh.miss
		var f *fastPath
		if miss == "" {
			f, miss = newFastPath(p, sh)
		}
		if miss == "" {
			handed := false
			miss = f.each(first, func(k int, o *syncOutcome) {
				handed = true
				do(k, o)
			})
			if miss == "" {
				fastServed.Add(1)
				return nil, true, nil
			}
			if handed {
				fastRestarts.Add(1)
				restart()
			}
		}
		fastFellBack.Add(1)
	}
	ref, err = p.run(first, nil)
	return ref, false, err
}

// replayEach replays every sync of p's recording as replayOutcomes does,
// and hands the outcome of each from first on to do as it comes: where
// the fast path serves, without a list of them (a month of syncs is 14 MB
// a replay). When the fast path misses a sync after it has handed out
// outcomes, restart is called and do is handed the reference replay's
// outcomes from first on again. Under the tests (checkFastReplay) it is
// replayOutcomes, whose list the reference replay's is compared with.
func (r *Replayer) replayEach(p *replayRun, first int, do func(k int, o *syncOutcome), restart func()) error {
	var out []syncOutcome
	var err error
	if checkFastReplay {
		out, err = r.replayOutcomes(p, first)
	} else {
		out, _, err = r.fastEach(p, first, do, restart)
	}
	if err != nil {
		return err
	}
	for i := range out {
		do(first+i, &out[i])
	}
	keepOutcomes(out)
	return nil
}

// replayOutcomes replays every sync of p's recording and returns the
// outcomes of those from first on, as p.run(first, nil) does: by the fast
// path where it serves, else by p.run.
func (r *Replayer) replayOutcomes(p *replayRun, first int) ([]syncOutcome, error) {
	var out []syncOutcome
	keep := func(_ int, o *syncOutcome) {
		if out == nil {
			out = outcomesFor(p.rec.Len - first)
		}
		out = append(out, *o)
	}
	reference, served, err := r.fastEach(p, first, keep, func() { out = out[:0] })
	if !served {
		keepOutcomes(out)
		return reference, err
	}
	if checkFastReplay {
		ref, err := newReplayRun(p.name, r.snap, p.snap.HPA, p.rec, p.set, p.opts)
		if err != nil {
			panic(err)
		}
		ref.load = p.load
		want, err := ref.run(first, nil)
		if err != nil {
			panic(fmt.Sprintf("the reference replay failed where the fast one did not: %v", err))
		}
		compareOutcomes(want, out, first)
		if !slices.Equal(ref.labels, p.labels) {
			panic(fmt.Sprintf("fast replay: labels %q, the reference's %q", p.labels, ref.labels))
		}
		for i := range ref.last.Metrics {
			if ref.last.Metrics[i].TargetType != p.last.Metrics[i].TargetType {
				panic(fmt.Sprintf("fast replay: metric %d's target type %q, the reference's %q", i, p.last.Metrics[i].TargetType, ref.last.Metrics[i].TargetType))
			}
		}
	}
	return out, nil
}

// compareOutcomes panics at the first sync whose outcome differs.
func compareOutcomes(want, got []syncOutcome, first int) {
	if len(want) != len(got) {
		panic(fmt.Sprintf("fast replay: %d outcomes, the reference %d", len(got), len(want)))
	}
	for k := range want {
		if !reflect.DeepEqual(want[k], got[k]) {
			panic(fmt.Sprintf("fast replay: sync %d decided %+v, the reference %+v", first+k, got[k], want[k]))
		}
	}
}

// fastShared is what the fast replays of one Replayer share: the checks
// of the recording and the real pods as every replay sees them, sync by
// sync (built once, read by every replay).
type fastShared struct {
	miss fastMiss
	// frames[fstart[k]:fend[k]] are the real pods of the sync at k (those
	// that exist, and those alignToActual adds early) in the replay's
	// order, as refresh and alignToActual leave them; sorted[from[k]+j]
	// is the place in the frame of the j-th by podOrder (sortPods);
	// sorted[fstart[k]+j] likewise.
	frames []framePod
	sorted []int32
	// fstart[k], fend[k] bound the frame of the sync at k in frames and
	// sorted; a frame the same as the one before is not kept again.
	fstart, fend []int32
	// actual[k] is the real count at k, known[k] whether it was recorded;
	// readyShare[k] the recorded pods' share of the load between k and the
	// next sync (Recording.ReadyShare).
	actual     []int32
	known      []bool
	readyShare []float64
	// instant[k] is the sync's time, sampleEnd[k] the time of the samples
	// it reads and sampleTs[k] that time in whole seconds; ext[k] the
	// count a change by hand sets just before it (-1: none); readyNow[k]
	// the ready pods of its frame.
	instant, sampleEnd, sampleTs []int64
	ext                          []int32
	readyNow                     []int32
	// exact[r][k] is resource r's accounting at k where the replay runs
	// the real pods (the same in every replay), worked out when a replay
	// first reads r (exactOnce[r]); missReq[r] holds the requests of the
	// pods without a sample it lists. scratch is the replay that laid the
	// pods out, whose series it reads.
	exact     [][]podSums
	missReq   [][]int64
	exactOnce []sync.Once
	scratch   *replayRun
	// Per real pod: created, deleted (maxTime: never), start (the pod's
	// startTime), and its request of each resource (requests[i*nr+r],
	// ok where every container requests it); the template's likewise.
	created, deleted, start []int64
	requests                []int64
	requested               []bool
	tmplRequests            []int64
	tmplRequested           []bool
	// containers is how many containers a pod reports usage of.
	containers int
}

// framePod is one real pod of a sync as refresh and alignToActual leave
// it.
type framePod struct {
	since int64
	i     int32
	st    podFlags
	phase podPhase
}

// podFlags are a pod's readiness and whereabouts.
type podFlags uint8

const (
	flagReady podFlags = 1 << iota
	flagDeleting
	flagEarly
	flagReports
)

// podPhase is a pod's phase, as the sync reads it.
type podPhase uint8

const (
	phaseRunning podPhase = iota
	phasePending
	phaseFailed
	phaseSucceeded
)

func phaseOf(p corev1.PodPhase) (podPhase, bool) {
	switch p {
	case corev1.PodRunning:
		return phaseRunning, true
	case corev1.PodPending:
		return phasePending, true
	case corev1.PodFailed:
		return phaseFailed, true
	case corev1.PodSucceeded:
		return phaseSucceeded, true
	case corev1.PodUnknown:
		return 0, false
	}
	return 0, false
}

// podSums is one resource's accounting over the pods of a sync: the
// ready pods with a sample (their usage and requests summed), the pods
// without one that the fill-in may count, and the unready ones.
type podSums struct {
	items, ready, unready, missing int32
	sumU, sumR, unreadyReq         int64
	// missFrom indexes the requests of the missing pods in missReq.
	missFrom int32
}

// fastShared returns the Replayer's shared part of the fast replays,
// built by the first one.
func (r *Replayer) fastShared(p *replayRun) *fastShared {
	r.buildShared(p)
	r.loadOnce.Do(func() { r.load = p.totalLoad() })
	if p.load == nil {
		p.load = r.load
	}
	return r.fast
}

// buildShared builds the shared part, once, with p's HPA; it reads
// nothing p's replay writes (the recorded load may be worked out beside
// it).
func (r *Replayer) buildShared(p *replayRun) {
	r.fastOnce.Do(func() {
		// A replay of its own lays the pods out: p's are left as they are.
		scratch, err := newReplayRun(p.name, r.snap, p.snap.HPA, p.rec, p.set, p.opts)
		if err != nil {
			r.fast = &fastShared{miss: missNoPods}
			return
		}
		defer func() { r.fastBuilt.Store(r.fast) }()
		if sh := r.parent.phaseShared(r); sh != nil {
			r.fast = sh.forVariant(scratch)
			return
		}
		r.fast = buildFastShared(r, scratch)
		r.parent.keepPhase(r)
	})
}

// fastSharedOnce holds a Replayer's fastShared.
type fastSharedOnce struct {
	fast     *fastShared
	fastOnce sync.Once
	// fastBuilt is fast once built, for readers outside fastOnce.
	fastBuilt atomic.Pointer[fastShared]
}

// buildFastShared checks the recording and the snapshot for the fast
// path and works out what its replays share, with p's replay (whose
// first sync has not run) as the scratch that lays out the pods.
func buildFastShared(r *Replayer, p *replayRun) *fastShared {
	sh := &fastShared{}
	rec := p.rec
	switch {
	case len(rec.Pods) == 0:
		sh.miss = missNoPods
		return sh
	case p.snap.Target.UpdateError != "":
		sh.miss = missScaleError
		return sh
	case r.snap.Target.GetError != "":
		sh.miss = missTargetRef
		return sh
	}
	if r.snap.Target.Selector == "" {
		sh.miss = missSelector
		return sh
	}
	sel, err := labels.Parse(r.snap.Target.Selector)
	if err != nil {
		sh.miss = missSelector
		return sh
	}
	names := func(pod *corev1.Pod) []string {
		var out []string
		for _, c := range usageContainers(pod) {
			out = append(out, c.Name)
		}
		return out
	}
	want := names(&p.template)
	sh.containers = len(want)
	if len(want) == 0 {
		sh.miss = missContainers
		return sh
	}
	pods := make([]*corev1.Pod, 0, len(p.real)+1)
	for i := range p.real {
		pods = append(pods, &p.real[i])
	}
	pods = append(pods, &p.template)
	// Another HPA selecting one of the pods the replay runs (a recorded
	// pod, or one made from the template) makes the controller's
	// ambiguous-selector check fail at some sync, which the fast path does
	// not model; other HPAs of the namespace that select none of them
	// (the many HPAs of a namespace, each its own workload's) never change
	// a sync: the engine checks them against the sync's selected pods,
	// which are among these.
	if len(engine.SelectingHPAs(r.snap.OtherHPAs, r.snap.HPA, pods)) > 0 {
		sh.miss = missOtherHPAs
		return sh
	}
	for _, pod := range pods {
		if !sel.Matches(labels.Set(pod.Labels)) {
			sh.miss = missSelector
			return sh
		}
		if !slices.Equal(names(pod), want) {
			sh.miss = missContainers
			return sh
		}
		if pod.Spec.Resources != nil {
			sh.miss = missPodLevel
			return sh
		}
	}
	seen := make(map[string]bool, len(rec.Pods))
	for i := range rec.Pods {
		name := rec.Pods[i].Name
		if seen[name] || strings.HasPrefix(name, "replayed-") {
			sh.miss = missPodNames
			return sh
		}
		seen[name] = true
	}
	nr := len(p.resources)
	n := len(rec.Pods)
	sh.created, sh.deleted, sh.start = make([]int64, n), make([]int64, n), make([]int64, n)
	sh.requests, sh.requested = make([]int64, n*nr), make([]bool, n*nr)
	for i := range rec.Pods {
		rp := &rec.Pods[i]
		sh.created[i] = rp.Created.UnixNano()
		sh.deleted[i] = maxTime
		if rp.Deleted != nil {
			sh.deleted[i] = rp.Deleted.UnixNano()
		}
		sh.start[i] = startOf(&p.real[i]).UnixNano()
		for ri, m := range p.resources {
			sh.requests[i*nr+ri], sh.requested[i*nr+ri] = containerRequest(&p.real[i], corev1.ResourceName(m.Name))
		}
	}
	sh.tmplRequests, sh.tmplRequested = make([]int64, nr), make([]bool, nr)
	for ri, m := range p.resources {
		sh.tmplRequests[ri], sh.tmplRequested[ri] = containerRequest(&p.template, corev1.ResourceName(m.Name))
	}
	more := func() (*replayRun, error) { return newReplayRun(p.name, r.snap, p.snap.HPA, p.rec, p.set, p.opts) }
	if miss := sh.lay(p, more); miss != "" {
		sh.miss = miss
	}
	return sh
}

// maxTime stands for a time that never comes.
const maxTime = int64(1<<63 - 1)

// containerRequest is a pod's request of res over its containers in
// milli-units, as the controller sums it (ok false when a container
// requests none).
func containerRequest(pod *corev1.Pod, res corev1.ResourceName) (int64, bool) {
	var sum int64
	for _, c := range usageContainers(pod) {
		q, ok := c.Resources.Requests[res]
		if !ok {
			return 0, false
		}
		sum += q.MilliValue()
	}
	return sum, true
}

// order is podCompare of two real pods of a frame.
func (sh *fastShared) order(a, b *framePod, p *replayRun) int {
	ra, rb := a.ready(), b.ready()
	if ra != rb {
		if ra {
			return -1
		}
		return 1
	}
	if ta, tb := sh.start[a.i], sh.start[b.i]; ta != tb {
		if ta < tb {
			return -1
		}
		return 1
	}
	na, nb := p.rec.Pods[a.i].Name, p.rec.Pods[b.i].Name
	switch {
	case na < nb:
		return -1
	case nb < na:
		return 1
	}
	return 0
}

// ready is isReady of the pod: Running, its Ready condition true.
func (f *framePod) ready() bool { return f.phase == phaseRunning && f.st&flagReady != 0 }

// frame is the real pods of the sync at k; perm their podOrder.
func (sh *fastShared) frame(k int) []framePod { return sh.frames[sh.fstart[k]:sh.fend[k]] }

func (sh *fastShared) perm(k int) []int32 { return sh.sorted[sh.fstart[k]:sh.fend[k]] }

// exactOf is resource r's accounting at every sync where the replay runs
// the real pods, and the requests of the pods without a sample it lists.
func (sh *fastShared) exactOf(r int) ([]podSums, []int64) {
	sh.exactOnce[r].Do(func() {
		// In spans at once (recording.Spans), each listing its own pods
		// without a sample, joined in order.
		p := sh.scratch
		out := make([]podSums, p.rec.Len)
		spans := recording.Spans(p.rec.Len)
		miss := make([][]int64, len(spans))
		eachSpan(spans, func(j, from, to int) {
			for k := from; k < to; k++ {
				out[k] = sh.exactSums(p, k, r, sh.frame(k), &miss[j])
			}
		})
		for j, span := range spans {
			base := int32(len(sh.missReq[r]))
			for k := span[0]; k < span[1]; k++ {
				out[k].missFrom += base
			}
			sh.missReq[r] = append(sh.missReq[r], miss[j]...)
		}
		sh.exact[r] = out
	})
	return sh.exact[r], sh.missReq[r]
}

// exactSums is the accounting of resource ri over the real pods fr of
// the sync at k, with their recorded samples; the requests of the pods
// without one go to missReq.
func (sh *fastShared) exactSums(p *replayRun, k, ri int, fr []framePod, missReq *[]int64) podSums {
	res := corev1.ResourceName(p.resources[ri].Name)
	nr := len(p.resources)
	ts, window := sh.sampleTs[k], p.rec.SampleWindow.Nanoseconds()
	now := sh.instant[k]
	s := podSums{missFrom: int32(len(*missReq))}
	for j := range fr {
		fp := &fr[j]
		i := int(fp.i)
		var milli int64
		has := false
		if fp.st&flagReports != 0 {
			s.items++
			has = true
			for c := range p.realMetrics[i].Containers {
				v, ok := p.usage[i][ri][c].At(k)
				if !ok {
					has = false
					break
				}
				milli += usageMilli(res, v)
			}
		}
		cls := classify(fp.st, fp.phase, fp.since, sh.start[i], has, res == corev1.ResourceCPU, ts, window, now, p.set.CPUInitializationPeriod.Nanoseconds(), p.set.InitialReadinessDelay.Nanoseconds())
		req := sh.requests[i*nr+ri]
		s.add(cls, milli, req, missReq)
	}
	return s
}

// add counts one pod of class cls (its sample milli, its request req).
func (s *podSums) add(cls podClassOf, milli, req int64, missReq *[]int64) {
	switch cls {
	case classReady:
		s.ready++
		s.sumU += milli
		s.sumR += req
	case classUnready:
		s.unready++
		s.unreadyReq += req
	case classMissing:
		s.missing++
		*missReq = append(*missReq, req)
	case classIgnored:
	}
}

// podClassOf is how a pod counts in a resource's accounting.
type podClassOf uint8

const (
	classReady podClassOf = iota
	classUnready
	classMissing
	classIgnored
)

// classify sorts a pod as the controller's grouping does: deleting or
// Failed, ignored; Pending, unready; without a sample, missing; for cpu,
// unready while it may still be starting or if it never became ready
// (its start, its Ready condition since since, the sample's time ts and
// window, the sync's time now, all in nanoseconds).
func classify(st podFlags, ph podPhase, since, start int64, has, cpu bool, ts, window, now, cpuInit, readinessDelay int64) podClassOf {
	switch {
	case st&flagDeleting != 0 || ph == phaseFailed:
		return classIgnored
	case ph == phasePending:
		return classUnready
	case !has:
		return classMissing
	case !cpu:
		return classReady
	}
	ready := st&flagReady != 0
	if start+cpuInit > now {
		if !ready || ts < since+window {
			return classUnready
		}
		return classReady
	}
	if !ready && start+readinessDelay > since {
		return classUnready
	}
	return classReady
}

// fastSpec is what the fast path reads of an HPA, checked.
type fastSpec struct {
	metrics []fastMetric
	minR    int32
	maxR    int32
	// behavior: nil for the legacy path.
	behavior *autoscalingv2.HorizontalPodAutoscalerBehavior
	upWin    int32
	downWin  int32
	tolDown  float64
	tolUp    float64
	absolute bool
}

// fastMetric is one Resource metric: the resource's index among the
// recording's, its target, and its name in the controller's messages.
type fastMetric struct {
	r      int
	raw    bool
	util   int32
	value  int64
	name   string
	cpu    bool
	target string
	label  string
}

// specOf checks the HPA of p for the fast path.
func specOf(p *replayRun, sh *fastShared) (fastSpec, fastMiss) {
	h := p.snap.HPA
	var s fastSpec
	if _, err := schema.ParseGroupVersion(h.Spec.ScaleTargetRef.APIVersion); err != nil {
		return s, missTargetRef
	}
	if len(h.Spec.Metrics) == 0 {
		return s, missNoMetrics
	}
	nr := len(p.resources)
	for i := range h.Spec.Metrics {
		m := &h.Spec.Metrics[i]
		if m.Type != autoscalingv2.ResourceMetricSourceType || m.Resource == nil || m.Resource.Name == "" {
			return s, missMetricType
		}
		if i < len(p.demand) && p.demand[i].kind == "" {
			return s, missUnmeasured
		}
		fm := fastMetric{r: -1, cpu: m.Resource.Name == corev1.ResourceCPU, label: string(m.Resource.Name)}
		for ri, rm := range p.resources {
			if rm.Name == string(m.Resource.Name) {
				fm.r = ri
			}
		}
		if fm.r < 0 {
			return s, missUnmeasured
		}
		t := m.Resource.Target
		switch {
		case t.AverageValue != nil:
			fm.raw, fm.value = true, t.AverageValue.MilliValue()
			fm.name = string(m.Resource.Name) + " resource"
			if fm.value <= 0 {
				return s, missTarget
			}
		case t.AverageUtilization != nil && *t.AverageUtilization > 0:
			fm.util = *t.AverageUtilization
			fm.name = string(m.Resource.Name) + " resource utilization (percentage of request)"
			for i := range p.rec.Pods {
				if !sh.requested[i*nr+fm.r] {
					return s, missRequests
				}
			}
			if !sh.tmplRequested[fm.r] {
				return s, missRequests
			}
		default:
			return s, missTarget
		}
		if src, ok := metricsource.Of(m); ok {
			fm.target = string(src.Target.Type)
		}
		s.metrics = append(s.metrics, fm)
	}
	s.minR, s.maxR = 1, h.Spec.MaxReplicas
	if h.Spec.MinReplicas != nil {
		s.minR = *h.Spec.MinReplicas
	}
	set := p.set
	sw := set.Profile.Switches
	s.tolDown, s.tolUp, s.absolute = set.Tolerance, set.Tolerance, sw.AbsoluteTolerance
	b := h.Spec.Behavior
	if b != nil && sw.BehaviorTolerance {
		if b.ScaleDown != nil && b.ScaleDown.Tolerance != nil {
			s.tolDown = b.ScaleDown.Tolerance.AsApproximateFloat64()
		}
		if b.ScaleUp != nil && b.ScaleUp.Tolerance != nil {
			s.tolUp = b.ScaleUp.Tolerance.AsApproximateFloat64()
		}
	}
	s.behavior = b
	if b != nil {
		if b.ScaleUp != nil && b.ScaleUp.StabilizationWindowSeconds != nil {
			s.upWin = *b.ScaleUp.StabilizationWindowSeconds
		}
		if b.ScaleDown != nil && b.ScaleDown.StabilizationWindowSeconds != nil {
			s.downWin = *b.ScaleDown.StabilizationWindowSeconds
		} else {
			s.downWin = int32(set.DownscaleStabilization.Seconds())
		}
	}
	return s, ""
}

// describeFast leaves on p what the summary reads of a replay's metrics
// (their labels, and the target types that word their bounds), which the
// reference replay takes from its decisions.
func (f *fastPath) describeFast() {
	p := f.p
	p.labels = make([]string, len(f.spec.metrics))
	p.last = &explain.Decision{Metrics: make([]explain.MetricResult, len(f.spec.metrics))}
	for i, m := range f.spec.metrics {
		p.labels[i] = m.label
		p.last.Metrics[i] = explain.MetricResult{Index: i, Type: string(autoscalingv2.ResourceMetricSourceType), TargetType: m.target}
	}
}
