// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// summarize says in one sentence what decided a normal sync.
func summarize(d *explain.Decision) string {
	var parts []string
	if r := d.Recommendation; r != nil && r.Replicas >= 0 {
		if r.WinningMetric != "" {
			parts = append(parts, fmt.Sprintf("metrics propose %d (from %s)", r.Replicas, r.WinningMetric))
		} else {
			parts = append(parts, fmt.Sprintf("metrics propose %d", r.Replicas))
		}
		if r.Invalid > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d metrics are invalid but do not block this direction", r.Invalid, r.Total))
		}
	}
	if n := d.Normalization; n != nil {
		st := n.Stabilization
		if st.Result != n.Input {
			s := fmt.Sprintf("the stabilization window holds it at %d (%s)", st.Result, st.Reason)
			if st.HeldUntil != nil {
				s += " until " + st.HeldUntil.UTC().Format(time.RFC3339)
			}
			parts = append(parts, s)
		}
		if n.Limits.Limited {
			parts = append(parts, fmt.Sprintf("%s limits it to %d", limitWords(n.Limits.Reason), n.Limits.Result))
		}
		if n.ScaleFromZeroFloor {
			parts = append(parts, fmt.Sprintf("the scale-from-zero floor raises it to minReplicas %d", n.Result))
		}
	}
	switch {
	case d.Rescale:
		parts = append(parts, fmt.Sprintf("the controller scales %d → %d", d.CurrentReplicas, d.DesiredReplicas))
	default:
		parts = append(parts, fmt.Sprintf("replicas stay at %d", d.CurrentReplicas))
	}
	return strings.Join(parts, "; ")
}

func limitWords(reason string) string {
	switch reason {
	case "TooFewReplicas":
		return "minReplicas"
	case "TooManyReplicas":
		return "maxReplicas"
	case "ScaleUpLimit":
		return "the scale-up rate limit"
	case "ScaleDownLimit":
		return "the scale-down rate limit"
	}
	return reason
}
