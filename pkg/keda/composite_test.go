// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// TestCompositeRead: KEDA's metrics server answers a scalingModifiers
// object's formula value for every metric, so a reader has the composite
// value but not the triggers' own: the poll then takes the composite value
// as the formula's, for the activation and for what the HPA reads; a value
// given for every trigger still wins.
func TestCompositeRead(t *testing.T) {
	a, b := metricsAPI(""), metricsAPI("")
	a.Name, b.Name = "a", "b"
	mods := func(so *ScaledObject) {
		so.Spec.Advanced = &AdvancedConfig{ScalingModifiers: ScalingModifiers{Formula: "a + b", Target: "10", ActivationTarget: "5"}}
	}
	read := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name      string
		composite *float64
		results   []TriggerResult
		current   int32
		active    bool
		scaleTo   *int32
		value     float64
		hpa       string
	}{
		{"read 25 at zero: active, 0 → 1", read(25), nil, 0, true, ptr(int32(1)), 25, "25"},
		{"read 5 is not above activationTarget 5", read(5), nil, 0, false, nil, 5, "5"},
		{"read 4.5 above zero: cooldown from creation over, to zero", read(4.5), nil, 3, false, ptr(int32(0)), 4.5, "4500m"},
		{"values given win over the read composite", read(100), []TriggerResult{value(1), value(2)}, 0, false, nil, 3, "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := Evaluate(Input{ScaledObject: object([]ScaleTrigger{a, b}, mods), Now: t0, CurrentReplicas: tc.current, Triggers: tc.results, Composite: tc.composite})
			if err != nil {
				t.Fatal(err)
			}
			if k.Active != tc.active || !eqPtr(k.KEDAScaleTo, tc.scaleTo) {
				t.Errorf("active %v scaleTo %v, want %v %v\nsteps %v", k.Active, fmtPtr32(k.KEDAScaleTo), tc.active, fmtPtr32(tc.scaleTo), k.Steps)
			}
			if sm := k.ScalingModifiers; sm.Value == nil || *sm.Value != tc.value {
				t.Errorf("composite %v, want %v", fmtPtr(sm.Value), tc.value)
			}
			if len(k.HPAMetrics) != 1 || k.HPAMetrics[0].Value == nil || k.HPAMetrics[0].Value.String() != tc.hpa {
				t.Errorf("HPA metrics %+v, want composite-metric = %s", k.HPAMetrics, tc.hpa)
			}
		})
	}
	// Without the composite value, a formula still needs every value.
	if _, err := Evaluate(Input{ScaledObject: object([]ScaleTrigger{a, b}, mods), Now: t0, CurrentReplicas: 0}); err == nil {
		t.Error("no values and no composite: want an error")
	}
	// A trigger that fails still makes the object inactive.
	k, err := Evaluate(Input{ScaledObject: object([]ScaleTrigger{a, b}, mods), Now: t0, CurrentReplicas: 0, Triggers: []TriggerResult{{Error: "down"}}, Composite: read(25)})
	if err != nil {
		t.Fatal(err)
	}
	if k.Active || k.Reason != explain.KEDAReasonError {
		t.Errorf("a failing trigger: active %v reason %s", k.Active, k.Reason)
	}
}

func eqPtr(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func fmtPtr32(p *int32) any {
	if p == nil {
		return "nil"
	}
	return *p
}
