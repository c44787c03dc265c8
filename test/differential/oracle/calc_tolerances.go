// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle && !oracle_abstol

package main

import (
	"context"
	"fmt"
	"reflect"
	"unsafe"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
)

// v1.33 and later: the calculator methods take a Tolerances pair.
const calcEpoch = "tolerances"

// Upstream's Tolerances has unexported fields and no exported constructor;
// the controller builds it in an unexported method. tolerancesLayout mirrors
// its memory layout so that the exported calculator methods can be called
// with any tolerance pair. checkAPI verifies the mirror.
type tolerancesLayout struct {
	scaleDown float64
	scaleUp   float64
}

func makeTolerances(down, up float64) podautoscaler.Tolerances {
	l := tolerancesLayout{scaleDown: down, scaleUp: up}
	return *(*podautoscaler.Tolerances)(unsafe.Pointer(&l))
}

func checkAPI() error {
	ut := reflect.TypeOf(podautoscaler.Tolerances{})
	mt := reflect.TypeOf(tolerancesLayout{})
	if ut.Size() != mt.Size() || ut.NumField() != mt.NumField() {
		return fmt.Errorf("upstream Tolerances layout changed: %v", ut)
	}
	for i := 0; i < ut.NumField(); i++ {
		a, b := ut.Field(i), mt.Field(i)
		if a.Name != b.Name || a.Type != b.Type || a.Offset != b.Offset {
			return fmt.Errorf("upstream Tolerances field %d is %s %s, mirror has %s %s", i, a.Name, a.Type, b.Name, b.Type)
		}
	}
	if s := makeTolerances(0.1, 0.25).String(); s != "[down:10.0%, up:25.0%]" {
		return fmt.Errorf("tolerance mirror gives %q", s)
	}
	return nil
}

type tolCalc struct {
	c   *podautoscaler.ReplicaCalculator
	tol podautoscaler.Tolerances
}

func newCalculator(mc metricsclient.MetricsClient, lister corelisters.PodLister, c *wireCase) (calculator, error) {
	return tolCalc{
		c:   podautoscaler.NewReplicaCalculator(mc, lister, c.CPUInitializationPeriod, c.InitialReadinessDelay),
		tol: makeTolerances(c.ToleranceDown, c.ToleranceUp),
	}, nil
}

func (t tolCalc) resource(ctx context.Context, replicas, util int32, r corev1.ResourceName, ns string, sel labels.Selector, container string) (int32, int32, int64, error) {
	n, u, raw, _, err := t.c.GetResourceReplicas(ctx, replicas, util, r, t.tol, ns, sel, container)
	return n, u, raw, err
}

func (t tolCalc) rawResource(ctx context.Context, replicas int32, usage int64, r corev1.ResourceName, ns string, sel labels.Selector, container string) (int32, int64, error) {
	n, u, _, err := t.c.GetRawResourceReplicas(ctx, replicas, usage, r, t.tol, ns, sel, container)
	return n, u, err
}

func (t tolCalc) metric(replicas int32, usage int64, name, ns string, sel, msel labels.Selector) (int32, int64, error) {
	n, u, _, err := t.c.GetMetricReplicas(replicas, usage, name, t.tol, ns, sel, msel)
	return n, u, err
}

func (t tolCalc) object(replicas int32, usage int64, name, ns string, ref *autoscalingv2.CrossVersionObjectReference, sel, msel labels.Selector) (int32, int64, error) {
	n, u, _, err := t.c.GetObjectMetricReplicas(replicas, usage, name, t.tol, ns, ref, sel, msel)
	return n, u, err
}

func (t tolCalc) objectPerPod(statusReplicas int32, usage int64, name, ns string, ref *autoscalingv2.CrossVersionObjectReference, msel labels.Selector) (int32, int64, error) {
	n, u, _, err := t.c.GetObjectPerPodMetricReplicas(statusReplicas, usage, name, t.tol, ns, ref, msel)
	return n, u, err
}

func (t tolCalc) external(replicas int32, usage int64, name, ns string, msel *metav1.LabelSelector, sel labels.Selector) (int32, int64, error) {
	n, u, _, err := t.c.GetExternalMetricReplicas(replicas, usage, name, t.tol, ns, msel, sel)
	return n, u, err
}

func (t tolCalc) externalPerPod(statusReplicas int32, usage int64, name, ns string, msel *metav1.LabelSelector) (int32, int64, error) {
	n, u, _, err := t.c.GetExternalPerPodMetricReplicas(statusReplicas, usage, name, t.tol, ns, msel)
	return n, u, err
}
