// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"fmt"
	"strconv"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
)

// fallbackValid reports whether KEDA uses so's fallback: both counts ≥ 0
// and, with scalingModifiers, a target that is an integer above 0 (KEDA
// parses it with ParseInt, so "2.5" disables the fallback).
func fallbackValid(so *ScaledObject) bool {
	f := so.Spec.Fallback
	if f == nil {
		return false
	}
	ok := true
	if so.UsesModifiers() {
		n, err := strconv.ParseInt(so.Spec.Advanced.ScalingModifiers.Target, 10, 64)
		ok = err == nil && n > 0
	}
	return f.FailureThreshold >= 0 && f.Replicas >= 0 && ok
}

// checkFallbackValid is the fallback check of KEDA's admission webhook:
// counts ≥ 0 and, without scalingModifiers, at least one trigger that is
// not cpu or memory.
func checkFallbackValid(so *ScaledObject) error {
	f := so.Spec.Fallback
	if f == nil {
		return nil
	}
	if f.FailureThreshold < 0 || f.Replicas < 0 {
		return fmt.Errorf("FailureThreshold=%d & Replicas=%d must both be greater than or equal to 0", f.FailureThreshold, f.Replicas)
	}
	if so.UsesModifiers() {
		return nil
	}
	for _, t := range so.Spec.Triggers {
		if t.Type != TypeCPU && t.Type != TypeMemory {
			return nil
		}
	}
	return errors.New("at least one trigger (that is not cpu or memory) has to have the `AverageValue` type for the fallback to be enabled")
}

// fallbackConfigured is a fallback KEDA counts failures for.
func fallbackConfigured(so *ScaledObject) bool {
	return so.Spec.Fallback != nil && fallbackValid(so)
}

// pastThreshold reports whether h counts a metric Failing more than the
// fallback's failureThreshold times (so has a fallback).
func pastThreshold(so *ScaledObject, h HealthStatus) bool {
	return h.Status == HealthFailing && h.NumberOfFailures != nil && *h.NumberOfFailures > so.Spec.Fallback.FailureThreshold
}

// FallbackAnswered reports whether KEDA's metrics server answers metric
// with its fallback value rather than the trigger's, as status.health
// stands: a fallback KEDA uses (a valid one) and the metric Failing more
// than failureThreshold times. It returns the failure count.
func FallbackAnswered(so *ScaledObject, metric string) (int32, bool) {
	h, ok := so.Status.Health[metric]
	if !ok || !fallbackConfigured(so) || !pastThreshold(so, h) {
		return 0, false
	}
	return *h.NumberOfFailures, true
}

// failures returns a health map's failure count for a metric (0 when
// absent).
func failures(health map[string]HealthStatus, metric string) int32 {
	if h, ok := health[metric]; ok && h.NumberOfFailures != nil {
		return *h.NumberOfFailures
	}
	return 0
}

// observation is one External metric observation after KEDA's fallback:
// what the scaler returned and what KEDA makes of it.
type observation struct {
	metric string
	// raw is the scaler's value as a quantity, rawActive its activity, err
	// its error (nil on success).
	raw       *resource.Quantity
	rawActive bool
	err       error
	// failuresBefore and failuresAfter are status.health's count; counted
	// is true when this observation moved it (fallback configured).
	failuresBefore, failuresAfter int32
	counted                       bool
	// fallback is true when value is a fallback value; placeholder when
	// the scalingModifiers behavior replaced the value with -1 (read as
	// nil by the formula).
	fallback    bool
	placeholder bool
	// value is what KEDA passes on (nil when err remains).
	value *resource.Quantity
	// outErr is the error left after the fallback (nil when replaced).
	outErr error
}

// FallbackInput is what KEDA's fallback needs besides the ScaledObject.
type FallbackInput struct {
	// Target is the metric's target in the HPA (its type and quantity);
	// with scalingModifiers the composite target is used instead.
	Target autoscalingv2.MetricTarget
	// CurrentReplicas is the workload's spec.replicas (for the
	// currentReplicas behaviors).
	CurrentReplicas int32
	// ReadyReplicas is the count of the target's pods that are Running and
	// Ready; KEDA divides by it for Value targets (nil: unknown).
	ReadyReplicas *int32
}

// FallbackValue returns the External metric value KEDA's metrics server
// answers once a metric has failed more than failureThreshold times, so
// that the HPA computes the fallback replicas: target × replicas for
// AverageValue targets, target × replicas ÷ ready pods for Value targets,
// truncated to milli-units; replicas is fallback.replicas, the current
// replicas, or the higher or lower of the two (by behavior). With
// scalingModifiers the target is the composite metric's. An error means
// KEDA fails the fallback ("error performing fallback"): a Value target
// with no ready pod.
func FallbackValue(so *ScaledObject, in FallbackInput) (resource.Quantity, error) {
	f := so.Spec.Fallback
	if f == nil {
		return resource.Quantity{}, errors.New("no fallback configured")
	}
	fallbackReplicas := int64(f.Replicas)
	current := int64(in.CurrentReplicas)
	var replicas float64
	switch f.Behavior {
	case FallbackCurrentReplicas:
		replicas = float64(current)
	case FallbackCurrentReplicasIfHigher:
		replicas = float64(max(current, fallbackReplicas))
	case FallbackCurrentReplicasIfLower:
		replicas = float64(min(current, fallbackReplicas))
	case FallbackScalingModifiers:
		return resource.Quantity{}, errors.New("the scalingModifiers behavior makes the formula read nil instead of a value")
	default:
		// static, and "" (the CRD default is static).
		replicas = float64(fallbackReplicas)
	}
	modifiers := so.UsesModifiers()
	valueType := in.Target.Type == autoscalingv2.ValueMetricType
	if modifiers {
		valueType = so.Spec.Advanced.ScalingModifiers.MetricType == autoscalingv2.ValueMetricType
	}
	if valueType {
		if in.ReadyReplicas == nil {
			return resource.Quantity{}, errors.New("the ready pods of a Value target are unknown")
		}
		if *in.ReadyReplicas == 0 {
			return resource.Quantity{}, errors.New("readyReplicas is zero, cannot do fallback")
		}
		replicas /= float64(*in.ReadyReplicas)
	}
	var norm float64
	if modifiers {
		norm, _ = strconv.ParseFloat(so.Spec.Advanced.ScalingModifiers.Target, 64)
	} else {
		switch in.Target.Type {
		case autoscalingv2.AverageValueMetricType:
			if in.Target.AverageValue == nil {
				return resource.Quantity{}, errors.New("the metric's target is unknown")
			}
			norm = in.Target.AverageValue.AsApproximateFloat64()
		case autoscalingv2.ValueMetricType:
			if in.Target.Value == nil {
				return resource.Quantity{}, errors.New("the metric's target is unknown")
			}
			norm = in.Target.Value.AsApproximateFloat64()
		default:
		}
	}
	return *resource.NewMilliQuantity(int64(norm*1000*replicas), resource.DecimalSI), nil
}

// observe applies KEDA's fallback (GetMetricsWithFallback) to one
// observation of metric: raw is the scaler's value (nil on error or when
// unknown), err its error, before the failure count so far. count is false
// when the observation is one the HPA already made and counted (v2.21's
// reuse of HPA observations): the count then stays and decides alone.
func observe(so *ScaledObject, metric string, raw *resource.Quantity, rawActive bool, err error, before int32, count bool, in FallbackInput) observation {
	o := observation{metric: metric, raw: raw, rawActive: rawActive, err: err}
	o.failuresBefore = before
	o.failuresAfter = before
	configured := fallbackConfigured(so)
	if err == nil {
		// Success resets the count (only while a fallback is configured).
		if configured && count {
			o.failuresAfter, o.counted = 0, true
		}
		o.value = raw
		return o
	}
	o.outErr = err
	if !configured {
		return o
	}
	if count {
		o.failuresAfter, o.counted = o.failuresBefore+1, true
	}
	if o.failuresAfter <= so.Spec.Fallback.FailureThreshold {
		return o
	}
	if so.Spec.Fallback.Behavior == FallbackScalingModifiers {
		// A -1 placeholder, without error: the formula reads nil for it.
		o.placeholder, o.outErr = true, nil
		o.value = resource.NewQuantity(-1, resource.DecimalSI)
		return o
	}
	v, ferr := FallbackValue(so, in)
	if ferr != nil {
		o.outErr = fmt.Errorf("error performing fallback: %w", ferr)
		return o
	}
	o.fallback, o.outErr, o.value = true, nil, &v
	return o
}

// healthStatus is status.health's status after an observation.
func (o observation) healthStatus() string {
	if o.err != nil {
		return HealthFailing
	}
	return HealthHappy
}
