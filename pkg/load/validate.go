// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/validation"
)

// Validate refuses the input when an object in it is one the API server
// (or a metrics API) would never hold: an HPA the API server rejects with
// the feature gates of p, a negative Scale, a pod with a negative request,
// a metric sample with a negative usage or without a timestamp. The error
// is the first problem, on one line, naming the file, the object and the
// field. An HPA written in another API version than autoscaling/v2 names
// the field as it was written where it can. What the API server accepts but
// the controller reads otherwise than written is added to r.Warnings.
func (r *Result) Validate(p profile.Profile) error {
	inv := r.inv
	if inv == nil {
		return nil
	}
	nsOf := func(given string) string {
		if given == "" {
			return r.Namespace
		}
		return given
	}
	opts := validation.OptionsFor(p)
	for _, e := range inv.hpas {
		hpa := e.hpa.DeepCopy()
		hpa.Namespace = nsOf(e.namespace)
		engine.DefaultHPA(hpa)
		if errs := validation.HPA(hpa, opts); len(errs) > 0 {
			return e.from.errorf("%s", e.paths.rename(errs[0]).Error())
		}
		for _, w := range validation.Warnings(hpa) {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %s", e.from, w))
		}
	}
	for _, e := range inv.scales {
		if err := first(e.from, validation.Scale(e.scale)); err != nil {
			return err
		}
	}
	for _, w := range inv.workloads {
		if w.specReplicas < 0 {
			if err := first(w.from, validation.Replicas(&w.specReplicas)); err != nil {
				return err
			}
		}
	}
	for _, e := range inv.pods {
		if err := first(e.from, validation.Pod(&e.pod)); err != nil {
			return err
		}
	}
	for _, e := range inv.podMets {
		if err := first(e.from, validation.PodMetrics(&e.pm)); err != nil {
			return err
		}
	}
	for _, e := range inv.custom {
		if err := first(e.from, validation.MetricValue(&e.mv)); err != nil {
			return err
		}
	}
	for i := range inv.external {
		if err := first(inv.extFrom[i], validation.ExternalMetricValue(&inv.external[i])); err != nil {
			return err
		}
	}
	return nil
}

func first(from origin, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return from.errorf("%s", errs[0].Error())
}

// hpaPaths says how the autoscaling/v2 field paths of a converted HPA map
// back to what the user wrote. The zero value is autoscaling/v2 itself.
type hpaPaths struct {
	// version is the API version written ("" for v2).
	version string
	// annotationMetrics is how many metrics came from the metrics
	// annotation (autoscaling/v1); they come first.
	annotationMetrics int
	// cpuMetric is the index of the metric made of
	// targetCPUUtilizationPercentage (autoscaling/v1), or -1.
	cpuMetric int
	// behaviorAnnotation: the behavior came from its annotation.
	behaviorAnnotation bool
}

// v1MetricFields rename the v2 fields of a metric source to those of the
// autoscaling/v1 annotation and of autoscaling/v2beta1, which share them.
var v1MetricFields = []struct{ v2, old string }{
	{"object.describedObject", "object.target"},
	{"object.target.value", "object.targetValue"},
	{"object.target.averageValue", "object.averageValue"},
	{"pods.target.averageValue", "pods.targetAverageValue"},
	{"resource.target.averageUtilization", "resource.targetAverageUtilization"},
	{"resource.target.averageValue", "resource.targetAverageValue"},
	{"containerResource.target.averageUtilization", "containerResource.targetAverageUtilization"},
	{"containerResource.target.averageValue", "containerResource.targetAverageValue"},
	{"external.target.value", "external.targetValue"},
	{"external.target.averageValue", "external.targetAverageValue"},
	{"external.metric.name", "external.metricName"},
	{"external.metric.selector", "external.metricSelector"},
	{"metric.name", "metricName"},
	{"metric.selector", "selector"},
}

// rename rewrites the field path of err into the form the user wrote.
func (p hpaPaths) rename(err *field.Error) *field.Error {
	if p.version == "" {
		return err
	}
	out := *err
	const metricsPrefix = "spec.metrics["
	rest, isMetric := strings.CutPrefix(err.Field, metricsPrefix)
	switch {
	case isMetric && (p.version == "v1" || p.version == "v2beta1"):
		idxText, sub, _ := strings.Cut(rest, "]")
		idx, convErr := strconv.Atoi(idxText)
		if convErr != nil {
			return err
		}
		sub = strings.TrimPrefix(sub, ".")
		if p.version == "v1" && idx == p.cpuMetric {
			out.Field = "spec.targetCPUUtilizationPercentage"
			return &out
		}
		for _, r := range v1MetricFields {
			if sub == r.v2 || strings.HasPrefix(sub, r.v2+".") || strings.HasSuffix(sub, "."+r.v2) {
				sub = strings.Replace(sub, r.v2, r.old, 1)
				break
			}
		}
		if sub != "" {
			sub = "." + sub
		}
		if p.version == "v1" {
			out.Field = fmt.Sprintf("metadata.annotations[%s][%d]%s", AnnotationMetrics, idx, sub)
		} else {
			out.Field = fmt.Sprintf("spec.metrics[%d]%s", idx, sub)
		}
	case p.behaviorAnnotation && strings.HasPrefix(err.Field, "spec.behavior."):
		out.Field = fmt.Sprintf("metadata.annotations[%s].%s", AnnotationBehavior, strings.TrimPrefix(err.Field, "spec.behavior."))
	}
	return &out
}
