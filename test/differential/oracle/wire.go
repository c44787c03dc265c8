// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle

package main

import (
	"encoding/json"
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// The wire format. test/differential/oracle_test.go has the same types; the
// Kubernetes objects travel as their JSON, which each version decodes into
// its own types (fields the version does not have are dropped).

type request struct {
	ID   uint64 `json:"id"`
	Kind string `json:"kind"` // info, calc or reconcile
	// Gates are set process-wide before the case runs.
	Gates      map[string]bool `json:"gates,omitempty"`
	Case       *wireCase       `json:"case,omitempty"`
	WantEvents []int           `json:"wantEvents,omitempty"`
}

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

// restoreTimes puts the exact timestamps back into the decoded objects.
func (c *wireCase) restoreTimes() error {
	t := c.Times
	if len(t.Pods) != len(c.Pods) || len(t.PodMetrics) != len(c.PodMetrics) || len(t.Custom) != len(c.CustomMetrics) ||
		len(t.External) != len(c.ExternalMetrics) || len(t.HPAConditions) != len(c.HPA.Status.Conditions) {
		return fmt.Errorf("seed %d: exact times do not match the objects", c.Seed)
	}
	for i := range c.Pods {
		p, pt := &c.Pods[i], t.Pods[i]
		if (p.Status.StartTime != nil) != (pt.Start != nil) || (p.DeletionTimestamp != nil) != (pt.Deletion != nil) || len(pt.Conditions) != len(p.Status.Conditions) {
			return fmt.Errorf("seed %d: exact times do not match pod %s", c.Seed, p.Name)
		}
		if pt.Start != nil {
			p.Status.StartTime = &metav1.Time{Time: *pt.Start}
		}
		if pt.Deletion != nil {
			p.DeletionTimestamp = &metav1.Time{Time: *pt.Deletion}
		}
		for j := range p.Status.Conditions {
			p.Status.Conditions[j].LastTransitionTime = metav1.Time{Time: pt.Conditions[j]}
		}
	}
	for i := range c.PodMetrics {
		c.PodMetrics[i].Timestamp = metav1.Time{Time: t.PodMetrics[i]}
	}
	for i := range c.CustomMetrics {
		c.CustomMetrics[i].Timestamp = metav1.Time{Time: t.Custom[i]}
	}
	for i := range c.ExternalMetrics {
		c.ExternalMetrics[i].Timestamp = metav1.Time{Time: t.External[i]}
	}
	for i := range c.HPA.Status.Conditions {
		c.HPA.Status.Conditions[i].LastTransitionTime = metav1.Time{Time: t.HPAConditions[i]}
	}
	return nil
}

type response struct {
	ID    uint64      `json:"id"`
	Error string      `json:"error,omitempty"`
	Info  *oracleInfo `json:"info,omitempty"`
	Calc  *calcResult `json:"calc,omitempty"`
	Run   *runResult  `json:"run,omitempty"`
}

type oracleInfo struct {
	Modules map[string]string `json:"modules"`
	Gates   map[string]bool   `json:"gates"`
	Epoch   string            `json:"epoch"`
}

type quantity struct {
	Milli  int64  `json:"milli"`
	String string `json:"string"`
}

type calcResult struct {
	Function    string    `json:"function"`
	Replicas    int32     `json:"replicas"`
	Utilization *int32    `json:"utilization,omitempty"`
	Value       *quantity `json:"value,omitempty"`
	Err         *string   `json:"err,omitempty"`
	Elapsed     int64     `json:"elapsedNs"`
}

type event struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type syncResult struct {
	// Status is the status written by this sync; null when it wrote none.
	Status json.RawMessage `json:"status,omitempty"`
	// CurrentMetrics is the written status.currentMetrics as upstream
	// marshals it (null when empty): a quantity decoded from JSON prints in
	// its parsed format, not in the one the controller built it with.
	CurrentMetrics json.RawMessage `json:"currentMetrics,omitempty"`
	Events         []event         `json:"events"`
	ScaleUpdated   bool            `json:"scaleUpdated"`
	ScaledTo       int32           `json:"scaledTo"`
}

type runResult struct {
	Syncs   []syncResult `json:"syncs"`
	Elapsed int64        `json:"elapsedNs"`
	Stale   bool         `json:"stale"`
	Tries   int          `json:"tries"`
}
