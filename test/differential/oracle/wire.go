// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle

package main

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The requests and calculator answers are defined once, in
// test/differential/wire.go, which oracle.sh copies in beside these files;
// the responses are this side's.

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
	ID    uint64        `json:"id"`
	Error string        `json:"error,omitempty"`
	Info  *oracleInfo   `json:"info,omitempty"`
	Calc  *upstreamWire `json:"calc,omitempty"`
	Run   *runResult    `json:"run,omitempty"`
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
