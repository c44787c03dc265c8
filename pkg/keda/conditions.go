// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// KEDA's condition reasons and messages.
const (
	// Ready: the object is valid and the last poll could act.
	reasonReady  = "ScaledObjectReady"
	msgReady     = "ScaledObject is defined correctly and is ready for scaling"
	reasonPaused = "ScaledObjectPaused"
	msgPaused    = "ScaledObject is paused"
	// Active: the poll's activation decision, or the running cooldown.
	reasonActive    = "ScalerActive"
	msgActive       = "Scaling is performed because triggers are active"
	msgForced       = "Scaling is performed because activation is being forced by annotation"
	reasonNotActive = "ScalerNotActive"
	msgNotActive    = "Scaling is not performed because triggers are not active"
	reasonCooldown  = "ScalerCooldown"
	msgCooldown     = "Scaler cooling down because triggers are not active"
	// Fallback: a metric past failureThreshold.
	reasonFallbackExists = "FallbackExists"
	msgFallbackExists    = "At least one trigger is falling back on this scaled object"
	reasonNoFallback     = "NoFallbackFound"
	msgNoFallback        = "No fallbacks are active on this scaled object"
	// Ready lowered by the reconcile, or by the poll on trigger errors.
	reasonCheckFailed  = "ScaledObjectCheckFailed"
	reasonUnknownState = "UnknownState"
	msgCheckFailed     = "ScaledObject check failed"
	reasonPartialError = "PartialTriggerError"
	msgPartialError    = "Some triggers defined in ScaledObject are not working correctly"
	reasonTriggerError = "TriggerError"
	msgTriggerError    = "Triggers defined in ScaledObject are not working correctly"
	reasonErrorScaling = "ErrorScalingTarget"
	reasonUnpaused     = "ScaledObjectUnpaused"
	msgUnpaused        = "pause annotation removed for ScaledObject"
	// HPAActive: the HPA's own ScalingActive, mirrored.
	reasonHPAActive       = "HPAActive"
	reasonHPAUnavailable  = "HPAMetricsUnavailable"
	reasonScalingDisabled = "ScalingDisabled"
)

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
		if pastThreshold(so, h) {
			return true
		}
	}
	return false
}

// pausedCondition writes the Paused condition of an object not fully
// paused: True for paused-scale-in/out, False otherwise.
func (r *replay) pausedCondition() {
	p := r.out.Pause
	// The reconcile sets it: True for a one-way pause, "unpaused" once
	// after a pause, else unchanged.
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
