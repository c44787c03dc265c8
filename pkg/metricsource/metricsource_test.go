// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package metricsource

import (
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func utilization(n int32) autoscalingv2.MetricTarget {
	return autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &n}
}

func value(s string) autoscalingv2.MetricTarget {
	q := resource.MustParse(s)
	return autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: &q}
}

// Each type is read from its own field, with its name and the JSON name of
// the field, and the target returned is the spec's own.
func TestEveryType(t *testing.T) {
	cases := []struct {
		spec             autoscalingv2.MetricSpec
		field, name      string
		resource         corev1.ResourceName
		container        string
		metricIdentified bool
	}{
		{
			spec:  autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: utilization(70)}},
			field: "resource", name: "cpu", resource: corev1.ResourceCPU,
		},
		{
			spec: autoscalingv2.MetricSpec{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
				Name: corev1.ResourceMemory, Container: "app", Target: utilization(80),
			}},
			field: "containerResource", name: "memory", resource: corev1.ResourceMemory, container: "app",
		},
		{
			spec: autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: "requests_per_second"}, Target: value("10"),
			}},
			field: "pods", name: "requests_per_second", metricIdentified: true,
		},
		{
			spec: autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: "hits"}, Target: value("100"),
			}},
			field: "object", name: "hits", metricIdentified: true,
		},
		{
			spec: autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: "queue"}, Target: value("30"),
			}},
			field: "external", name: "queue", metricIdentified: true,
		},
	}
	for _, c := range cases {
		t.Run(string(c.spec.Type), func(t *testing.T) {
			for _, read := range []struct {
				how string
				fn  func(*autoscalingv2.MetricSpec) (Source, bool)
			}{{"Of", Of}, {"Given", Given}} {
				src, ok := read.fn(&c.spec)
				if !ok {
					t.Fatalf("%s: no source", read.how)
				}
				if src.Type != c.spec.Type || src.Field != c.field || src.Name() != c.name || src.Resource != c.resource || src.Container != c.container || (src.Metric != nil) != c.metricIdentified {
					t.Errorf("%s = %+v, want type %s, field %s, name %s, resource %q, container %q, metric identified %v",
						read.how, src, c.spec.Type, c.field, c.name, c.resource, c.container, c.metricIdentified)
				}
			}
			// The target is the spec's own: an edit through it edits the spec.
			tgt := Target(&c.spec)
			tgt.Type = "Edited"
			if got, _ := Of(&c.spec); got.Target.Type != "Edited" {
				t.Errorf("the target returned is a copy, not the spec's")
			}
		})
	}
}

// Of reads the field the type names, as the controller does; Given the
// first field set, whatever the type.
func TestOfReadsTheTypeGivenTheFirstField(t *testing.T) {
	mismatched := autoscalingv2.MetricSpec{
		Type:     autoscalingv2.PodsMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: utilization(50)},
	}
	if src, ok := Of(&mismatched); ok {
		t.Errorf("Of read %+v from a Pods metric without its pods field", src)
	}
	if src, ok := Given(&mismatched); !ok || src.Type != autoscalingv2.ResourceMetricSourceType {
		t.Errorf("Given = %+v, %v; want the resource field that is set", src, ok)
	}

	both := autoscalingv2.MetricSpec{
		Type:     autoscalingv2.ExternalMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: utilization(50)},
		External: &autoscalingv2.ExternalMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: "queue"}, Target: value("30")},
	}
	if src, _ := Of(&both); src.Type != autoscalingv2.ExternalMetricSourceType {
		t.Errorf("Of read the %s field of an External metric", src.Type)
	}
	if src, _ := Given(&both); src.Type != autoscalingv2.ResourceMetricSourceType {
		t.Errorf("Given read the %s field first; want Resource", src.Type)
	}

	var none autoscalingv2.MetricSpec
	if _, ok := Given(&none); ok {
		t.Error("Given found a source in an empty spec")
	}
	if Target(&none) != nil {
		t.Error("Target found a target in an empty spec")
	}
	unknown := autoscalingv2.MetricSpec{Type: "Custom"}
	if _, ok := Of(&unknown); ok {
		t.Error("Of read a source of an unknown type")
	}
}

// Current reads the one field a status sets.
func TestCurrent(t *testing.T) {
	u := int32(42)
	cur := autoscalingv2.MetricValueStatus{AverageUtilization: &u}
	for _, st := range []autoscalingv2.MetricStatus{
		{Resource: &autoscalingv2.ResourceMetricStatus{Current: cur}},
		{ContainerResource: &autoscalingv2.ContainerResourceMetricStatus{Current: cur}},
		{Pods: &autoscalingv2.PodsMetricStatus{Current: cur}},
		{Object: &autoscalingv2.ObjectMetricStatus{Current: cur}},
		{External: &autoscalingv2.ExternalMetricStatus{Current: cur}},
	} {
		got := Current(&st)
		if got == nil || got.AverageUtilization == nil || *got.AverageUtilization != 42 {
			t.Errorf("Current(%+v) = %+v", st, got)
		}
	}
	if got := Current(&autoscalingv2.MetricStatus{}); got != nil {
		t.Errorf("Current of an empty status = %+v, want nil", got)
	}
}
