// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"fmt"
	"maps"
	"slices"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
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
	// Composite is the composite-metric value of a scalingModifiers object
	// as KEDA's metrics server answered it. The metrics server answers the
	// formula's value for every metric of such an object, so the triggers'
	// own values cannot be read from it: when some are not given, the poll
	// takes this value as the formula's.
	Composite *float64
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
	// matching pods not Succeeded or Failed (CountWorkloadPods),
	// kubernetes-resource the value in the ConfigMap or Secret. Cron
	// computes its own; cpu and memory have none. A value read back from
	// KEDA's metrics server (external.metrics.k8s.io) is rounded to
	// milli-units, negatives read 0, and during a fallback it is the
	// fallback value, not the trigger's.
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
	// The order of KEDA's operator: the reconcile (pause, checks, the HPA),
	// then the poll (state, executor), then the metrics server's answers.
	if r.out.Pause.Paused {
		r.paused()
		return r.finish(), nil
	}
	// Every scaler is built (KEDA stops at the first that fails).
	var buildErr error
	r.scalers, buildErr = buildAll(r.so, r.sw, in.LoadLocation)
	r.describeTriggers()
	if err := controllerCheck(r.so, r.scalers, buildErr); err != nil {
		r.rejected(err)
		return r.finish(), nil
	}
	// The reconcile drops health entries of removed metrics; the webhook's
	// refusals are only notes (the object exists).
	r.pruneHealth()
	r.webhookWarnings()
	st, err := r.poll()
	if err != nil {
		return nil, err
	}
	if st.stop != nil {
		// The poll ends before RequestScale: nothing is written.
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
		if so.CreationTimestamp.IsZero() {
			// KEDA reads the zero time too: the initial cooldown is over.
			r.assume("metadata.creationTimestamp is unset: the initial cooldown counts from the zero time, so it has run out")
		}
	}
	if so.Spec.Fallback != nil {
		f := so.Spec.Fallback
		behavior := f.Behavior
		if behavior == "" {
			behavior = FallbackStatic
		}
		r.out.Fallback = &explain.KEDAFallback{FailureThreshold: f.FailureThreshold, Replicas: f.Replicas, Behavior: behavior, Valid: fallbackValid(so)}
	}
	if so.UsesModifiers() {
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
		if t := metricsource.Target(&s.spec); t != nil {
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
