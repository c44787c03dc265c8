// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// compareStatus compares the status the controller wrote at its last sync
// (old) with the one this replay computes (replayed). When the inputs have
// not moved since that sync, they agree.
func compareStatus(old, replayed *autoscalingv2.HorizontalPodAutoscalerStatus, cur int32, d *explain.Decision) explain.Agreement {
	a := explain.Agreement{Checked: len(old.Conditions) > 0 || old.DesiredReplicas != 0 || old.CurrentReplicas != 0}
	if !a.Checked {
		return a
	}
	stale := old.CurrentReplicas != cur
	hidden := d.StateBefore.Provenance != explain.Observed && d.Normalization != nil &&
		(d.Normalization.Stabilization.Result != d.Normalization.Input || d.Normalization.Limits.Limited)
	cause := func(kind string) string {
		switch {
		case stale:
			return fmt.Sprintf("the target's replicas changed since the controller's last sync (its status says %d, the scale says %d): the status is stale and the next sync will catch up", old.CurrentReplicas, cur)
		case kind == "metrics":
			return "the metrics moved since the controller's last sync (samples are refreshed every metric resolution)"
		case hidden:
			return "the controller's history (recommendations, scale events) is not visible and was assumed; it decided this step"
		default:
			return "different controller flags, metrics that moved since the last sync, or controller history we cannot see"
		}
	}
	if old.DesiredReplicas != replayed.DesiredReplicas {
		a.Differences = append(a.Differences, explain.Difference{Field: "desiredReplicas", Controller: fmt.Sprint(old.DesiredReplicas), Replay: fmt.Sprint(replayed.DesiredReplicas), LikelyCause: cause("replicas")})
	}
	oldConds := map[string]autoscalingv2.HorizontalPodAutoscalerCondition{}
	for _, c := range old.Conditions {
		oldConds[string(c.Type)] = c
	}
	seen := map[string]bool{}
	for _, c := range replayed.Conditions {
		seen[string(c.Type)] = true
		o, ok := oldConds[string(c.Type)]
		got := string(c.Status) + "/" + c.Reason
		if !ok {
			a.Differences = append(a.Differences, explain.Difference{Field: "condition " + string(c.Type), Controller: "<none>", Replay: got, LikelyCause: cause("condition")})
			continue
		}
		if want := string(o.Status) + "/" + o.Reason; want != got {
			a.Differences = append(a.Differences, explain.Difference{Field: "condition " + string(c.Type), Controller: want, Replay: got, LikelyCause: cause("condition")})
		}
	}
	for _, c := range old.Conditions {
		if !seen[string(c.Type)] {
			a.Differences = append(a.Differences, explain.Difference{Field: "condition " + string(c.Type), Controller: string(c.Status) + "/" + c.Reason, Replay: "<none>", LikelyCause: cause("condition")})
		}
	}
	if !metricsEqual(old.CurrentMetrics, replayed.CurrentMetrics) {
		a.Differences = append(a.Differences, explain.Difference{Field: "currentMetrics", Controller: metricsString(old.CurrentMetrics), Replay: metricsString(replayed.CurrentMetrics), LikelyCause: cause("metrics")})
	}
	a.Agrees = len(a.Differences) == 0
	return a
}

func metricsString(ms []autoscalingv2.MetricStatus) string {
	if len(ms) == 0 {
		return "<none>"
	}
	var parts []string
	for _, m := range ms {
		b, err := json.Marshal(m)
		if err != nil {
			parts = append(parts, fmt.Sprint(m))
			continue
		}
		parts = append(parts, string(b))
	}
	return strings.Join(parts, ", ")
}
