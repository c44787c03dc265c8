// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
)

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
	// Every trigger is observed (KEDA queries them in parallel and waits
	// for all); any active one activates, any error marks the poll.
	resources := 0
	for _, s := range r.scalers {
		if !s.external {
			// cpu/memory have no External spec: KEDA skips them here.
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
	// With scalingModifiers the formula's value decides instead.
	if so.UsesModifiers() {
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
	// Steps name the trigger by its metric when it has one.
	name := s.metricName
	if name == "" {
		name = fmt.Sprintf("trigger %d (%s)", s.index, s.trigger.Type)
	}
	var (
		raw       *resource.Quantity
		rawActive bool
		rawErr    error
	)
	// What the scaler returned: an error, the cron window at now, a value
	// against the threshold, or, for scalers not replayed, the activity
	// given (or the status's).
	switch {
	case given && res.Error != "":
		rawErr = errors.New(res.Error)
	case s.cron != nil:
		// KEDA loads the zone at each poll: a bad zone is a trigger error.
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
			// KEDA compares the raw value, not its rounded quantity.
			v := *res.Value
			tr.Value = ptr(v)
			rawActive = v > s.activation
			raw = r.quantity(v)
			break
		}
		// No value: a formula takes the composite value read instead, else
		// the status's activity stands in.
		if r.so.UsesModifiers() && r.in.Composite != nil {
			tr.ActivitySource = explain.KEDAActivityGiven
			break
		}
		a, ok := r.statusActivity(s.metricName)
		if !ok || r.so.UsesModifiers() {
			return nil, fmt.Errorf("ScaledObject %q: trigger %d (%s): no value given for %s", r.so.ref(), s.index, s.trigger.Type, name)
		}
		rawActive = a
		tr.ActivitySource = explain.KEDAActivityStatus
		r.assume(fmt.Sprintf("trigger %d (%s): no value given; its activity is status.triggersActivity's (KEDA's last poll)", s.index, s.trigger.Type))
	default:
		// Not replayed: the caller's activity, else the status's.
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
	// The fallback, then status.health as the poll leaves it.
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
	if t := metricsource.Target(&s.spec); t != nil {
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
	// A fallback value clears the error and counts as active; a
	// scalingModifiers placeholder clears it without activating.
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
	// The step words what decided the trigger, with its numbers.
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
	case tr.Value == nil && o.err == nil && r.so.UsesModifiers() && r.in.Composite != nil && s.replayed:
		st.Text = fmt.Sprintf("%s: its own value cannot be read (KEDA's metrics server answers the formula's value for every metric of this object); the formula's value read stands in", name)
	case tr.ActivitySource == explain.KEDAActivityStatus:
		st.Text = fmt.Sprintf("%s: %s at KEDA's last poll (status.triggersActivity)", name, activeWord(o.rawActive))
	default:
		st.Text = fmt.Sprintf("%s: %s (as given; this scaler's threshold is not replayed)", name, activeWord(o.rawActive))
		if tr.Value != nil {
			st.Value = ptr(*tr.Value)
		}
	}
	r.step(st)
	// A fallback step only when a count exists or moves.
	if !fallbackConfigured(r.so) || (o.err == nil && o.failuresBefore == 0) {
		return
	}
	// The failure count against the threshold.
	// The fallback applies strictly above the threshold.
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
		return fmt.Sprintf("max(current %d, fallback %d) = %d", cur, f.Replicas, max(cur, int64(f.Replicas)))
	case FallbackCurrentReplicasIfLower:
		return fmt.Sprintf("min(current %d, fallback %d) = %d", cur, f.Replicas, min(cur, int64(f.Replicas)))
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
	// The triggers' own activity is dropped, even on error.
	st.active, st.activeMetrics = false, nil
	noFormula := so.Spec.Advanced.ScalingModifiers.Formula == "" && !st.fallbackActive
	var composite *resource.Quantity
	if !noFormula {
		values, q, ferr := r.composite(st.obs, r.health, st.fallbackActive)
		sm.Inputs, composite = values, q
		if ferr != nil {
			sm.Error = ferr.Error()
		}
		if composite != nil {
			sm.Value = ptr(composite.AsApproximateFloat64())
		}
	}
	// Any trigger error: inactive, without looking at the formula.
	if st.isError {
		r.step(explain.KEDAStep{
			Kind: explain.KEDAStepFormula, Metric: CompositeMetricName,
			Text: "a trigger is in error: with scalingModifiers the object is inactive",
		})
		return nil
	}
	// An activationTarget that does not parse ends the poll (no scaling).
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
	// The composite value against activationTarget, strictly; a formula
	// that fails leaves no value and so no activity.
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
		if sm.Inputs == nil && r.in.Composite != nil {
			src = "composite-metric (read)"
		}
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
func (r *replay) composite(obs map[int]*observation, health map[string]HealthStatus, fallbackActive bool) (map[string]*float64, *resource.Quantity, error) {
	so := r.so
	// KEDA takes the first fallback metric; with scalingModifiers every
	// fallback value is target × the same replicas, so any is the first.
	if fallbackActive {
		for _, i := range slices.Sorted(maps.Keys(obs)) {
			if o := obs[i]; o.fallback {
				return nil, ptr(o.value.DeepCopy()), nil
			}
		}
	}
	// A trigger without a value: the composite value read is the
	// formula's (the metrics server answers nothing else).
	if r.in.Composite != nil {
		for _, s := range r.scalers {
			if o, ok := obs[s.index]; s.external && (!ok || o.value == nil && o.err == nil) {
				q := r.quantity(*r.in.Composite)
				if q == nil {
					return nil, nil, errors.New("the composite value read is not a quantity")
				}
				return nil, q, nil
			}
		}
	}
	// KEDA compiles once per generation; the result is the same.
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
		// Each value under its trigger's name (an unnamed trigger's under
		// "", as KEDA keys it); failing ones read nil with that behavior.
		key := r.scalers[i].trigger.Name
		v := formulaInput(so, health, o.metric, o.value.AsApproximateFloat64())
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

// hpaMetrics computes what KEDA's metrics server answers the HPA's next
// request, after this poll: each request counts a failure again.
func (r *replay) hpaMetrics(st pollState) {
	so := r.so
	// The HPA's request observes each metric again (same value) and
	// counts one more failure on top of the poll's.
	next := map[int]*observation{}
	health := maps.Clone(r.health)
	anyErr, anyFallback := false, false
	for _, s := range r.scalers {
		o, ok := st.obs[s.index]
		if !ok || (o.raw == nil && o.err == nil) {
			// cpu/memory (metrics-server's), or a value not given.
			continue
		}
		n := observe(so, s.metricName, o.raw, o.rawActive, o.err, failures(r.health, s.metricName), true, r.fallbackInput(s))
		next[s.index] = &n
		if n.counted {
			health[s.metricName] = HealthStatus{NumberOfFailures: ptr(n.failuresAfter), Status: n.healthStatus()}
		}
		anyErr = anyErr || n.outErr != nil
		anyFallback = anyFallback || n.fallback
	}
	// With a composite metric the HPA reads one value: an error when a
	// trigger fails without fallback, else the fallback or the formula.
	if so.UsesModifiers() {
		if _, ok := compositeTarget(so); ok {
			mv := explain.KEDAMetricValue{MetricName: CompositeMetricName}
			switch {
			case anyErr && !anyFallback:
				mv.Error = fmt.Sprintf("metric:%s encountered error", CompositeMetricName)
			default:
				_, q, err := r.composite(next, health, anyFallback)
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
	// Otherwise one value (or error) per External metric.
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
