// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// replayRun is the controller replayed over a recording with one HPA spec.
type replayRun struct {
	name string
	rec  *recording.Recording
	set  engine.Settings
	opts BacktestOptions
	snap engine.Snapshot
	sel  labels.Selector

	// real holds one pod per recorded pod, refreshed at each sync, and
	// realMetrics its PodMetrics, whose quantities are set in place.
	real        []corev1.Pod
	realMetrics []metricsv1beta1.PodMetrics
	// resources are the recorded resource metrics; usage[i][r][c] is the
	// series of real pod i, resource r, and its PodMetrics container c.
	resources []*recording.Metric
	usage     [][][]*recording.Series
	// read[r] says whether a metric of the HPA reads resource r.
	read []bool
	// pods are the recorded Pods metrics; podsSeries[j][i] the series of
	// metric j on real pod i; samples[i] every per-pod series of pod i.
	pods       []*recording.Metric
	podsSeries [][]*recording.Series
	samples    [][]*recording.Series
	// firstSample[i] is the first instant with a sample of real pod i
	// (-1: none).
	firstSample []int
	// extras are the pods the replay runs beyond the real ones; gone are
	// the real pods of the last sync that the workload has removed since,
	// the newest last: the replay keeps them before adding new ones.
	extras   []*extraPod
	prevReal []int
	gone     []int
	// vanished are the real pods of the last sync that no longer exist,
	// in its order: at a count no higher than the real one, the pods the
	// replay takes back in their place stand in for them (standIn).
	vanished []int
	template corev1.Pod
	serial   int
	// cur are the pods of the sync being built.
	cur []syncPod
	// order is the sort of the pods of the last sync that ran fewer pods
	// than the real ones (sortPods).
	order podSort
	// copied[j] is the pod object snap.Pods[j] is a copy of (copying
	// swaps with it).
	copied, copying []*corev1.Pod

	replicas int32
	// labels name the metrics, in spec order.
	labels []string
	// scaledUp is when the replay last raised its count: the pods it adds
	// are created then.
	scaledUp time.Time
	started  bool
	// last is the decision of the last sync run.
	last *explain.Decision
	// bounds are the service bounds of the HPA's metrics, in spec order.
	bounds []Bound
	// full explains every sync in full (ReplayAt's last one).
	full bool
	// lastReady counts the ready pods the selector matches at the last
	// sync, for a projection's steps (only with countReady).
	lastReady  int
	countReady bool
	// load, when set, holds the real pods' total resource load at each
	// instant, shared by the replays of one recording.
	load *recordedLoad
	// marks are the replay's own counts of ready pods over its last syncs,
	// oldest first (each from its moment on), and readyNow the count at
	// the sync being built (sampleShare).
	marks    []shareMark
	readyNow int
	// demand[i] is what metric i's load per ready pod is worked out of
	// (served.go).
	demand []demandOf
	// inSync[i] is 1 + the index of the last sync real pod i was among the
	// pods of; backAt[i] is when the replay took it back after dropping it
	// (zero: never); lastK is the index of the last sync run (-1: none yet).
	inSync []int
	backAt []time.Time
	// liveIn[i] is 1 + the index of the last sync real pod i ran in, not
	// marked deleting; elderAt[i] the creation of the replay's own pod
	// that real pod i stands in for (zero: none; elders); born and fresh
	// are elders' scratch.
	liveIn  []int
	elderAt []time.Time
	born    []time.Time
	fresh   []int
	lastK   int
	// diffAt is the last instant the replay's count differed from the
	// real one (zero: none yet): a sample whose window reaches back to it
	// shows the load the real pods carried at the real count, not the
	// replay's (exactSamples).
	diffAt time.Time
	// exactAt is the sync that ran the real pods at the real count and
	// kept it (its decision made no rescale); -1 when the last did not.
	exactAt int
}

// shareMark is the replay's count of ready pods from a moment on.
type shareMark struct {
	at time.Time
	n  int
}

// syncPod is one pod of a sync: a real one (real ≥ 0) or an extra; early
// marks a real pod the recording shows only later.
type syncPod struct {
	pod     *corev1.Pod
	metrics *metricsv1beta1.PodMetrics
	real    int
	reports bool
	early   bool
}

// podSort keeps the input and the outcome of a sort of a sync's pods:
// in[j] the sort key of the j-th pod given, perm[j] the place in the
// input of the j-th pod sorted.
type podSort struct {
	in   []podSortKey
	perm []int
	buf  []syncPod
}

// podSortKey is what podOrder reads of a pod, with the pod object.
type podSortKey struct {
	pod   *corev1.Pod
	name  string
	ready bool
	start time.Time
}

// sortPods sorts the sync's pods by podOrder, stably. The outcome of a
// stable sort depends only on the sequence of keys it is given: when the
// sync's pods and their keys are the last sorted ones, in the same order,
// the last permutation is the outcome again, without sorting.
func (p *replayRun) sortPods() {
	o := &p.order
	same := len(o.in) == len(p.cur)
	for j := range p.cur {
		pod := p.cur[j].pod
		k := podSortKey{pod: pod, name: pod.Name, ready: isReady(pod), start: startOf(pod)}
		if same && (o.in[j].pod != k.pod || o.in[j].name != k.name || o.in[j].ready != k.ready || !o.in[j].start.Equal(k.start)) {
			same = false
		}
		if !same {
			if j == 0 {
				o.in = o.in[:0]
			}
			if j < len(o.in) {
				o.in[j] = k
			} else {
				o.in = append(o.in[:j], k)
			}
		}
	}
	o.in = o.in[:len(p.cur)]
	if !same {
		o.perm = o.perm[:0]
		for j := range p.cur {
			o.perm = append(o.perm, j)
		}
		slices.SortStableFunc(o.perm, func(a, b int) int { return podCompare(p.cur[a].pod, p.cur[b].pod) })
	}
	o.buf = append(o.buf[:0], p.cur...)
	for j, i := range o.perm {
		p.cur[j] = o.buf[i]
	}
	if checkPodSort {
		want := slices.Clone(o.buf)
		slices.SortStableFunc(want, func(a, b syncPod) int { return podCompare(a.pod, b.pod) })
		if !slices.Equal(want, p.cur) {
			panic(fmt.Sprintf("the sync's pods are not in podOrder (sorted again: %v)", !same))
		}
	}
}

// checkPodSort makes every sort of a sync's pods check its outcome against
// a sort from nothing (the tests set it).
var checkPodSort bool

// extraPod is a pod the replay runs beyond the real ones: a real pod the
// workload removed while the replay kept it (kept ≥ 0, its index), or a
// new one.
type extraPod struct {
	pod      corev1.Pod
	metrics  metricsv1beta1.PodMetrics
	readyAt  time.Time
	reportAt time.Time
	kept     int
}

func newReplayRun(name string, base *engine.Snapshot, hpa *autoscalingv2.HorizontalPodAutoscaler, rec *recording.Recording, set engine.Settings, opts BacktestOptions) (*replayRun, error) {
	p := &replayRun{name: name, rec: rec, set: set, opts: opts, bounds: bounds(hpa, opts.Bounds), lastK: -1, exactAt: -1}
	p.snap = engine.Snapshot{HPA: hpa.DeepCopy(), Target: base.Target, OtherHPAs: base.OtherHPAs}
	p.snap.HPA.Status = autoscalingv2.HorizontalPodAutoscalerStatus{}
	p.sel = labels.Everything()
	if s, err := labels.Parse(base.Target.Selector); err == nil && base.Target.Selector != "" {
		p.sel = s
	}
	for i := range rec.Metrics {
		switch m := &rec.Metrics[i]; m.Kind {
		case recording.KindResource:
			p.resources = append(p.resources, m)
			p.read = append(p.read, readsResource(hpa, corev1.ResourceName(m.Name)))
		case recording.KindPods:
			p.pods = append(p.pods, m)
		}
	}
	podLabels := selectorLabels(base)
	n := len(rec.Pods)
	p.real = make([]corev1.Pod, n)
	p.realMetrics = make([]metricsv1beta1.PodMetrics, n)
	p.usage = make([][][]*recording.Series, n)
	p.samples = make([][]*recording.Series, n)
	for i := range rec.Pods {
		name := rec.Pods[i].Name
		p.real[i] = realPod(&rec.Pods[i], hpa.Namespace, podLabels)
		p.realMetrics[i] = podMetricsFor(&p.real[i])
		p.usage[i] = make([][]*recording.Series, len(p.resources))
		for r, m := range p.resources {
			p.usage[i][r] = make([]*recording.Series, len(p.realMetrics[i].Containers))
			for c := range p.realMetrics[i].Containers {
				p.usage[i][r][c] = m.PerPod[name][p.realMetrics[i].Containers[c].Name]
			}
			for _, s := range m.PerPod[name] {
				p.samples[i] = append(p.samples[i], s)
			}
		}
	}
	p.podsSeries = make([][]*recording.Series, len(p.pods))
	for j, m := range p.pods {
		p.podsSeries[j] = make([]*recording.Series, n)
		for i := range rec.Pods {
			if s := m.PerPod[rec.Pods[i].Name][""]; s != nil {
				p.podsSeries[j][i] = s
				p.samples[i] = append(p.samples[i], s)
			}
		}
	}
	first := firstSamples(rec)
	p.firstSample = make([]int, n)
	for i := range rec.Pods {
		p.firstSample[i] = -1
		if k, ok := first[rec.Pods[i].Name]; ok {
			p.firstSample[i] = k
		}
	}
	switch {
	case n > 0:
		p.template = *p.real[n-1].DeepCopy()
	case len(base.Pods) > 0:
		p.template = *base.Pods[0].DeepCopy()
	default:
		return nil, fmt.Errorf("the recording of %s has no pods, and the workload has none now to copy", rec.Workload)
	}
	// Other HPAs of the namespace that select none of the pods the replay
	// runs (the recorded ones and those made from the template, whose
	// labels never change) can never make a sync's selector ambiguous:
	// left out, no sync checks them (a namespace of many HPAs, each its
	// own workload's, checked every other HPA's selector against every pod
	// at every sync).
	pods := make([]*corev1.Pod, 0, n+1)
	for i := range p.real {
		pods = append(pods, &p.real[i])
	}
	if len(engine.SelectingHPAs(p.snap.OtherHPAs, hpa, append(pods, &p.template))) == 0 {
		p.snap.OtherHPAs = nil
	}
	p.demand = p.demandsOf(hpa)
	return p, nil
}

// readsResource reports whether a metric of hpa is resource res (of the
// pods or of a container).
func readsResource(hpa *autoscalingv2.HorizontalPodAutoscaler, res corev1.ResourceName) bool {
	for _, m := range hpa.Spec.Metrics {
		if m.Resource != nil && m.Resource.Name == res || m.ContainerResource != nil && m.ContainerResource.Name == res {
			return true
		}
	}
	return false
}

// selectorLabels returns labels that the target's selector matches: those
// of a live pod it selects, or the selector's equality requirements.
func selectorLabels(base *engine.Snapshot) map[string]string {
	sel, err := labels.Parse(base.Target.Selector)
	if err == nil {
		for i := range base.Pods {
			if sel.Matches(labels.Set(base.Pods[i].Labels)) {
				return base.Pods[i].Labels
			}
		}
	}
	out := map[string]string{}
	if err == nil {
		reqs, _ := sel.Requirements()
		for _, r := range reqs {
			if v := r.Values().UnsortedList(); len(v) == 1 {
				out[r.Key()] = v[0]
			}
		}
	}
	return out
}

// realPod builds the pod object of a recorded pod (readiness is set per
// sync by refresh).
func realPod(rp *recording.Pod, ns string, sel map[string]string) corev1.Pod {
	lbl := rp.Labels
	if len(lbl) == 0 {
		lbl = sel
	}
	pod := corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: rp.Name, Namespace: ns, Labels: lbl, CreationTimestamp: metav1.NewTime(rp.Created)},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}},
		},
	}
	started := rp.Created
	if rp.Started != nil {
		started = *rp.Started
	}
	pod.Status.StartTime = &metav1.Time{Time: started}
	for _, c := range rp.Containers {
		ctr := corev1.Container{Name: c.Name, Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{}}}
		for res, v := range c.Requests {
			ctr.Resources.Requests[corev1.ResourceName(res)] = quantity(corev1.ResourceName(res), requestMilli(corev1.ResourceName(res), v))
		}
		pod.Spec.Containers = append(pod.Spec.Containers, ctr)
	}
	return pod
}

// requestMilli turns a recorded request (millicores for cpu, bytes for
// memory) into milli-units.
func requestMilli(res corev1.ResourceName, v int64) int64 {
	if res == corev1.ResourceCPU {
		return v
	}
	return v * 1000
}

// podMetricsFor returns an empty PodMetrics with a usage list per container
// of p, whose values the syncs set.
func podMetricsFor(p *corev1.Pod) metricsv1beta1.PodMetrics {
	pm := metricsv1beta1.PodMetrics{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, Labels: p.Labels}}
	for _, c := range usageContainers(p) {
		pm.Containers = append(pm.Containers, metricsv1beta1.ContainerMetrics{Name: c.Name, Usage: corev1.ResourceList{}})
	}
	return pm
}

// recordedCount reports whether the recording has the real replica count
// (else it is the number of pods that existed).
func (p *replayRun) recordedCount() bool { return len(p.rec.Replicas.Changes) > 0 }

// actualAt returns the real replica count at instant k and whether it was
// recorded (else it is the number of pods that existed).
func (p *replayRun) actualAt(k int) (int32, bool) {
	if n, ok := p.rec.Replicas.ReplicasAt(p.rec.Instant(k)); ok {
		return n, true
	}
	return int32(len(p.rec.PodsAt(k))), false
}

// sync builds the inputs of the sync at instant k and replays it.
func (p *replayRun) sync(k int) (*explain.Decision, error) {
	rec := p.rec
	t := rec.Instant(k)
	actual, known := p.actualAt(k)
	// The replay starts from the real count at the first instant the
	// record of it covers (the workload may be younger than the warm-up);
	// before that it runs the pods that existed.
	if !p.started || !known && p.recordedCount() {
		p.replicas = actual
		p.started = known || !p.recordedCount()
	}
	// A change the controller did not make (the workload created, scaled
	// by hand) is the count the controller reads at its next sync, in
	// every replay.
	if k > 0 {
		prev := rec.Instant(k - 1)
		for _, c := range rec.Replicas.Changes {
			if c.External && c.At.After(prev) && !c.At.After(t) {
				p.replicas = c.Replicas
			}
		}
	}
	// The pods of this sync: the real ones, less or more.
	p.realPodsAt(t, actual)
	p.vanished = p.vanished[:0]
	for _, i := range p.prevReal {
		if !rec.Pods[i].Exists(t) {
			p.vanished = append(p.vanished, i)
			if !slices.Contains(p.gone, i) {
				p.gone = append(p.gone, i)
			}
		}
	}
	p.prevReal = p.prevReal[:0]
	exact := p.replicas == actual
	p.exactAt = -1
	if exact {
		p.exactAt = k
	} else {
		p.diffAt = t
	}
	samplesExact := exactSamples(exact, p.diffAt.UnixNano(), !p.diffAt.IsZero(), rec.SampleTime(k).UnixNano(), rec.SampleWindow.Nanoseconds())
	p.born = p.born[:0]
	if n := max(int(p.replicas-actual), 0); n < len(p.extras) {
		for _, e := range p.extras[n:] {
			if e.kept < 0 {
				p.born = append(p.born, e.pod.CreationTimestamp.Time)
			}
		}
	}
	switch {
	case p.replicas > actual:
		p.growExtras(int(p.replicas-actual), t)
		for _, e := range p.extras {
			p.refreshExtra(e, t)
			p.cur = append(p.cur, syncPod{pod: &e.pod, metrics: &e.metrics, real: -1, reports: !t.Before(e.reportAt)})
		}
	case p.replicas < actual:
		p.extras, p.gone = p.extras[:0], p.gone[:0]
		drop := min(int(actual-p.replicas), len(p.cur))
		p.sortPods()
		p.cur = p.cur[:len(p.cur)-drop]
	default:
		p.extras, p.gone = p.extras[:0], p.gone[:0]
	}
	for _, sp := range p.cur {
		if sp.real >= 0 && !sp.early {
			p.prevReal = append(p.prevReal, sp.real)
		}
	}
	// A real pod the replay dropped while the workload kept it, and takes
	// back now, is a new pod in the replay's world: it served none of the
	// load its samples show, and reports SampleDelay after it came back
	// (where the replay runs other pods than the real ones: where it runs
	// the real ones, their real samples stand). Unless it stands in for a
	// pod of the replay that the workload removed (standIn).
	if p.inSync == nil {
		p.inSync, p.backAt = make([]int, len(rec.Pods)), make([]time.Time, len(rec.Pods))
		p.liveIn, p.elderAt = make([]int, len(rec.Pods)), make([]time.Time, len(rec.Pods))
	}
	stand := standIns(p.replicas, actual, len(p.vanished))
	for j := range p.cur {
		if sp := &p.cur[j]; sp.real >= 0 && !sp.early {
			if i := sp.real; k > 0 && p.lastK >= 0 && p.inSync[i] != p.lastK+1 && rec.Pods[i].Exists(rec.Instant(k-1)) {
				if stand > 0 {
					p.backAt[i] = p.backAt[p.vanished[len(p.vanished)-stand]]
					stand--
				} else {
					p.backAt[i] = t
				}
			}
			sp.reports = p.reports(sp.real, k, t) && (exact || !t.Before(p.backAt[sp.real].Add(p.opts.SampleDelay)))
			if !exact {
				p.startedAgain(sp.pod, p.backAt[sp.real], t)
			}
		}
	}
	if p.elders(k, t) {
		// The pods stand in for the replay's own: the real pods' samples
		// are not the replay's world's (exactSamples).
		p.diffAt = t
		samplesExact = false
		p.exactAt = -1
	}
	for _, i := range p.prevReal {
		p.inSync[i] = k + 1
	}
	for j := range p.cur {
		if sp := &p.cur[j]; sp.real >= 0 && !sp.early && sp.pod.DeletionTimestamp == nil {
			p.liveIn[sp.real] = k + 1
		}
	}
	p.lastK = k

	snap := &p.snap
	snap.Now = t
	snap.Target.SpecReplicas = p.replicas
	snap.Target.StatusReplicas = int32(len(p.cur))
	p.fillPodsOfSnapshot()
	// The API gives a sample's time in whole seconds, to the controller as
	// to everyone.
	ts := metav1.NewTime(rec.SampleTime(k).Truncate(time.Second))
	window := metav1.Duration{Duration: rec.SampleWindow}
	snap.PodMetrics = snap.PodMetrics[:0]
	snap.CustomMetrics = snap.CustomMetrics[:0]
	snap.ExternalMetrics = snap.ExternalMetrics[:0]
	snap.APIErrors = nil

	p.readyNow = 0
	for j := range p.cur {
		if isReady(p.cur[j].pod) {
			p.readyNow++
		}
	}
	// Resource samples, of the resources the HPA reads (the controller
	// asks the metrics API for no other).
	for r, m := range p.resources {
		if p.read[r] {
			p.fillResource(r, corev1.ResourceName(m.Name), k, samplesExact)
		}
	}
	p.lastReady = 0
	for j := range p.cur {
		sp := &p.cur[j]
		if p.countReady && isReady(sp.pod) && p.sel.Matches(labels.Set(sp.pod.Labels)) {
			p.lastReady++
		}
		if !sp.reports || len(p.resources) == 0 {
			continue
		}
		sp.metrics.Timestamp, sp.metrics.Window = ts, window
		snap.PodMetrics = append(snap.PodMetrics, *sp.metrics)
	}
	// Pods, Object and External metrics.
	for j := range p.pods {
		p.fillPods(j, k, samplesExact, ts)
	}
	for i := range rec.Metrics {
		if m := &rec.Metrics[i]; m.Kind == recording.KindObject || m.Kind == recording.KindExternal {
			p.fillTotal(m, k, ts)
		}
	}
	p.mark(t, p.readyNow)
	// Only the last sync of a replay is explained in full: the others keep
	// their outcomes (EvalOptions.Brief), and without the steps of a
	// projection to write (countReady), nothing but their outcomes
	// (EvalOptions.OutcomeOnly: what outcomeOf and apply read).
	brief := k < rec.Len-1 && !p.full
	return engine.EvaluateWith(snap, p.set, engine.EvalOptions{Brief: brief, OutcomeOnly: brief && !p.countReady})
}

// checkPodCopies makes every sync check that the snapshot's pods equal the
// pods they are copies of (the tests set it).
var checkPodCopies bool

// fillPodsOfSnapshot sets snap.Pods to copies of the sync's pods. The slot
// that held a copy of the same pod object at the sync before keeps it: the
// replay writes only the fields that copyWritten copies on a pod once it
// is built (refresh, alignToActual, refreshExtra), so those alone are
// copied again. A pod built anew is a new object, copied whole.
func (p *replayRun) fillPodsOfSnapshot() {
	snap := &p.snap
	old := len(p.copied)
	snap.Pods = snap.Pods[:0]
	p.copying = p.copying[:0]
	for j := range p.cur {
		src := p.cur[j].pod
		if j < old && p.copied[j] == src {
			snap.Pods = snap.Pods[:j+1]
			copyWritten(&snap.Pods[j], src)
		} else {
			snap.Pods = append(snap.Pods, *src)
		}
		p.copying = append(p.copying, src)
	}
	p.copied, p.copying = p.copying, p.copied
	if checkPodCopies {
		for j := range p.cur {
			if !reflect.DeepEqual(snap.Pods[j], *p.cur[j].pod) {
				panic(fmt.Sprintf("the snapshot's pod %d (%s) is not a copy of the sync's pod", j, p.cur[j].pod.Name))
			}
		}
	}
}

// copyWritten copies the fields the replay writes on a pod it has built.
func copyWritten(dst, src *corev1.Pod) {
	dst.DeletionTimestamp = src.DeletionTimestamp
	dst.Status.Phase = src.Status.Phase
	dst.Status.Conditions = src.Status.Conditions
}

// syncOutcome is what the summaries keep of one replayed sync.
type syncOutcome struct {
	current, desired int32
	rescale          bool
	reason           string
	// recommendation is the metrics' combined proposal (recOK false when
	// the metrics failed); filled says a fill-in shaped it.
	recommendation int32
	recOK, filled  bool
	maxReplicas    int32
	// above has bit i set when metric i was above its target; beyond when
	// it was above it by more than the tolerance; over when its load was
	// above its service bound; failed when it could not be computed.
	above, beyond, over, failed uint64
}

func (o *syncOutcome) after() int32 {
	if o.rescale {
		return o.desired
	}
	return o.current
}

// run replays every sync of the recording and returns the outcomes of
// those from first on; with proj, it also appends their steps and
// rescales to it.
func (p *replayRun) run(first int, proj *explain.Projection) ([]syncOutcome, error) {
	out := make([]syncOutcome, 0, p.rec.Len-first)
	p.countReady = proj != nil
	for k := 0; k < p.rec.Len; k++ {
		t := p.rec.Instant(k)
		dec, err := p.sync(k)
		if err != nil {
			return nil, fmt.Errorf("replay the sync at %s: %w", t.UTC().Format(time.RFC3339), err)
		}
		// The decision is carried into the replay first: the load each
		// ready pod served until the next sync (outcomeOf) depends on it.
		p.apply(dec)
		if k >= first {
			if p.labels == nil {
				for i := range dec.Metrics {
					p.labels = append(p.labels, dec.Metrics[i].Label())
				}
			}
			out = append(out, p.outcomeOf(dec, k))
			p.last = dec
			if proj != nil {
				step := stepOf(dec, t, p.rec.Instant(first), p.lastReady)
				proj.Steps = append(proj.Steps, step)
				if dec.Rescale {
					proj.Rescales = append(proj.Rescales, explain.ProjectedRescale{Time: t, Offset: step.Offset, From: dec.CurrentReplicas, To: dec.DesiredReplicas, Reason: dec.RescaleReason})
				}
			}
		}
	}
	return out, nil
}

// outcomeOf keeps what the summaries need of a decision.
func (p *replayRun) outcomeOf(dec *explain.Decision, k int) syncOutcome {
	o := syncOutcome{
		current: dec.CurrentReplicas, desired: dec.DesiredReplicas, rescale: dec.Rescale, reason: dec.RescaleReason,
		maxReplicas: dec.Target.MaxReplicas, filled: filledIn(dec),
	}
	if r := dec.Recommendation; r != nil && !r.Failed {
		o.recommendation, o.recOK = r.Replicas, true
	}
	for i := range dec.Metrics {
		if i >= 64 {
			break
		}
		m := &dec.Metrics[i]
		if aboveTarget(m) {
			o.above |= 1 << i
		}
		if beyondTolerance(m) {
			o.beyond |= 1 << i
		}
		over, ok := p.demandOver(i, k)
		if !ok {
			over = i < len(p.bounds) && p.bounds[i].over(m)
		}
		if over {
			o.over |= 1 << i
		}
		if m.Error != nil {
			o.failed |= 1 << i
		}
	}
	return o
}

// syncAt replays the sync at k on the real pods at the count n, whatever
// this path decided before: the metrics of the actual curve. (The
// controller history it carries is not the real one; the metrics do not
// depend on it.)
func (p *replayRun) syncAt(k int, n int32) (syncOutcome, error) {
	p.replicas, p.started = n, true
	dec, err := p.sync(k)
	if err != nil {
		return syncOutcome{}, fmt.Errorf("replay the sync at %s: %w", p.rec.Instant(k).UTC().Format(time.RFC3339), err)
	}
	p.apply(dec)
	return p.outcomeOf(dec, k), nil
}

// apply carries a decision into the next sync. The next sync reads the
// status and the state without writing them (the engine works on copies),
// so they are shared with the decision rather than copied.
func (p *replayRun) apply(d *explain.Decision) {
	p.markDecision(d)
	if d.Rescale {
		p.exactAt = -1
	}
	p.snap.HPA.Status = d.Status
	p.snap.State = d.StateAfter
	p.snap.State.Provenance = explain.Observed
	if d.Rescale {
		if d.DesiredReplicas > p.replicas {
			p.scaledUp = d.Now
		}
		p.replicas = d.DesiredReplicas
	}
}

// exactSamples reports whether a sync that runs the real pods at the real
// count (exact) shows their recorded samples: only when the sample's
// window (ending at end, window long) began after the last instant the
// replay's count differed from the real one (diffAt, when hasDiff). Until
// then the real pods' samples hold the load shared over the real count of
// that time, which the replay did not run: a candidate at 3 pods while
// the workload went from 4 to 3 would read, in the sample after the
// workload's step down, a quarter of the load per pod for most of the
// window, and step down too, where the controller running it, at 3 pods
// all along, read a third (a kept run: 3 → 2 → 3 at 4m20s, the
// "one-pod blip after the recorded workload's own step down").
func exactSamples(exact bool, diffAt int64, hasDiff bool, end, window int64) bool {
	return exact && (!hasDiff || diffAt <= end-window)
}
