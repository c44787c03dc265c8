// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// usageMilli is the quantity's MilliValue for every usage, the edges of
// the integer arithmetic and beyond included.
func TestUsageMilli(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, 1e-9, 1e-6, 0.5e-6, 1.5e-6, 0.001, 0.0015, 0.25, 1, 3.999999999, 1e9 - 1, 1e9, 2e9, 1e15 - 1, 1e15, 1e18, -1e-9, -0.001, -5, math.NaN(), math.Inf(1), math.Inf(-1), 123456789.123456789}
	for range 200000 {
		vals = append(vals, rng.Float64()*8, rng.Float64()*1e-3, math.Ldexp(rng.Float64(), rng.IntN(80)-20), float64(rng.Int64N(1<<40)), float64(rng.Int64N(1<<40))+0.5)
	}
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		for _, v := range vals {
			q := usageQuantity(res, v)
			if want, got := q.MilliValue(), usageMilli(res, v); want != got {
				t.Fatalf("%s %v: usageMilli %d, the quantity's %d", res, v, got, want)
			}
		}
	}
}
