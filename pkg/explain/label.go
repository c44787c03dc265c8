// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import "strings"

// Label names a metric in our own sentences the way kubectl names things:
// the resource ("cpu"), "cpu of container app", a Pods metric's name, an
// Object metric's name and object ("hits of Service/web"), an External
// metric's name with its selector ("queue{q=jobs}"). The controller's own
// texts (conditions, events, Name) keep its display name, which for
// External metrics prints the selector as a Go struct. Label falls back to
// a short form of Name when the source is not known.
func (m *MetricResult) Label() string {
	s := m.Source
	var out string
	switch m.Type {
	case "Resource":
		out = s.Resource
	case "ContainerResource":
		if s.Resource != "" {
			out = s.Resource + " of container " + orUnknown(s.Container)
		}
	case "Pods":
		out = s.MetricName
	case "Object":
		if s.MetricName != "" {
			out = s.MetricName + " of " + orUnknown(s.DescribedObject)
		}
	case "External":
		out = s.MetricName
		if out != "" && s.Selector != "" {
			out += "{" + s.Selector + "}"
		}
	}
	if out == "" {
		return ShortMetricName(m.Name)
	}
	return out
}

// ShortMetricName shortens the controller's display name of a metric ("cpu
// resource utilization (percentage of request)" → "cpu", "pods metric x" →
// "x", "external metric x(selector)" → "x").
func ShortMetricName(name string) string {
	for _, prefix := range []string{"pods metric ", "external metric ", "object metric "} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if i := strings.Index(rest, "("); i > 0 {
				rest = rest[:i]
			}
			return rest
		}
	}
	if i := strings.Index(name, " resource"); i > 0 && !strings.Contains(name[:i], " ") {
		return name[:i]
	}
	return orUnknown(name)
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

// DisplayName is the controller's display name of a metric (Name) for our
// own sentences: the same words, except where the controller prints a
// metric selector as a Go struct (External metrics, and Object metrics
// with an AverageValue target, which it also calls "external"): there the
// selector reads as kubectl prints one, "external metric queue{q=jobs}",
// and the per-pod Object metric says what it is, "object metric hits of
// Service/web (per pod)".
func (m *MetricResult) DisplayName() string {
	switch {
	case m.Type == "External" && m.Source.MetricName != "":
		return "external metric " + m.Label()
	case m.Type == "Object" && m.Source.MetricName != "" && strings.HasPrefix(m.Name, "external metric "):
		return "object metric " + m.Label() + " (per pod)"
	}
	return m.Name
}
