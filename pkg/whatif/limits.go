// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Limits on what whatif simulates, so that no flag value makes a run grow
// beyond what its input costs. docs/reliability.md ("Bounds") lists them
// with the flags they bound.
const (
	// MaxPods is the most pods whatif simulates: --replicas, and a
	// projection's scale-ups. A --replicas count above maxReplicas (or
	// below minReplicas) needs no pods to decide, since the controller
	// clamps without reading metrics; only the pods the clamp leaves are
	// simulated.
	MaxPods = 10000
	// MaxPodSyncs bounds a projection's work: the pods simulated, summed
	// over the syncs replayed (quiet syncs that repeat the previous one are
	// copied, not replayed).
	MaxPodSyncs = 1_000_000
	// MaxTraceRows is the most rows a --trace file may have.
	MaxTraceRows = 100000
	// MaxPercent bounds a relative change (+N%) and a share of the request
	// (N%): at most a million percent, ten thousand times the value.
	MaxPercent = 1e6
)

// MaxQuantity is the largest value an override or a trace may give, 10^15
// (1P): its milli-units, in which the controller computes, still fit in an
// int64 with room for sums over many pods.
var MaxQuantity = resource.MustParse("1P")

// maxMilli is MaxQuantity in milli-units; computed values saturate there.
const maxMilli = int64(1e18)

// saturate rounds v up to a whole milli-unit within [0, maxMilli].
func saturate(v float64) int64 {
	switch {
	case math.IsNaN(v) || v <= 0:
		return 0
	case v >= float64(maxMilli):
		return maxMilli
	}
	return int64(math.Ceil(v))
}
