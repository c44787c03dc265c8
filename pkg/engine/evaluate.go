// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"
	"fmt"
	"slices"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Evaluate replays one sync of the HPA controller on snap with the given
// controller settings, and explains it in full. It returns an error only
// when the snapshot is not usable at all (no HPA); everything the
// controller would report as a condition or event is part of the returned
// decision instead.
func Evaluate(snap *Snapshot, set Settings) (*explain.Decision, error) {
	return EvaluateWith(snap, set, EvalOptions{})
}

// EvaluateWith is Evaluate, keeping as much of the explanation as opt
// says.
func EvaluateWith(snap *Snapshot, set Settings, opt EvalOptions) (*explain.Decision, error) {
	if snap == nil || snap.HPA == nil {
		return nil, errors.New("snapshot has no HorizontalPodAutoscaler")
	}
	if set.LegacyScaleUpLimitFactor == 0 && set.LegacyScaleUpLimitMinimum == 0 {
		d := DefaultSettings()
		set.LegacyScaleUpLimitFactor, set.LegacyScaleUpLimitMinimum = d.LegacyScaleUpLimitFactor, d.LegacyScaleUpLimitMinimum
	}
	if opt.OutcomeOnly {
		opt.Brief = true
	}
	sc := getScratch()
	// The scratch's run is zero (putScratch clears it).
	s := &sc.run
	s.snap, s.set, s.opt, s.now, s.sc = snap, set, opt, snap.Now, sc
	s.run()
	dec := s.dec
	putScratch(sc)
	return dec, nil
}

// syncRun is the working state of one replayed sync.
type syncRun struct {
	snap *Snapshot
	set  Settings
	opt  EvalOptions
	now  time.Time

	// hpa is the snapshot's, read only. The sync writes status (its copy
	// of the old one) and reads behavior: the HPA's, or the copy normalize
	// writes (written).
	hpa       *autoscalingv2.HorizontalPodAutoscaler
	status    autoscalingv2.HorizontalPodAutoscalerStatus
	behavior  *autoscalingv2.HorizontalPodAutoscalerBehavior
	written   behaviorCopy
	oldStatus *autoscalingv2.HorizontalPodAutoscalerStatus
	state     ControllerState
	seeded    bool
	events    []explain.Event
	dec       *explain.Decision

	// ownRecommendations and ownScaleEvents say that the state's lists
	// are the sync's own (built by it), not the snapshot's.
	ownRecommendations, ownScaleEvents bool
	// room holds the decision's parts, rooms its metrics' figures.
	room  *decisionRoom
	rooms []metricRoom
	// sc lends the sync its per-pod maps and lists (nil: allocate).
	sc *scratch
	// calc and api are the calculator newCalculator hands out: the
	// sync's own, kept with it.
	calc calculator
	api  metricsAPI
}

// decisionRoom is where a decision keeps the parts a sync fills once
// (the selector check, the recommendation, the normalization, the three
// conditions every sync past the scale sets) and the figures they point
// to: one allocation rather than one per part. Most HPAs have one metric,
// whose result, figures and status are kept here too.
type decisionRoom struct {
	dec            explain.Decision
	selector       explain.SelectorCheck
	recommendation explain.Recommendation
	normalization  explain.Normalization
	bestValid      int32
	statusConds    [3]autoscalingv2.HorizontalPodAutoscalerCondition
	metric         [1]explain.MetricResult
	metricRoom     [1]metricRoom
	metricStatus   [1]autoscalingv2.MetricStatus
}

// metricRoom is where a metric's result keeps the figures it points to.
type metricRoom struct {
	proposed, utilization, targetUtilization int32
	value, targetValue                       resource.Quantity
	timestamp                                time.Time
}

func (s *syncRun) event(eventType, reason, msg string) {
	s.events = append(s.events, explain.Event{Type: eventType, Reason: reason, Message: msg})
}

// setCondition updates a condition in place or appends it; the transition
// time moves only when the status value changes.
func (s *syncRun) setCondition(t autoscalingv2.HorizontalPodAutoscalerConditionType, status corev1.ConditionStatus, reason, msg string) {
	s.status.Conditions = setConditionInList(s.status.Conditions, t, status, reason, msg, s.now)
}

func setConditionInList(list []autoscalingv2.HorizontalPodAutoscalerCondition, t autoscalingv2.HorizontalPodAutoscalerConditionType, status corev1.ConditionStatus, reason, msg string, now time.Time) []autoscalingv2.HorizontalPodAutoscalerCondition {
	idx := -1
	for i := range list {
		if list[i].Type == t {
			idx = i
			break
		}
	}
	if idx < 0 {
		if len(list) == cap(list) && len(list) < conditionTypes {
			// Room for the conditions a sync sets (AbleToScale,
			// ScalingActive, ScalingLimited, ScaledToZero) at once,
			// rather than one growth each.
			list = slices.Grow(list, conditionTypes-len(list))
		}
		list = append(list, autoscalingv2.HorizontalPodAutoscalerCondition{Type: t})
		idx = len(list) - 1
	}
	c := &list[idx]
	if c.Status != status {
		c.LastTransitionTime = metav1.NewTime(now)
	}
	c.Status, c.Reason, c.Message = status, reason, msg
	return list
}

// conditionTypes is the number of condition types the controller sets.
const conditionTypes = 4

func (s *syncRun) removeCondition(t autoscalingv2.HorizontalPodAutoscalerConditionType) {
	var kept []autoscalingv2.HorizontalPodAutoscalerCondition
	for _, c := range s.status.Conditions {
		if c.Type != t {
			kept = append(kept, c)
		}
	}
	s.status.Conditions = kept
}

func scaledToZeroCondition(conditions []autoscalingv2.HorizontalPodAutoscalerCondition) bool {
	for _, c := range conditions {
		if c.Type == autoscalingv2.ScaledToZero {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func (s *syncRun) init() {
	// The sync writes the HPA's status (s.status, a copy), and its spec at
	// one place only (normalize, which writes a copy of the behavior): the
	// object is the snapshot's, shared and read.
	h, t := s.snap.HPA, s.snap.Target
	s.hpa, s.behavior = h, h.Spec.Behavior
	s.room = &decisionRoom{dec: explain.Decision{
		APIVersion: explain.APIVersion,
		Kind:       explain.KindExplanation,
		HPA:        explain.ObjectRef{Namespace: h.Namespace, Name: h.Name},
		Target: explain.TargetInfo{
			APIVersion: h.Spec.ScaleTargetRef.APIVersion, Kind: h.Spec.ScaleTargetRef.Kind, Name: h.Spec.ScaleTargetRef.Name,
			SpecReplicas: t.SpecReplicas, StatusReplicas: t.StatusReplicas, Selector: t.Selector, GetError: t.GetError,
			MinReplicas: MinReplicas(h), MaxReplicas: h.Spec.MaxReplicas,
		},
		Now:    s.now,
		Events: []explain.Event{},
	}}
	old := h.Status
	conditions := old.Conditions
	old.Conditions = nil
	old.DeepCopyInto(&s.status)
	// The conditions are values: copied into the decision's room (the
	// status the decision keeps), with room for those the sync sets.
	s.status.Conditions = append(s.room.statusConds[:0], conditions...)
	// The old status is read only; the state's lists are replaced, not
	// written, but for the scale events (storeScaleEvent copies them
	// first).
	s.oldStatus = &h.Status
	s.state = s.snap.State
	s.room.dec.Metrics, s.rooms = s.room.metric[:], s.room.metricRoom[:]
	if n := len(h.Spec.Metrics); n != 1 {
		s.room.dec.Metrics, s.rooms = make([]explain.MetricResult, n), make([]metricRoom, n)
	}
	s.dec = &s.room.dec
	if !s.opt.OutcomeOnly {
		gates := make(map[string]bool, len(s.set.Profile.Gates))
		for g, v := range s.set.Profile.Gates {
			gates[string(g)] = v
		}
		words := s.sc.settingsWords(&s.set)
		s.dec.Settings = explain.SettingsInfo{
			Tolerance:               s.set.Tolerance,
			CPUInitializationPeriod: words.cpuInitWords,
			InitialReadinessDelay:   words.readinessDelayWords,
			DownscaleStabilization:  words.downscaleWords,
			SyncPeriod:              words.syncPeriodWords,
			Source:                  s.set.Source,
			FeatureGates:            gates,
			ControllerVersion:       words.versionWords,
			ControllerVersionSource: s.set.VersionSource,
		}
		s.dec.StateBefore = s.snap.State.DeepCopy()
	}
	for i, m := range s.hpa.Spec.Metrics {
		tr := &s.dec.Metrics[i]
		tr.Index, tr.Type, tr.Name, tr.Source = i, string(m.Type), displayName(m), metricSource(m)
		switch corev1.ResourceName(tr.Source.Resource) {
		case corev1.ResourceMemory, corev1.ResourceEphemeralStorage:
			tr.Unit = explain.MetricUnitBytes
		case corev1.ResourceCPU:
			tr.Unit = explain.MetricUnitCores
		default:
			// Other resources and custom metrics are plain quantities.
		}
		describeTarget(&s.rooms[i], m, tr)
	}
	if s.state.Provenance != explain.Observed && !s.opt.OutcomeOnly {
		s.dec.Assumptions = append(s.dec.Assumptions, s.state.Notes...)
	}
}

// run mirrors reconcileAutoscaler.
func (s *syncRun) run() {
	s.init()
	defer s.finish()
	ref := s.hpa.Spec.ScaleTargetRef

	// 1. Resolve the target's scale.
	var getErr error
	if _, err := schema.ParseGroupVersion(ref.APIVersion); err != nil {
		getErr = err
	} else if s.snap.Target.GetError != "" {
		getErr = errors.New(s.snap.Target.GetError)
	}
	if getErr != nil {
		s.event(corev1.EventTypeWarning, explain.ReasonFailedGetScale, getErr.Error())
		s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionFalse, explain.ReasonFailedGetScale, fmt.Sprintf("the HPA controller was unable to get the target's current scale: %v", getErr))
		s.dec.Outcome = explain.OutcomeFailedGetScale
		s.dec.CurrentReplicas = s.status.CurrentReplicas
		s.markMetricsNotComputed("not computed: the target's scale could not be read")
		s.dec.Summary = fmt.Sprintf("the controller cannot read the scale of %s/%s (%v); nothing else is computed", ref.Kind, ref.Name, getErr)
		return
	}
	s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionTrue, explain.ReasonSucceededGetScale, "the HPA controller was able to get the target's current scale")
	cur := s.snap.Target.SpecReplicas
	s.dec.CurrentReplicas = cur

	// 2. A controller without history for this HPA seeds it with cur. The
	// controller reads its clock for this before it reads it again for
	// stabilization, so the seed is a little older than "now": with a zero
	// window it is already outside it. One nanosecond models that order.
	if !s.state.RecommendationsInitialized {
		s.state.RecommendationsInitialized = true
		s.state.Recommendations = []Recommendation{{Replicas: cur, Timestamp: s.now.Add(-time.Nanosecond)}}
		s.ownRecommendations = true
		s.seeded = true
	}

	minR := MinReplicas(s.hpa)
	maxR := s.hpa.Spec.MaxReplicas
	sw := s.set.Profile.Switches
	gateZero := sw.ScaleToZeroConditions && sw.ScaledToZero
	hasObjExt := HasObjectOrExternalMetric(s.hpa)
	scaledToZero := gateZero && scaledToZeroCondition(s.status.Conditions)
	canScaleFromZero := scaledToZero && hasObjExt

	desired := int32(0)
	reason := ""
	rescale := true
	needsMetrics := true
	var statuses []autoscalingv2.MetricStatus

	// 3. Short-circuits. Before v1.36 a target at zero disables autoscaling
	// only when minReplicas is not zero; from v1.36 the ScaledToZero
	// condition decides.
	zeroDisables := cur == 0 && minR != 0
	if sw.ScaleToZeroConditions {
		zeroDisables = cur == 0 && !((minR != 0 && scaledToZero) || canScaleFromZero)
	}
	switch {
	case zeroDisables:
		needsMetrics = false
		rescale = false
		s.setCondition(autoscalingv2.ScalingActive, corev1.ConditionFalse, explain.ReasonScalingDisabled, "scaling is disabled since the replica count of the target is zero")
		if sw.ScaleToZeroConditions && !gateZero {
			s.removeCondition(autoscalingv2.ScaledToZero)
		}
		s.dec.Outcome = explain.OutcomeScalingDisabled
		s.dec.Summary = "the target is scaled to 0 replicas, which disables autoscaling (scale it up by hand to resume)"
	case cur == 0:
		// Metrics are computed from zero replicas.
	case cur > maxR:
		reason = "Current number of replicas above Spec.MaxReplicas"
		desired = maxR
		needsMetrics = false
		s.dec.Outcome = explain.OutcomeAboveMax
		s.dec.Summary = fmt.Sprintf("current replicas %d are above maxReplicas %d: the controller scales to %d without looking at metrics", cur, maxR, maxR)
	case cur < minR:
		reason = "Current number of replicas below Spec.MinReplicas"
		desired = minR
		needsMetrics = false
		s.dec.Outcome = explain.OutcomeBelowMin
		s.dec.Summary = fmt.Sprintf("current replicas %d are below minReplicas %d: the controller scales to %d without looking at metrics", cur, minR, minR)
	}

	switch {
	case !needsMetrics && cur == 0:
		// Per-pod averages over zero replicas are undefined, and the
		// controller computes none: say so rather than divide by zero.
		s.markMetricsNotComputed("not computed: the target has 0 replicas and autoscaling is disabled")
	case !needsMetrics:
		s.shadowMetrics()
	default:
		// 4. Metrics.
		metricDesired, metricName, sts, failed, err := s.computeReplicasForMetrics(cur)
		statuses = sts
		// A metric may legitimately propose -1 (negative values); only a
		// failure stops the sync.
		if failed {
			s.setStatusKeepDesired(cur, statuses)
			s.event(corev1.EventTypeWarning, explain.ReasonFailedComputeMetrics, err.Error())
			if s.dec.Outcome == "" {
				s.dec.Outcome = explain.OutcomeMetricsFailed
			}
			if s.dec.Summary == "" {
				s.dec.Summary = "the controller could not compute a replica count (" + err.Error() + "); replicas stay at " + fmt.Sprint(cur)
			}
			return
		}
		// 5. Rescale reason, on the pre-normalization value.
		rescaleMetric := ""
		if metricDesired > desired {
			desired = metricDesired
			rescaleMetric = metricName
		}
		if desired > cur {
			reason = rescaleMetric + " above target"
		}
		if desired < cur {
			reason = "All metrics below target"
		}
		// 6. Normalization.
		desired = s.normalize(cur, desired, minR)
		if cur == 0 && minR != 0 && scaledToZero && desired < minR {
			desired = minR
			s.dec.Normalization.ScaleFromZeroFloor = true
			s.dec.Normalization.Result = desired
			if reason == "" {
				reason = "Current number of replicas below Spec.MinReplicas"
			}
		}
		rescale = desired != cur
	}

	// 7. Rescale.
	if rescale {
		s.dec.RescaleReason = reason
		if msg := s.snap.Target.UpdateError; msg != "" {
			s.event(corev1.EventTypeWarning, explain.ReasonFailedRescale, fmt.Sprintf("New size: %d; reason: %s; error: %v", desired, reason, msg))
			s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionFalse, explain.ReasonFailedUpdateScale, fmt.Sprintf("the HPA controller was unable to update the target scale: %v", msg))
			s.setStatusKeepDesired(cur, statuses)
			s.dec.Outcome = explain.OutcomeFailedUpdateScale
			s.dec.Summary = fmt.Sprintf("the controller wants %d replicas but the scale update fails: %s", desired, msg)
			return
		}
		var text [160]byte
		// "the HPA controller was able to update the target scale to %d"
		s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionTrue, explain.ReasonSucceededRescale, sentence(text[:0]).str("the HPA controller was able to update the target scale to ").int(int64(desired)).String())
		// "New size: %d; reason: %s"
		s.event(corev1.EventTypeNormal, explain.ReasonSuccessfulRescale, sentence(text[:0]).str("New size: ").int(int64(desired)).str("; reason: ").str(reason).String())
		// The events are the snapshot's: the sync writes copies.
		s.state.ScaleUpEvents = append([]ScaleEvent(nil), s.state.ScaleUpEvents...)
		s.state.ScaleDownEvents = append([]ScaleEvent(nil), s.state.ScaleDownEvents...)
		s.ownScaleEvents = true
		storeScaleEvent(s.behavior, &s.state, cur, desired, s.now)
		switch {
		case !sw.ScaleToZeroConditions:
			// Before v1.36 the controller does not know the condition.
		case gateZero && cur > 0 && desired == 0 && minR == 0 && hasObjExt:
			s.setCondition(autoscalingv2.ScaledToZero, corev1.ConditionTrue, explain.ReasonScaledToZero, "the HPA controller scaled the workload to zero")
		case gateZero:
			s.setCondition(autoscalingv2.ScaledToZero, corev1.ConditionFalse, explain.ReasonNotScaledToZero, "the HPA controller did not scale the workload to zero")
		default:
			s.removeCondition(autoscalingv2.ScaledToZero)
		}
		s.dec.Rescale = true
		if s.dec.Outcome == "" {
			s.dec.Outcome = explain.OutcomeRescale
		}
	} else {
		desired = cur
		if s.dec.Outcome == "" {
			s.dec.Outcome = explain.OutcomeNoChange
		}
	}
	s.setStatus(cur, desired, statuses, rescale)
}

// setStatus mirrors the controller's status rebuild.
func (s *syncRun) setStatus(cur, desired int32, statuses []autoscalingv2.MetricStatus, rescale bool) {
	s.status = autoscalingv2.HorizontalPodAutoscalerStatus{
		CurrentReplicas: cur,
		DesiredReplicas: desired,
		LastScaleTime:   s.status.LastScaleTime,
		CurrentMetrics:  statuses,
		Conditions:      s.status.Conditions,
	}
	if s.set.Profile.Switches.ObservedGeneration {
		g := s.hpa.Generation
		s.status.ObservedGeneration = &g
	}
	if rescale {
		t := metav1.NewTime(s.now)
		s.status.LastScaleTime = &t
	}
}

// setStatusKeepDesired is the failure-path rebuild: the previous desired
// replicas stay.
func (s *syncRun) setStatusKeepDesired(cur int32, statuses []autoscalingv2.MetricStatus) {
	s.setStatus(cur, s.status.DesiredReplicas, statuses, false)
}

func (s *syncRun) finish() {
	d := s.dec
	// s.status is this sync's own copy, which nothing writes after: it
	// is the decision's without a further copy.
	d.Status = s.status
	d.DesiredReplicas = d.Status.DesiredReplicas
	d.CurrentMetrics = d.Status.CurrentMetrics
	if d.CurrentMetrics == nil {
		d.CurrentMetrics = []autoscalingv2.MetricStatus{}
	}
	d.StateAfter = s.stateAfter()
	if s.opt.OutcomeOnly {
		return
	}
	d.Conditions = make([]explain.Condition, 0, len(d.Status.Conditions))
	for _, c := range d.Status.Conditions {
		d.Conditions = append(d.Conditions, explain.Condition{Type: string(c.Type), Status: string(c.Status), Reason: c.Reason, Message: c.Message, LastTransitionTime: c.LastTransitionTime.Time})
	}
	if s.events != nil {
		// The sync's events are the decision's: nothing writes them after.
		d.Events = s.events
	}
	d.StatusChanged = !statusEqual(s.oldStatus, &s.status)
	if !s.opt.Brief {
		d.Agreement = compareStatus(s.oldStatus, &s.status, s.snap.Target.SpecReplicas, d)
		s.checkSync(&d.Agreement)
	}
	d.DecidedBy = decidedBy(d)
	s.noteHiddenHistory()
	if d.Summary == "" {
		d.Summary = summarize(d)
	}
}

// stateAfter is the state the decision keeps, sharing nothing with the
// snapshot: the lists the sync built are its own already; the others are
// the snapshot's, copied (as ControllerState.DeepCopy copies them).
func (s *syncRun) stateAfter() ControllerState {
	after := s.state
	if !s.ownRecommendations {
		after.Recommendations = append([]Recommendation(nil), s.state.Recommendations...)
	}
	if !s.ownScaleEvents {
		after.ScaleUpEvents = append([]ScaleEvent(nil), s.state.ScaleUpEvents...)
		after.ScaleDownEvents = append([]ScaleEvent(nil), s.state.ScaleDownEvents...)
	}
	after.Notes = append([]string(nil), s.state.Notes...)
	return after
}

func (s *syncRun) markMetricsNotComputed(msg string) {
	for i := range s.dec.Metrics {
		m := msg
		s.dec.Metrics[i].Error = &m
		s.dec.Metrics[i].Used = false
	}
}

// computeReplicasForMetrics mirrors the controller's combination of metrics.
// failed is true when the sync must stop.
func (s *syncRun) computeReplicasForMetrics(cur int32) (replicas int32, metric string, statuses []autoscalingv2.MetricStatus, failed bool, err error) {
	sel, pods, err := s.validateSelector()
	if err != nil {
		s.dec.Outcome = explain.OutcomeInvalidSelector
		s.dec.Summary = "the target's selector is not usable: " + s.dec.Selector.Error
		s.markMetricsNotComputed("not computed: " + err.Error())
		return -1, "", nil, true, err
	}
	specs := s.hpa.Spec.Metrics
	in := metricInput{
		hpa: s.hpa, specReplicas: cur, statusReplicas: s.snap.Target.StatusReplicas,
		tol:  tolerancesFor(s.hpa, s.set),
		calc: s.newCalculator(sel, pods),
		sw:   s.set.Profile.Switches,
	}
	statuses = s.room.metricStatus[:]
	if len(specs) != 1 {
		statuses = make([]autoscalingv2.MetricStatus, len(specs))
	}
	var (
		winner    = -1
		invalid   int
		firstFail *metricFailure
	)
	for i, spec := range specs {
		tr := &s.dec.Metrics[i]
		tr.Used = true
		n, st, ts, fail := computeReplicasForMetric(in, spec, tr)
		if fail != nil {
			if !fail.silent {
				s.event(corev1.EventTypeWarning, fail.reason, fail.eventMsg)
			}
			msg := fail.eventMsg
			tr.Error = &msg
			tr.ErrorReason = fail.reason
			if !s.opt.OutcomeOnly {
				tr.Steps = append(tr.Steps, "invalid: "+fail.err.Error())
			}
			if invalid == 0 {
				firstFail = fail
			}
			invalid++
			continue
		}
		statuses[i] = st
		room := &s.rooms[i]
		room.proposed = n
		tr.ProposedReplicas = &room.proposed
		tr.Value, tr.Utilization = room.statusValue(st)
		if !ts.IsZero() {
			room.timestamp = ts
			tr.Timestamp = &room.timestamp
		}
		if replicas == 0 || n > replicas {
			// tr.Name is displayName(spec), set by init.
			replicas, metric, winner = n, tr.Name, i
		}
	}
	rec := &s.room.recommendation
	*rec = explain.Recommendation{Replicas: replicas, WinningMetric: metric, WinningIndex: winner, Invalid: invalid, Total: len(specs)}
	if winner >= 0 {
		s.room.bestValid = replicas
		rec.BestValid = &s.room.bestValid
	}
	s.dec.Recommendation = rec
	var combined error
	if firstFail != nil {
		combined = fmt.Errorf("invalid metrics (%v invalid out of %v), first error is: %w", invalid, len(specs), firstFail.err)
		rec.Error = combined.Error()
	}
	if invalid >= len(specs) || (invalid > 0 && replicas < cur) {
		rec.Failed = true
		if invalid >= len(specs) {
			rec.FailureRule = "every metric is invalid"
		} else {
			rec.FailureRule = fmt.Sprintf("a metric is invalid and the valid ones propose %d < %d current replicas: the controller refuses to scale down on partial data", replicas, cur)
		}
		rec.Replicas = -1
		switch {
		case firstFail != nil && firstFail.silent:
			// The controller sets the empty condition such a failure carries.
			s.setCondition("", "", "", "")
		case firstFail != nil:
			s.setCondition(autoscalingv2.ScalingActive, corev1.ConditionFalse, firstFail.reason, "the HPA was unable to compute the replica count: "+firstFail.eventMsg)
		}
		for i := range s.dec.Metrics {
			s.dec.Metrics[i].Winner = false
		}
		if combined == nil {
			// No metric specs at all: the controller fails the same way.
			combined = fmt.Errorf("invalid metrics (%v invalid out of %v), first error is: %v", invalid, len(specs), nil)
		}
		return -1, "", statuses, true, combined
	}
	if winner >= 0 {
		s.dec.Metrics[winner].Winner = true
	}
	s.setCondition(autoscalingv2.ScalingActive, corev1.ConditionTrue, explain.ReasonValidMetricFound, validMetricMessage(metric))
	return replicas, metric, statuses, false, combined
}

// validMetricMessage is the ScalingActive message of a sync whose metrics
// gave a count; for the usual metrics it is a constant, not built at each
// sync.
func validMetricMessage(metric string) string {
	const msg = "the HPA was able to successfully calculate a replica count from "
	switch metric {
	case cpuUtilizationName:
		return msg + cpuUtilizationName
	case memoryUtilizationName:
		return msg + memoryUtilizationName
	}
	return msg + metric
}

func (s *syncRun) newCalculator(sel labels.Selector, pods []*corev1.Pod) *calculator {
	s.api = metricsAPI{
		snap: s.snap, namespace: s.hpa.Namespace, selector: sel, pods: pods, sc: s.sc,
		missingContainerFails: s.set.Profile.Switches.MissingContainerSampleFails,
	}
	s.calc = calculator{
		api:            &s.api,
		pods:           pods,
		now:            s.now,
		cpuInit:        s.set.CPUInitializationPeriod,
		readinessDelay: s.set.InitialReadinessDelay,
		sw:             s.set.Profile.Switches,
		foreign:        s.snap.ForeignPods,
		brief:          s.opt.Brief,
		outcomeOnly:    s.opt.OutcomeOnly,
		sc:             s.sc,
	}
	return &s.calc
}

// shadowMetrics computes every metric's proposal for the explanation when a
// short-circuit decides the outcome; nothing it does reaches the status,
// events or controller state.
func (s *syncRun) shadowMetrics() {
	shadow := &syncRun{snap: s.snap, set: s.set, opt: s.opt, now: s.now, sc: s.sc}
	shadow.init()
	shadow.status.Conditions = nil
	_, _, _, _, _ = shadow.computeReplicasForMetrics(s.snap.Target.SpecReplicas)
	for i := range shadow.dec.Metrics {
		shadow.dec.Metrics[i].Used = false
		shadow.dec.Metrics[i].Winner = false
	}
	s.dec.Metrics = shadow.dec.Metrics
	s.dec.Selector = shadow.dec.Selector
	if shadow.dec.Recommendation != nil {
		r := *shadow.dec.Recommendation
		s.dec.Recommendation = &r
	}
}

// normalize applies the legacy path or the behavior path.
func (s *syncRun) normalize(cur, desired, minR int32) int32 {
	n := &s.room.normalization
	*n = explain.Normalization{Input: desired}
	s.dec.Normalization = n
	maxR := s.hpa.Spec.MaxReplicas
	b := s.behavior
	var stab int32
	var lim limitResult
	if b == nil {
		n.Path = "legacy"
		n.Stabilization.DownWindowSeconds = int32(s.set.DownscaleStabilization.Seconds())
		n.Stabilization.DownWindowSource = "--horizontal-pod-autoscaler-downscale-stabilization"
		stab, s.state.Recommendations = stabilizeLegacy(s.state.Recommendations, desired, s.set.DownscaleStabilization, s.now, &n.Stabilization)
		s.ownRecommendations = true
		if stab != desired {
			n.Stabilization.Reason = explain.ReasonScaleDownStabilized
			s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionTrue, explain.ReasonScaleDownStabilized, msgScaleDownStabilized)
		} else {
			n.Stabilization.Reason = explain.ReasonReadyForNewScale
			s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionTrue, explain.ReasonReadyForNewScale, msgReadyForNewScale)
		}
		n.Limits = explain.Limits{Min: minR, Max: maxR, Direction: direction(cur, stab)}
		lim = legacyClamp(cur, stab, minR, maxR, s.set, &n.Limits)
	} else {
		n.Path = "behavior"
		up, down := b.ScaleUp, b.ScaleDown
		var upWin, downWin int32
		if up != nil && up.StabilizationWindowSeconds != nil {
			upWin = *up.StabilizationWindowSeconds
		}
		n.Stabilization.DownWindowSource = "behavior.scaleDown.stabilizationWindowSeconds"
		if down != nil && down.StabilizationWindowSeconds != nil {
			downWin = *down.StabilizationWindowSeconds
		} else {
			// Unset: the controller substitutes its downscale-stabilization flag.
			downWin = int32(s.set.DownscaleStabilization.Seconds())
			n.Stabilization.DownWindowSource = "--horizontal-pod-autoscaler-downscale-stabilization (behavior.scaleDown.stabilizationWindowSeconds is unset)"
			if down != nil {
				// The behavior is the snapshot's: the sync writes a copy
				// of it and of its scale-down rules, and reads the rest.
				bc := &s.written
				*bc = behaviorCopy{behavior: *b, scaleDown: *down, window: downWin}
				bc.scaleDown.StabilizationWindowSeconds = &bc.window
				bc.behavior.ScaleDown = &bc.scaleDown
				s.behavior = &bc.behavior
				up, down = bc.behavior.ScaleUp, bc.behavior.ScaleDown
			}
		}
		n.Stabilization.UpWindowSeconds, n.Stabilization.DownWindowSeconds = upWin, downWin
		var reason, msg string
		stab, reason, msg, s.state.Recommendations = stabilizeBehavior(s.state.Recommendations, cur, desired, upWin, downWin, s.now, &n.Stabilization)
		s.ownRecommendations = true
		if stab != desired {
			n.Stabilization.Reason = reason
			s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionTrue, reason, msg)
		} else {
			n.Stabilization.Reason = explain.ReasonReadyForNewScale
			s.setCondition(autoscalingv2.AbleToScale, corev1.ConditionTrue, explain.ReasonReadyForNewScale, msgReadyForNewScale)
		}
		n.Limits = explain.Limits{Min: minR, Max: maxR}
		lim = behaviorRate(cur, stab, minR, maxR, up, down, s.state.ScaleUpEvents, s.state.ScaleDownEvents, s.now, &n.Limits)
	}
	if s.seeded && len(n.Stabilization.Considered) > 0 {
		n.Stabilization.Considered[0].Seeded = true
	}
	n.Limits.Result, n.Limits.Reason = lim.replicas, lim.reason
	n.Limits.Limited = lim.replicas != stab
	if lim.replicas == stab {
		s.setCondition(autoscalingv2.ScalingLimited, corev1.ConditionFalse, lim.reason, lim.message)
	} else {
		s.setCondition(autoscalingv2.ScalingLimited, corev1.ConditionTrue, lim.reason, lim.message)
	}
	n.Result = lim.replicas
	return lim.replicas
}

// behaviorCopy is the behavior whose scale-down window a sync writes: the
// behavior and its scale-down rules copied, the rest shared and read only.
type behaviorCopy struct {
	behavior  autoscalingv2.HorizontalPodAutoscalerBehavior
	scaleDown autoscalingv2.HPAScalingRules
	window    int32
}

func direction(cur, d int32) string {
	switch {
	case d > cur:
		return "up"
	case d < cur:
		return "down"
	}
	return "none"
}

// noteHiddenHistory adds an assumption when controller history that was not
// observed decided the outcome: a stabilization window or a rate limit that
// used stored recommendations or scale events.
func (s *syncRun) noteHiddenHistory() {
	n := s.dec.Normalization
	st := s.snap.State
	if n == nil || st.Provenance == explain.Observed {
		return
	}
	prov := st.Provenance
	if prov == "" {
		prov = explain.Assumed
	}
	if n.Stabilization.Result != n.Input {
		s.dec.Assumptions = append(s.dec.Assumptions, fmt.Sprintf("the stabilization window decided the outcome from recommendation history that is %s, not observed: the real controller's history may differ", prov))
	}
	if k := s.dec.DecidedBy.Kind; (k == explain.DecidedByScaleUpRateLimit || k == explain.DecidedByScaleDownRateLimit) && n.Path == "behavior" {
		s.dec.Assumptions = append(s.dec.Assumptions, fmt.Sprintf("a scaling policy limited the outcome using scale events that are %s, not observed", prov))
	}
}
