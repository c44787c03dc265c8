// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
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
	if t.absolute {
		return fmt.Sprintf("within the tolerance (|1 − ratio| = %s ≤ %s)", strconv.FormatFloat(math.Abs(1.0-ratio), 'g', -1, 64), strconv.FormatFloat(t.up, 'g', -1, 64))
	}
	return fmt.Sprintf("within the tolerance band [%.4g, %.4g]", 1-t.down, 1+t.up)
}

func (t tolerances) check(ratio float64) *explain.ToleranceCheck {
	c := &explain.ToleranceCheck{
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
