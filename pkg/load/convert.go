// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"encoding/json"
	"fmt"
	"maps"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	custommetricsv1beta1 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
)

// Annotations in which the autoscaling/v1 representation of an HPA carries
// the autoscaling/v2 fields it has no place for.
const (
	AnnotationMetrics        = "autoscaling.alpha.kubernetes.io/metrics"
	AnnotationCurrentMetrics = "autoscaling.alpha.kubernetes.io/current-metrics"
	AnnotationConditions     = "autoscaling.alpha.kubernetes.io/conditions"
	AnnotationBehavior       = "autoscaling.alpha.kubernetes.io/behavior"
)

// convertHPAv1 builds the autoscaling/v2 form of an autoscaling/v1 HPA.
// targetCPUUtilizationPercentage becomes a cpu Utilization Resource metric
// placed after the metrics of the metrics annotation (the order the API
// server produces); the other annotations fill behavior, conditions and
// current metrics. The annotations are removed from the result.
func convertHPAv1(in *autoscalingv1.HorizontalPodAutoscaler) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	out := &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   in.TypeMeta,
		ObjectMeta: *in.ObjectMeta.DeepCopy(),
	}
	out.APIVersion = autoscalingv2.SchemeGroupVersion.String()
	out.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{
		Kind:       in.Spec.ScaleTargetRef.Kind,
		Name:       in.Spec.ScaleTargetRef.Name,
		APIVersion: in.Spec.ScaleTargetRef.APIVersion,
	}
	out.Spec.MinReplicas = in.Spec.MinReplicas
	out.Spec.MaxReplicas = in.Spec.MaxReplicas

	ann := maps.Clone(in.Annotations)
	if raw, ok := ann[AnnotationMetrics]; ok {
		var specs []autoscalingv1.MetricSpec
		if err := json.Unmarshal([]byte(raw), &specs); err != nil {
			return nil, fmt.Errorf("metadata.annotations[%q]: %s", AnnotationMetrics, oneLine(err.Error()))
		}
		for _, s := range specs {
			out.Spec.Metrics = append(out.Spec.Metrics, convertMetricSpecV1(s))
		}
		delete(ann, AnnotationMetrics)
	}
	if p := in.Spec.TargetCPUUtilizationPercentage; p != nil {
		util := *p
		out.Spec.Metrics = append(out.Spec.Metrics, autoscalingv2.MetricSpec{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{
				Name:   corev1.ResourceCPU,
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &util},
			},
		})
	}
	if raw, ok := ann[AnnotationBehavior]; ok {
		var b autoscalingv2.HorizontalPodAutoscalerBehavior
		if _, err := decodeInto([]byte(raw), &b); err != nil {
			return nil, fmt.Errorf("metadata.annotations[%q]: %w", AnnotationBehavior, err)
		}
		out.Spec.Behavior = &b
		delete(ann, AnnotationBehavior)
	}

	out.Status.ObservedGeneration = in.Status.ObservedGeneration
	out.Status.LastScaleTime = in.Status.LastScaleTime
	out.Status.CurrentReplicas = in.Status.CurrentReplicas
	out.Status.DesiredReplicas = in.Status.DesiredReplicas
	if raw, ok := ann[AnnotationCurrentMetrics]; ok {
		var statuses []autoscalingv1.MetricStatus
		if err := json.Unmarshal([]byte(raw), &statuses); err != nil {
			return nil, fmt.Errorf("metadata.annotations[%q]: %s", AnnotationCurrentMetrics, oneLine(err.Error()))
		}
		for _, s := range statuses {
			out.Status.CurrentMetrics = append(out.Status.CurrentMetrics, convertMetricStatusV1(s))
		}
		delete(ann, AnnotationCurrentMetrics)
	}
	if p := in.Status.CurrentCPUUtilizationPercentage; p != nil {
		util := *p
		out.Status.CurrentMetrics = append(out.Status.CurrentMetrics, autoscalingv2.MetricStatus{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricStatus{
				Name:    corev1.ResourceCPU,
				Current: autoscalingv2.MetricValueStatus{AverageUtilization: &util},
			},
		})
	}
	if raw, ok := ann[AnnotationConditions]; ok {
		var conds []autoscalingv1.HorizontalPodAutoscalerCondition
		if err := json.Unmarshal([]byte(raw), &conds); err != nil {
			return nil, fmt.Errorf("metadata.annotations[%q]: %s", AnnotationConditions, oneLine(err.Error()))
		}
		for _, c := range conds {
			out.Status.Conditions = append(out.Status.Conditions, autoscalingv2.HorizontalPodAutoscalerCondition{
				Type:               autoscalingv2.HorizontalPodAutoscalerConditionType(c.Type),
				Status:             c.Status,
				LastTransitionTime: c.LastTransitionTime,
				Reason:             c.Reason,
				Message:            c.Message,
			})
		}
		delete(ann, AnnotationConditions)
	}
	if len(ann) == 0 {
		ann = nil
	}
	out.Annotations = ann
	return out, nil
}

func convertMetricSpecV1(in autoscalingv1.MetricSpec) autoscalingv2.MetricSpec {
	out := autoscalingv2.MetricSpec{Type: autoscalingv2.MetricSourceType(in.Type)}
	if o := in.Object; o != nil {
		target := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptrTo(o.TargetValue)}
		if o.AverageValue != nil {
			target = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: o.AverageValue}
		}
		out.Object = &autoscalingv2.ObjectMetricSource{
			DescribedObject: autoscalingv2.CrossVersionObjectReference(o.Target),
			Metric:          autoscalingv2.MetricIdentifier{Name: o.MetricName, Selector: o.Selector},
			Target:          target,
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
			Target: resourceTargetV1(r.TargetAverageUtilization, r.TargetAverageValue),
		}
	}
	if r := in.ContainerResource; r != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{
			Name:      r.Name,
			Container: r.Container,
			Target:    resourceTargetV1(r.TargetAverageUtilization, r.TargetAverageValue),
		}
	}
	if e := in.External; e != nil {
		target := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: e.TargetValue}
		if e.TargetAverageValue != nil {
			target = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: e.TargetAverageValue}
		}
		out.External = &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: e.MetricName, Selector: e.MetricSelector},
			Target: target,
		}
	}
	return out
}

func resourceTargetV1(util *int32, avg *resource.Quantity) autoscalingv2.MetricTarget {
	if util != nil {
		return autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: util}
	}
	return autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: avg}
}

func convertMetricStatusV1(in autoscalingv1.MetricStatus) autoscalingv2.MetricStatus {
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

// convertCustomV1beta1 turns a custom.metrics.k8s.io/v1beta1 MetricValue
// into its v1beta2 form.
func convertCustomV1beta1(in *custommetricsv1beta1.MetricValue) custommetricsv1beta2.MetricValue {
	return custommetricsv1beta2.MetricValue{
		TypeMeta:        in.TypeMeta,
		DescribedObject: in.DescribedObject,
		Metric:          custommetricsv1beta2.MetricIdentifier{Name: in.MetricName, Selector: in.Selector},
		Timestamp:       in.Timestamp,
		WindowSeconds:   in.WindowSeconds,
		Value:           in.Value,
	}
}

func ptrTo[T any](v T) *T { return &v }
