// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
)

// formula is a compiled scalingModifiers formula.
type formula struct {
	// evaluated is the expression KEDA compiles: the formula wrapped so
	// that it returns a float (or nil, with the ?? operator).
	evaluated string
	program   *vm.Program
}

// floatFormula wraps a formula as KEDA does before compiling it: a
// formula with "??" keeps a nil result (so that the fallback can apply)
// and otherwise returns float(result); any other formula becomes
// float(formula) unless it already starts with "float(".
func floatFormula(f string) string {
	const letPrefix = "let _kedaCompositeResult = "
	if strings.Contains(f, "??") {
		if strings.HasPrefix(f, letPrefix) {
			return f
		}
		return fmt.Sprintf("%s(%s); _kedaCompositeResult == nil ? nil : float(_kedaCompositeResult)", letPrefix, f)
	}
	if strings.HasPrefix(f, "float(") {
		return f
	}
	return "float(" + f + ")"
}

// compileFormula validates and compiles so's formula as KEDA's scalers
// cache does: a target is required and must be a float above 0, the
// metric type cannot be Utilization, and the formula must compile and run
// with every named trigger (cpu and memory excluded) set to -1. It
// returns nil without error when the object has no formula.
func compileFormula(so *ScaledObject) (*formula, error) {
	if !so.UsesModifiers() || so.Spec.Advanced.ScalingModifiers.Formula == "" {
		return nil, nil
	}
	sm := so.Spec.Advanced.ScalingModifiers
	f := &formula{evaluated: floatFormula(sm.Formula)}
	if sm.Target == "" {
		return f, errors.Join(errors.New("error validating formula in ScalingModifiers"), errors.New("formula is given but target is empty"))
	}
	// The dummy environment: each named trigger that is not cpu or memory.
	env := map[string]float64{}
	for _, t := range so.Spec.Triggers {
		if t.Type == TypeCPU || t.Type == TypeMemory || t.Name == "" {
			continue
		}
		env[t.Name] = -1
	}
	program, err := expr.Compile(f.evaluated, expr.Env(env))
	if err == nil {
		_, err = expr.Run(program, env)
	}
	if err != nil {
		return f, errors.Join(errors.New("error validating formula in ScalingModifiers"), err)
	}
	f.program = program
	if n, err := strconv.ParseFloat(sm.Target, 64); err != nil || n <= 0 {
		return f, errors.Join(errors.New("error validating target in ScalingModifiers"), fmt.Errorf("error converting target for scalingModifiers (string->float) to valid target: %w", err))
	}
	if sm.MetricType == autoscalingv2.UtilizationMetricType {
		return f, errors.Join(errors.New("error validating target in ScalingModifiers"), errors.New("error trigger type is Utilization, but it needs to be AverageValue or Value for external metrics"))
	}
	return f, nil
}

// compositeValue runs the formula over data (trigger name → float64, or
// nil for a trigger a scalingModifiers fallback discards) and returns the
// composite metric as KEDA stores it: milli-units, truncated. A nil
// result takes fallback.replicas × target, and is an error without a
// fallback.
func (f *formula) compositeValue(so *ScaledObject, data map[string]any) (resource.Quantity, error) {
	if f == nil || f.program == nil {
		return resource.Quantity{}, errors.New("cached compiled formula is nil during its calculation")
	}
	out, err := expr.Run(f.program, data)
	if err != nil {
		return resource.Quantity{}, fmt.Errorf("error trying to run custom formula: %w", err)
	}
	var v float64
	switch x := out.(type) {
	case nil:
		if so.Spec.Fallback == nil {
			return resource.Quantity{}, errors.New("scalingModifiers formula evaluated to nil but no fallback is configured")
		}
		target, err := strconv.ParseFloat(so.Spec.Advanced.ScalingModifiers.Target, 64)
		if err != nil {
			return resource.Quantity{}, fmt.Errorf("scalingModifiers formula evaluated to nil and target %q is not a valid float: %w", so.Spec.Advanced.ScalingModifiers.Target, err)
		}
		v = float64(so.Spec.Fallback.Replicas) * target
	case float64:
		v = x
	default:
		return resource.Quantity{}, fmt.Errorf("formula returned non-float result %T (%v)", out, out)
	}
	var q resource.Quantity
	q.SetMilli(int64(v * 1000))
	return q, nil
}

// formulaInput is the value the formula reads for a metric: v, or nil when
// the scalingModifiers fallback behavior is set and the metric has failed
// more than failureThreshold times (the ?? operator can then replace it).
func formulaInput(so *ScaledObject, health map[string]HealthStatus, metric string, v float64) any {
	f := so.Spec.Fallback
	if f == nil || f.Behavior != FallbackScalingModifiers {
		return v
	}
	h, ok := health[metric]
	if !ok || h.NumberOfFailures == nil || *h.NumberOfFailures <= f.FailureThreshold {
		return v
	}
	return nil
}

// activationTarget parses scalingModifiers.activationTarget (0 when
// empty). An unparsable value stops the poll: KEDA then scales nothing.
func activationTarget(so *ScaledObject) (float64, error) {
	s := so.Spec.Advanced.ScalingModifiers.ActivationTarget
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("scalingModifiers.ActivationTarget parsing error %w", err)
	}
	return v, nil
}

// compositeTarget is the composite metric's target in the HPA KEDA
// writes, and false when the target is not a float above 0 (KEDA then
// keeps the triggers' own metrics).
func compositeTarget(so *ScaledObject) (autoscalingv2.MetricTarget, bool) {
	sm := so.Spec.Advanced.ScalingModifiers
	n, _ := strconv.ParseFloat(sm.Target, 64)
	if n <= 0 {
		return autoscalingv2.MetricTarget{}, false
	}
	mt := sm.MetricType
	if mt == "" {
		mt = autoscalingv2.AverageValueMetricType
	}
	q := resource.NewMilliQuantity(int64(n*1000), resource.DecimalSI)
	t := autoscalingv2.MetricTarget{Type: mt}
	switch mt {
	case autoscalingv2.AverageValueMetricType:
		t.AverageValue = q
	case autoscalingv2.ValueMetricType:
		t.Value = q
	default:
	}
	return t, true
}
