// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package validation

import (
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// Scale validates an autoscaling/v1 Scale: its replicas are not negative.
func Scale(s *autoscalingv1.Scale) field.ErrorList {
	return apimachineryvalidation.ValidateNonnegativeField(int64(s.Spec.Replicas), field.NewPath("spec", "replicas"))
}

// Replicas validates the spec.replicas of a workload (Deployment,
// StatefulSet, ReplicaSet, ReplicationController): not negative.
func Replicas(r *int32) field.ErrorList {
	if r == nil {
		return nil
	}
	return apimachineryvalidation.ValidateNonnegativeField(int64(*r), field.NewPath("spec", "replicas"))
}

// Pod checks what would break a replay and the API server never stores:
// negative resource requests or limits.
func Pod(p *corev1.Pod) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	for i := range p.Spec.InitContainers {
		errs = append(errs, requirements(p.Spec.InitContainers[i].Resources, spec.Child("initContainers").Index(i).Child("resources"))...)
	}
	for i := range p.Spec.Containers {
		errs = append(errs, requirements(p.Spec.Containers[i].Resources, spec.Child("containers").Index(i).Child("resources"))...)
	}
	if r := p.Spec.Resources; r != nil {
		errs = append(errs, requirements(*r, spec.Child("resources"))...)
	}
	return errs
}

func requirements(r corev1.ResourceRequirements, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, resourceList(r.Limits, path.Child("limits"))...)
	return append(errs, resourceList(r.Requests, path.Child("requests"))...)
}

// resourceList reports negative quantities in name order.
func resourceList(l corev1.ResourceList, path *field.Path) field.ErrorList {
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, string(n))
	}
	sortStrings(names)
	var errs field.ErrorList
	for _, n := range names {
		errs = append(errs, nonNegative(l[corev1.ResourceName(n)], path.Key(n))...)
	}
	return errs
}

// PodMetrics checks a metrics.k8s.io PodMetrics as metrics-server would
// serve it: a timestamp, a window that is not negative, usage that is not
// negative. Containers are not compared with the pod's spec: samples of
// containers the spec does not list (native sidecars are in
// initContainers) are what the controller sees too.
func PodMetrics(pm *metricsv1beta1.PodMetrics) field.ErrorList {
	errs := sample(pm.Timestamp, "window", pm.Window.Duration.String(), pm.Window.Duration < 0)
	for i, c := range pm.Containers {
		path := field.NewPath("containers").Index(i)
		errs = append(errs, resourceList(c.Usage, path.Child("usage"))...)
	}
	return errs
}

// MetricValue checks a custom.metrics.k8s.io value: a timestamp and a
// window that is not negative.
func MetricValue(mv *custommetricsv1beta2.MetricValue) field.ErrorList {
	w := mv.WindowSeconds
	return sample(mv.Timestamp, "windowSeconds", w, w != nil && *w < 0)
}

// ExternalMetricValue checks an external.metrics.k8s.io value: a
// timestamp and a window that is not negative.
func ExternalMetricValue(ev *externalmetricsv1beta1.ExternalMetricValue) field.ErrorList {
	w := ev.WindowSeconds
	return sample(ev.Timestamp, "window", w, w != nil && *w < 0)
}

// sample requires a timestamp and a window that is not negative.
func sample(ts metav1.Time, windowField string, window any, negative bool) field.ErrorList {
	var errs field.ErrorList
	if ts.IsZero() {
		errs = append(errs, field.Required(field.NewPath("timestamp"), "a metrics API always stamps its samples"))
	}
	if negative {
		errs = append(errs, field.Invalid(field.NewPath(windowField), window, apimachineryvalidation.IsNegativeErrorMsg))
	}
	return errs
}
