// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// ParseQueries parses --query NAME=PROMQL flags into name → PromQL (the
// PromQL may hold "=" itself: the name ends at the first one).
func ParseQueries(flags []string) (map[string]string, error) {
	out := map[string]string{}
	var errs []error
	for _, f := range flags {
		name, q, ok := strings.Cut(f, "=")
		name, q = strings.TrimSpace(name), strings.TrimSpace(q)
		switch {
		case !ok || name == "" || q == "":
			errs = append(errs, fmt.Errorf("--%s %q: give NAME=PROMQL", FlagQuery, f))
		case out[name] != "":
			errs = append(errs, fmt.Errorf("--%s: %s is given twice", FlagQuery, name))
		default:
			out[name] = q
		}
	}
	return out, errors.Join(errs...)
}

// MetricsFor lists what to read for an HPA's metrics: each resource
// (Resource and ContainerResource alike) once from the container counters,
// unless a query names it; Pods, Object and External metrics from the
// query given for their metric name. A metric without its query is an
// error naming the flag to pass; a query that names no metric of the HPA
// too.
func MetricsFor(specs []autoscalingv2.MetricSpec, queries map[string]string) ([]MetricRequest, error) {
	var out []MetricRequest
	var errs []error
	used := map[string]bool{}
	add := func(kind, name string) {
		for _, m := range out {
			if m.Kind == kind && m.Name == name {
				return
			}
		}
		q := queries[name]
		if q != "" {
			used[name] = true
		} else if kind != recording.KindResource || name != "cpu" && name != "memory" {
			errs = append(errs, fmt.Errorf("the HPA's %s metric %q has no recorded counterpart: give --%s %s=PROMQL", kind, name, FlagQuery, name))
			return
		}
		out = append(out, MetricRequest{Kind: kind, Name: name, Query: q})
	}
	for _, s := range specs {
		switch s.Type {
		case autoscalingv2.ResourceMetricSourceType:
			if s.Resource != nil {
				add(recording.KindResource, string(s.Resource.Name))
			}
		case autoscalingv2.ContainerResourceMetricSourceType:
			if s.ContainerResource != nil {
				add(recording.KindResource, string(s.ContainerResource.Name))
			}
		case autoscalingv2.PodsMetricSourceType:
			if s.Pods != nil {
				add(recording.KindPods, s.Pods.Metric.Name)
			}
		case autoscalingv2.ObjectMetricSourceType:
			if s.Object != nil {
				add(recording.KindObject, s.Object.Metric.Name)
			}
		case autoscalingv2.ExternalMetricSourceType:
			if s.External != nil {
				add(recording.KindExternal, s.External.Metric.Name)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(queries)) {
		if !used[name] {
			errs = append(errs, fmt.Errorf("--%s %s=...: the HPA has no metric %q", FlagQuery, name, name))
		}
	}
	return out, errors.Join(errs...)
}
