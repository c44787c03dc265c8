// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// Validate checks what the API server checks before it stores a
// ScaledObject (the OpenAPI schema and the CEL rule of KEDA's CRD), so
// that every object it accepts is one a cluster can hold. The first
// violation is returned in one line naming the object and the field.
// KEDA's own checks (idle below min, unique trigger names, scaler
// parameters) are not errors here: the replay reports them as KEDA does.
func Validate(so *ScaledObject) error {
	if so == nil {
		return fmt.Errorf("ScaledObject: missing")
	}
	if so.Name == "" {
		return fmt.Errorf("ScaledObject: metadata.name: Required value")
	}
	bad := func(field string, format string, args ...any) error {
		return fmt.Errorf("ScaledObject %q: %s: %s", so.ref(), field, fmt.Sprintf(format, args...))
	}
	s := &so.Spec
	// Required fields first, as the schema lists them.
	if s.ScaleTargetRef == nil {
		return bad("spec.scaleTargetRef", "Required value")
	}
	if s.ScaleTargetRef.Name == "" {
		return bad("spec.scaleTargetRef.name", "Required value")
	}
	// Each bounded field with its schema minimum.
	for _, f := range []struct {
		name string
		v    *int32
		min  int32
	}{
		{"spec.pollingInterval", s.PollingInterval, 1},
		{"spec.initialCooldownPeriod", s.InitialCooldownPeriod, 0},
		{"spec.cooldownPeriod", s.CooldownPeriod, 0},
		{"spec.idleReplicaCount", s.IdleReplicaCount, 0},
		{"spec.minReplicaCount", s.MinReplicaCount, 0},
		{"spec.maxReplicaCount", s.MaxReplicaCount, 1},
	} {
		if f.v != nil && *f.v < f.min {
			return bad(f.name, "Invalid value: %d: should be greater than or equal to %d", *f.v, f.min)
		}
	}
	// The CRD's CEL rule: min ≤ max (100 when max is unset).
	if s.MinReplicaCount != nil && *s.MinReplicaCount > so.hpaMaxReplicas() {
		return bad("spec", "Invalid value: minReplicaCount must be less than or equal to maxReplicaCount (%d > %d)", *s.MinReplicaCount, so.hpaMaxReplicas())
	}
	// minItems 1; each trigger needs a type, a reference a name and a
	// known kind.
	if len(s.Triggers) == 0 {
		return bad("spec.triggers", "Invalid value: should have at least 1 items")
	}
	for i, t := range s.Triggers {
		if t.Type == "" {
			return bad(fmt.Sprintf("spec.triggers[%d].type", i), "Required value")
		}
		if r := t.AuthenticationRef; r != nil {
			if r.Name == "" {
				return bad(fmt.Sprintf("spec.triggers[%d].authenticationRef.name", i), "Required value")
			}
			if r.Kind != "" && r.Kind != "TriggerAuthentication" && r.Kind != "ClusterTriggerAuthentication" {
				return bad(fmt.Sprintf("spec.triggers[%d].authenticationRef.kind", i), "Unsupported value: %q: supported values: \"TriggerAuthentication\", \"ClusterTriggerAuthentication\"", r.Kind)
			}
		}
	}
	// The fallback's counts and behavior enum (the CRD defaults "" to
	// static).
	if f := s.Fallback; f != nil {
		if f.FailureThreshold < 0 {
			return bad("spec.fallback.failureThreshold", "Invalid value: %d: should be greater than or equal to 0", f.FailureThreshold)
		}
		if f.Replicas < 0 {
			return bad("spec.fallback.replicas", "Invalid value: %d: should be greater than or equal to 0", f.Replicas)
		}
		switch f.Behavior {
		case "", FallbackStatic, FallbackCurrentReplicas, FallbackCurrentReplicasIfHigher, FallbackCurrentReplicasIfLower, FallbackScalingModifiers:
		default:
			return bad("spec.fallback.behavior", "Unsupported value: %q: supported values: \"static\", \"currentReplicas\", \"currentReplicasIfHigher\", \"currentReplicasIfLower\", \"scalingModifiers\"", f.Behavior)
		}
	}
	// scalingModifiers.metricType: AverageValue or Value only.
	if a := s.Advanced; a != nil {
		switch a.ScalingModifiers.MetricType {
		case "", autoscalingv2.AverageValueMetricType, autoscalingv2.ValueMetricType:
		default:
			return bad("spec.advanced.scalingModifiers.metricType", "Unsupported value: %q: supported values: \"AverageValue\", \"Value\"", a.ScalingModifiers.MetricType)
		}
	}
	return nil
}
