// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// The wire format between the tests and the oracle (oracle/*.go), one
// definition for both sides: hack/differential/oracle.sh copies this file
// into the oracle's scratch module as package main. The Kubernetes objects
// travel as their JSON, which each version decodes into its own types
// (fields the version does not have are dropped). The responses differ per
// side (the tests decode statuses and events into richer types) and stay
// with each side.

// oracleRequest is one case, or a request for the oracle's info.
type oracleRequest struct {
	ID   uint64 `json:"id"`
	Kind string `json:"kind"` // info, calc or reconcile
	// Gates are set process-wide before the case runs.
	Gates      map[string]bool `json:"gates,omitempty"`
	Case       *wireCase       `json:"case,omitempty"`
	WantEvents []int           `json:"wantEvents,omitempty"`
}

// wireCase is a case as the oracle reads it.
type wireCase struct {
	Seed uint64 `json:"seed"`
	// Ref is the instant the case describes; upstream runs at Ref+ε, every
	// timestamp shifted onto the real clock.
	Ref             time.Time                                    `json:"ref"`
	HPA             *autoscalingv2.HorizontalPodAutoscaler       `json:"hpa"`
	Pods            []corev1.Pod                                 `json:"pods"`
	PodMetrics      []metricsv1beta1.PodMetrics                  `json:"podMetrics"`
	CustomMetrics   []custommetricsv1beta2.MetricValue           `json:"customMetrics"`
	ExternalMetrics []externalmetricsv1beta1.ExternalMetricValue `json:"externalMetrics"`
	APIErrors       map[string]string                            `json:"apiErrors"`
	TargetName      string                                       `json:"targetName"`
	Selector        string                                       `json:"selector"`
	SpecReplicas    int32                                        `json:"specReplicas"`
	StatusReplicas  int32                                        `json:"statusReplicas"`
	// Tolerance is the controller's flag; ToleranceDown/Up the pair the
	// controller derives for this HPA (v1.33+ calculator API).
	Tolerance               float64       `json:"tolerance"`
	ToleranceDown           float64       `json:"toleranceDown"`
	ToleranceUp             float64       `json:"toleranceUp"`
	CPUInitializationPeriod time.Duration `json:"cpuInitializationPeriod"`
	InitialReadinessDelay   time.Duration `json:"initialReadinessDelay"`
	DownscaleStabilization  time.Duration `json:"downscaleStabilization"`
	// Times are the objects' timestamps to the nanosecond: metav1.Time
	// travels in JSON to the second, and the generated edges are 1ns away.
	Times exactTimes `json:"times"`
}

// exactTimes lists, in the order of the case's objects, their timestamps.
type exactTimes struct {
	Pods          []podTimes  `json:"pods"`
	PodMetrics    []time.Time `json:"podMetrics"`
	Custom        []time.Time `json:"custom"`
	External      []time.Time `json:"external"`
	HPAConditions []time.Time `json:"hpaConditions"`
}

type podTimes struct {
	Start      *time.Time  `json:"start,omitempty"`
	Deletion   *time.Time  `json:"deletion,omitempty"`
	Conditions []time.Time `json:"conditions"`
}

// oracleInfo says what the oracle was built from.
type oracleInfo struct {
	Modules map[string]string `json:"modules"`
	Gates   map[string]bool   `json:"gates"`
	Epoch   string            `json:"epoch"`
}

// wireQuantity is a quantity as upstream computed it: its milli-value and
// how it prints.
type wireQuantity struct {
	Milli  int64  `json:"milli"`
	String string `json:"string"`
}

// upstreamWire is the answer of one upstream calculator call.
type upstreamWire struct {
	Function    string        `json:"function"`
	Replicas    int32         `json:"replicas"`
	Utilization *int32        `json:"utilization,omitempty"`
	Value       *wireQuantity `json:"value,omitempty"`
	Err         *string       `json:"err,omitempty"`
	Elapsed     int64         `json:"elapsedNs"`
}
