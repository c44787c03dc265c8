// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package tune

import (
	"encoding/json"
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// Patch is the JSON merge patch (kubectl patch --type merge -p) that gives
// hpa the setting: spec.metrics whole (a merge patch replaces a list), the
// behavior of both directions, and minReplicas when it differs.
func Patch(hpa *autoscalingv2.HorizontalPodAutoscaler, s Setting) ([]byte, error) {
	tuned, err := s.Apply(hpa)
	if err != nil {
		return nil, err
	}
	type spec struct {
		MinReplicas *int32                                         `json:"minReplicas,omitempty"`
		Metrics     []autoscalingv2.MetricSpec                     `json:"metrics"`
		Behavior    *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior"`
	}
	p := struct {
		Spec spec `json:"spec"`
	}{spec{Metrics: tuned.Spec.Metrics, Behavior: tuned.Spec.Behavior}}
	was := int32(1)
	if hpa.Spec.MinReplicas != nil {
		was = *hpa.Spec.MinReplicas
	}
	if *tuned.Spec.MinReplicas != was {
		p.Spec.MinReplicas = tuned.Spec.MinReplicas
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encoding the patch: %w", err)
	}
	return b, nil
}
