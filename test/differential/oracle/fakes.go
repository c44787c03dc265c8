// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/util/flowcontrol"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"
)

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
// external.metrics.k8s.io/v1beta1 requests from a case's pools, so that
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
// answering PodMetrics lists from the case (label selector applied).
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

// orderedPodLister lists pods in the case's order. An informer's lister
// lists in the iteration order of its internal map, which is random;
// upstream's request errors name the first failing pod in that order. Fixing
// the order to the case's (one of the orders a real informer can produce)
// makes those messages comparable.
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

// shiftTime moves t by delta; the zero time stays zero.
func shiftTime(t time.Time, delta time.Duration) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Add(delta)
}

// shiftPods returns deep copies of the pods with every timestamp moved by delta.
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

// upstreamMetricsClient is upstream's real metrics client over fakes that
// answer from the case, every timestamp shifted by delta.
func upstreamMetricsClient(c *wireCase, delta time.Duration) metricsclient.MetricsClient {
	pms := make([]metricsv1beta1.PodMetrics, len(c.PodMetrics))
	for i := range c.PodMetrics {
		pm := c.PodMetrics[i].DeepCopy()
		pm.Timestamp.Time = shiftTime(pm.Timestamp.Time, delta)
		pms[i] = *pm
	}
	resErr, hasResErr := c.APIErrors["resource"]
	api := &fakeMetricsAPI{apiErrors: c.APIErrors}
	for _, mv := range c.CustomMetrics {
		mv := *mv.DeepCopy()
		mv.Timestamp.Time = shiftTime(mv.Timestamp.Time, delta)
		api.custom = append(api.custom, mv)
	}
	for _, ev := range c.ExternalMetrics {
		ev := *ev.DeepCopy()
		ev.Timestamp.Time = shiftTime(ev.Timestamp.Time, delta)
		api.external = append(api.external, ev)
	}
	cc, ec := api.clients()
	return metricsclient.NewRESTMetricsClient(resourceMetricsClient(pms, resErr, hasResErr).MetricsV1beta1(), cc, ec)
}
