// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// ProjectOptions shape a projection.
type ProjectOptions struct {
	// Duration is the projected span; 0 means "until the replicas settle",
	// at most MaxAuto.
	Duration time.Duration
	// MaxAuto bounds an automatic projection (default DefaultMaxAuto).
	MaxAuto time.Duration
	// LoadModel is explain.LoadConstantTotal (default) or
	// explain.LoadConstantPerPod.
	LoadModel string
	// PodStartup is how long a new pod takes to become ready; it reports
	// metric samples from then on.
	PodStartup time.Duration
	// Trace, when set, drives the load over time; TraceName names it.
	Trace     *Trace
	TraceName string
	// MaxSteps bounds the number of syncs (default DefaultMaxSteps).
	MaxSteps int
	// MaxPodSyncs bounds the pods simulated, summed over the replayed syncs
	// (default MaxPodSyncs).
	MaxPodSyncs int
	// NoSkip replays every sync, even the quiet repeats that Project
	// otherwise copies (tests compare both).
	NoSkip bool
	// Outer, when set, is a second loop that acts on the workload between
	// the HPA's syncs (KEDA's operator: KEDALoop). Every sync replays.
	Outer Outer
}

// Outer is a loop that acts on the workload besides the HPA controller.
// Before each sync at t, Project runs its polls up to t, in order, on the
// simulated state; a poll may set the External values the sync reads, and
// its writes to the replicas count as rescales.
type Outer interface {
	// NextPoll returns the first poll strictly after after.
	NextPoll(after time.Time) time.Time
	// Poll runs the poll at t on snap (its scale, pods and metrics as
	// simulated) and says what it writes.
	Poll(t time.Time, snap *engine.Snapshot) (OuterPoll, error)
	// Pending reports whether the loop will act later by itself (the
	// replicas are not settled).
	Pending(t time.Time) bool
	// Notes state what the projection assumes of the loop.
	Notes() []string
}

// OuterPoll is what one poll of an Outer loop writes.
type OuterPoll struct {
	// ScaleTo is the replica count written (nil: nothing).
	ScaleTo *int32
	// Reason says why, for the projection's rescales.
	Reason string
}

// Defaults of a projection.
const (
	DefaultMaxAuto    = time.Hour
	DefaultPodStartup = 30 * time.Second
	DefaultMaxSteps   = 100000
)

// Project replays successive syncs of the controller from snap, one every
// set.SyncPeriod starting at snap.Now. The first sync is exactly
// engine.Evaluate(snap); each later one starts from the state the previous
// one left: the HPA's status, the controller's recommendations and scale
// events, the scale, and the pods (new pods appear at a scale-up and become
// ready after PodStartup; a scale-down removes the pods that are not ready,
// then the newest).
func Project(snap *engine.Snapshot, set engine.Settings, opts ProjectOptions) (*explain.Projection, error) {
	if set.SyncPeriod <= 0 {
		return nil, errors.New("the sync period must be positive")
	}
	if opts.MaxAuto <= 0 {
		opts.MaxAuto = DefaultMaxAuto
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxPodSyncs <= 0 {
		opts.MaxPodSyncs = MaxPodSyncs
	}
	if opts.LoadModel == "" {
		opts.LoadModel = explain.LoadConstantTotal
	}
	if opts.LoadModel != explain.LoadConstantTotal && opts.LoadModel != explain.LoadConstantPerPod {
		return nil, fmt.Errorf("unknown load model %q (want %s or %s)", opts.LoadModel, explain.LoadConstantTotal, explain.LoadConstantPerPod)
	}
	span := opts.Duration
	if span <= 0 {
		span = opts.MaxAuto
	}
	steps := int(span/set.SyncPeriod) + 1
	if steps > opts.MaxSteps {
		return nil, namedErr("a projection of %s at a %s sync period is %d syncs; the limit is %d (at most %s at this sync period): shorten %s", span, set.SyncPeriod, steps, opts.MaxSteps, time.Duration(opts.MaxSteps-1)*set.SyncPeriod, FieldFor)
	}
	if opts.Trace != nil {
		if err := opts.Trace.check(opts.TraceName, snap.HPA); err != nil {
			return nil, err
		}
		opts.Trace = opts.Trace.resolved(snap.Now)
	}
	if opts.Outer != nil {
		opts.NoSkip = true
	}
	sim := newSimulation(snap, set, opts)
	p := &explain.Projection{
		Start: snap.Now, SyncPeriod: set.SyncPeriod.String(), Auto: opts.Duration <= 0,
		LoadModel: opts.LoadModel, PodStartup: opts.PodStartup.String(), Trace: opts.TraceName,
		Notes:    sim.notes(),
		Steps:    make([]explain.ProjectionStep, 0, steps),
		Rescales: []explain.ProjectedRescale{},
	}
	quiet := sim.quietPeriod()
	lastRescale := snap.Now.Add(-quiet)
	if snap.HPA.Status.LastScaleTime != nil {
		lastRescale = snap.HPA.Status.LastScaleTime.Time
	}
	// settled: nothing has changed for a quiet period (the caller checks
	// that the sync at t was calm).
	settled := func(t time.Time) bool {
		return t.Sub(lastRescale) >= quiet && t.Sub(snap.Now) >= quiet && !sim.tracePending(t) &&
			(opts.Outer == nil || !opts.Outer.Pending(t))
	}
	if opts.Outer != nil {
		p.Notes = append(p.Notes, opts.Outer.Notes()...)
	}
	work := 0
	var polled time.Time
	for k := 0; k < steps; k++ {
		t := snap.Now.Add(time.Duration(k) * set.SyncPeriod)
		wrote := false
		if opts.Outer != nil {
			// The outer loop's polls up to this sync, each on the state the
			// previous one left.
			for at := opts.Outer.NextPoll(polled); !at.After(t); at = opts.Outer.NextPoll(polled) {
				polled = at
				w, err := opts.Outer.Poll(at, sim.snap)
				if err != nil {
					return nil, err
				}
				if w.ScaleTo != nil && *w.ScaleTo != sim.snap.Target.SpecReplicas {
					p.Rescales = append(p.Rescales, explain.ProjectedRescale{
						Time: at, Offset: offset(at.Sub(snap.Now)), From: sim.snap.Target.SpecReplicas, To: *w.ScaleTo, Reason: w.Reason,
					})
					sim.scaleTo(*w.ScaleTo, at)
					lastRescale, wrote = at, true
				}
			}
		}
		if k > 0 || opts.Trace != nil || wrote {
			sim.prepare(t)
		}
		dec, err := engine.Evaluate(sim.snap, set)
		if err != nil {
			return nil, err
		}
		if work += len(sim.snap.Pods); work > opts.MaxPodSyncs {
			return nil, namedErr("the projection stops at %s: it simulated more than %d pods over its syncs (pods times replayed syncs), the limit; shorten %s or lower %s", offset(t.Sub(snap.Now)), opts.MaxPodSyncs, FieldFor, FieldMax)
		}
		if dec.Rescale && dec.DesiredReplicas > MaxPods && int(dec.DesiredReplicas) > sim.countMeasured() {
			return nil, namedErr("the projection scales to %d replicas at %s; whatif simulates at most %d pods: lower %s (or the load), or shorten %s", dec.DesiredReplicas, offset(t.Sub(snap.Now)), MaxPods, FieldMax, FieldFor)
		}
		step := stepOf(dec, t, snap.Now, sim.readyPods())
		p.Steps = append(p.Steps, step)
		// A quiet sync that repeats the previous one will repeat until an
		// input changes (see skipQuiet): copy it instead of replaying it.
		if !opts.NoSkip && k > 0 && calm(dec) && sameStep(&p.Steps[k-1], &step) {
			until := steps
			if next := sim.nextChange(t); !next.IsZero() {
				// Replay again from a full quiet period before the change,
				// so the history the change meets is the replayed one.
				until = min(steps, int((next.Sub(snap.Now)-quiet)/set.SyncPeriod))
			}
			sim.apply(dec, t)
			p.FinalReplicas = sim.snap.Target.SpecReplicas
			p.Settled = settled(t)
			for k+1 < until && !(opts.Duration <= 0 && p.Settled) {
				k++
				tk := snap.Now.Add(time.Duration(k) * set.SyncPeriod)
				c := step
				c.Time, c.Offset = tk, offset(tk.Sub(snap.Now))
				p.Steps = append(p.Steps, c)
				p.Settled = settled(tk)
			}
			if opts.Duration <= 0 && p.Settled {
				break
			}
			continue
		}
		if dec.Rescale {
			p.Rescales = append(p.Rescales, explain.ProjectedRescale{
				Time: t, Offset: step.Offset, From: dec.CurrentReplicas, To: dec.DesiredReplicas, Reason: dec.RescaleReason,
			})
			lastRescale = t
		}
		sim.apply(dec, t)
		p.FinalReplicas = sim.snap.Target.SpecReplicas
		p.Settled = calm(dec) && settled(t)
		if opts.Duration <= 0 && p.Settled {
			break
		}
	}
	last := p.Steps[len(p.Steps)-1].Time
	p.Duration = last.Sub(snap.Now).String()
	return p, nil
}

// sameStep reports whether two steps differ only in their time.
func sameStep(a, b *explain.ProjectionStep) bool {
	if a.Replicas != b.Replicas || a.Desired != b.Desired || a.ReadyPods != b.ReadyPods || a.DecidedBy.Kind != b.DecidedBy.Kind ||
		a.Outcome != b.Outcome || a.Reason != b.Reason || !eqInt32(a.Recommendation, b.Recommendation) ||
		!eqInt32(a.Stabilized, b.Stabilized) || len(a.Metrics) != len(b.Metrics) {
		return false
	}
	for i := range a.Metrics {
		if a.Metrics[i].Name != b.Metrics[i].Name || a.Metrics[i].Value != b.Metrics[i].Value || !eqInt32(a.Metrics[i].Proposal, b.Metrics[i].Proposal) {
			return false
		}
	}
	return true
}

func eqInt32(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// calm reports whether a decision leaves nothing pending: no rescale, no
// stabilization hold and no rate limit.
func calm(d *explain.Decision) bool {
	if d.Rescale {
		return false
	}
	n := d.Normalization
	if n == nil {
		return true
	}
	if n.Stabilization.Result != n.Input {
		return false
	}
	return n.Limits.Reason != explain.ReasonScaleUpLimit && n.Limits.Reason != explain.ReasonScaleDownLimit
}

func stepOf(d *explain.Decision, t, start time.Time, ready int) explain.ProjectionStep {
	s := explain.ProjectionStep{
		Time: t, Offset: offset(t.Sub(start)), Replicas: d.CurrentReplicas, Desired: d.DesiredReplicas,
		ReadyPods: ready, DecidedBy: d.DecidedBy, Outcome: d.Outcome, Reason: d.Summary,
		Metrics: make([]explain.ProjectedMetric, 0, len(d.Metrics)),
	}
	for i := range d.Metrics {
		m := &d.Metrics[i]
		s.Metrics = append(s.Metrics, explain.ProjectedMetric{Name: m.Name, Value: metricValueWords(m), Proposal: m.ProposedReplicas})
	}
	if r := d.Recommendation; r != nil && !r.Failed {
		s.Recommendation = ptr(r.Replicas)
	}
	if n := d.Normalization; n != nil {
		s.Stabilized = ptr(n.Stabilization.Result)
	}
	return s
}

// metricValueWords is a metric's current value: utilization, or the value.
func metricValueWords(m *explain.MetricResult) string {
	value := func() string {
		if m.Unit == explain.MetricUnitBytes {
			// Averages of bytes come in milli-bytes; Mi reads better.
			mi := float64(m.Value.MilliValue()) / 1000 / (1 << 20)
			return strings.TrimSuffix(strconv.FormatFloat(mi, 'f', 1, 64), ".0") + "Mi"
		}
		return m.Value.String()
	}
	switch {
	case m.Error != nil:
		return "failed"
	case m.Usage != nil && m.Usage.RatioUndefined == explain.RatioFromZero:
		// The per-pod value at zero replicas is not a number: show the
		// total the proposal came from.
		return resource.NewMilliQuantity(m.Usage.SumMilli, resource.DecimalSI).String() + " at 0 replicas"
	case m.Utilization != nil && m.Value != nil:
		return fmt.Sprintf("%d%% (%s/pod)", *m.Utilization, value())
	case m.Utilization != nil:
		return fmt.Sprintf("%d%%", *m.Utilization)
	case m.Value != nil:
		return value()
	}
	return "-"
}

// offset prints a duration compactly: 0s, 45s, 1m30s, 2h0m15s.
func offset(d time.Duration) string {
	return d.Round(time.Millisecond).String()
}

// ---- the simulation ----

type simPod struct {
	pod corev1.Pod
	// readyAt is when the pod becomes ready (zero: never changes).
	readyAt time.Time
	// reports is true while the pod has metric samples.
	reports bool
	// added is true for pods the projection created.
	added bool
}

type simulation struct {
	snap  *engine.Snapshot
	set   engine.Settings
	opts  ProjectOptions
	sel   labels.Selector
	start time.Time

	pods     []*simPod
	template *corev1.Pod
	serial   int
	// lag and window are the age and window of the samples.
	lag    time.Duration
	window time.Duration

	// The load: per resource and container, the total (or the per-pod
	// value) at the start, and the same for each Pods metric.
	resource    map[corev1.ResourceName]map[string]int64
	podsMetrics map[string]int64
	containers  []string
}

func newSimulation(snap *engine.Snapshot, set engine.Settings, opts ProjectOptions) *simulation {
	s := &simulation{snap: snap.DeepCopy(), set: set, opts: opts, window: defaultWindow, start: snap.Now}
	e := &editor{snap: s.snap, set: set}
	e.index()
	s.sel = e.sel
	if !e.sampleTime.IsZero() && snap.Now.After(e.sampleTime) {
		s.lag = snap.Now.Sub(e.sampleTime)
	}
	s.window = e.sampleWindow

	var measured []*corev1.Pod
	custom := podsWithCustom(s.snap)
	for i := range s.snap.Pods {
		p := &s.snap.Pods[i]
		sp := &simPod{pod: *p.DeepCopy(), reports: e.podMetrics(p.Name) != nil || custom[p.Name]}
		if e.measured(p) {
			measured = append(measured, &sp.pod)
			if !isReady(p) && startOf(p).Add(opts.PodStartup).After(snap.Now) {
				sp.readyAt = startOf(p).Add(opts.PodStartup)
			}
		}
		s.pods = append(s.pods, sp)
	}
	if len(measured) > 0 {
		s.template = pickTemplate(measured).DeepCopy()
		for _, c := range usageContainers(s.template) {
			s.containers = append(s.containers, c.Name)
		}
	}
	var reporting []*corev1.Pod
	for _, sp := range s.pods {
		if sp.reports && e.measured(&sp.pod) {
			reporting = append(reporting, &sp.pod)
		}
	}
	t := e.totals(reporting)
	s.resource, s.podsMetrics = t.resource, t.pods
	if opts.LoadModel == explain.LoadConstantPerPod && len(reporting) > 0 {
		n := int64(len(reporting))
		for _, byC := range s.resource {
			for c, v := range byC {
				byC[c] = v / n
			}
		}
		for k, v := range s.podsMetrics {
			s.podsMetrics[k] = v / n
		}
	}
	return s
}

// podsWithCustom names the pods that have a Pods metric sample.
func podsWithCustom(snap *engine.Snapshot) map[string]bool {
	out := map[string]bool{}
	for i := range snap.CustomMetrics {
		if snap.CustomMetrics[i].DescribedObject.Kind == "Pod" {
			out[snap.CustomMetrics[i].DescribedObject.Name] = true
		}
	}
	return out
}

func (s *simulation) notes() []string {
	out := []string{
		"the first sync replays the objects as given; later syncs are simulated from the state each sync leaves",
		fmt.Sprintf("new pods start at the sync that scales up, become ready after %s and report samples from then on; a scale-down removes pods that are not ready first, then the newest", s.opts.PodStartup),
		"Object and External metric values stay as they are unless the trace sets them",
	}
	switch s.opts.LoadModel {
	case explain.LoadConstantPerPod:
		out = append(out, "load model constant-per-pod: every reporting pod keeps the average per-pod value of the start")
	default:
		out = append(out, "load model constant-total: the total usage of the start is shared evenly by the pods that report")
	}
	return out
}

// quietPeriod is how long nothing may change before the replicas count as
// settled: the longest stabilization window or policy period, plus a sync.
func (s *simulation) quietPeriod() time.Duration {
	q := s.set.DownscaleStabilization
	if b := s.snap.HPA.Spec.Behavior; b != nil {
		q = 0
		for _, r := range []*autoscalingv2.HPAScalingRules{b.ScaleUp, b.ScaleDown} {
			if r == nil {
				continue
			}
			if r.StabilizationWindowSeconds != nil {
				q = max(q, time.Duration(*r.StabilizationWindowSeconds)*time.Second)
			}
			for _, p := range r.Policies {
				q = max(q, time.Duration(p.PeriodSeconds)*time.Second)
			}
		}
		if b.ScaleDown == nil || b.ScaleDown.StabilizationWindowSeconds == nil {
			q = max(q, s.set.DownscaleStabilization)
		}
	}
	return q + s.set.SyncPeriod
}

func (s *simulation) tracePending(t time.Time) bool {
	return s.opts.Trace != nil && s.opts.Trace.pendingAfter(t.Sub(s.start))
}

// nextChange is the first instant after t at which an input of the
// simulation changes by itself: a trace row, a pod becoming ready, or a pod
// leaving the CPU initialization period (which changes how the controller
// treats its samples). Zero when nothing is pending.
//
// Between such instants, a sync that changes nothing (no rescale, no
// stabilization hold, no rate limit) and repeats the previous sync repeats
// forever: its recommendation equals the current replicas and every stored
// recommendation in the windows is on the same side of it, so leaving a
// window changes nothing; no change means no rate limit applies; and the
// inputs are the same at every sync.
func (s *simulation) nextChange(t time.Time) time.Time {
	var next time.Time
	consider := func(at time.Time) {
		if at.After(t) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if tr := s.opts.Trace; tr != nil {
		for _, r := range tr.Rows {
			consider(s.start.Add(r.Offset))
		}
	}
	cpu := engine.HasResourceMetric(s.snap.HPA, corev1.ResourceCPU)
	for _, sp := range s.pods {
		if !sp.readyAt.IsZero() {
			consider(sp.readyAt)
		}
		if cpu {
			start := startOf(&sp.pod)
			consider(start.Add(s.set.CPUInitializationPeriod))
			consider(start.Add(s.set.InitialReadinessDelay))
			if c := readyCondition(&sp.pod); c != nil {
				consider(c.LastTransitionTime.Add(s.window))
			}
		}
	}
	return next
}

func (s *simulation) readyPods() int {
	n := 0
	for _, sp := range s.pods {
		if s.measured(&sp.pod) && isReady(&sp.pod) {
			n++
		}
	}
	return n
}

func (s *simulation) measured(p *corev1.Pod) bool { return measuredBy(s.sel, p) }

// apply carries the decision of the sync at t into the simulated state.
func (s *simulation) apply(d *explain.Decision, t time.Time) {
	s.snap.HPA.Status = *d.Status.DeepCopy()
	s.snap.State = d.StateAfter.DeepCopy()
	s.snap.State.Provenance = explain.Observed
	if !d.Rescale {
		return
	}
	s.scaleTo(d.DesiredReplicas, t)
}

// scaleTo sets the workload's replicas at t: new pods start (and become
// ready after PodStartup), or the pods that are not ready go first, then
// the newest.
func (s *simulation) scaleTo(replicas int32, t time.Time) {
	cur := s.countMeasured()
	want := int(replicas)
	s.snap.Target.SpecReplicas, s.snap.Target.StatusReplicas = replicas, replicas
	switch {
	case want > cur && s.template != nil:
		for i := cur; i < want; i++ {
			s.serial++
			p := s.template.DeepCopy()
			p.Name = fmt.Sprintf("projected-%d", s.serial)
			p.UID = ""
			p.CreationTimestamp = metav1.NewTime(t)
			start := metav1.NewTime(t)
			p.Status.StartTime = &start
			p.Status.Phase = corev1.PodRunning
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: start}}
			s.pods = append(s.pods, &simPod{pod: *p, readyAt: t.Add(s.opts.PodStartup), added: true})
		}
	case want < cur:
		var measured []*simPod
		for _, sp := range s.pods {
			if s.measured(&sp.pod) {
				measured = append(measured, sp)
			}
		}
		// Remove the pods that are not ready, then the newest.
		sort.SliceStable(measured, func(i, j int) bool { return !podOrder(&measured[i].pod, &measured[j].pod) })
		drop := map[*simPod]bool{}
		for _, sp := range measured[:cur-want] {
			drop[sp] = true
		}
		kept := s.pods[:0]
		for _, sp := range s.pods {
			if !drop[sp] {
				kept = append(kept, sp)
			}
		}
		s.pods = kept
	}
}

func (s *simulation) countMeasured() int {
	n := 0
	for _, sp := range s.pods {
		if s.measured(&sp.pod) {
			n++
		}
	}
	return n
}

// prepare builds the inputs of the sync at t: pod readiness, samples and
// metric values.
func (s *simulation) prepare(t time.Time) {
	s.snap.Now = t
	var reporting []*simPod
	for _, sp := range s.pods {
		if !sp.readyAt.IsZero() && !t.Before(sp.readyAt) {
			at := metav1.NewTime(sp.readyAt)
			c := readyCondition(&sp.pod)
			if c == nil {
				sp.pod.Status.Conditions = append(sp.pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady})
				c = &sp.pod.Status.Conditions[len(sp.pod.Status.Conditions)-1]
			}
			c.Status, c.LastTransitionTime = corev1.ConditionTrue, at
			sp.pod.Status.Phase = corev1.PodRunning
			sp.readyAt = time.Time{}
			sp.reports = true
		}
		if sp.reports && s.measured(&sp.pod) {
			reporting = append(reporting, sp)
		}
	}
	resTotals, podsTotals, perPod := s.loadAt(t)
	n := int64(len(reporting))

	// Rebuild the pod list and the per-pod samples.
	s.snap.Pods = s.snap.Pods[:0]
	for _, sp := range s.pods {
		s.snap.Pods = append(s.snap.Pods, sp.pod)
	}
	ts := metav1.NewTime(t.Add(-s.lag))
	s.snap.PodMetrics = s.snap.PodMetrics[:0]
	kept := s.snap.CustomMetrics[:0]
	for _, cm := range s.snap.CustomMetrics {
		if cm.DescribedObject.Kind != "Pod" {
			kept = append(kept, cm)
		}
	}
	s.snap.CustomMetrics = kept
	for i, sp := range reporting {
		if len(resTotals) > 0 {
			pm := metricsv1beta1.PodMetrics{
				ObjectMeta: metav1.ObjectMeta{Name: sp.pod.Name, Namespace: sp.pod.Namespace, Labels: sp.pod.Labels},
				Timestamp:  ts, Window: metav1.Duration{Duration: s.window},
			}
			for _, c := range usageContainers(&sp.pod) {
				cm := metricsv1beta1.ContainerMetrics{Name: c.Name, Usage: corev1.ResourceList{}}
				for res, byC := range resTotals {
					v, ok := byC[c.Name]
					if !ok {
						continue
					}
					if !perPod[string(res)] {
						v = shareOf(res, v, n, int64(i))
					}
					cm.Usage[res] = quantity(res, v)
				}
				pm.Containers = append(pm.Containers, cm)
			}
			s.snap.PodMetrics = append(s.snap.PodMetrics, pm)
		}
		for name, v := range podsTotals {
			if !perPod["pods:"+name] {
				v = share(v, n, int64(i))
			}
			s.snap.CustomMetrics = append(s.snap.CustomMetrics, custommetricsv1beta2.MetricValue{
				DescribedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "/v1", Name: sp.pod.Name, Namespace: sp.pod.Namespace},
				Metric:          custommetricsv1beta2.MetricIdentifier{Name: name},
				Timestamp:       ts,
				Value:           *resource.NewMilliQuantity(v, resource.DecimalSI),
			})
		}
	}
	if s.opts.Trace != nil {
		s.opts.Trace.applyObjects(s, t)
	}
}

// loadAt returns the resource usage per container and the Pods metric values
// at t, and which of them are per-pod values rather than totals.
func (s *simulation) loadAt(t time.Time) (map[corev1.ResourceName]map[string]int64, map[string]int64, map[string]bool) {
	perPodModel := s.opts.LoadModel == explain.LoadConstantPerPod
	perPod := map[string]bool{}
	res := make(map[corev1.ResourceName]map[string]int64, len(s.resource))
	for r, byC := range s.resource {
		m := make(map[string]int64, len(byC))
		for c, v := range byC {
			m[c] = v
		}
		res[r] = m
		perPod[string(r)] = perPodModel
	}
	pods := make(map[string]int64, len(s.podsMetrics))
	for k, v := range s.podsMetrics {
		pods[k] = v
		perPod["pods:"+k] = perPodModel
	}
	if s.opts.Trace != nil {
		s.opts.Trace.applyPods(s, t, res, pods, perPod)
	}
	return res, pods, perPod
}

// splitOverContainers shares a pod-level value over the containers in the
// proportions of the start (by request when there was no usage).
func (s *simulation) splitOverContainers(r corev1.ResourceName, v int64) map[string]int64 {
	out := map[string]int64{}
	if len(s.containers) == 0 {
		return out
	}
	weights := map[string]int64{}
	var sum int64
	for _, c := range s.containers {
		w := s.resource[r][c]
		weights[c] = w
		sum += w
	}
	if sum == 0 && s.template != nil {
		for _, c := range usageContainers(s.template) {
			q := c.Resources.Requests[r]
			weights[c.Name] = q.MilliValue()
			sum += q.MilliValue()
		}
	}
	var given int64
	for i, c := range s.containers {
		var part int64
		switch {
		case i == len(s.containers)-1:
			part = v - given
		case sum > 0:
			part = mulDiv(v, weights[c], sum)
		default:
			part = v / int64(len(s.containers))
		}
		given += part
		out[c] = part
	}
	return out
}
