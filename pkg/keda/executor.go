// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"fmt"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// execute replays RequestScale of the scale executor
// (pkg/scaling/executor/scale_scaledobjects.go) for one poll's state: the
// Ready and Active conditions, and KEDA's own scale step, if any. Every
// branch either writes the workload (write) or leaves it to the HPA
// (hpaDecides).
func (r *replay) execute(st pollState) {
	so, in, out := r.so, r.in, r.out
	p := out.Pause
	cur := in.CurrentReplicas
	minReplicas := so.minReplicaCount()
	idle := so.Spec.IdleReplicaCount
	// Each poll starts from Ready=True; the branches below lower it.
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
	// The force-activation annotation counts as an active trigger.
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
			// At zero, or in idle mode anywhere below min: KEDA jumps.
			r.scaleFromZero()
		case st.isError:
			// Active with a failing trigger: no refresh of lastActiveTime,
			// so the cooldown keeps counting from the last clean poll.
			r.cond("Ready", "Unknown", reasonPartialError, msgPartialError)
			r.step(explain.KEDAStep{
				Kind: explain.KEDAStepLastActive,
				Text: fmt.Sprintf("active but a trigger is in error: Ready=Unknown, and lastActiveTime is not refreshed; the HPA decides from %d replicas", cur),
			})
			r.hpaDecides()
		default:
			// Active above zero: KEDA only notes the time; the HPA scales.
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
		// The order matters: an error with a non-zero fallback waits for
		// the HPA's fallback, an error without fallback writes nothing,
		// and only then may an inactive object go to zero or idle (an
		// error with fallback.replicas 0 falls through to that step).
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
			// Above idle, or above zero with min 0: the step to zero or
			// idle, behind the cooldown.
			if st.isError {
				r.step(explain.KEDAStep{
					Kind: explain.KEDAStepError,
					Text: "a trigger is in error but fallback.replicas is 0: KEDA treats the object as inactive and may scale it to zero",
				})
			}
			r.scaleToZero()
		case idle == nil && cur < minReplicas:
			// Below min without idle mode (scaled by hand): min at once.
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
	// The conditions the poll and the reconcile leave, in KEDA's order.
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
	// One write to minReplicaCount (or 1), then the HPA's next sync takes
	// over from there.
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
	// Only a successful activation refreshes lastActiveTime. The event
	// lists the active metrics (KEDA's order is its goroutines'; here the
	// triggers').
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
	// The cooldown governs this step only: from lastActiveTime, or from
	// creation (initialCooldownPeriod) when the object was never active.
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
	// Past the cooldown: one write to idle or min, whatever the HPA's
	// behavior says about scale-down rates.
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
	// The event names status.scaleTargetKind (empty before the first
	// reconcile).
	r.cond("Active", "False", reasonNotActive, msgNotActive)
	r.event("Normal", "KEDAScaleTargetDeactivated", fmt.Sprintf("Deactivated %s %s/%s from %d to %d", kind, ns, name, cur, to))
}

// write replays one scale update of KEDA's to replicas to: it succeeds
// unless the input says it fails. It returns whether it succeeded.
func (r *replay) write(kind explain.KEDAStepKind, to int32, errWhat, text string) bool {
	cur := r.in.CurrentReplicas
	st := explain.KEDAStep{Kind: kind, From: ptr(cur), To: ptr(to), Text: text}
	if r.in.ScaleUpdateError != "" {
		// The update fails: the workload keeps its replicas; from v2.21
		// KEDA also lowers Ready.
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

// reason names the poll with the first word that applies (see
// explain.KEDAReason) and writes the summary.
func (r *replay) reason(st pollState) {
	out := r.out
	switch {
	case out.Reason == explain.KEDAReasonPaused:
		// A pause annotation blocked the step: set where it happened.
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
	// The summary says what KEDA writes, when, or that the HPA decides.
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
