// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"time"
	"unsafe"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// Upstream's Tolerances has unexported fields and no exported constructor;
// the controller builds it in an unexported method. tolerancesLayout mirrors
// its memory layout so that the exported calculator methods can be called
// with any tolerance pair. checkTolerancesLayout verifies the mirror.
type tolerancesLayout struct {
	scaleDown float64
	scaleUp   float64
}

func makeTolerances(down, up float64) podautoscaler.Tolerances {
	l := tolerancesLayout{scaleDown: down, scaleUp: up}
	return *(*podautoscaler.Tolerances)(unsafe.Pointer(&l))
}

func checkTolerancesLayout() error {
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

// harnessTolerances is the tolerance pair the controller would derive for the
// HPA (cluster flag, overridden per direction by behavior when the
// HPAConfigurableTolerance gate is on).
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

// customMapper maps the kinds the generator uses to resources, as a cluster's
// discovery would.
var customMapper = func() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper([]schema.GroupVersion{{Version: "v1"}, {Group: "apps", Version: "v1"}, {Group: "networking.k8s.io", Version: "v1"}})
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, meta.RESTScopeNamespace)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "Service"}, meta.RESTScopeNamespace)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, meta.RESTScopeRoot)
	m.Add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, meta.RESTScopeNamespace)
	m.Add(schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}, meta.RESTScopeNamespace)
	return m
}()

var resourceToKind = map[string]string{
	"pods": "Pod", "services": "Service", "namespaces": "Namespace",
	"deployments.apps": "Deployment", "ingresses.networking.k8s.io": "Ingress",
}

// fakeMetricsAPI answers custom.metrics.k8s.io/v1beta2 and
// external.metrics.k8s.io/v1beta1 requests from a snapshot's pools, so that
// upstream's metrics client talks to the real client libraries.
type fakeMetricsAPI struct {
	custom    []custommetricsv1beta2.MetricValue
	external  []externalmetricsv1beta1.ExternalMetricValue
	apiErrors map[string]string
}

func (f *fakeMetricsAPI) RoundTrip(req *http.Request) (*http.Response, error) {
	const customPrefix = "/apis/custom.metrics.k8s.io/v1beta2/"
	const externalPrefix = "/apis/external.metrics.k8s.io/v1beta1/"
	path := req.URL.Path
	switch {
	case strings.HasPrefix(path, customPrefix):
		parts := strings.Split(strings.TrimPrefix(path, customPrefix), "/")
		var kind, name, metric string
		switch {
		case len(parts) == 4 && parts[0] == "namespaces" && parts[2] == "metrics":
			kind, name, metric = "Namespace", parts[1], parts[3]
		case len(parts) == 5 && parts[0] == "namespaces":
			kind, name, metric = resourceToKind[parts[2]], parts[3], parts[4]
		default:
			return f.status(http.StatusNotFound, "unexpected path "+path), nil
		}
		key := "object:" + metric
		if name == "*" {
			key = "pods:" + metric
		}
		if msg, ok := f.apiErrors[key]; ok {
			return f.status(http.StatusInternalServerError, msg), nil
		}
		list := custommetricsv1beta2.MetricValueList{TypeMeta: metav1.TypeMeta{APIVersion: "custom.metrics.k8s.io/v1beta2", Kind: "MetricValueList"}}
		list.Items = []custommetricsv1beta2.MetricValue{}
		for _, mv := range f.custom {
			if mv.Metric.Name == metric && mv.DescribedObject.Kind == kind && (name == "*" || mv.DescribedObject.Name == name) {
				list.Items = append(list.Items, mv)
			}
		}
		return f.json(list), nil
	case strings.HasPrefix(path, externalPrefix):
		parts := strings.Split(strings.TrimPrefix(path, externalPrefix), "/")
		if len(parts) != 3 || parts[0] != "namespaces" {
			return f.status(http.StatusNotFound, "unexpected path "+path), nil
		}
		metric := parts[2]
		if msg, ok := f.apiErrors["external:"+metric]; ok {
			return f.status(http.StatusInternalServerError, msg), nil
		}
		sel, err := labels.Parse(req.URL.Query().Get("labelSelector"))
		if err != nil {
			return f.status(http.StatusBadRequest, err.Error()), nil
		}
		list := externalmetricsv1beta1.ExternalMetricValueList{TypeMeta: metav1.TypeMeta{APIVersion: "external.metrics.k8s.io/v1beta1", Kind: "ExternalMetricValueList"}}
		list.Items = []externalmetricsv1beta1.ExternalMetricValue{}
		for _, ev := range f.external {
			if ev.MetricName == metric && sel.Matches(labels.Set(ev.MetricLabels)) {
				list.Items = append(list.Items, ev)
			}
		}
		return f.json(list), nil
	}
	return f.status(http.StatusNotFound, "unexpected path "+path), nil
}

func (f *fakeMetricsAPI) json(obj any) *http.Response {
	b, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": []string{"application/json"}}, Body: io.NopCloser(bytes.NewReader(b))}
}

func (f *fakeMetricsAPI) status(code int, msg string) *http.Response {
	st := metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Message: msg, Code: int32(code)}
	r := f.json(st)
	r.StatusCode = code
	return r
}

func (f *fakeMetricsAPI) clients() (customclient.CustomMetricsClient, externalclient.ExternalMetricsClient) {
	cfg := &rest.Config{Host: "http://metrics.invalid", Transport: f, RateLimiter: flowcontrol.NewFakeAlwaysRateLimiter()}
	cc, err := customclient.NewForVersionForConfig(cfg, customMapper, custommetricsv1beta2.SchemeGroupVersion)
	if err != nil {
		panic(err)
	}
	ec, err := externalclient.NewForConfig(cfg)
	if err != nil {
		panic(err)
	}
	return cc, ec
}

// resourceMetricsClient is the generated fake metrics.k8s.io clientset
// answering PodMetrics lists from the snapshot (label selector applied).
func resourceMetricsClient(items []metricsv1beta1.PodMetrics, apiErr string, hasErr bool) *metricsfake.Clientset {
	c := metricsfake.NewSimpleClientset()
	c.PrependReactor("list", "pods", func(action core.Action) (bool, runtime.Object, error) {
		if hasErr {
			return true, nil, errors.New(apiErr)
		}
		sel := action.(core.ListAction).GetListRestrictions().Labels
		out := &metricsv1beta1.PodMetricsList{}
		for _, pm := range items {
			if pm.Namespace == action.GetNamespace() && (sel == nil || sel.Matches(labels.Set(pm.Labels))) {
				out.Items = append(out.Items, *pm.DeepCopy())
			}
		}
		return true, out, nil
	})
	return c
}

// orderedPodLister lists pods in snapshot order. An informer's lister lists
// in the iteration order of its internal map, which is random; upstream's
// request errors name the first failing pod in that order. Fixing the order
// to the snapshot's (one of the orders a real informer can produce) makes
// those messages comparable.
type orderedPodLister struct {
	inner corelisters.PodLister
	rank  map[string]int
}

func newOrderedPodLister(inner corelisters.PodLister, pods []corev1.Pod) *orderedPodLister {
	rank := make(map[string]int, len(pods))
	for i, p := range pods {
		if _, dup := rank[p.Namespace+"/"+p.Name]; !dup {
			rank[p.Namespace+"/"+p.Name] = i
		}
	}
	return &orderedPodLister{inner: inner, rank: rank}
}

func (l *orderedPodLister) sorted(pods []*corev1.Pod, err error) ([]*corev1.Pod, error) {
	sort.SliceStable(pods, func(i, j int) bool {
		return l.rank[pods[i].Namespace+"/"+pods[i].Name] < l.rank[pods[j].Namespace+"/"+pods[j].Name]
	})
	return pods, err
}

func (l *orderedPodLister) List(selector labels.Selector) ([]*corev1.Pod, error) {
	return l.sorted(l.inner.List(selector))
}

func (l *orderedPodLister) Pods(namespace string) corelisters.PodNamespaceLister {
	return orderedPodNamespaceLister{l: l, inner: l.inner.Pods(namespace)}
}

type orderedPodNamespaceLister struct {
	l     *orderedPodLister
	inner corelisters.PodNamespaceLister
}

func (n orderedPodNamespaceLister) List(selector labels.Selector) ([]*corev1.Pod, error) {
	return n.l.sorted(n.inner.List(selector))
}

func (n orderedPodNamespaceLister) Get(name string) (*corev1.Pod, error) { return n.inner.Get(name) }

// upstreamResult is what upstream's calculator returned for a case.
type upstreamResult struct {
	Function    string
	Replicas    int32
	Utilization *int32
	// Value is the quantity the controller writes to status.
	Value *resource.Quantity
	Err   error
	// Elapsed is the real time from the clock shift to the end of the call.
	Elapsed time.Duration
}

// shifted returns deep copies of the time-dependent inputs moved by delta.
// Zero timestamps stay zero.
func shiftTime(t time.Time, delta time.Duration) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Add(delta)
}

func shiftPods(pods []corev1.Pod, delta time.Duration) []*corev1.Pod {
	out := make([]*corev1.Pod, len(pods))
	for i := range pods {
		p := pods[i].DeepCopy()
		if p.Status.StartTime != nil {
			p.Status.StartTime = &metav1.Time{Time: shiftTime(p.Status.StartTime.Time, delta)}
		}
		if p.DeletionTimestamp != nil {
			p.DeletionTimestamp = &metav1.Time{Time: shiftTime(p.DeletionTimestamp.Time, delta)}
		}
		for j := range p.Status.Conditions {
			p.Status.Conditions[j].LastTransitionTime.Time = shiftTime(p.Status.Conditions[j].LastTransitionTime.Time, delta)
		}
		out[i] = p
	}
	return out
}

// runUpstream feeds the case to k8s.io/kubernetes's ReplicaCalculator the way
// the controller's per-metric dispatch does, and returns what it computed.
func runUpstream(c *Case) (res upstreamResult) {
	snap, set := c.Snapshot, c.Settings
	hpa := snap.HPA
	spec := hpa.Spec.Metrics[0]
	ns := hpa.Namespace
	selector, err := labels.Parse(snap.Target.Selector)
	if err != nil {
		res.Function = "selector"
		res.Err = err
		return res
	}
	down, up := harnessTolerances(hpa, set)
	tol := makeTolerances(down, up)
	specReplicas, statusReplicas := snap.Target.SpecReplicas, snap.Target.StatusReplicas

	// Move every timestamp onto the real clock: upstream reads time.Now()
	// and must see refTime+ε.
	ref := snap.Now.Add(-engineEpsilon)
	start := time.Now()
	delta := start.Sub(ref)
	defer func() { res.Elapsed = time.Since(start) }()

	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range shiftPods(snap.Pods, delta) {
		if err := indexer.Add(p); err != nil {
			panic(err)
		}
	}
	podLister := newOrderedPodLister(corelisters.NewPodLister(indexer), snap.Pods)

	mc := upstreamMetricsClient(snap, delta)
	calc := podautoscaler.NewReplicaCalculator(mc, podLister, set.CPUInitializationPeriod, set.InitialReadinessDelay)
	ctx := context.Background()

	decimal := func(v int64) *resource.Quantity { return resource.NewMilliQuantity(v, resource.DecimalSI) }
	resQuantity := func(r corev1.ResourceName, v int64) *resource.Quantity {
		if r == corev1.ResourceMemory {
			return resource.NewMilliQuantity(v, resource.BinarySI)
		}
		return decimal(v)
	}

	resourceMetric := func(target autoscalingv2.MetricTarget, r corev1.ResourceName, container string) {
		if target.AverageValue != nil {
			res.Function = "GetRawResourceReplicas"
			n, usage, _, err := calc.GetRawResourceReplicas(ctx, specReplicas, target.AverageValue.MilliValue(), r, tol, ns, selector, container)
			res.Replicas, res.Err = n, err
			res.Value = resQuantity(r, usage)
			return
		}
		if target.AverageUtilization == nil {
			res.Function = "invalid-resource-target"
			res.Err = errors.New("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set")
			return
		}
		res.Function = "GetResourceReplicas"
		n, util, raw, _, err := calc.GetResourceReplicas(ctx, specReplicas, *target.AverageUtilization, r, tol, ns, selector, container)
		res.Replicas, res.Err = n, err
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
			res.Function, res.Err = "pods-metric-selector", err
			break
		}
		res.Function = "GetMetricReplicas"
		n, usage, _, err := calc.GetMetricReplicas(specReplicas, spec.Pods.Target.AverageValue.MilliValue(), spec.Pods.Metric.Name, tol, ns, selector, msel)
		res.Replicas, res.Err, res.Value = n, err, decimal(usage)
	case autoscalingv2.ObjectMetricSourceType:
		o := spec.Object
		msel, err := metav1.LabelSelectorAsSelector(o.Metric.Selector)
		if err != nil {
			res.Function, res.Err = "object-metric-selector", err
			break
		}
		switch {
		case o.Target.Type == autoscalingv2.ValueMetricType && o.Target.Value != nil:
			res.Function = "GetObjectMetricReplicas"
			n, usage, _, err := calc.GetObjectMetricReplicas(specReplicas, o.Target.Value.MilliValue(), o.Metric.Name, tol, ns, &o.DescribedObject, selector, msel)
			res.Replicas, res.Err, res.Value = n, err, decimal(usage)
		case o.Target.Type == autoscalingv2.AverageValueMetricType && o.Target.AverageValue != nil:
			res.Function = "GetObjectPerPodMetricReplicas"
			n, usage, _, err := calc.GetObjectPerPodMetricReplicas(statusReplicas, o.Target.AverageValue.MilliValue(), o.Metric.Name, tol, ns, &o.DescribedObject, msel)
			res.Replicas, res.Err, res.Value = n, err, decimal(usage)
		default:
			res.Function = "invalid-object-target"
			res.Err = errors.New("invalid object metric source: neither a value target nor an average value target was set")
		}
	case autoscalingv2.ExternalMetricSourceType:
		e := spec.External
		switch {
		case e.Target.AverageValue != nil:
			res.Function = "GetExternalPerPodMetricReplicas"
			n, usage, _, err := calc.GetExternalPerPodMetricReplicas(statusReplicas, e.Target.AverageValue.MilliValue(), e.Metric.Name, tol, ns, e.Metric.Selector)
			res.Replicas, res.Err, res.Value = n, err, decimal(usage)
		case e.Target.Value != nil:
			res.Function = "GetExternalMetricReplicas"
			n, usage, _, err := calc.GetExternalMetricReplicas(specReplicas, e.Target.Value.MilliValue(), e.Metric.Name, tol, ns, e.Metric.Selector, selector)
			res.Replicas, res.Err, res.Value = n, err, decimal(usage)
		default:
			res.Function = "invalid-external-target"
			res.Err = errors.New("invalid external metric source: neither a value target nor an average value target was set")
		}
	default:
		res.Function = "unknown-type"
		res.Err = fmt.Errorf("unknown metric source type %q", string(spec.Type))
	}
	if res.Err != nil {
		res.Replicas, res.Utilization, res.Value = 0, nil, nil
	}
	return res
}

// upstreamMetricsClient is upstream's real metrics client over fakes that
// answer from the snapshot, every timestamp shifted by delta.
func upstreamMetricsClient(snap *engine.Snapshot, delta time.Duration) metricsclient.MetricsClient {
	pms := make([]metricsv1beta1.PodMetrics, len(snap.PodMetrics))
	for i := range snap.PodMetrics {
		pm := snap.PodMetrics[i].DeepCopy()
		pm.Timestamp.Time = shiftTime(pm.Timestamp.Time, delta)
		pms[i] = *pm
	}
	resErr, hasResErr := snap.APIErrors["resource"]
	api := &fakeMetricsAPI{apiErrors: snap.APIErrors}
	for _, mv := range snap.CustomMetrics {
		mv := *mv.DeepCopy()
		mv.Timestamp.Time = shiftTime(mv.Timestamp.Time, delta)
		api.custom = append(api.custom, mv)
	}
	for _, ev := range snap.ExternalMetrics {
		ev := *ev.DeepCopy()
		ev.Timestamp.Time = shiftTime(ev.Timestamp.Time, delta)
		api.external = append(api.external, ev)
	}
	cc, ec := api.clients()
	return metricsclient.NewRESTMetricsClient(resourceMetricsClient(pms, resErr, hasResErr).MetricsV1beta1(), cc, ec)
}
