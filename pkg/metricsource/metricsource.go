// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package metricsource reads what the source of an autoscaling/v2 metric
// says, whatever its type: a spec's target, the resource or the metric it
// names, a status's current value. Each of the five source types
// (Resource, ContainerResource, Pods, Object, External) has a field of its
// own in MetricSpec and MetricStatus; this package is the one switch over
// those fields, so that a new source type is added here once.
//
// It imports nothing of this module, so every layer may import it: the
// pure packages (engine, validation, keda, recording), pkg/tune (which may
// import neither the engine nor whatif), whatif, action and the views.
//
// A spec may be read two ways. Of reads it as the controller does: the
// field its type names, and nothing when that field is nil. Given reads
// the first field that is set, whatever the type says: for the tools that
// name or edit a spec already checked (the API server's checks, and
// pkg/validation's for files and edits, accept only the field the type
// names, so on such a spec both give the same source).
package metricsource

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
)

// Source is what one metric's source says.
type Source struct {
	// Type is the type of the source, that is of the field it was read
	// from.
	Type autoscalingv2.MetricSourceType
	// Field is that field's JSON name ("resource", "containerResource",
	// "pods", "object", "external"), for field paths.
	Field string
	// Target points at the source's target inside the spec: an edit through
	// it edits the spec.
	Target *autoscalingv2.MetricTarget
	// Resource is the resource a Resource or ContainerResource source
	// reads, and Container the container of a ContainerResource source;
	// both are empty for the other types.
	Resource  corev1.ResourceName
	Container string
	// Metric is the metric a Pods, Object or External source reads; nil
	// for the resource types.
	Metric *autoscalingv2.MetricIdentifier
}

// Name is how the source is named when one word is wanted: the resource
// of a Resource or ContainerResource source ("cpu"), else the name of its
// metric.
func (s Source) Name() string {
	if s.Metric != nil {
		return s.Metric.Name
	}
	return string(s.Resource)
}

// types are the source types in the order Given tries their fields.
var types = []autoscalingv2.MetricSourceType{
	autoscalingv2.ResourceMetricSourceType,
	autoscalingv2.ContainerResourceMetricSourceType,
	autoscalingv2.PodsMetricSourceType,
	autoscalingv2.ObjectMetricSourceType,
	autoscalingv2.ExternalMetricSourceType,
}

// Of returns the source that m's type names, as the controller reads a
// spec: it switches on the type and reads that field alone. It is false
// when that field is nil or the type is none of the five.
func Of(m *autoscalingv2.MetricSpec) (Source, bool) {
	return read(m, m.Type)
}

// Given returns the source of the first field of m that is set (in the
// order Resource, ContainerResource, Pods, Object, External), whatever
// m's type says. It is false when no field is set.
func Given(m *autoscalingv2.MetricSpec) (Source, bool) {
	for _, t := range types {
		if s, ok := read(m, t); ok {
			return s, true
		}
	}
	return Source{}, false
}

// Target returns the target of the source Given reads, nil when m sets no
// source.
func Target(m *autoscalingv2.MetricSpec) *autoscalingv2.MetricTarget {
	if s, ok := Given(m); ok {
		return s.Target
	}
	return nil
}

// read returns the source of type t of m, false when m's field for t is
// nil or t is unknown.
func read(m *autoscalingv2.MetricSpec, t autoscalingv2.MetricSourceType) (Source, bool) {
	switch t {
	case autoscalingv2.ResourceMetricSourceType:
		if r := m.Resource; r != nil {
			return Source{Type: t, Field: "resource", Target: &r.Target, Resource: r.Name}, true
		}
	case autoscalingv2.ContainerResourceMetricSourceType:
		if r := m.ContainerResource; r != nil {
			return Source{Type: t, Field: "containerResource", Target: &r.Target, Resource: r.Name, Container: r.Container}, true
		}
	case autoscalingv2.PodsMetricSourceType:
		if p := m.Pods; p != nil {
			return Source{Type: t, Field: "pods", Target: &p.Target, Metric: &p.Metric}, true
		}
	case autoscalingv2.ObjectMetricSourceType:
		if o := m.Object; o != nil {
			return Source{Type: t, Field: "object", Target: &o.Target, Metric: &o.Metric}, true
		}
	case autoscalingv2.ExternalMetricSourceType:
		if e := m.External; e != nil {
			return Source{Type: t, Field: "external", Target: &e.Target, Metric: &e.Metric}, true
		}
	}
	return Source{}, false
}

// Current returns the current value of a metric status: that of its first
// field set (in the order Given tries them), nil when none is.
func Current(st *autoscalingv2.MetricStatus) *autoscalingv2.MetricValueStatus {
	switch {
	case st.Resource != nil:
		return &st.Resource.Current
	case st.ContainerResource != nil:
		return &st.ContainerResource.Current
	case st.Pods != nil:
		return &st.Pods.Current
	case st.Object != nil:
		return &st.Object.Current
	case st.External != nil:
		return &st.External.Current
	}
	return nil
}
