// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// upstreamResult is what upstream's calculator returned for a case (the
// oracle's answer).
type upstreamResult upstreamWire

// errText is upstream's error message, or "" when there was none.
func (u upstreamResult) errText() string {
	if u.Err == nil {
		return ""
	}
	return *u.Err
}

// harnessTolerances is the tolerance pair the controller would derive for the
// HPA (cluster flag, overridden per direction by behavior when the
// HPAConfigurableTolerance gate is on). Before v1.33 the gate does not exist
// and the pair is the cluster flag.
func harnessTolerances(hpa *autoscalingv2.HorizontalPodAutoscaler, set engine.Settings) (down, up float64) {
	down, up = set.Tolerance, set.Tolerance
	b := hpa.Spec.Behavior
	if b == nil || !set.Profile.Gates[profile.HPAConfigurableTolerance] {
		return
	}
	if b.ScaleDown != nil && b.ScaleDown.Tolerance != nil {
		down = b.ScaleDown.Tolerance.AsApproximateFloat64()
	}
	if b.ScaleUp != nil && b.ScaleUp.Tolerance != nil {
		up = b.ScaleUp.Tolerance.AsApproximateFloat64()
	}
	return
}
