// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"encoding/json"
	"fmt"
	"maps"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// hpaV2beta1 is an autoscaling/v2beta1 HorizontalPodAutoscaler (served
// until v1.25; k8s.io/api no longer has it). Its metric specs and
// statuses have the shape of the autoscaling/v1 annotation's, so those
// types are reused.
type hpaV2beta1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		ScaleTargetRef autoscalingv1.CrossVersionObjectReference `json:"scaleTargetRef"`
		MinReplicas    *int32                                    `json:"minReplicas,omitempty"`
		MaxReplicas    int32                                     `json:"maxReplicas"`
		Metrics        []autoscalingv1.MetricSpec                `json:"metrics,omitempty"`
	} `json:"spec,omitempty"`
	Status struct {
		ObservedGeneration *int64                                           `json:"observedGeneration,omitempty"`
		LastScaleTime      *metav1.Time                                     `json:"lastScaleTime,omitempty"`
		CurrentReplicas    int32                                            `json:"currentReplicas"`
		DesiredReplicas    int32                                            `json:"desiredReplicas"`
		CurrentMetrics     []autoscalingv1.MetricStatus                     `json:"currentMetrics"`
		Conditions         []autoscalingv1.HorizontalPodAutoscalerCondition `json:"conditions,omitempty"`
	} `json:"status,omitempty"`
}

// convertHPAv2beta1 builds the autoscaling/v2 form of an
// autoscaling/v2beta1 HPA as the API server converted it: a resource target
// is Utilization when targetAverageUtilization is set, else AverageValue
// (both fields are kept); an object target always carries targetValue as
// value and is AverageValue when averageValue is set, else Value; an
// external target is Value when targetValue is set, else AverageValue; a
// pods target is AverageValue. The behavior comes from the behavior
// annotation (ignored when it does not parse, as the API server does); the
// round-trip annotations are removed.
func convertHPAv2beta1(in *hpaV2beta1) (*autoscalingv2.HorizontalPodAutoscaler, []string) {
	var warnings []string
	out := &autoscalingv2.HorizontalPodAutoscaler{TypeMeta: in.TypeMeta, ObjectMeta: *in.DeepCopy()}
	out.APIVersion = autoscalingv2.SchemeGroupVersion.String()
	out.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference(in.Spec.ScaleTargetRef)
	out.Spec.MinReplicas = in.Spec.MinReplicas
	out.Spec.MaxReplicas = in.Spec.MaxReplicas
	for _, m := range in.Spec.Metrics {
		out.Spec.Metrics = append(out.Spec.Metrics, convertMetricSpecV2beta1(m))
	}
	ann := maps.Clone(in.Annotations)
	if raw, ok := ann[AnnotationBehavior]; ok {
		var b autoscalingv2.HorizontalPodAutoscalerBehavior
		if err := json.Unmarshal([]byte(raw), &b); err != nil {
			warnings = append(warnings, fmt.Sprintf("metadata.annotations[%q] does not parse, and the API server ignores it: %s", AnnotationBehavior, oneLine(err.Error())))
		} else if b.ScaleUp != nil || b.ScaleDown != nil {
			out.Spec.Behavior = &b
		}
	}
	for _, k := range []string{AnnotationMetrics, AnnotationCurrentMetrics, AnnotationConditions, AnnotationBehavior} {
		delete(ann, k)
	}
	if len(ann) == 0 {
		ann = nil
	}
	out.Annotations = ann

	st := &in.Status
	out.Status.ObservedGeneration = st.ObservedGeneration
	out.Status.LastScaleTime = st.LastScaleTime
	out.Status.CurrentReplicas = st.CurrentReplicas
	out.Status.DesiredReplicas = st.DesiredReplicas
	for _, s := range st.CurrentMetrics {
		out.Status.CurrentMetrics = append(out.Status.CurrentMetrics, convertMetricStatusV2beta1(s))
	}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, autoscalingv2.HorizontalPodAutoscalerCondition{
			Type:               autoscalingv2.HorizontalPodAutoscalerConditionType(c.Type),
			Status:             c.Status,
			LastTransitionTime: c.LastTransitionTime,
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	return out, warnings
}

func convertMetricSpecV2beta1(in autoscalingv1.MetricSpec) autoscalingv2.MetricSpec {
	out := autoscalingv2.MetricSpec{Type: autoscalingv2.MetricSourceType(in.Type)}
	if o := in.Object; o != nil {
		t := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptrTo(o.TargetValue), AverageValue: o.AverageValue}
		if o.AverageValue != nil {
			t.Type = autoscalingv2.AverageValueMetricType
		}
		out.Object = &autoscalingv2.ObjectMetricSource{
			DescribedObject: autoscalingv2.CrossVersionObjectReference(o.Target),
			Metric:          autoscalingv2.MetricIdentifier{Name: o.MetricName, Selector: o.Selector},
			Target:          t,
		}
	}
	if p := in.Pods; p != nil {
		out.Pods = &autoscalingv2.PodsMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: p.MetricName, Selector: p.Selector},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptrTo(p.TargetAverageValue)},
		}
	}
	if r := in.Resource; r != nil {
		out.Resource = &autoscalingv2.ResourceMetricSource{
			Name:   r.Name,
			Target: resourceTargetV2beta1(r.TargetAverageUtilization, r.TargetAverageValue),
		}
	}
	if r := in.ContainerResource; r != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{
			Name:      r.Name,
			Container: r.Container,
			Target:    resourceTargetV2beta1(r.TargetAverageUtilization, r.TargetAverageValue),
		}
	}
	if e := in.External; e != nil {
		t := autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, Value: e.TargetValue, AverageValue: e.TargetAverageValue}
		if e.TargetValue != nil {
			t.Type = autoscalingv2.ValueMetricType
		}
		out.External = &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: e.MetricName, Selector: e.MetricSelector},
			Target: t,
		}
	}
	return out
}

// resourceTargetV2beta1 keeps both fields; the type follows the
// utilization.
func resourceTargetV2beta1(util *int32, avg *resource.Quantity) autoscalingv2.MetricTarget {
	t := autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageUtilization: util, AverageValue: avg}
	if util != nil {
		t.Type = autoscalingv2.UtilizationMetricType
	}
	return t
}

func convertMetricStatusV2beta1(in autoscalingv1.MetricStatus) autoscalingv2.MetricStatus {
	out := autoscalingv2.MetricStatus{Type: autoscalingv2.MetricSourceType(in.Type)}
	if o := in.Object; o != nil {
		out.Object = &autoscalingv2.ObjectMetricStatus{
			DescribedObject: autoscalingv2.CrossVersionObjectReference(o.Target),
			Metric:          autoscalingv2.MetricIdentifier{Name: o.MetricName, Selector: o.Selector},
			Current:         autoscalingv2.MetricValueStatus{Value: ptrTo(o.CurrentValue), AverageValue: o.AverageValue},
		}
	}
	if p := in.Pods; p != nil {
		out.Pods = &autoscalingv2.PodsMetricStatus{
			Metric:  autoscalingv2.MetricIdentifier{Name: p.MetricName, Selector: p.Selector},
			Current: autoscalingv2.MetricValueStatus{AverageValue: ptrTo(p.CurrentAverageValue)},
		}
	}
	if r := in.Resource; r != nil {
		out.Resource = &autoscalingv2.ResourceMetricStatus{
			Name:    r.Name,
			Current: autoscalingv2.MetricValueStatus{AverageUtilization: r.CurrentAverageUtilization, AverageValue: ptrTo(r.CurrentAverageValue)},
		}
	}
	if r := in.ContainerResource; r != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricStatus{
			Name:      r.Name,
			Container: r.Container,
			Current:   autoscalingv2.MetricValueStatus{AverageUtilization: r.CurrentAverageUtilization, AverageValue: ptrTo(r.CurrentAverageValue)},
		}
	}
	if e := in.External; e != nil {
		out.External = &autoscalingv2.ExternalMetricStatus{
			Metric:  autoscalingv2.MetricIdentifier{Name: e.MetricName, Selector: e.MetricSelector},
			Current: autoscalingv2.MetricValueStatus{Value: ptrTo(e.CurrentValue), AverageValue: e.CurrentAverageValue},
		}
	}
	return out
}

// convertHPAv2beta2 builds the autoscaling/v2 form of an
// autoscaling/v2beta2 HPA (served until v1.26). The two versions have the
// same fields and defaults except the per-direction tolerance, which
// v2beta2 never had: the API server would have dropped it as unknown.
func convertHPAv2beta2(in *autoscalingv2.HorizontalPodAutoscaler) []string {
	in.APIVersion = autoscalingv2.SchemeGroupVersion.String()
	var warnings []string
	if b := in.Spec.Behavior; b != nil {
		for i, r := range []*autoscalingv2.HPAScalingRules{b.ScaleUp, b.ScaleDown} {
			if r != nil && r.Tolerance != nil {
				r.Tolerance = nil
				warnings = append(warnings, fmt.Sprintf("spec.behavior.%s.tolerance is not a field of autoscaling/v2beta2 (ignored)", []string{"scaleUp", "scaleDown"}[i]))
			}
		}
	}
	return warnings
}
