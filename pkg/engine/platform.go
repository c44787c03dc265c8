// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import "math"

// The controller converts float64 results to int32 and int64 with Go
// conversions, whose result for a value out of range (or NaN) depends on the
// CPU. kube-controller-manager runs on amd64, where the conversion
// instructions (CVTTSD2SL, CVTTSD2SQ) give the "integer indefinite" value,
// the most negative integer. These helpers give that result on every host,
// so a replay on arm64 decides as the controller does.

// toInt32 converts like int32(f) on amd64: truncation toward zero, and
// math.MinInt32 for NaN or a value whose truncation does not fit.
func toInt32(f float64) int32 {
	// Values in (-2^31-1, -2^31) truncate to math.MinInt32 as well.
	if math.IsNaN(f) || f >= 1<<31 || f < -(1<<31) {
		return math.MinInt32
	}
	return int32(f)
}

// toInt64 converts like int64(f) on amd64: math.MinInt64 for NaN or a value
// that does not fit.
func toInt64(f float64) int64 {
	if math.IsNaN(f) || f >= 1<<63 || f < -(1<<63) {
		return math.MinInt64
	}
	return int64(f)
}

// ceilInt32 is int32(math.Ceil(f)) as the controller computes it.
func ceilInt32(f float64) int32 { return toInt32(math.Ceil(f)) }
