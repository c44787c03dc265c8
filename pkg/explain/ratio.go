// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import (
	"encoding/json"
	"math"
)

// Ratio is a usage ratio as the controller computes it in float64. Its
// arithmetic can give a value that is not a number: a per-pod ratio at zero
// replicas is +Inf (or NaN for a usage of zero), and so is any ratio to a
// zero target. JSON has no such numbers, so a Ratio that is not finite
// encodes as null, and null decodes as NaN: every decision encodes.
type Ratio float64

// Why a ratio is not a number (Usage.RatioUndefined).
const (
	// RatioFromZero: a per-pod ratio (AverageValue of an Object or
	// External metric) divided by zero replicas. The calculator then
	// proposes ceil(usage / target) and writes a per-pod value that is not
	// a number either (see docs/output-schema.md).
	RatioFromZero = "fromZeroReplicas"
	// RatioZeroTarget: the target is zero.
	RatioZeroTarget = "zeroTarget"
)

// Finite reports whether r is a number.
func (r Ratio) Finite() bool {
	f := float64(r)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// MarshalJSON encodes a finite ratio as encoding/json encodes a float64,
// and any other as null.
func (r Ratio) MarshalJSON() ([]byte, error) {
	if !r.Finite() {
		return []byte("null"), nil
	}
	return json.Marshal(float64(r))
}

// UnmarshalJSON decodes a number, or null as NaN.
func (r *Ratio) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = Ratio(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*r = Ratio(f)
	return nil
}
