// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Input is everything one replay of a KEDA poll needs. Time is an input:
// the package never reads the clock.
type Input struct {
	// ScaledObject is the object as the API server returns it (spec and
	// status; status.lastActiveTime, health and triggersActivity matter).
	ScaledObject *ScaledObject
	// Now is the instant of the poll.
	Now time.Time
	// CurrentReplicas is the workload's spec.replicas.
	CurrentReplicas int32
	// ReadyReplicas is the count of the workload's pods that are Running
	// and Ready (a fallback on a Value target divides by it); nil: unknown.
	ReadyReplicas *int32
	// Triggers holds one result per spec.triggers entry, by index; a
	// missing or empty entry means "not observed".
	Triggers []TriggerResult
	// HPACondition is the ScalingActive condition of KEDA's HPA, when the
	// HPA was read: it decides, from v2.21, whether the poll reuses the
	// HPA's observations, and gives the HPAActive condition.
	HPACondition *HPACondition
	// HPA is KEDA's HPA as read from the cluster, optional: it gives the
	// targets of triggers whose scalers are not replayed (for fallback
	// values).
	HPA *autoscalingv2.HorizontalPodAutoscaler
	// ScaleUpdateError, when set, is the error KEDA's own scale update gets
	// at this poll (the workload then keeps its replicas).
	ScaleUpdateError string
	// LoadLocation resolves cron time zones other than UTC (pass
	// time.LoadLocation); nil limits cron triggers to UTC.
	LoadLocation LocationLoader
	// Version is the KEDA release replayed; zero means NewestVersion.
	Version Version
}

// TriggerResult is what one trigger's scaler returned at the poll.
type TriggerResult struct {
	// Value is the raw value the scaler read: metrics-api the number at
	// valueLocation (after aggregation), kubernetes-workload the count of
	// matching pods not Succeeded or Failed, kubernetes-resource the value
	// in the ConfigMap or Secret. Cron computes its own; cpu and memory
	// have none.
	Value *float64 `json:"value,omitempty"`
	// Active is the scaler's own activity, for types whose parameters are
	// not replayed (ignored for the others, whose activity is computed).
	Active *bool `json:"active,omitempty"`
	// Error is the scaler's error; the trigger is then in error.
	Error string `json:"error,omitempty"`
}

// given reports whether the result says anything.
func (t TriggerResult) given() bool { return t.Value != nil || t.Active != nil || t.Error != "" }

// HPACondition is the ScalingActive condition of an HPA.
type HPACondition struct {
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// KEDA's condition reasons and messages.
const (
	reasonReady           = "ScaledObjectReady"
	msgReady              = "ScaledObject is defined correctly and is ready for scaling"
	reasonPaused          = "ScaledObjectPaused"
	msgPaused             = "ScaledObject is paused"
	reasonActive          = "ScalerActive"
	msgActive             = "Scaling is performed because triggers are active"
	msgForced             = "Scaling is performed because activation is being forced by annotation"
	reasonNotActive       = "ScalerNotActive"
	msgNotActive          = "Scaling is not performed because triggers are not active"
	reasonCooldown        = "ScalerCooldown"
	msgCooldown           = "Scaler cooling down because triggers are not active"
	reasonFallbackExists  = "FallbackExists"
	msgFallbackExists     = "At least one trigger is falling back on this scaled object"
	reasonNoFallback      = "NoFallbackFound"
	msgNoFallback         = "No fallbacks are active on this scaled object"
	reasonCheckFailed     = "ScaledObjectCheckFailed"
	reasonUnknownState    = "UnknownState"
	msgCheckFailed        = "ScaledObject check failed"
	reasonPartialError    = "PartialTriggerError"
	msgPartialError       = "Some triggers defined in ScaledObject are not working correctly"
	reasonTriggerError    = "TriggerError"
	msgTriggerError       = "Triggers defined in ScaledObject are not working correctly"
	reasonErrorScaling    = "ErrorScalingTarget"
	reasonUnpaused        = "ScaledObjectUnpaused"
	msgUnpaused           = "pause annotation removed for ScaledObject"
	reasonHPAActive       = "HPAActive"
	reasonHPAUnavailable  = "HPAMetricsUnavailable"
	reasonScalingDisabled = "ScalingDisabled"
)

// replay is one evaluation in progress.
type replay struct {
	in      Input
	so      *ScaledObject
	sw      Switches
	out     *explain.KEDA
	scalers []*scaler
	// health is status.health after the poll.
	health map[string]HealthStatus
	// activeMetrics names the active metrics, for the activation event.
	activeMetrics []string
}

// pollState is what KEDA's getScaledObjectState returns for one poll.
type pollState struct {
	active, isError, fallbackActive bool
	// byResources: every trigger is cpu or memory, so the object is active.
	byResources bool
	// activeMetrics names the active External metrics.
	activeMetrics []string
	// obs holds each External trigger's observation, by index.
	obs map[int]*observation
	// stop is set when KEDA skips the rest of the poll (no RequestScale).
	stop error
}

// Evaluate replays one poll of KEDA's operator for in.ScaledObject at
// in.Now: the pause annotations, the controller's checks, each trigger's
// activity against its threshold (with the fallback and the
// scalingModifiers formula), the activation decision and KEDA's own scale
// step (from zero, to zero after the cooldown, to minReplicaCount), with
// the conditions it writes and the values its metrics server answers the
// HPA. The error is for input the replay cannot read; every decision of
// KEDA, errors included, is in the result.
func Evaluate(in Input) (*explain.KEDA, error) {
	r, err := newReplay(in)
	if err != nil {
		return nil, err
	}
	r.describe()
	if r.out.Pause.Paused {
		r.paused()
		return r.finish(), nil
	}
	var buildErr error
	r.scalers, buildErr = buildAll(r.so, r.sw, in.LoadLocation)
	r.describeTriggers()
	if err := controllerCheck(r.so, r.scalers, buildErr); err != nil {
		r.rejected(err)
		return r.finish(), nil
	}
	r.pruneHealth()
	r.webhookWarnings()
	st, err := r.poll()
	if err != nil {
		return nil, err
	}
	if st.stop != nil {
		r.stopped(st.stop)
		return r.finish(), nil
	}
	r.execute(st)
	r.hpaMetrics(st)
	return r.finish(), nil
}

// newReplay checks the input and starts the result.
func newReplay(in Input) (*replay, error) {
	if in.Version.IsZero() {
		in.Version = Newest()
	}
	if err := in.Version.Check(); err != nil {
		return nil, err
	}
	if err := Validate(in.ScaledObject); err != nil {
		return nil, err
	}
	so := in.ScaledObject
	switch {
	case in.Now.IsZero():
		return nil, fmt.Errorf("ScaledObject %q: the time of the poll (now) is required", so.ref())
	case in.CurrentReplicas < 0:
		return nil, fmt.Errorf("ScaledObject %q: current replicas: Invalid value: %d: should be greater than or equal to 0", so.ref(), in.CurrentReplicas)
	case in.ReadyReplicas != nil && *in.ReadyReplicas < 0:
		return nil, fmt.Errorf("ScaledObject %q: ready replicas: Invalid value: %d: should be greater than or equal to 0", so.ref(), *in.ReadyReplicas)
	case len(in.Triggers) > len(so.Spec.Triggers):
		return nil, fmt.Errorf("ScaledObject %q: %d trigger results for %d triggers", so.ref(), len(in.Triggers), len(so.Spec.Triggers))
	}
	r := &replay{in: in, so: so, sw: in.Version.Switches(), health: maps.Clone(so.Status.Health)}
	if r.health == nil {
		r.health = map[string]HealthStatus{}
	}
	return r, nil
}

// describe fills what the spec and status say before any decision.
func (r *replay) describe() {
	so, in := r.so, r.in
	apiVersion, kind, _ := target(so)
	_, idleOrMin := so.idleOrMinimum()
	r.out = &explain.KEDA{
		KEDAVersion:     in.Version.String(),
		ScaledObject:    explain.ObjectRef{Namespace: so.Namespace, Name: so.Name},
		Generation:      so.Generation,
		Target:          explain.KEDATarget{APIVersion: apiVersion, Kind: kind, Name: so.Spec.ScaleTargetRef.Name},
		HPAName:         so.hpaName(),
		Now:             in.Now,
		CurrentReplicas: in.CurrentReplicas,
		HPAActs:         true,
		Polling: explain.KEDAPolling{
			IntervalSeconds: so.pollingInterval(),
			Relevant:        so.pollingRelevant(),
			Source:          explain.KEDASourcePoll,
		},
		Cooldown: explain.KEDACooldown{
			PeriodSeconds:        so.cooldownPeriod(),
			InitialPeriodSeconds: so.initialCooldownPeriod(),
		},
		Bounds: explain.KEDABounds{
			MinReplicaCount:      so.minReplicaCount(),
			MaxReplicaCount:      so.hpaMaxReplicas(),
			IdleReplicaCount:     so.Spec.IdleReplicaCount,
			HPAMinReplicas:       so.hpaMinReplicas(),
			HPAMaxReplicas:       so.hpaMaxReplicas(),
			ActivationReplicas:   so.hpaMinReplicas(),
			DeactivationReplicas: idleOrMin,
		},
		Pause:             Pause(so),
		ReplicasAfterKEDA: in.CurrentReplicas,
		Triggers:          []explain.KEDATrigger{},
		Conditions:        []explain.KEDACondition{},
		Steps:             []explain.KEDAStep{},
	}
	if t := so.Status.LastActiveTime; t != nil {
		r.out.LastActiveTime = ptr(t.Time)
		r.out.LastActiveTimeAfter = ptr(t.Time)
	}
	// Which cooldown counts: the cooldownPeriod from the last active poll,
	// else the initialCooldownPeriod from creation.
	c := &r.out.Cooldown
	if r.out.LastActiveTime != nil {
		c.CountsFrom = explain.KEDACooldownFromLastActive
		c.Since = ptr(*r.out.LastActiveTime)
		c.Until = ptr(c.Since.Add(seconds(c.PeriodSeconds)))
	} else {
		c.CountsFrom = explain.KEDACooldownFromCreation
		c.Since = ptr(so.CreationTimestamp.Time)
		c.Until = ptr(c.Since.Add(seconds(c.InitialPeriodSeconds)))
	}
	if so.Spec.Fallback != nil {
		f := so.Spec.Fallback
		behavior := f.Behavior
		if behavior == "" {
			behavior = FallbackStatic
		}
		r.out.Fallback = &explain.KEDAFallback{FailureThreshold: f.FailureThreshold, Replicas: f.Replicas, Behavior: behavior, Valid: fallbackValid(so)}
	}
	if so.usesModifiers() {
		sm := so.Spec.Advanced.ScalingModifiers
		mt := string(sm.MetricType)
		if mt == "" {
			mt = string(autoscalingv2.AverageValueMetricType)
		}
		r.out.ScalingModifiers = &explain.KEDAScalingModifiers{Formula: sm.Formula, Target: sm.Target, ActivationTarget: sm.ActivationTarget, MetricType: mt}
		if sm.Formula != "" {
			r.out.ScalingModifiers.Evaluated = floatFormula(sm.Formula)
		}
	}
	if !so.pollingRelevant() {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepConfig, Seconds: ptr(so.pollingInterval()),
			Text: fmt.Sprintf("minReplicaCount %d ≥ 1 without idleReplicaCount: KEDA never scales to zero, the HPA does all the scaling and pollingInterval %d s changes nothing", so.minReplicaCount(), so.pollingInterval()),
		})
	}
}

// describeTriggers lists every trigger with its metric, target and
// threshold, before any value.
func (r *replay) describeTriggers() {
	for _, s := range r.scalers {
		tr := explain.KEDATrigger{
			Index: s.index, Name: s.trigger.Name, Type: s.trigger.Type, Replayed: s.replayed,
			MetricName: s.metricName, ActivitySource: explain.KEDAActivityThreshold,
		}
		if t := metricTarget(s.spec); t != nil {
			tr.MetricType = string(t.Type)
			tr.Target = firstQuantity(t.AverageValue, t.Value)
			tr.TargetUtilization = t.AverageUtilization
		}
		switch {
		case !s.external:
			tr.ActivitySource = explain.KEDAActivityResource
		case s.cron != nil:
			tr.ActivitySource = explain.KEDAActivitySchedule
		case !s.replayed:
			tr.ActivitySource = explain.KEDAActivityGiven
		case s.err == nil:
			tr.ActivationParameter = s.activationParam
			tr.ActivationThreshold = ptr(s.activation)
		}
		if !s.replayed && s.metricName == "" {
			r.assume(fmt.Sprintf("trigger %d (%s): status.externalMetricNames has no s%d- metric; its name is unknown", s.index, s.trigger.Type, s.index))
		}
		if s.err != nil {
			tr.Error = s.err.Error()
			tr.ActivitySource = explain.KEDAActivityError
		}
		r.out.Triggers = append(r.out.Triggers, tr)
	}
}

// metricTarget returns the target of an HPA metric spec, nil when none.
func metricTarget(m autoscalingv2.MetricSpec) *autoscalingv2.MetricTarget {
	switch {
	case m.External != nil:
		return &m.External.Target
	case m.Resource != nil:
		return &m.Resource.Target
	case m.ContainerResource != nil:
		return &m.ContainerResource.Target
	default:
		return nil
	}
}

// firstQuantity returns a copy of the first non-nil quantity.
func firstQuantity(qs ...*resource.Quantity) *resource.Quantity {
	for _, q := range qs {
		if q != nil {
			c := q.DeepCopy()
			return &c
		}
	}
	return nil
}

// paused replays a paused object: KEDA's controller stops the loop,
// deletes the HPA and sets the workload to paused-replicas when given.
func (r *replay) paused() {
	p := r.out.Pause
	r.out.HPAActs = false
	r.out.HPAName = ""
	r.out.Reason = explain.KEDAReasonPaused
	r.out.Active = r.statusActive()
	// The triggers are not polled; their metrics are still described.
	r.scalers, _ = buildAll(r.so, r.sw, r.in.LoadLocation)
	r.describeTriggers()
	which := AnnotationPaused + "=" + p.Annotations[AnnotationPaused]
	if _, ok := p.Annotations[AnnotationPausedReplicas]; ok {
		which = AnnotationPausedReplicas + "=" + p.Annotations[AnnotationPausedReplicas]
	}
	switch {
	case p.PausedReplicasError != "":
		msg := fmt.Sprintf("failed to scale target to paused replica count: failed to parse paused replica count: %s", p.PausedReplicasError)
		r.cond("Ready", "False", reasonCheckFailed, msg)
		r.cond("Active", "Unknown", reasonUnknownState, msgCheckFailed)
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepPause,
			Text: fmt.Sprintf("%s: paused (its presence pauses), but the value is not an int32: KEDA deletes its HPA %s, leaves %d replicas and reports the error", which, r.so.hpaName(), r.in.CurrentReplicas),
		})
		r.out.Summary = fmt.Sprintf("Paused by %s with an invalid count: KEDA's HPA is deleted and the workload stays at %d replicas.", AnnotationPausedReplicas, r.in.CurrentReplicas)
	case p.PausedReplicas != nil:
		to := *p.PausedReplicas
		r.cond("Ready", "True", reasonReady, msgPaused)
		st := explain.KEDAStep{Kind: explain.KEDAStepPause, From: ptr(r.in.CurrentReplicas), To: ptr(to)}
		if to != r.in.CurrentReplicas {
			r.out.KEDAScaleTo = ptr(to)
			st.Text = fmt.Sprintf("%s: paused; KEDA deletes its HPA %s and scales %d → %d", which, r.so.hpaName(), r.in.CurrentReplicas, to)
		} else {
			st.Text = fmt.Sprintf("%s: paused; KEDA deletes its HPA %s; the workload is already at %d", which, r.so.hpaName(), to)
		}
		r.step(st)
		r.out.ReplicasAfterKEDA = to
		r.out.Summary = fmt.Sprintf("Paused at %d replicas by %s: no HPA, no polling.", to, AnnotationPausedReplicas)
	default:
		r.cond("Ready", "True", reasonReady, msgPaused)
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepPause,
			Text: fmt.Sprintf("%s: paused; KEDA deletes its HPA %s and freezes the workload at %d replicas", which, r.so.hpaName(), r.in.CurrentReplicas),
		})
		r.out.Summary = fmt.Sprintf("Paused by %s: no HPA, no polling; the workload stays at %d replicas.", AnnotationPaused, r.in.CurrentReplicas)
	}
	if c := r.statusCondition("Active"); c != nil && p.PausedReplicasError == "" {
		r.cond("Active", c.Status, c.Reason, c.Message)
	}
	r.fallbackCondition()
	r.cond("Paused", "True", reasonPaused, msgPaused)
}

// rejected replays a controller check failure: Ready=False, Active
// Unknown, no HPA written or updated, no new loop.
func (r *replay) rejected(err error) {
	r.out.Reason = explain.KEDAReasonError
	r.out.Active = false
	r.cond("Ready", "False", reasonCheckFailed, err.Error())
	r.cond("Active", "Unknown", reasonUnknownState, msgCheckFailed)
	r.fallbackCondition()
	r.pausedCondition()
	r.step(explain.KEDAStep{
		Kind: explain.KEDAStepConfig,
		Text: fmt.Sprintf("KEDA's controller rejects the object (%s): it writes Ready=False, writes no HPA and starts no polling; the workload keeps %d replicas", err, r.in.CurrentReplicas),
	})
	r.assume("an HPA or a polling loop made from an older generation of the object may still run; its decisions are not replayed")
	r.out.Summary = fmt.Sprintf("KEDA rejects the ScaledObject: %s", err)
}

// stopped replays a poll KEDA abandons before RequestScale (its state
// cannot be computed): nothing is written.
func (r *replay) stopped(err error) {
	r.out.Reason = explain.KEDAReasonError
	r.out.Active = r.statusActive()
	for _, c := range []string{"Ready", "Active"} {
		if sc := r.statusCondition(c); sc != nil {
			r.cond(sc.Type, sc.Status, sc.Reason, sc.Message)
		}
	}
	r.fallbackCondition()
	r.pausedCondition()
	r.step(explain.KEDAStep{
		Kind: explain.KEDAStepError,
		Text: fmt.Sprintf("KEDA cannot compute the object's state (%s): the poll ends without scaling; the workload keeps %d replicas", err, r.in.CurrentReplicas),
	})
	r.out.Summary = fmt.Sprintf("KEDA's polls fail (%s) and scale nothing.", err)
}

// pruneHealth drops the status.health entries of metrics the object no
// longer has, as KEDA's reconcile does each time it writes the HPA (when
// every metric name is known).
func (r *replay) pruneHealth() {
	names := map[string]bool{}
	for _, s := range r.scalers {
		if !s.external {
			continue
		}
		if s.metricName == "" {
			return
		}
		names[s.metricName] = true
	}
	maps.DeleteFunc(r.health, func(k string, _ HealthStatus) bool { return !names[k] })
}

// webhookWarnings records what KEDA's admission webhook would refuse
// (an object without the webhook, or created before it, can hold them).
func (r *replay) webhookWarnings() {
	so := r.so
	allResources := true
	for _, t := range so.Spec.Triggers {
		if t.Type != TypeCPU && t.Type != TypeMemory {
			allResources = false
		}
	}
	if allResources && so.minReplicaCount() == 0 {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepConfig,
			Text: "only cpu/memory triggers with minReplicaCount 0: KEDA's webhook refuses this (such an object is always active and never reaches zero)",
		})
	}
	if err := checkFallbackValid(so); err != nil {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepConfig,
			Text: fmt.Sprintf("KEDA's webhook refuses this fallback: %s", err),
		})
	}
	if r.out.Fallback != nil && !r.out.Fallback.Valid {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepConfig,
			Text: "fallback ignored: with scalingModifiers KEDA needs a target that is an integer above 0",
		})
	}
}

// poll replays getScaledObjectState: each trigger's observation with the
// fallback, the formula, and the activation decision.
func (r *replay) poll() (pollState, error) {
	so := r.so
	st := pollState{obs: map[int]*observation{}}
	// v2.21: reuse the HPA's observations when polling is not relevant and
	// the HPA is querying (ScalingActive True).
	count := true
	if r.sw.HPAObservations && so.usesHPAObservations() && r.in.HPACondition != nil && r.in.HPACondition.Status == "True" {
		count = false
		r.out.Polling.Source = explain.KEDASourceHPAObservation
		r.assume("KEDA reuses the HPA's last observation of each metric (v2.21+, ScalingActive True); the values given are taken as that observation, and the failure counts as the HPA's requests left them")
	}
	resources := 0
	for _, s := range r.scalers {
		if !s.external {
			resources++
			r.step(explain.KEDAStep{
				Kind: explain.KEDAStepTrigger, Trigger: ptr(s.index),
				Text: fmt.Sprintf("trigger %d (%s): a %s metric of the HPA; it never counts for KEDA's activation", s.index, s.trigger.Type, s.spec.Type),
			})
			continue
		}
		o, err := r.pollTrigger(s, count)
		if err != nil {
			return st, err
		}
		st.obs[s.index] = o
		tr := &r.out.Triggers[s.index]
		if tr.Error != "" {
			st.isError = true
		} else if tr.Active {
			st.active = true
			st.activeMetrics = append(st.activeMetrics, s.metricName)
		}
		if o.fallback {
			st.fallbackActive = true
		}
	}
	if so.usesModifiers() {
		if err := r.modifiers(&st); err != nil {
			st.stop = err
			return st, nil
		}
	}
	// Only cpu/memory triggers (and no error): always active, else such an
	// object could never leave zero.
	if len(so.Spec.Triggers) <= resources && !st.isError {
		st.active, st.byResources = true, true
	}
	return st, nil
}

// result returns the caller's result for trigger i.
func (r *replay) result(i int) (TriggerResult, bool) {
	if i < len(r.in.Triggers) && r.in.Triggers[i].given() {
		return r.in.Triggers[i], true
	}
	return TriggerResult{}, false
}

// statusActivity returns status.triggersActivity for a metric.
func (r *replay) statusActivity(metric string) (bool, bool) {
	a, ok := r.so.Status.TriggersActivity[metric]
	return a.IsActive, ok && metric != ""
}

// pollTrigger observes one External trigger and applies the fallback.
func (r *replay) pollTrigger(s *scaler, count bool) (*observation, error) {
	tr := &r.out.Triggers[s.index]
	res, given := r.result(s.index)
	name := s.metricName
	if name == "" {
		name = fmt.Sprintf("trigger %d (%s)", s.index, s.trigger.Type)
	}
	var (
		raw       *resource.Quantity
		rawActive bool
		rawErr    error
	)
	switch {
	case given && res.Error != "":
		rawErr = errors.New(res.Error)
	case s.cron != nil:
		loc, err := loadLocation(r.in.LoadLocation, s.cron.timezone)
		if err != nil {
			rawErr = fmt.Errorf("unable to load timezone: %w", err)
			break
		}
		w := cronActivity(s.cron.startSchedule, s.cron.endSchedule, loc, r.in.Now)
		tr.Schedule = &explain.KEDACronWindow{
			Start: s.cron.start, End: s.cron.end, Timezone: s.cron.timezone,
			DesiredReplicas: s.cron.desiredReplicas, NextStart: w.nextStart, NextEnd: w.nextEnd,
		}
		v := 0.0
		if w.active {
			v = float64(s.cron.desiredReplicas)
		}
		tr.Value, rawActive = ptr(v), w.active
		raw = r.quantity(v)
	case s.replayed:
		if given && res.Value != nil {
			v := *res.Value
			tr.Value = ptr(v)
			rawActive = v > s.activation
			raw = r.quantity(v)
			break
		}
		a, ok := r.statusActivity(s.metricName)
		if !ok || r.so.usesModifiers() {
			return nil, fmt.Errorf("ScaledObject %q: trigger %d (%s): no value given for %s", r.so.ref(), s.index, s.trigger.Type, name)
		}
		rawActive = a
		tr.ActivitySource = explain.KEDAActivityStatus
		r.assume(fmt.Sprintf("trigger %d (%s): no value given; its activity is status.triggersActivity's (KEDA's last poll)", s.index, s.trigger.Type))
	default:
		switch a, ok := r.statusActivity(s.metricName); {
		case given && res.Active != nil:
			rawActive = *res.Active
		case ok:
			rawActive = a
			tr.ActivitySource = explain.KEDAActivityStatus
			r.assume(fmt.Sprintf("trigger %d (%s): its activity is status.triggersActivity's (KEDA's last poll)", s.index, s.trigger.Type))
		default:
			return nil, fmt.Errorf("ScaledObject %q: trigger %d (%s): its scaler is not replayed; give its activity", r.so.ref(), s.index, s.trigger.Type)
		}
		if given && res.Value != nil {
			tr.Value = ptr(*res.Value)
			raw = r.quantity(*res.Value)
		}
	}
	o := observe(r.so, s.metricName, raw, rawActive, rawErr, failures(r.health, s.metricName), count, r.fallbackInput(s))
	if o.counted {
		r.health[s.metricName] = HealthStatus{NumberOfFailures: ptr(o.failuresAfter), Status: o.healthStatus()}
	}
	r.describeObservation(s, tr, &o, name)
	return &o, nil
}

// quantity is KEDA's metric quantity of a raw value (rounded to milli,
// negatives and non-finite values as 0).
func (r *replay) quantity(v float64) *resource.Quantity {
	q, err := quantityFromFloat(v)
	if err != nil {
		return nil
	}
	return &q
}

// fallbackInput is what a fallback value of s's metric needs.
func (r *replay) fallbackInput(s *scaler) FallbackInput {
	fi := FallbackInput{CurrentReplicas: r.in.CurrentReplicas, ReadyReplicas: r.in.ReadyReplicas}
	if t := metricTarget(s.spec); t != nil {
		fi.Target = *t
	}
	// A trigger whose scaler is not replayed: the target from the HPA read.
	if !s.replayed && r.in.HPA != nil {
		for _, m := range r.in.HPA.Spec.Metrics {
			if m.External != nil && m.External.Metric.Name == s.metricName {
				fi.Target = m.External.Target
			}
		}
	}
	return fi
}

// describeObservation sets a trigger's outcome and narrates it.
func (r *replay) describeObservation(s *scaler, tr *explain.KEDATrigger, o *observation, name string) {
	tr.Error = ""
	if o.outErr != nil {
		tr.Error = o.outErr.Error()
		tr.ActivitySource = explain.KEDAActivityError
	} else {
		tr.Active = o.fallback || o.rawActive
		if o.fallback || o.placeholder {
			tr.ActivitySource = explain.KEDAActivityFallback
		}
	}
	st := explain.KEDAStep{Kind: explain.KEDAStepTrigger, Trigger: ptr(s.index), Metric: s.metricName}
	switch {
	case o.err != nil:
		st.Kind = explain.KEDAStepError
		st.Text = fmt.Sprintf("%s: error: %s", name, o.err)
	case s.cron != nil:
		w := tr.Schedule
		if o.rawActive {
			st.Text = fmt.Sprintf("%s: inside the window %q → %q (%s): next end %s comes before next start %s: active, value %d", name, w.Start, w.End, w.Timezone, stamp(w.NextEnd), stamp(w.NextStart), w.DesiredReplicas)
		} else {
			st.Text = fmt.Sprintf("%s: outside the window %q → %q (%s): next start %s comes before next end %s: inactive, value 0", name, w.Start, w.End, w.Timezone, stamp(w.NextStart), stamp(w.NextEnd))
		}
	case tr.Value != nil && tr.ActivationThreshold != nil:
		st.Value, st.Threshold = ptr(*tr.Value), ptr(*tr.ActivationThreshold)
		if o.rawActive {
			st.Operator = ">"
			st.Text = fmt.Sprintf("%s = %s > %s %s: active", name, num(*tr.Value), s.activationParam, num(s.activation))
		} else {
			st.Operator = "≤"
			st.Text = fmt.Sprintf("%s = %s ≤ %s %s: inactive", name, num(*tr.Value), s.activationParam, num(s.activation))
		}
	case tr.ActivitySource == explain.KEDAActivityStatus:
		st.Text = fmt.Sprintf("%s: %s at KEDA's last poll (status.triggersActivity)", name, activeWord(o.rawActive))
	default:
		st.Text = fmt.Sprintf("%s: %s (as given; this scaler's threshold is not replayed)", name, activeWord(o.rawActive))
		if tr.Value != nil {
			st.Value = ptr(*tr.Value)
		}
	}
	r.step(st)
	if !fallbackConfigured(r.so) || (o.err == nil && o.failuresBefore == 0) {
		return
	}
	// The failure count against the threshold.
	th := r.so.Spec.Fallback.FailureThreshold
	fs := explain.KEDAStep{
		Kind: explain.KEDAStepFallback, Trigger: ptr(s.index), Metric: s.metricName,
		Value: ptr(float64(o.failuresAfter)), Threshold: ptr(float64(th)),
	}
	switch {
	case o.err == nil:
		fs.Text = fmt.Sprintf("%s: success: failure count %d → 0", name, o.failuresBefore)
	case o.fallback:
		fs.Operator = ">"
		fs.Text = fmt.Sprintf("%s: failure %d > failureThreshold %d: fallback value %s (so that the HPA computes %s replicas); counts as active", name, o.failuresAfter, th, o.value.String(), r.fallbackReplicasWord())
	case o.placeholder:
		fs.Operator = ">"
		fs.Text = fmt.Sprintf("%s: failure %d > failureThreshold %d: the formula reads nil for %q", name, o.failuresAfter, th, s.trigger.Name)
	case o.failuresAfter > th:
		fs.Operator = ">"
		fs.Text = fmt.Sprintf("%s: failure %d > failureThreshold %d, but %s", name, o.failuresAfter, th, o.outErr)
	default:
		fs.Operator = "≤"
		fs.Text = fmt.Sprintf("%s: failure %d ≤ failureThreshold %d: no fallback yet (%d more)", name, o.failuresAfter, th, th-o.failuresAfter+1)
	}
	r.step(fs)
}

// fallbackReplicasWord says which replica count a fallback value aims at.
func (r *replay) fallbackReplicasWord() string {
	f := r.so.Spec.Fallback
	cur := int64(r.in.CurrentReplicas)
	switch f.Behavior {
	case FallbackCurrentReplicas:
		return fmt.Sprintf("the current %d", cur)
	case FallbackCurrentReplicasIfHigher:
		return fmt.Sprintf("max(current %d, fallback %d) =", cur, f.Replicas) + fmt.Sprintf(" %d", max(cur, int64(f.Replicas)))
	case FallbackCurrentReplicasIfLower:
		return fmt.Sprintf("min(current %d, fallback %d) =", cur, f.Replicas) + fmt.Sprintf(" %d", min(cur, int64(f.Replicas)))
	default:
		return fmt.Sprintf("fallback.replicas %d", f.Replicas)
	}
}

// modifiers replays the scalingModifiers part of getScaledObjectState:
// the composite value (the formula, or the fallback value when a fallback
// is active) and the activation against activationTarget, which replaces
// the triggers' own activity. An error stops the poll.
func (r *replay) modifiers(st *pollState) error {
	so := r.so
	sm := r.out.ScalingModifiers
	st.active, st.activeMetrics = false, nil
	noFormula := so.Spec.Advanced.ScalingModifiers.Formula == "" && !st.fallbackActive
	var composite *resource.Quantity
	if !noFormula {
		values, q, ferr := r.composite(st.obs, st.fallbackActive)
		sm.Inputs, composite = values, q
		if ferr != nil {
			sm.Error = ferr.Error()
		}
		if composite != nil {
			sm.Value = ptr(composite.AsApproximateFloat64())
		}
	}
	if st.isError {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepFormula, Metric: CompositeMetricName,
			Text: "a trigger is in error: with scalingModifiers the object is inactive",
		})
		return nil
	}
	at, err := activationTarget(so)
	if err != nil {
		return err
	}
	if noFormula {
		// No formula: KEDA compares each trigger's own value with the
		// activationTarget.
		for _, i := range slices.Sorted(maps.Keys(st.obs)) {
			o := st.obs[i]
			if o.value == nil {
				continue
			}
			v := o.value.AsApproximateFloat64()
			op := "≤"
			if v > at {
				op = ">"
				if !st.active {
					st.active, st.activeMetrics = true, []string{o.metric}
				}
			}
			r.step(explain.KEDAStep{
				Kind: explain.KEDAStepFormula, Metric: o.metric, Value: ptr(v), Operator: op, Threshold: ptr(at),
				Text: fmt.Sprintf("no formula: %s = %s %s activationTarget %s", o.metric, num(v), op, num(at)),
			})
		}
		sm.Active = st.active
		return nil
	}
	fst := explain.KEDAStep{Kind: explain.KEDAStepFormula, Metric: CompositeMetricName, Threshold: ptr(at)}
	if composite == nil {
		fst.Text = fmt.Sprintf("formula %q fails (%s): no composite value, inactive", so.Spec.Advanced.ScalingModifiers.Formula, sm.Error)
	} else {
		v := composite.AsApproximateFloat64()
		fst.Value = ptr(v)
		sm.Active = v > at
		fst.Operator = "≤"
		if sm.Active {
			fst.Operator = ">"
			st.active, st.activeMetrics = true, []string{CompositeMetricName}
		}
		src := fmt.Sprintf("formula %q", so.Spec.Advanced.ScalingModifiers.Formula)
		if st.fallbackActive {
			src = "fallback value"
		}
		fst.Text = fmt.Sprintf("%s = %s %s activationTarget %s: %s", src, num(v), fst.Operator, num(at), activeWord(sm.Active))
	}
	r.step(fst)
	return nil
}

// composite computes what KEDA's HandleScalingModifiers returns for a set
// of observations: with a fallback active the first fallback value,
// else the formula over every observed value (nil for a metric a
// scalingModifiers fallback discards). It returns the formula's inputs.
func (r *replay) composite(obs map[int]*observation, fallbackActive bool) (map[string]*float64, *resource.Quantity, error) {
	so := r.so
	if fallbackActive {
		for _, i := range slices.Sorted(maps.Keys(obs)) {
			if o := obs[i]; o.fallback {
				return nil, ptr(o.value.DeepCopy()), nil
			}
		}
	}
	f, err := compileFormula(so)
	if f == nil || so.Spec.Advanced.ScalingModifiers.Formula == "" {
		return nil, nil, errors.New("no formula")
	}
	if err != nil {
		return nil, nil, err
	}
	data := map[string]any{}
	inputs := map[string]*float64{}
	for _, i := range slices.Sorted(maps.Keys(obs)) {
		o := obs[i]
		if o.value == nil {
			continue
		}
		key := r.scalers[i].trigger.Name
		v := formulaInput(so, r.health, o.metric, o.value.AsApproximateFloat64())
		data[key] = v
		if f, ok := v.(float64); ok {
			inputs[key] = ptr(f)
		} else {
			inputs[key] = nil
		}
	}
	q, err := f.compositeValue(so, data)
	if err != nil {
		return inputs, nil, err
	}
	return inputs, &q, nil
}

// execute replays RequestScale of the scale executor.
func (r *replay) execute(st pollState) {
	so, in, out := r.so, r.in, r.out
	p := out.Pause
	cur := in.CurrentReplicas
	minReplicas := so.minReplicaCount()
	idle := so.Spec.IdleReplicaCount
	r.cond("Ready", "True", reasonReady, msgReady)
	// handlePaused: a loop still running when the pause lands stops here
	// (Evaluate never gets here for a paused object: the controller stops
	// the loop).
	if p.Paused {
		r.cond("Paused", "True", reasonPaused, msgPaused)
		out.Reason = explain.KEDAReasonPaused
		return
	}
	r.fallbackEvents(st)
	r.activeMetrics = st.activeMetrics
	out.Active = st.active || p.ForceActivation
	r.activationStep(st)
	if out.Active {
		msg := msgActive
		if p.ForceActivation {
			msg = msgForced
		}
		r.cond("Active", "True", reasonActive, msg)
		switch {
		case (idle != nil && cur < minReplicas) || cur == 0:
			r.scaleFromZero()
		case st.isError:
			r.cond("Ready", "Unknown", reasonPartialError, msgPartialError)
			r.step(explain.KEDAStep{
				Kind: explain.KEDAStepLastActive,
				Text: fmt.Sprintf("active but a trigger is in error: Ready=Unknown, and lastActiveTime is not refreshed; the HPA decides from %d replicas", cur),
			})
			r.hpaDecides()
		default:
			out.LastActiveTimeAfter = ptr(in.Now)
			r.step(explain.KEDAStep{
				Kind: explain.KEDAStepLastActive, At: ptr(in.Now),
				Text: fmt.Sprintf("active at %d replicas: lastActiveTime → %s", cur, stamp(in.Now)),
			})
			r.hpaDecides()
		}
	} else {
		r.cond("Active", "False", reasonNotActive, msgNotActive)
		f := so.Spec.Fallback
		switch {
		case st.isError && f != nil && f.Replicas != 0:
			r.step(explain.KEDAStep{
				Kind: explain.KEDAStepError,
				Text: fmt.Sprintf("inactive with a trigger in error and fallback.replicas %d: KEDA writes nothing (a scale to zero would keep the HPA from reaching the fallback)", f.Replicas),
			})
			r.hpaDecides()
		case st.isError && f == nil:
			r.cond("Ready", "False", reasonTriggerError, msgTriggerError)
			r.step(explain.KEDAStep{
				Kind: explain.KEDAStepError,
				Text: fmt.Sprintf("inactive with a trigger in error and no fallback: Ready=False (TriggerError); KEDA writes nothing and never scales to zero on an error; %d replicas stay", cur),
			})
			r.hpaDecides()
		case (idle != nil && cur > *idle) || (cur > 0 && minReplicas == 0):
			if st.isError {
				r.step(explain.KEDAStep{
					Kind: explain.KEDAStepError,
					Text: "a trigger is in error but fallback.replicas is 0: KEDA treats the object as inactive and may scale it to zero",
				})
			}
			r.scaleToZero()
		case idle == nil && cur < minReplicas:
			r.write(explain.KEDAStepMinReplicas, minReplicas, "error setting ScaleTarget replicas count to ScaledObject minReplicaCount",
				fmt.Sprintf("inactive at %d < minReplicaCount %d (no idle mode): KEDA sets %d → %d at once", cur, minReplicas, cur, minReplicas))
		default:
			switch {
			case cur == 0 || (idle != nil && cur == *idle):
				r.step(explain.KEDAStep{
					Kind: explain.KEDAStepHPA, To: ptr(cur),
					Text: fmt.Sprintf("inactive at %d replicas: nothing to do; KEDA scales up when a trigger is active", cur),
				})
			default:
				r.step(explain.KEDAStep{
					Kind: explain.KEDAStepHPA,
					Text: fmt.Sprintf("inactive, but minReplicaCount %d ≥ 1: KEDA never scales below it; the HPA decides from %d replicas (cooldownPeriod does not apply)", minReplicas, cur),
				})
			}
			r.hpaDecides()
		}
	}
	r.reason(st)
	r.fallbackCondition()
	r.pausedCondition()
	r.hpaActiveCondition()
}

// activationStep narrates the activation decision.
func (r *replay) activationStep(st pollState) {
	var text string
	switch {
	case r.out.Pause.ForceActivation:
		text = fmt.Sprintf("%s: activation forced: active", AnnotationForceActivation)
	case st.byResources:
		text = "only cpu/memory triggers: KEDA always counts the object active"
	case st.active:
		text = fmt.Sprintf("active: %v", st.activeMetrics)
	case st.isError:
		text = "no trigger active, and a trigger is in error"
	default:
		text = "no trigger active: inactive"
	}
	r.step(explain.KEDAStep{Kind: explain.KEDAStepActivation, Text: text})
}

// scaleFromZero replays scaleFromZeroOrIdle: minReplicaCount, or 1 when
// that is 0, unless scale-out is paused.
func (r *replay) scaleFromZero() {
	cur, to := r.in.CurrentReplicas, r.so.hpaMinReplicas()
	if r.out.Pause.ScaleOut {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepPause, From: ptr(cur), To: ptr(to),
			Text: fmt.Sprintf("active at %d replicas, but %s: KEDA does not scale %d → %d (and the HPA's scale-up is Disabled)", cur, AnnotationPausedScaleOut, cur, to),
		})
		r.out.Reason = explain.KEDAReasonPaused
		r.hpaDecides()
		return
	}
	why := fmt.Sprintf("minReplicaCount %d", r.so.minReplicaCount())
	if r.so.minReplicaCount() == 0 {
		why = "minReplicaCount 0, so 1"
	}
	ok := r.write(explain.KEDAStepScaleFromZero, to, "error activating ScaleTarget",
		fmt.Sprintf("active at %d replicas: KEDA scales %d → %d at once (%s); the HPA then decides from %d", cur, cur, to, why, to))
	kind, ns, name := r.so.Status.ScaleTargetKind, r.so.Namespace, r.so.Spec.ScaleTargetRef.Name
	if !ok {
		msg := fmt.Sprintf("Failed to scale %s %s/%s from %d to %d", kind, ns, name, cur, to)
		if r.sw.ScaleErrorSetsReady {
			msg += ": " + r.in.ScaleUpdateError
		}
		r.event("Warning", "KEDAScaleTargetActivationFailed", msg)
		return
	}
	r.out.LastActiveTimeAfter = ptr(r.in.Now)
	msg := fmt.Sprintf("Scaled %s %s/%s from %d to %d, triggered by %s", kind, ns, name, cur, to, strings.Join(r.activeMetrics, ";"))
	if r.out.Pause.ForceActivation {
		msg = fmt.Sprintf("Scaled %s %s/%s from %d to %d, caused by forced activation annotation", kind, ns, name, cur, to)
	}
	r.event("Normal", "KEDAScaleTargetActivated", msg)
}

// scaleToZero replays scaleToZeroOrIdle: the cooldown, then a jump to
// idleReplicaCount or minReplicaCount past the HPA's behavior, unless
// scale-in is paused.
func (r *replay) scaleToZero() {
	so, in, out := r.so, r.in, r.out
	cur := in.CurrentReplicas
	to := out.Bounds.DeactivationReplicas
	if out.Pause.ScaleIn {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepPause, From: ptr(cur), To: ptr(to),
			Text: fmt.Sprintf("inactive at %d replicas, but %s: KEDA does not scale %d → %d (and the HPA's scale-down is Disabled)", cur, AnnotationPausedScaleIn, cur, to),
		})
		out.Reason = explain.KEDAReasonPaused
		r.hpaDecides()
		return
	}
	c := &out.Cooldown
	c.Applies = true
	period := c.PeriodSeconds
	origin := "lastActiveTime"
	if c.CountsFrom == explain.KEDACooldownFromCreation {
		period, origin = c.InitialPeriodSeconds, "creation"
	}
	// KEDA scales once Since + period is strictly before now.
	if !c.Until.Before(in.Now) {
		c.Running = true
		out.ScaleToZeroAt = ptr(*c.Until)
		out.ScaleToZeroBy = ptr(c.Until.Add(seconds(so.pollingInterval())))
		r.cond("Active", "False", reasonCooldown, msgCooldown)
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepCooldown, From: ptr(cur), To: ptr(to), At: ptr(*c.Until), Seconds: ptr(period),
			Text: fmt.Sprintf("inactive; %s %s + cooldown %d s = %s: KEDA scales %d → %d at its first poll after that (by %s), past the HPA's behavior", origin, stamp(*c.Since), period, stamp(*c.Until), cur, to, stamp(*out.ScaleToZeroBy)),
		})
		r.hpaDecides()
		return
	}
	ok := r.write(explain.KEDAStepScaleToZero, to, "error deactivating ScaleTarget",
		fmt.Sprintf("inactive; %s %s + cooldown %d s = %s is past: KEDA scales %d → %d at once, past the HPA's behavior", origin, stamp(*c.Since), period, stamp(*c.Until), cur, to))
	kind, ns, name := so.Status.ScaleTargetKind, so.Namespace, so.Spec.ScaleTargetRef.Name
	if !ok {
		msg := fmt.Sprintf("Failed to deactivate %s %s/%s from %d to %d", kind, ns, name, cur, to)
		if r.sw.ScaleErrorSetsReady {
			msg += ": " + in.ScaleUpdateError
		}
		r.event("Warning", "KEDAScaleTargetDeactivationFailed", msg)
		return
	}
	r.cond("Active", "False", reasonNotActive, msgNotActive)
	r.event("Normal", "KEDAScaleTargetDeactivated", fmt.Sprintf("Deactivated %s %s/%s from %d to %d", kind, ns, name, cur, to))
}

// write replays one scale update of KEDA's to replicas to: it succeeds
// unless the input says it fails. It returns whether it succeeded.
func (r *replay) write(kind explain.KEDAStepKind, to int32, errWhat, text string) bool {
	cur := r.in.CurrentReplicas
	st := explain.KEDAStep{Kind: kind, From: ptr(cur), To: ptr(to), Text: text}
	if r.in.ScaleUpdateError != "" {
		msg := fmt.Sprintf("%s: %s", errWhat, r.in.ScaleUpdateError)
		st.Text += "; the update fails: " + r.in.ScaleUpdateError
		if r.sw.ScaleErrorSetsReady {
			r.cond("Ready", "False", reasonErrorScaling, msg)
			st.Text += " (Ready=False, ErrorScalingTarget)"
		}
		r.step(st)
		r.hpaDecides()
		return false
	}
	r.step(st)
	r.out.KEDAScaleTo = ptr(to)
	r.out.ReplicasAfterKEDA = to
	return true
}

// fallbackEvents emits the fallback events of checkScalers: activated
// when this poll has a fallback and the status did not say so yet,
// deactivated when it has none and the status said it had.
func (r *replay) fallbackEvents(st pollState) {
	was := false
	if c := r.statusCondition("Fallback"); c != nil {
		was = c.Status == "True"
	}
	switch {
	case st.fallbackActive && !was:
		r.event("Normal", "ScaledObjectFallbackActivated", "ScaledObject fallback is active")
	case !st.fallbackActive && was:
		r.event("Normal", "ScaledObjectFallbackDeactivated", "ScaledObject fallback is no longer active")
	}
}

// event appends an Event KEDA emits.
func (r *replay) event(typ, reason, message string) {
	r.out.Events = append(r.out.Events, explain.Event{Type: typ, Reason: reason, Message: message})
}

// hpaDecides notes that KEDA leaves the replicas where they are.
func (r *replay) hpaDecides() { r.out.ReplicasAfterKEDA = r.in.CurrentReplicas }

// reason names the poll.
func (r *replay) reason(st pollState) {
	out := r.out
	switch {
	case out.Reason == explain.KEDAReasonPaused:
	case st.fallbackActive:
		out.Reason = explain.KEDAReasonFallback
	case out.Cooldown.Running:
		out.Reason = explain.KEDAReasonCooldown
	case out.Active:
		out.Reason = explain.KEDAReasonActive
	case st.isError:
		out.Reason = explain.KEDAReasonError
	default:
		out.Reason = explain.KEDAReasonInactive
	}
	cur := r.in.CurrentReplicas
	switch {
	case out.KEDAScaleTo != nil:
		out.Summary = fmt.Sprintf("%s: KEDA scales %d → %d.", out.Reason, cur, *out.KEDAScaleTo)
	case out.Reason == explain.KEDAReasonCooldown:
		out.Summary = fmt.Sprintf("Cooldown: KEDA scales %d → %d after %s (by %s) if the triggers stay inactive.", cur, out.Bounds.DeactivationReplicas, stamp(*out.ScaleToZeroAt), stamp(*out.ScaleToZeroBy))
	default:
		out.Summary = fmt.Sprintf("%s: KEDA writes nothing; the HPA decides from %d replicas.", out.Reason, cur)
	}
}

// hpaMetrics computes what KEDA's metrics server answers the HPA's next
// request, after this poll: each request counts a failure again.
func (r *replay) hpaMetrics(st pollState) {
	so := r.so
	next := map[int]*observation{}
	anyErr, anyFallback := false, false
	for _, s := range r.scalers {
		o, ok := st.obs[s.index]
		if !ok || (o.raw == nil && o.err == nil) {
			continue
		}
		n := observe(so, s.metricName, o.raw, o.rawActive, o.err, failures(r.health, s.metricName), true, r.fallbackInput(s))
		next[s.index] = &n
		anyErr = anyErr || n.outErr != nil
		anyFallback = anyFallback || n.fallback
	}
	if so.usesModifiers() {
		if _, ok := compositeTarget(so); ok {
			mv := explain.KEDAMetricValue{MetricName: CompositeMetricName}
			switch {
			case anyErr && !anyFallback:
				mv.Error = fmt.Sprintf("metric:%s encountered error", CompositeMetricName)
			default:
				_, q, err := r.composite(next, anyFallback)
				switch {
				case so.Spec.Advanced.ScalingModifiers.Formula == "" && !anyFallback:
					mv.Error = "not replayed: without a formula KEDA answers every trigger's value for composite-metric (the HPA sums them)"
				case err != nil:
					mv.Error = fmt.Sprintf("no value: %s", err)
				default:
					mv.Value, mv.Fallback = q, anyFallback
				}
			}
			r.out.HPAMetrics = append(r.out.HPAMetrics, mv)
			return
		}
	}
	for _, s := range r.scalers {
		n, ok := next[s.index]
		if !ok {
			continue
		}
		mv := explain.KEDAMetricValue{MetricName: s.metricName, Fallback: n.fallback}
		if n.outErr != nil {
			mv.Error = fmt.Sprintf("metric:%s encountered error (%s)", s.metricName, n.outErr)
		} else if n.value != nil {
			mv.Value = ptr(n.value.DeepCopy())
		}
		r.out.HPAMetrics = append(r.out.HPAMetrics, mv)
	}
}

// finish completes the fallback state and returns the result.
func (r *replay) finish() *explain.KEDA {
	if f := r.out.Fallback; f != nil {
		for _, name := range slices.Sorted(maps.Keys(r.health)) {
			h := r.health[name]
			before := failures(r.so.Status.Health, name)
			after := deref(h.NumberOfFailures, 0)
			active := h.Status == HealthFailing && after > f.FailureThreshold
			f.Active = f.Active || active
			f.Metrics = append(f.Metrics, explain.KEDAMetricHealth{MetricName: name, FailuresBefore: before, FailuresAfter: after, Status: h.Status, FallbackActive: active})
		}
		if !f.Valid {
			f.Active = false
		}
	}
	return r.out
}

// fallbackCondition writes the Fallback condition from the health after
// the poll.
func (r *replay) fallbackCondition() {
	if fallbackExceeded(r.so, r.health) {
		r.cond("Fallback", "True", reasonFallbackExists, msgFallbackExists)
		return
	}
	r.cond("Fallback", "False", reasonNoFallback, msgNoFallback)
}

// fallbackExceeded reports whether a configured fallback is in force: any
// metric of health Failing more than failureThreshold times.
func fallbackExceeded(so *ScaledObject, health map[string]HealthStatus) bool {
	if !fallbackConfigured(so) {
		return false
	}
	for _, h := range health {
		if h.Status == HealthFailing && h.NumberOfFailures != nil && *h.NumberOfFailures > so.Spec.Fallback.FailureThreshold {
			return true
		}
	}
	return false
}

// pausedCondition writes the Paused condition of an object not fully
// paused: True for paused-scale-in/out, False otherwise.
func (r *replay) pausedCondition() {
	p := r.out.Pause
	switch {
	case p.ScaleIn || p.ScaleOut:
		r.cond("Paused", "True", reasonPaused, msgPaused)
	case r.statusCondition("Paused") != nil && r.statusCondition("Paused").Status == "True":
		r.cond("Paused", "False", reasonUnpaused, msgUnpaused)
	default:
		if c := r.statusCondition("Paused"); c != nil {
			r.cond("Paused", c.Status, c.Reason, c.Message)
		} else {
			r.cond("Paused", "False", "", "")
		}
	}
}

// hpaActiveCondition mirrors the HPA's ScalingActive condition into
// HPAActive, when the HPA was read.
func (r *replay) hpaActiveCondition() {
	if status, reason, message := hpaHealth(r.so.Status.HpaName, r.in.HPACondition); status != "" {
		r.cond("HPAActive", status, reason, message)
	}
}

// hpaHealth is KEDA's reading of its HPA's ScalingActive condition: True
// (HPAActive) when it is True, True (ScalingDisabled) when the HPA is
// disabled at zero replicas, False with the HPA's reason (or
// HPAMetricsUnavailable) otherwise, and nothing when the HPA cannot be
// observed (no hpaName in the status, unreadable, no condition yet: c nil).
func hpaHealth(hpaName string, c *HPACondition) (status, reason, message string) {
	if c == nil || hpaName == "" {
		return "", "", ""
	}
	switch {
	case c.Status == "True":
		return "True", reasonHPAActive, "HPA is actively scaling"
	case c.Reason == reasonScalingDisabled:
		return "True", reasonScalingDisabled, c.Message
	default:
		reason := c.Reason
		if reason == "" {
			reason = reasonHPAUnavailable
		}
		return "False", reason, "HPA is not actively scaling: " + c.Message
	}
}

// statusCondition returns a condition of the object's status.
func (r *replay) statusCondition(t string) *Condition {
	for i := range r.so.Status.Conditions {
		if r.so.Status.Conditions[i].Type == t {
			return &r.so.Status.Conditions[i]
		}
	}
	return nil
}

// statusActive is the Active condition of the status, as a bool.
func (r *replay) statusActive() bool {
	c := r.statusCondition("Active")
	return c != nil && c.Status == "True"
}

// cond sets a condition of the result (replacing one of the same type).
func (r *replay) cond(t, status, reason, message string) {
	c := explain.KEDACondition{Type: t, Status: status, Reason: reason, Message: message}
	for i := range r.out.Conditions {
		if r.out.Conditions[i].Type == t {
			r.out.Conditions[i] = c
			return
		}
	}
	r.out.Conditions = append(r.out.Conditions, c)
}

// step appends a step.
func (r *replay) step(s explain.KEDAStep) { r.out.Steps = append(r.out.Steps, s) }

// assume records an assumption.
func (r *replay) assume(s string) { r.out.Assumptions = append(r.out.Assumptions, s) }

// seconds converts whole seconds to a duration.
func seconds(s int32) time.Duration { return time.Duration(s) * time.Second }

// stamp prints an instant for a step.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// activeWord is "active" or "inactive".
func activeWord(a bool) string {
	if a {
		return "active"
	}
	return "inactive"
}
