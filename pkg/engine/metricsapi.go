// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// defaultCustomMetricWindow is the window the controller assumes for custom
// metric samples that carry none.
const defaultCustomMetricWindow = time.Minute

// metricsAPI answers the controller's metrics queries from the snapshot, the
// way the three metrics APIs and the controller's metrics client would.
type metricsAPI struct {
	snap      *Snapshot
	namespace string
	// selector is the target's parsed pod selector.
	selector labels.Selector
	// pods are the pods the pod lister returned; podIndex gives, for each
	// of their names, the position of the last pod of that name (built on
	// first use). It attributes PodMetrics that carry no labels (most
	// carry labels), and it finds a name's entry in the pod accounting.
	pods     []*corev1.Pod
	podIndex map[string]int
	// sc lends the queries their maps and lists (nil: allocate).
	sc *scratch
	// missingContainerFails: a PodMetrics without the named container fails
	// the query (v1.32 and older).
	missingContainerFails bool
}

// listed returns the names of the listed pods, each with the position of
// the last pod of that name in the list: the one whose figures the
// controller's maps by name keep when a name is listed twice.
func (m *metricsAPI) listed() map[string]int {
	if m.podIndex == nil {
		m.podIndex = m.sc.indexMap(len(m.pods))
		for i, p := range m.pods {
			m.podIndex[p.Name] = i
		}
	}
	return m.podIndex
}

func (m *metricsAPI) apiError(key string) error {
	if msg, ok := m.snap.APIErrors[key]; ok {
		return errors.New(msg)
	}
	return nil
}

func (m *metricsAPI) inNamespace(ns string) bool {
	return ns == "" || ns == m.namespace
}

// resourceMetric lists PodMetrics for the selector and reduces each to one
// value: the sum over all containers, or the named container's usage.
func (m *metricsAPI) resourceMetric(resource corev1.ResourceName, selector labels.Selector, container string) (podSamples, time.Time, error) {
	if err := m.apiError("resource"); err != nil {
		return nil, time.Time{}, fmt.Errorf("unable to fetch metrics from resource metrics API: %w", err)
	}
	items := m.sc.itemList()
	defer func() { m.sc.keepItems(items) }()
	for i := range m.snap.PodMetrics {
		pm := &m.snap.PodMetrics[i]
		if !m.inNamespace(pm.Namespace) {
			continue
		}
		if len(pm.Labels) == 0 {
			// Objects written by hand often omit labels; the API would have
			// returned this item if its pod is one the selector lists.
			if _, ok := m.listed()[pm.Name]; !ok {
				continue
			}
		} else if !selector.Matches(labels.Set(pm.Labels)) {
			continue
		}
		items = append(items, pm)
	}
	if len(items) == 0 {
		return nil, time.Time{}, errors.New("no metrics returned from resource metrics API")
	}
	if container != "" && m.missingContainerFails {
		for _, pm := range items {
			if !hasContainer(pm, container) {
				ns := pm.Namespace
				if ns == "" {
					ns = m.namespace
				}
				return nil, time.Time{}, fmt.Errorf("failed to get container metrics: container %s not present in metrics for pod %s/%s", container, ns, pm.Name)
			}
		}
	}
	out := m.sc.samplesMap(len(items))
	for _, pm := range items {
		if v, ok := podMetricValue(pm, resource, container); ok {
			out[pm.Name] = podSample{value: v, timestamp: pm.Timestamp.Time, window: pm.Window.Duration}
		}
	}
	return out, items[0].Timestamp.Time, nil
}

func hasContainer(pm *metricsv1beta1.PodMetrics, name string) bool {
	for _, c := range pm.Containers {
		if c.Name == name {
			return true
		}
	}
	return false
}

// podMetricValue reduces one PodMetrics to a milli-value. A pod is left out
// when any container lacks the resource (no container name) or when the named
// container is absent or lacks it.
func podMetricValue(pm *metricsv1beta1.PodMetrics, resource corev1.ResourceName, container string) (int64, bool) {
	if container != "" {
		for _, c := range pm.Containers {
			if c.Name == container {
				q, ok := c.Usage[resource]
				if !ok {
					return 0, false
				}
				return q.MilliValue(), true
			}
		}
		return 0, false
	}
	if len(pm.Containers) == 0 {
		return 0, false
	}
	var sum int64
	for _, c := range pm.Containers {
		q, ok := c.Usage[resource]
		if !ok {
			return 0, false
		}
		sum += q.MilliValue()
	}
	return sum, true
}

// podsMetric answers a custom-metrics "get for objects" query on kind Pod.
func (m *metricsAPI) podsMetric(name string) (podSamples, time.Time, error) {
	if err := m.apiError("pods:" + name); err != nil {
		return nil, time.Time{}, fmt.Errorf("unable to fetch metrics from custom metrics API: %w", err)
	}
	out := m.sc.samplesMap(0)
	var first *time.Time
	for i := range m.snap.CustomMetrics {
		mv := &m.snap.CustomMetrics[i]
		if mv.Metric.Name != name || mv.DescribedObject.Kind != "Pod" || !m.inNamespace(mv.DescribedObject.Namespace) {
			continue
		}
		window := defaultCustomMetricWindow
		if mv.WindowSeconds != nil {
			window = time.Duration(*mv.WindowSeconds) * time.Second
		}
		out[mv.DescribedObject.Name] = podSample{value: mv.Value.MilliValue(), timestamp: mv.Timestamp.Time, window: window}
		if first == nil {
			t := mv.Timestamp.Time
			first = &t
		}
	}
	if first == nil {
		return nil, time.Time{}, errors.New("no metrics returned from custom metrics API")
	}
	return out, *first, nil
}

// objectMetric answers a custom-metrics "get for object" query. A Namespace
// object is looked up as the HPA's own namespace, whatever name it was given.
func (m *metricsAPI) objectMetric(name string, ref *autoscalingv2.CrossVersionObjectReference) (int64, time.Time, error) {
	if err := m.apiError("object:" + name); err != nil {
		return 0, time.Time{}, fmt.Errorf("unable to fetch metrics from custom metrics API: %w", err)
	}
	gvk := schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind)
	isNamespace := gvk.Kind == "Namespace" && gvk.Group == ""
	wantName := ref.Name
	if isNamespace {
		wantName = m.namespace
	}
	var found []int
	for i := range m.snap.CustomMetrics {
		mv := &m.snap.CustomMetrics[i]
		if mv.Metric.Name != name || mv.DescribedObject.Kind != gvk.Kind || mv.DescribedObject.Name != wantName {
			continue
		}
		if mv.DescribedObject.APIVersion != "" && ref.APIVersion != "" {
			if schema.FromAPIVersionAndKind(mv.DescribedObject.APIVersion, mv.DescribedObject.Kind).Group != gvk.Group {
				continue
			}
		}
		if !isNamespace && !m.inNamespace(mv.DescribedObject.Namespace) {
			continue
		}
		found = append(found, i)
	}
	if len(found) != 1 {
		return 0, time.Time{}, fmt.Errorf("unable to fetch metrics from custom metrics API: the custom metrics API server returned %v results when we asked for exactly one", len(found))
	}
	mv := &m.snap.CustomMetrics[found[0]]
	return mv.Value.MilliValue(), mv.Timestamp.Time, nil
}

// externalMetric lists the external metric's values whose labels match the
// metric selector.
func (m *metricsAPI) externalMetric(name string, selector labels.Selector) ([]int64, time.Time, error) {
	if err := m.apiError("external:" + name); err != nil {
		return []int64{}, time.Time{}, fmt.Errorf("unable to fetch metrics from external metrics API: %w", err)
	}
	var (
		values []int64
		first  *time.Time
	)
	for i := range m.snap.ExternalMetrics {
		ev := &m.snap.ExternalMetrics[i]
		if ev.MetricName != name || !selector.Matches(labels.Set(ev.MetricLabels)) {
			continue
		}
		values = append(values, ev.Value.MilliValue())
		if first == nil {
			t := ev.Timestamp.Time
			first = &t
		}
	}
	if first == nil {
		return nil, time.Time{}, errors.New("no metrics returned from external metrics API")
	}
	return values, *first, nil
}
