// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package validation refuses the objects the API server would refuse, so
// that offline input (-f files) and whatif edits are never replayed in a
// state no cluster can hold. It is pure: no I/O, no clock, no client.
//
// # HorizontalPodAutoscaler (autoscaling/v2, as stored: after defaulting)
//
// HPA checks what kube-apiserver checks when an HPA is created (the rules
// are the same in v1.29 to v1.37; only the scale-to-zero bound and the
// tolerance depend on the controller profile), in the API server's order,
// with its field paths and messages:
//
//   - metadata: a name that is a DNS subdomain, a namespace that is a DNS
//     label, valid label and annotation keys and values, annotations under
//     256 KiB in total, qualified finalizer names (unless one of the three
//     built-in ones), a generation that is not negative, well-formed owner
//     references and managed fields;
//   - spec.minReplicas, when set, is at least 1; 0 is allowed when scale to
//     zero is (the HPAScaleToZero gate: off before v1.37, on by default
//     from v1.37);
//   - spec.maxReplicas is required (0 is "required"), positive, and not
//     below minReplicas;
//   - spec.scaleTargetRef: kind and name are required and usable as a URL
//     path segment (not "." or "..", no "/" or "%"), apiVersion parses and
//     names an API group (an empty group only for ReplicationController);
//   - each spec.metrics[i]: a type is required and must be one of Object,
//     Pods, Resource, ContainerResource, External; the source block of
//     that type must be present, and no other source block may be; only
//     the first source block present (in the order object, external,
//     pods, resource, containerResource) is checked further;
//   - metric names (metric.name) are required and usable as path segments;
//     an Object metric's describedObject follows the scaleTargetRef rules
//     but may have an empty API group;
//   - every target: a type is required and must be Utilization, Value or
//     AverageValue; value and averageValue, when set, must be positive;
//     averageUtilization, when set, at least 1;
//   - the value a source needs: Object needs value or averageValue;
//     External needs exactly one of them; Pods needs averageValue;
//     Resource and ContainerResource need exactly one of averageUtilization
//     and averageValue. The API server does not compare the target's type
//     with the field given (a Utilization target with only averageValue is
//     accepted, and the controller then uses the raw value);
//   - Resource needs a resource name; ContainerResource needs a resource
//     name that containers can request (cpu, memory, ephemeral-storage,
//     hugepages-*, or a qualified extended resource) and a container name
//     that is a DNS label;
//   - with minReplicas 0, at least one Object or External metric;
//   - spec.behavior.scaleUp and scaleDown, when given:
//     stabilizationWindowSeconds within 0..3600, selectPolicy one of Max,
//     Min, Disabled, at least one policy, each policy of type Pods or
//     Percent with a value above zero and periodSeconds within 1..1800,
//     and a tolerance that is not negative. When the
//     HPAConfigurableTolerance gate is off (or does not exist) the API
//     server drops the tolerance instead, and so it is not checked.
//
// The API server also defaults before it validates (engine.DefaultHPA):
// callers validate the defaulted object, so that a scaling rule without
// policies gets the default ones, as in the cluster.
//
// # What the metrics APIs and other objects never hold
//
// Scale: spec.replicas not negative. Pods: no negative resource request
// or limit (containers, init containers, pod-level resources).
// PodMetrics: a timestamp, a window that is not negative, and no negative
// usage; a sample for a container the pod spec does not list (such as a
// native sidecar, which lives in initContainers) is accepted, as the
// controller accepts it. Custom and external metric values: a timestamp
// and a window that is not negative (a value that is not a quantity never
// decodes).
package validation

import (
	"fmt"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// Bounds the API server puts on the behavior.
const (
	MaxStabilizationWindowSeconds int32 = 3600
	MaxPeriodSeconds              int32 = 1800
)

// Options are the profile-dependent parts of HPA validation.
type Options struct {
	// MinReplicasLowerBound is the smallest minReplicas: 1, or 0 when
	// scale to zero is allowed.
	MinReplicasLowerBound int32
	// CheckTolerance checks behavior tolerances; when false the API
	// server drops them (the HPAConfigurableTolerance gate is off).
	CheckTolerance bool
}

// OptionsFor returns the options of a cluster whose API server runs with
// the version and gates of the controller profile p.
func OptionsFor(p profile.Profile) Options {
	o := Options{MinReplicasLowerBound: 1}
	if p.Gates[profile.HPAScaleToZero] {
		o.MinReplicasLowerBound = 0
	}
	o.CheckTolerance = p.Gates[profile.HPAConfigurableTolerance]
	return o
}

// HPA validates hpa, already defaulted, as the API server validates a
// create. The errors come in the API server's order.
func HPA(hpa *autoscalingv2.HorizontalPodAutoscaler, opts Options) field.ErrorList {
	errs := objectMeta(&hpa.ObjectMeta, true, field.NewPath("metadata"))
	return append(errs, Spec(&hpa.Spec, field.NewPath("spec"), opts)...)
}

// objectMeta checks metadata as the API server does for a namespaced
// (or not) object named like a DNS subdomain.
func objectMeta(m *metav1.ObjectMeta, namespaced bool, path *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMeta(m, namespaced, apimachineryvalidation.NameIsDNSSubdomain, path)
	for i, f := range m.Finalizers {
		if !strings.Contains(f, "/") && !builtinFinalizers[f] {
			errs = append(errs, field.Invalid(path.Child("finalizers").Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}

var builtinFinalizers = map[string]bool{
	string(corev1.FinalizerKubernetes): true,
	metav1.FinalizerOrphanDependents:   true,
	metav1.FinalizerDeleteDependents:   true,
}

// Spec validates an HPA spec at path (normally "spec").
func Spec(s *autoscalingv2.HorizontalPodAutoscalerSpec, path *field.Path, opts Options) field.ErrorList {
	var errs field.ErrorList
	if s.MinReplicas != nil && *s.MinReplicas < opts.MinReplicasLowerBound {
		errs = append(errs, field.Invalid(path.Child("minReplicas"), *s.MinReplicas,
			fmt.Sprintf("must be greater than or equal to %d", opts.MinReplicasLowerBound)))
	}
	switch {
	case s.MaxReplicas == 0:
		errs = append(errs, field.Required(path.Child("maxReplicas"), "must be set and greater than 0"))
	case s.MaxReplicas < 0:
		errs = append(errs, field.Invalid(path.Child("maxReplicas"), s.MaxReplicas, "must be greater than or equal to 1"))
	}
	if s.MinReplicas != nil && s.MaxReplicas < *s.MinReplicas {
		errs = append(errs, field.Invalid(path.Child("maxReplicas"), s.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	emptyGroupOK := s.ScaleTargetRef.Kind == "ReplicationController"
	errs = append(errs, objectReference(s.ScaleTargetRef, path.Child("scaleTargetRef"), emptyGroupOK)...)
	errs = append(errs, metrics(s.Metrics, path.Child("metrics"), s.MinReplicas)...)
	if b := s.Behavior; b != nil {
		errs = append(errs, scalingRules(b.ScaleUp, path.Child("behavior", "scaleUp"), opts)...)
		errs = append(errs, scalingRules(b.ScaleDown, path.Child("behavior", "scaleDown"), opts)...)
	}
	return errs
}

// ScaleTargetRef validates spec.scaleTargetRef alone, as HPA does: a
// loader checks it before it looks the target up.
func ScaleTargetRef(ref autoscalingv2.CrossVersionObjectReference) field.ErrorList {
	return objectReference(ref, field.NewPath("spec", "scaleTargetRef"), ref.Kind == "ReplicationController")
}

// objectReference checks a scaleTargetRef or a describedObject.
func objectReference(ref autoscalingv2.CrossVersionObjectReference, path *field.Path, emptyGroupOK bool) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, pathSegment(ref.Kind, path.Child("kind"), "")...)
	errs = append(errs, pathSegment(ref.Name, path.Child("name"), "")...)
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	switch {
	case err != nil:
		errs = append(errs, field.Invalid(path.Child("apiVersion"), ref.APIVersion, err.Error()))
	case gv.Group == "" && !emptyGroupOK:
		errs = append(errs, field.Invalid(path.Child("apiVersion"), ref.APIVersion, "apiVersion must specify API group"))
	}
	return errs
}

// pathSegment requires a value usable as one segment of a URL path.
// required is the message of a missing value.
func pathSegment(v string, path *field.Path, required string) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(path, required)}
	}
	var errs field.ErrorList
	for _, msg := range content.IsPathSegmentName(v) {
		errs = append(errs, field.Invalid(path, v, msg))
	}
	return errs
}

// metricSourceTypes are the supported source types, sorted as the API
// server lists them in its message.
var metricSourceTypes = []string{
	string(autoscalingv2.ContainerResourceMetricSourceType),
	string(autoscalingv2.ExternalMetricSourceType),
	string(autoscalingv2.ObjectMetricSourceType),
	string(autoscalingv2.PodsMetricSourceType),
	string(autoscalingv2.ResourceMetricSourceType),
}

func metrics(list []autoscalingv2.MetricSpec, path *field.Path, minReplicas *int32) field.ErrorList {
	var errs field.ErrorList
	objectOrExternal := false
	for i := range list {
		errs = append(errs, metric(&list[i], path.Index(i))...)
		if t := list[i].Type; t == autoscalingv2.ObjectMetricSourceType || t == autoscalingv2.ExternalMetricSourceType {
			objectOrExternal = true
		}
	}
	if minReplicas != nil && *minReplicas == 0 && !objectOrExternal {
		errs = append(errs, field.Forbidden(path, "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	return errs
}

func metric(m *autoscalingv2.MetricSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m.Type == "" {
		errs = append(errs, field.Required(path.Child("type"), "must specify a metric source type"))
	}
	known := false
	for _, t := range metricSourceTypes {
		known = known || string(m.Type) == t
	}
	if !known {
		errs = append(errs, field.NotSupported(path.Child("type"), m.Type, metricSourceTypes))
	}

	// The source blocks present, in the order the API server looks at
	// them; only the first is checked further.
	var present []string
	if m.Object != nil {
		present = append(present, "object")
		errs = append(errs, objectSource(m.Object, path.Child("object"))...)
	}
	if m.External != nil {
		present = append(present, "external")
		if len(present) == 1 {
			errs = append(errs, externalSource(m.External, path.Child("external"))...)
		}
	}
	if m.Pods != nil {
		present = append(present, "pods")
		if len(present) == 1 {
			errs = append(errs, podsSource(m.Pods, path.Child("pods"))...)
		}
	}
	if m.Resource != nil {
		present = append(present, "resource")
		if len(present) == 1 {
			errs = append(errs, resourceSource(m.Resource, path.Child("resource"))...)
		}
	}
	if m.ContainerResource != nil {
		present = append(present, "containerResource")
		if len(present) == 1 {
			errs = append(errs, containerResourceSource(m.ContainerResource, path.Child("containerResource"))...)
		}
	}

	expected := ""
	missing := false
	switch m.Type {
	case autoscalingv2.ObjectMetricSourceType:
		expected, missing = "object", m.Object == nil
	case autoscalingv2.PodsMetricSourceType:
		expected, missing = "pods", m.Pods == nil
	case autoscalingv2.ResourceMetricSourceType:
		expected, missing = "resource", m.Resource == nil
	case autoscalingv2.ExternalMetricSourceType:
		expected, missing = "external", m.External == nil
	case autoscalingv2.ContainerResourceMetricSourceType:
		expected, missing = "containerResource", m.ContainerResource == nil
	default:
		// The API server reports an unknown type twice.
		errs = append(errs, field.NotSupported(path.Child("type"), m.Type, metricSourceTypes))
	}
	if missing {
		errs = append(errs, field.Required(path.Child(expected), "must populate information for the given metric source"))
	}
	if len(present) != 1 {
		// The API server walks a set here, in no set order; sorting makes
		// the order stable.
		var extra []string
		for _, p := range present {
			if p != expected {
				extra = append(extra, p)
			}
		}
		sortStrings(extra)
		for _, p := range extra {
			errs = append(errs, field.Forbidden(path.Child(p), "must populate the given metric source only"))
		}
	}
	return errs
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func objectSource(src *autoscalingv2.ObjectMetricSource, path *field.Path) field.ErrorList {
	errs := objectReference(src.DescribedObject, path.Child("describedObject"), true)
	errs = append(errs, metricIdentifier(src.Metric, path.Child("metric"))...)
	errs = append(errs, metricTarget(src.Target, path.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(path.Child("target", "averageValue"), "must set either a target value or averageValue"))
	}
	return errs
}

func externalSource(src *autoscalingv2.ExternalMetricSource, path *field.Path) field.ErrorList {
	errs := metricIdentifier(src.Metric, path.Child("metric"))
	errs = append(errs, metricTarget(src.Target, path.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(path.Child("target", "averageValue"), "must set either a target value for metric or a per-pod target"))
	}
	if src.Target.Value != nil && src.Target.AverageValue != nil {
		errs = append(errs, field.Forbidden(path.Child("target", "value"), "may not set both a target value for metric and a per-pod target"))
	}
	return errs
}

func podsSource(src *autoscalingv2.PodsMetricSource, path *field.Path) field.ErrorList {
	errs := metricIdentifier(src.Metric, path.Child("metric"))
	errs = append(errs, metricTarget(src.Target, path.Child("target"))...)
	if src.Target.AverageValue == nil {
		errs = append(errs, field.Required(path.Child("target", "averageValue"), "must specify a positive target averageValue"))
	}
	return errs
}

func resourceSource(src *autoscalingv2.ResourceMetricSource, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if src.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), "must specify a resource name"))
	}
	errs = append(errs, metricTarget(src.Target, path.Child("target"))...)
	return append(errs, resourceTargetValue(src.Target, path.Child("target"))...)
}

func containerResourceSource(src *autoscalingv2.ContainerResourceMetricSource, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if src.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), "must specify a resource name"))
	} else {
		errs = append(errs, containerResourceName(src.Name, path.Child("name"))...)
	}
	if src.Container == "" {
		errs = append(errs, field.Required(path.Child("container"), "must specify a container"))
	} else {
		for _, msg := range validation.IsDNS1123Label(src.Container) {
			errs = append(errs, field.Invalid(path.Child("container"), src.Container, msg))
		}
	}
	errs = append(errs, metricTarget(src.Target, path.Child("target"))...)
	return append(errs, resourceTargetValue(src.Target, path.Child("target"))...)
}

// resourceTargetValue requires exactly one of averageUtilization and
// averageValue.
func resourceTargetValue(t autoscalingv2.MetricTarget, path *field.Path) field.ErrorList {
	switch {
	case t.AverageUtilization == nil && t.AverageValue == nil:
		return field.ErrorList{field.Required(path.Child("averageUtilization"), "must set either a target raw value or a target utilization")}
	case t.AverageUtilization != nil && t.AverageValue != nil:
		return field.ErrorList{field.Forbidden(path.Child("averageValue"), "may not set both a target raw value and a target utilization")}
	}
	return nil
}

// containerResourceName accepts what a container may request: a
// standard resource (cpu, memory, ephemeral-storage, hugepages-*), or an
// extended resource with a domain.
func containerResourceName(name corev1.ResourceName, path *field.Path) field.ErrorList {
	s := string(name)
	var errs field.ErrorList
	for _, msg := range validation.IsQualifiedName(s) {
		errs = append(errs, field.Invalid(path, name, msg))
	}
	local := !strings.Contains(s, "/")
	if len(errs) == 0 && local && !quotaResourceNames[s] && !strings.HasPrefix(s, corev1.ResourceHugePagesPrefix) && !strings.HasPrefix(s, corev1.ResourceRequestsHugePagesPrefix) {
		errs = append(errs, field.Invalid(path, name, "must be a standard resource type or fully qualified"))
	}
	switch {
	case local:
		if !containerResourceNames[s] && !strings.HasPrefix(s, corev1.ResourceHugePagesPrefix) {
			errs = append(errs, field.Invalid(path, name, "must be a standard resource for containers"))
		}
	case strings.Contains(s, corev1.ResourceDefaultNamespacePrefix):
		// A native resource (kubernetes.io/...).
	case strings.HasPrefix(s, corev1.DefaultResourceRequestsPrefix) || len(validation.IsQualifiedName(corev1.DefaultResourceRequestsPrefix+s)) > 0:
		errs = append(errs, field.Invalid(path, name, "doesn't follow extended resource name standard"))
	}
	return errs
}

// containerResourceNames are the resources a container can request by a
// name without a domain (hugepages-* aside).
var containerResourceNames = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}

// quotaResourceNames are the names without a domain the API knows at all.
var quotaResourceNames = map[string]bool{
	"cpu": true, "memory": true, "ephemeral-storage": true,
	"requests.cpu": true, "requests.memory": true, "requests.ephemeral-storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
	"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true,
	"secrets": true, "configmaps": true, "persistentvolumeclaims": true, "storage": true,
	"requests.storage": true, "services.nodeports": true, "services.loadbalancers": true,
}

func metricTarget(t autoscalingv2.MetricTarget, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Type == "" {
		errs = append(errs, field.Required(path.Child("type"), "must specify a metric target type"))
	}
	switch t.Type {
	case autoscalingv2.UtilizationMetricType, autoscalingv2.ValueMetricType, autoscalingv2.AverageValueMetricType:
	default:
		errs = append(errs, field.Invalid(path.Child("type"), t.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if t.Value != nil && t.Value.Sign() != 1 {
		errs = append(errs, field.Invalid(path.Child("value"), t.Value, "must be positive"))
	}
	if t.AverageValue != nil && t.AverageValue.Sign() != 1 {
		errs = append(errs, field.Invalid(path.Child("averageValue"), t.AverageValue, "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		errs = append(errs, field.Invalid(path.Child("averageUtilization"), t.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

func metricIdentifier(id autoscalingv2.MetricIdentifier, path *field.Path) field.ErrorList {
	return pathSegment(id.Name, path.Child("name"), "must specify a metric name")
}

var (
	selectPolicies = []string{
		string(autoscalingv2.DisabledPolicySelect),
		string(autoscalingv2.MaxChangePolicySelect),
		string(autoscalingv2.MinChangePolicySelect),
	}
	policyTypes = []string{string(autoscalingv2.PercentScalingPolicy), string(autoscalingv2.PodsScalingPolicy)}
)

func scalingRules(r *autoscalingv2.HPAScalingRules, path *field.Path, opts Options) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if w := r.StabilizationWindowSeconds; w != nil {
		if *w < 0 {
			errs = append(errs, field.Invalid(path.Child("stabilizationWindowSeconds"), w, "must be greater than or equal to zero"))
		}
		if *w > MaxStabilizationWindowSeconds {
			errs = append(errs, field.Invalid(path.Child("stabilizationWindowSeconds"), w,
				fmt.Sprintf("must be less than or equal to %d", MaxStabilizationWindowSeconds)))
		}
	}
	if sp := r.SelectPolicy; sp != nil {
		switch *sp {
		case autoscalingv2.MaxChangePolicySelect, autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect:
		default:
			errs = append(errs, field.NotSupported(path.Child("selectPolicy"), sp, selectPolicies))
		}
	}
	if len(r.Policies) == 0 {
		errs = append(errs, field.Required(path.Child("policies"), "must specify at least one Policy"))
	}
	for i, p := range r.Policies {
		pp := path.Child("policies").Index(i)
		switch p.Type {
		case autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy:
		default:
			errs = append(errs, field.NotSupported(pp.Child("type"), p.Type, policyTypes))
		}
		if p.Value <= 0 {
			errs = append(errs, field.Invalid(pp.Child("value"), p.Value, "must be greater than zero"))
		}
		if p.PeriodSeconds <= 0 {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), p.PeriodSeconds, "must be greater than zero"))
		}
		if p.PeriodSeconds > MaxPeriodSeconds {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), p.PeriodSeconds,
				fmt.Sprintf("must be less than or equal to %d", MaxPeriodSeconds)))
		}
	}
	if opts.CheckTolerance && r.Tolerance != nil {
		errs = append(errs, nonNegative(*r.Tolerance, path.Child("tolerance"))...)
	}
	return errs
}

func nonNegative(q resource.Quantity, path *field.Path) field.ErrorList {
	if q.Sign() < 0 {
		return field.ErrorList{field.Invalid(path, q.String(), apimachineryvalidation.IsNegativeErrorMsg)}
	}
	return nil
}

// Warnings lists what the API server accepts in a (defaulted) HPA but the
// controller reads otherwise than the target's type says: a Resource or
// ContainerResource target whose type names the field not given (the
// controller reads the field that is given), an Object target whose type
// names the field not given (the controller fails the metric). One
// sentence each, starting with the field path.
func Warnings(hpa *autoscalingv2.HorizontalPodAutoscaler) []string {
	var out []string
	for i := range hpa.Spec.Metrics {
		// The source the type names, as the controller reads it.
		src, ok := metricsource.Of(&hpa.Spec.Metrics[i])
		if !ok {
			continue
		}
		t, path := src.Target, field.NewPath("spec", "metrics").Index(i).Child(src.Field, "target")
		switch src.Type {
		case autoscalingv2.ResourceMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType:
			// Checked below.
		case autoscalingv2.ObjectMetricSourceType:
			if (t.Type == autoscalingv2.ValueMetricType && t.Value == nil) || (t.Type == autoscalingv2.AverageValueMetricType && t.AverageValue == nil) || t.Type == autoscalingv2.UtilizationMetricType {
				out = append(out, fmt.Sprintf("%s: type %s has no matching field (value for Value, averageValue for AverageValue): the controller fails this metric (the API server accepts it)",
					path, t.Type))
			}
			continue
		default:
			continue
		}
		switch {
		case t.Type == autoscalingv2.UtilizationMetricType && t.AverageUtilization == nil && t.AverageValue != nil:
			out = append(out, fmt.Sprintf("%s: type Utilization without averageUtilization: the controller uses averageValue %s as a raw target, not a utilization (the API server accepts it)", path, t.AverageValue))
		case t.Type != autoscalingv2.UtilizationMetricType && t.AverageValue == nil && t.AverageUtilization != nil:
			out = append(out, fmt.Sprintf("%s: type %s without averageValue: the controller uses averageUtilization %d%% (the API server accepts it)", path, t.Type, *t.AverageUtilization))
		}
	}
	return out
}
