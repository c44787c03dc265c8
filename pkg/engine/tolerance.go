// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"math"
	"strconv"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// tolerances is the pair of usage-ratio tolerances of one HPA.
type tolerances struct {
	down, up float64
	source   string
	// absolute selects the test of v1.32 and older: |1 − ratio| ≤ tolerance
	// (both directions share the controller flag there).
	absolute bool
}

// isWithin reports whether a usage ratio is close enough to 1 to change
// nothing. Both ends are inclusive.
func (t tolerances) isWithin(ratio float64) bool {
	if t.absolute {
		return math.Abs(1.0-ratio) <= t.up
	}
	return (1.0-t.down) <= ratio && ratio <= (1.0+t.up)
}

// within words a ratio the test keeps: "within the tolerance band [0.9,
// 1.1]", or for the absolute test "within the tolerance (|1 − ratio| =
// 0.08 ≤ 0.1)".
func (t tolerances) within(ratio float64) string {
	var text [80]byte
	return t.appendWithin(text[:0], ratio).String()
}

// appendWithin appends within's words to text.
func (t tolerances) appendWithin(text sentence, ratio float64) sentence {
	if t.absolute {
		// "within the tolerance (|1 − ratio| = %s ≤ %s)", the figures
		// as short as they print exactly.
		text = text.str("within the tolerance (|1 − ratio| = ")
		text = strconv.AppendFloat(text, math.Abs(1.0-ratio), 'g', -1, 64)
		text = text.str(" ≤ ")
		text = strconv.AppendFloat(text, t.up, 'g', -1, 64)
		return text.str(")")
	}
	// "within the tolerance band [%.4g, %.4g]"
	return text.str("within the tolerance band [").g4(1 - t.down).str(", ").g4(1 + t.up).str("]")
}

// check is the tolerance test of a ratio, for the explanation.
func (t tolerances) check(ratio float64) *explain.ToleranceCheck {
	c := t.checked(ratio)
	return &c
}

// checked is check's test as a value, for a caller that keeps it in its
// own room.
func (t tolerances) checked(ratio float64) explain.ToleranceCheck {
	c := explain.ToleranceCheck{
		ScaleDown: t.down, ScaleUp: t.up,
		Lower: 1.0 - t.down, Upper: 1.0 + t.up,
		Ratio: explain.Ratio(ratio), Within: t.isWithin(ratio), Source: t.source,
		Test: explain.ToleranceInterval,
	}
	if t.absolute {
		c.Test = explain.ToleranceAbsolute
	}
	return c
}

// tolerancesFor starts from the cluster-wide flag and lets behavior override
// each direction where the controller reads it (v1.33+ with the
// HPAConfigurableTolerance gate).
func tolerancesFor(hpa *autoscalingv2.HorizontalPodAutoscaler, set Settings) tolerances {
	sw := set.Profile.Switches
	t := tolerances{down: set.Tolerance, up: set.Tolerance, source: "--horizontal-pod-autoscaler-tolerance", absolute: sw.AbsoluteTolerance}
	b := hpa.Spec.Behavior
	if b == nil || !sw.BehaviorTolerance {
		return t
	}
	if b.ScaleDown != nil && b.ScaleDown.Tolerance != nil {
		// The controller converts with AsApproximateFloat64 (mantissa × 10^exp),
		// which is not always the nearest float to the decimal string.
		t.down = b.ScaleDown.Tolerance.AsApproximateFloat64()
		t.source = "behavior"
	}
	if b.ScaleUp != nil && b.ScaleUp.Tolerance != nil {
		t.up = b.ScaleUp.Tolerance.AsApproximateFloat64()
		t.source = "behavior"
	}
	return t
}
