// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle

package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// calculator is upstream's ReplicaCalculator with the tolerance bound: the
// epoch files (calc_*.go) adapt the version's method signatures to it.
type calculator interface {
	resource(ctx context.Context, replicas int32, util int32, r corev1.ResourceName, ns string, sel labels.Selector, container string) (int32, int32, int64, error)
	rawResource(ctx context.Context, replicas int32, usage int64, r corev1.ResourceName, ns string, sel labels.Selector, container string) (int32, int64, error)
	metric(replicas int32, usage int64, name, ns string, sel, msel labels.Selector) (int32, int64, error)
	object(replicas int32, usage int64, name, ns string, ref *autoscalingv2.CrossVersionObjectReference, sel, msel labels.Selector) (int32, int64, error)
	objectPerPod(statusReplicas int32, usage int64, name, ns string, ref *autoscalingv2.CrossVersionObjectReference, msel labels.Selector) (int32, int64, error)
	external(replicas int32, usage int64, name, ns string, msel *metav1.LabelSelector, sel labels.Selector) (int32, int64, error)
	externalPerPod(statusReplicas int32, usage int64, name, ns string, msel *metav1.LabelSelector) (int32, int64, error)
}

// maxElapsed bounds the real time between the clock shift and the end of
// the upstream call (the test's clock convention holds below one second).
const maxElapsed = 500 * time.Millisecond

// runCalcStable runs the case, again when the call was too slow for the
// clock convention to hold.
func runCalcStable(c *wireCase) upstreamWire {
	var r upstreamWire
	for i := 0; i < 5; i++ {
		r = runCalc(c)
		if time.Duration(r.Elapsed) < maxElapsed {
			return r
		}
	}
	panic(fmt.Sprintf("seed %d: upstream call took %v five times", c.Seed, time.Duration(r.Elapsed)))
}

// runCalc feeds the case's first metric to ReplicaCalculator the way the
// controller's per-metric dispatch does.
func runCalc(c *wireCase) (res upstreamWire) {
	hpa := c.HPA
	spec := hpa.Spec.Metrics[0]
	ns := hpa.Namespace
	selector, err := labels.Parse(c.Selector)
	if err != nil {
		res.Function = "selector"
		return withErr(res, err)
	}
	specReplicas, statusReplicas := c.SpecReplicas, c.StatusReplicas

	// Move every timestamp onto the real clock: upstream reads time.Now()
	// and must see Ref+ε.
	start := time.Now()
	delta := start.Sub(c.Ref)
	defer func() { res.Elapsed = int64(time.Since(start)) }()

	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range shiftPods(c.Pods, delta) {
		if err := indexer.Add(p); err != nil {
			panic(err)
		}
	}
	podLister := newOrderedPodLister(corelisters.NewPodLister(indexer), c.Pods)
	calc, err := newCalculator(upstreamMetricsClient(c, delta), podLister, c)
	if err != nil {
		res.Function = "harness"
		return withErr(res, err)
	}
	ctx := context.Background()

	decimal := func(v int64) *wireQuantity { return toQuantity(resource.NewMilliQuantity(v, resource.DecimalSI)) }
	// The quantity the controller writes to status for a resource metric:
	// from v1.34 memory is BinarySI, before that every resource is DecimalSI.
	resQuantity := func(r corev1.ResourceName, v int64) *wireQuantity {
		if r == corev1.ResourceMemory && minor() >= 34 {
			return toQuantity(resource.NewMilliQuantity(v, resource.BinarySI))
		}
		return decimal(v)
	}
	var callErr error
	resourceMetric := func(target autoscalingv2.MetricTarget, r corev1.ResourceName, container string) {
		if target.AverageValue != nil {
			res.Function = "GetRawResourceReplicas"
			n, usage, err := calc.rawResource(ctx, specReplicas, target.AverageValue.MilliValue(), r, ns, selector, container)
			res.Replicas, callErr, res.Value = n, err, resQuantity(r, usage)
			return
		}
		if target.AverageUtilization == nil {
			res.Function = "invalid-resource-target"
			callErr = errors.New("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set")
			return
		}
		res.Function = "GetResourceReplicas"
		n, util, raw, err := calc.resource(ctx, specReplicas, *target.AverageUtilization, r, ns, selector, container)
		res.Replicas, callErr = n, err
		res.Utilization = &util
		res.Value = resQuantity(r, raw)
	}

	switch spec.Type {
	case autoscalingv2.ResourceMetricSourceType:
		resourceMetric(spec.Resource.Target, spec.Resource.Name, "")
	case autoscalingv2.ContainerResourceMetricSourceType:
		resourceMetric(spec.ContainerResource.Target, spec.ContainerResource.Name, spec.ContainerResource.Container)
	case autoscalingv2.PodsMetricSourceType:
		msel, err := metav1.LabelSelectorAsSelector(spec.Pods.Metric.Selector)
		if err != nil {
			res.Function, callErr = "pods-metric-selector", err
			break
		}
		res.Function = "GetMetricReplicas"
		n, usage, err := calc.metric(specReplicas, spec.Pods.Target.AverageValue.MilliValue(), spec.Pods.Metric.Name, ns, selector, msel)
		res.Replicas, callErr, res.Value = n, err, decimal(usage)
	case autoscalingv2.ObjectMetricSourceType:
		o := spec.Object
		msel, err := metav1.LabelSelectorAsSelector(o.Metric.Selector)
		if err != nil {
			res.Function, callErr = "object-metric-selector", err
			break
		}
		switch {
		case o.Target.Type == autoscalingv2.ValueMetricType && o.Target.Value != nil:
			res.Function = "GetObjectMetricReplicas"
			n, usage, err := calc.object(specReplicas, o.Target.Value.MilliValue(), o.Metric.Name, ns, &o.DescribedObject, selector, msel)
			res.Replicas, callErr, res.Value = n, err, decimal(usage)
		case o.Target.Type == autoscalingv2.AverageValueMetricType && o.Target.AverageValue != nil:
			res.Function = "GetObjectPerPodMetricReplicas"
			n, usage, err := calc.objectPerPod(statusReplicas, o.Target.AverageValue.MilliValue(), o.Metric.Name, ns, &o.DescribedObject, msel)
			res.Replicas, callErr, res.Value = n, err, decimal(usage)
		default:
			res.Function = "invalid-object-target"
			callErr = errors.New("invalid object metric source: neither a value target nor an average value target was set")
		}
	case autoscalingv2.ExternalMetricSourceType:
		e := spec.External
		switch {
		case e.Target.AverageValue != nil:
			res.Function = "GetExternalPerPodMetricReplicas"
			n, usage, err := calc.externalPerPod(statusReplicas, e.Target.AverageValue.MilliValue(), e.Metric.Name, ns, e.Metric.Selector)
			res.Replicas, callErr, res.Value = n, err, decimal(usage)
		case e.Target.Value != nil:
			res.Function = "GetExternalMetricReplicas"
			n, usage, err := calc.external(specReplicas, e.Target.Value.MilliValue(), e.Metric.Name, ns, e.Metric.Selector, selector)
			res.Replicas, callErr, res.Value = n, err, decimal(usage)
		default:
			res.Function = "invalid-external-target"
			callErr = errors.New("invalid external metric source: neither a value target nor an average value target was set")
		}
	default:
		res.Function = "unknown-type"
		callErr = fmt.Errorf("unknown metric source type %q", string(spec.Type))
	}
	if callErr != nil {
		return withErr(res, callErr)
	}
	return res
}

// upstreamMinor is the minor of k8s.io/kubernetes, set by oracle.sh
// (-ldflags -X).
var upstreamMinor = "0"

func minor() int {
	n, err := strconv.Atoi(upstreamMinor)
	if err != nil || n == 0 {
		panic("oracle built without -X main.upstreamMinor")
	}
	return n
}

func withErr(res upstreamWire, err error) upstreamWire {
	s := err.Error()
	res.Err = &s
	res.Replicas, res.Utilization, res.Value = 0, nil, nil
	return res
}

func toQuantity(q *resource.Quantity) *wireQuantity {
	return &wireQuantity{Milli: q.MilliValue(), String: q.String()}
}
