// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/metrics/pkg/apis/custom_metrics"
	"k8s.io/metrics/pkg/apis/external_metrics"

	"sigs.k8s.io/custom-metrics-apiserver/pkg/provider"
	"sigs.k8s.io/custom-metrics-apiserver/pkg/provider/helpers"
)

// objectKey identifies one custom metric series: a metric describing one object.
// Namespace is empty for root-scoped objects (including Namespace objects).
type objectKey struct {
	Resource  schema.GroupResource
	Namespace string
	Name      string
	Metric    string
}

// objectValue is the stored value of a custom metric, with the (optional)
// labels of the series that a v1beta2 metricSelector is matched against.
type objectValue struct {
	Value  resource.Quantity
	Labels labels.Set
}

// externalKey identifies one external metric series.
type externalKey struct {
	Namespace string
	Metric    string
	Labels    string // canonical labels.Set.String()
}

type externalValue struct {
	Value  resource.Quantity
	Labels labels.Set
}

// resolver turns the resource named in a request or a write into the
// canonical, group-qualified GroupResource ("deployments" -> deployments.apps).
type resolver interface {
	Normalize(gr schema.GroupResource) schema.GroupResource
}

// lister lists the names of existing objects matching a label selector.
type lister interface {
	ListNames(namespace string, selector labels.Selector, info provider.CustomMetricInfo) ([]string, error)
	Reference(name types.NamespacedName, info provider.CustomMetricInfo) custom_metrics.ObjectReference
}

// store is an in-memory custom and external metrics provider. Values are set
// through the control endpoint and served until deleted.
type store struct {
	mu       sync.RWMutex
	objects  map[objectKey]objectValue
	external map[externalKey]externalValue

	res  resolver
	list lister
	now  func() time.Time
}

var (
	_ provider.CustomMetricsProvider   = (*store)(nil)
	_ provider.ExternalMetricsProvider = (*store)(nil)
)

func newStore(res resolver, list lister) *store {
	return &store{
		objects:  map[objectKey]objectValue{},
		external: map[externalKey]externalValue{},
		res:      res,
		list:     list,
		now:      time.Now,
	}
}

// --- writes (control endpoint) ---

func (s *store) setObject(gr schema.GroupResource, namespace, name, metric string, v resource.Quantity, lbls labels.Set) objectKey {
	k := objectKey{Resource: s.res.Normalize(gr), Namespace: namespace, Name: name, Metric: metric}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[k] = objectValue{Value: v, Labels: lbls}
	return k
}

func (s *store) deleteObject(gr schema.GroupResource, namespace, name, metric string) bool {
	k := objectKey{Resource: s.res.Normalize(gr), Namespace: namespace, Name: name, Metric: metric}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.objects[k]
	delete(s.objects, k)
	return ok
}

func (s *store) setExternal(namespace, metric string, v resource.Quantity, lbls labels.Set) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.external[externalKey{Namespace: namespace, Metric: metric, Labels: lbls.String()}] = externalValue{Value: v, Labels: lbls}
}

// deleteExternal removes the series with exactly lbls, or every series of the
// metric in the namespace when all is true. It returns how many were removed.
func (s *store) deleteExternal(namespace, metric string, lbls labels.Set, all bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k := range s.external {
		if k.Namespace != namespace || k.Metric != metric {
			continue
		}
		if all || k.Labels == lbls.String() {
			delete(s.external, k)
			n++
		}
	}
	return n
}

// --- custom.metrics.k8s.io ---

func (s *store) timestamp() metav1.Time {
	return metav1.NewTime(s.now().UTC().Truncate(time.Second))
}

func (s *store) lookup(k objectKey, metricSelector labels.Selector) (objectValue, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.objects[k]
	if !ok {
		return objectValue{}, false
	}
	if metricSelector != nil && !metricSelector.Empty() && !metricSelector.Matches(v.Labels) {
		return objectValue{}, false
	}
	return v, true
}

func (s *store) metricValue(name types.NamespacedName, info provider.CustomMetricInfo, v objectValue) custom_metrics.MetricValue {
	id := custom_metrics.MetricIdentifier{Name: info.Metric}
	if len(v.Labels) > 0 {
		id.Selector = metav1.SetAsLabelSelector(v.Labels)
	}
	return custom_metrics.MetricValue{
		DescribedObject: s.list.Reference(name, info),
		Metric:          id,
		Timestamp:       s.timestamp(),
		Value:           v.Value,
	}
}

func (s *store) GetMetricByName(_ context.Context, name types.NamespacedName, info provider.CustomMetricInfo, metricSelector labels.Selector) (*custom_metrics.MetricValue, error) {
	gr := s.res.Normalize(info.GroupResource)
	k := objectKey{Resource: gr, Namespace: name.Namespace, Name: name.Name, Metric: info.Metric}
	v, ok := s.lookup(k, metricSelector)
	if !ok {
		return nil, provider.NewMetricNotFoundForError(gr, info.Metric, name.Name)
	}
	mv := s.metricValue(name, info, v)
	return &mv, nil
}

// GetMetricBySelector returns the metric for every existing object that
// matches selector and has a written value. Objects without a value are left
// out, so tests can create pods that have no metrics.
func (s *store) GetMetricBySelector(_ context.Context, namespace string, selector labels.Selector, info provider.CustomMetricInfo, metricSelector labels.Selector) (*custom_metrics.MetricValueList, error) {
	names, err := s.list.ListNames(namespace, selector, info)
	if err != nil {
		return nil, err
	}
	gr := s.res.Normalize(info.GroupResource)
	out := &custom_metrics.MetricValueList{Items: []custom_metrics.MetricValue{}}
	for _, n := range names {
		nn := types.NamespacedName{Namespace: namespace, Name: n}
		v, ok := s.lookup(objectKey{Resource: gr, Namespace: namespace, Name: n, Metric: info.Metric}, metricSelector)
		if !ok {
			continue
		}
		out.Items = append(out.Items, s.metricValue(nn, info, v))
	}
	return out, nil
}

func (s *store) ListAllMetrics() []provider.CustomMetricInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	seen := map[provider.CustomMetricInfo]bool{}
	var out []provider.CustomMetricInfo
	for k := range s.objects {
		info := provider.CustomMetricInfo{GroupResource: k.Resource, Namespaced: k.Namespace != "", Metric: k.Metric}
		if !seen[info] {
			seen[info] = true
			out = append(out, info)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// --- external.metrics.k8s.io ---

// GetExternalMetric returns every series of the metric in the namespace whose
// labels match metricSelector; an empty selector matches every series.
func (s *store) GetExternalMetric(_ context.Context, namespace string, metricSelector labels.Selector, info provider.ExternalMetricInfo) (*external_metrics.ExternalMetricValueList, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var keys []externalKey
	for k, v := range s.external {
		if k.Namespace != namespace || k.Metric != info.Metric {
			continue
		}
		if metricSelector != nil && !metricSelector.Empty() && !metricSelector.Matches(v.Labels) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Labels < keys[j].Labels })
	out := &external_metrics.ExternalMetricValueList{Items: []external_metrics.ExternalMetricValue{}}
	ts := s.timestamp()
	for _, k := range keys {
		v := s.external[k]
		out.Items = append(out.Items, external_metrics.ExternalMetricValue{
			MetricName:   info.Metric,
			MetricLabels: map[string]string(v.Labels),
			Timestamp:    ts,
			Value:        v.Value,
		})
	}
	return out, nil
}

func (s *store) ListAllExternalMetrics() []provider.ExternalMetricInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	seen := map[string]bool{}
	var out []provider.ExternalMetricInfo
	for k := range s.external {
		if !seen[k.Metric] {
			seen[k.Metric] = true
			out = append(out, provider.ExternalMetricInfo{Metric: k.Metric})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Metric < out[j].Metric })
	return out
}

// --- dump (GET /values) ---

type dumpEntry struct {
	Kind      string            `json:"kind"` // "object" or "external"
	Resource  string            `json:"resource,omitempty"`
	Namespace string            `json:"namespace,omitempty"`
	Name      string            `json:"name,omitempty"`
	Metric    string            `json:"metric"`
	Labels    map[string]string `json:"labels,omitempty"`
	Value     string            `json:"value"`
}

func (s *store) dump() []dumpEntry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []dumpEntry{}
	for k, v := range s.objects {
		out = append(out, dumpEntry{
			Kind: "object", Resource: k.Resource.String(), Namespace: k.Namespace,
			Name: k.Name, Metric: k.Metric, Labels: v.Labels, Value: v.Value.String(),
		})
	}
	for k, v := range s.external {
		out = append(out, dumpEntry{
			Kind: "external", Namespace: k.Namespace, Metric: k.Metric,
			Labels: v.Labels, Value: v.Value.String(),
		})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return strings.Join([]string{a.Kind, a.Namespace, a.Resource, a.Name, a.Metric, labels.Set(a.Labels).String()}, "\x00") <
			strings.Join([]string{b.Kind, b.Namespace, b.Resource, b.Name, b.Metric, labels.Set(b.Labels).String()}, "\x00")
	})
	return out
}

// --- cluster access (REST mapper + dynamic client) ---

type regenerator interface {
	RegenerateMappings() error
}

// clusterAccess resolves resources through the discovery REST mapper and lists
// objects through the dynamic client.
type clusterAccess struct {
	mapper apimeta.RESTMapper
	client dynamic.Interface
	mu     sync.Mutex
	last   time.Time
}

func (c *clusterAccess) Normalize(gr schema.GroupResource) schema.GroupResource {
	gr.Resource = strings.ToLower(gr.Resource)
	gr.Group = strings.ToLower(gr.Group)
	gvr, err := c.mapper.ResourceFor(gr.WithVersion(""))
	if err != nil && c.refresh() {
		gvr, err = c.mapper.ResourceFor(gr.WithVersion(""))
	}
	if err != nil {
		return gr
	}
	return gvr.GroupResource()
}

// refresh regenerates the discovery mappings (at most every 5s), so resources
// created after start (CRDs) become resolvable.
func (c *clusterAccess) refresh() bool {
	r, ok := c.mapper.(regenerator)
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.last) < 5*time.Second {
		return false
	}
	c.last = time.Now()
	return r.RegenerateMappings() == nil
}

func (c *clusterAccess) ListNames(namespace string, selector labels.Selector, info provider.CustomMetricInfo) ([]string, error) {
	info.GroupResource = c.Normalize(info.GroupResource)
	return helpers.ListObjectNames(c.mapper, c.client, namespace, selector, info)
}

func (c *clusterAccess) Reference(name types.NamespacedName, info provider.CustomMetricInfo) custom_metrics.ObjectReference {
	ref := custom_metrics.ObjectReference{Name: name.Name, Namespace: name.Namespace, Kind: info.GroupResource.String()}
	gvk, err := c.mapper.KindFor(info.GroupResource.WithVersion(""))
	if err == nil {
		ref.APIVersion = gvk.GroupVersion().String()
		ref.Kind = gvk.Kind
	}
	return ref
}
