// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

// Reasons of the conditions and events the HPA controller writes, as the
// engine writes them and the views read them. They are the controller's own
// words; the output schema carries them as strings.
const (
	// AbleToScale.
	ReasonSucceededGetScale   = "SucceededGetScale"
	ReasonFailedGetScale      = "FailedGetScale"
	ReasonReadyForNewScale    = "ReadyForNewScale"
	ReasonScaleUpStabilized   = "ScaleUpStabilized"
	ReasonScaleDownStabilized = "ScaleDownStabilized"
	ReasonSucceededRescale    = "SucceededRescale"
	ReasonFailedUpdateScale   = "FailedUpdateScale"
	// ScalingActive.
	ReasonValidMetricFound    = "ValidMetricFound"
	ReasonScalingDisabled     = "ScalingDisabled"
	ReasonInvalidSelector     = "InvalidSelector"
	ReasonAmbiguousSelector   = "AmbiguousSelector"
	ReasonInvalidMetricSource = "InvalidMetricSourceType"
	ReasonFailedGetResource   = "FailedGetResourceMetric"
	ReasonFailedGetContainer  = "FailedGetContainerResourceMetric"
	ReasonFailedGetPods       = "FailedGetPodsMetric"
	ReasonFailedGetObject     = "FailedGetObjectMetric"
	ReasonFailedGetExternal   = "FailedGetExternalMetric"
	// ScalingLimited.
	ReasonDesiredWithinRange = "DesiredWithinRange"
	ReasonTooFewReplicas     = "TooFewReplicas"
	ReasonTooManyReplicas    = "TooManyReplicas"
	ReasonScaleUpLimit       = "ScaleUpLimit"
	ReasonScaleDownLimit     = "ScaleDownLimit"
	// ScaledToZero.
	ReasonScaledToZero    = "ScaledToZero"
	ReasonNotScaledToZero = "NotScaledToZero"
	// Events only.
	ReasonSuccessfulRescale    = "SuccessfulRescale"
	ReasonFailedRescale        = "FailedRescale"
	ReasonFailedComputeMetrics = "FailedComputeMetricsReplicas"
	ReasonSelectorRequired     = "SelectorRequired"
)
