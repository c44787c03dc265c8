// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"

	corev1 "k8s.io/api/core/v1"
)

// usageMilli is usageQuantity(res, v).MilliValue(), the sample the
// controller reads of a recorded usage, in integer arithmetic where the
// figures are in the usual range: cpu in nanocores rounded up to
// millicores (MilliValue rounds up), memory in bytes times 1000.
// Elsewhere (negative, huge or not a number) it asks the quantity.
func usageMilli(res corev1.ResourceName, v float64) int64 {
	if res == corev1.ResourceCPU {
		if v >= 0 && v < 1e9 {
			n := int64(math.Round(v * 1e9))
			return (n + 999_999) / 1_000_000
		}
	} else if v >= 0 && v < 1e15 {
		return int64(math.Round(v)) * 1000
	}
	q := usageQuantity(res, v)
	return q.MilliValue()
}
