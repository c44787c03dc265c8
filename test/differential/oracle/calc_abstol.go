// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle && oracle_abstol

package main

import (
	"context"
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
)

// v1.29 to v1.32: the calculator is built with the controller's single
// tolerance; the methods take none.
const calcEpoch = "abs-tolerance"

func checkAPI() error { return nil }

type absCalc struct {
	c *podautoscaler.ReplicaCalculator
}

func newCalculator(mc metricsclient.MetricsClient, lister corelisters.PodLister, c *wireCase) (calculator, error) {
	if c.ToleranceDown != c.Tolerance || c.ToleranceUp != c.Tolerance {
		return nil, fmt.Errorf("this version has one tolerance (%v); the case asks for down %v, up %v", c.Tolerance, c.ToleranceDown, c.ToleranceUp)
	}
	return absCalc{c: podautoscaler.NewReplicaCalculator(mc, lister, c.Tolerance, c.CPUInitializationPeriod, c.InitialReadinessDelay)}, nil
}

func (a absCalc) resource(ctx context.Context, replicas, util int32, r corev1.ResourceName, ns string, sel labels.Selector, container string) (int32, int32, int64, error) {
	n, u, raw, _, err := a.c.GetResourceReplicas(ctx, replicas, util, r, ns, sel, container)
	return n, u, raw, err
}

func (a absCalc) rawResource(ctx context.Context, replicas int32, usage int64, r corev1.ResourceName, ns string, sel labels.Selector, container string) (int32, int64, error) {
	n, u, _, err := a.c.GetRawResourceReplicas(ctx, replicas, usage, r, ns, sel, container)
	return n, u, err
}

func (a absCalc) metric(replicas int32, usage int64, name, ns string, sel, msel labels.Selector) (int32, int64, error) {
	n, u, _, err := a.c.GetMetricReplicas(replicas, usage, name, ns, sel, msel)
	return n, u, err
}

func (a absCalc) object(replicas int32, usage int64, name, ns string, ref *autoscalingv2.CrossVersionObjectReference, sel, msel labels.Selector) (int32, int64, error) {
	n, u, _, err := a.c.GetObjectMetricReplicas(replicas, usage, name, ns, ref, sel, msel)
	return n, u, err
}

func (a absCalc) objectPerPod(statusReplicas int32, usage int64, name, ns string, ref *autoscalingv2.CrossVersionObjectReference, msel labels.Selector) (int32, int64, error) {
	n, u, _, err := a.c.GetObjectPerPodMetricReplicas(statusReplicas, usage, name, ns, ref, msel)
	return n, u, err
}

func (a absCalc) external(replicas int32, usage int64, name, ns string, msel *metav1.LabelSelector, sel labels.Selector) (int32, int64, error) {
	n, u, _, err := a.c.GetExternalMetricReplicas(replicas, usage, name, ns, msel, sel)
	return n, u, err
}

func (a absCalc) externalPerPod(statusReplicas int32, usage int64, name, ns string, msel *metav1.LabelSelector) (int32, int64, error) {
	n, u, _, err := a.c.GetExternalPerPodMetricReplicas(statusReplicas, usage, name, ns, msel)
	return n, u, err
}
