// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// buildQuantity formats a milli-value the way the controller writes it to
// status: binary for memory (v1.34+), decimal otherwise.
func buildQuantity(res corev1.ResourceName, milli int64, binaryMemory bool) resource.Quantity {
	format := resource.DecimalSI
	if res == corev1.ResourceMemory && binaryMemory {
		format = resource.BinarySI
	}
	return *resource.NewMilliQuantity(milli, format)
}

// metricFailure carries what a failing metric contributes: the condition
// reason and message, the event text, and the error the dispatcher returns.
type metricFailure struct {
	reason   string
	eventMsg string
	err      error
	// silent failures emit no event and leave an empty condition (a
	// ContainerResource metric with HPAContainerMetrics off, v1.29).
	silent bool
}

// resourceUtilization ends the display name of a resource metric with a
// utilization target; the names of the usual ones are constants.
const (
	resourceUtilization   = " resource utilization (percentage of request)"
	cpuUtilizationName    = string(corev1.ResourceCPU) + resourceUtilization
	memoryUtilizationName = string(corev1.ResourceMemory) + resourceUtilization
)

// displayName is the name the controller uses for a metric in messages.
func displayName(spec autoscalingv2.MetricSpec) string {
	switch spec.Type {
	case autoscalingv2.ResourceMetricSourceType:
		if spec.Resource == nil {
			return "resource metric"
		}
		if spec.Resource.Target.AverageValue != nil {
			return string(spec.Resource.Name) + " resource"
		}
		switch spec.Resource.Name {
		case corev1.ResourceCPU:
			return cpuUtilizationName
		case corev1.ResourceMemory:
			return memoryUtilizationName
		default:
			return string(spec.Resource.Name) + resourceUtilization
		}
	case autoscalingv2.ContainerResourceMetricSourceType:
		if spec.ContainerResource == nil {
			return "container resource metric"
		}
		if spec.ContainerResource.Target.AverageValue != nil {
			return string(spec.ContainerResource.Name) + " resource"
		}
		return string(spec.ContainerResource.Name) + " container resource utilization (percentage of request)"
	case autoscalingv2.PodsMetricSourceType:
		if spec.Pods == nil {
			return "pods metric"
		}
		return "pods metric " + spec.Pods.Metric.Name
	case autoscalingv2.ObjectMetricSourceType:
		if spec.Object == nil {
			return "object metric"
		}
		if spec.Object.Target.Type == autoscalingv2.ValueMetricType && spec.Object.Target.Value != nil {
			return fmt.Sprintf("%s metric %s", spec.Object.DescribedObject.Kind, spec.Object.Metric.Name)
		}
		// Upstream labels per-pod object metrics "external"; we keep its text.
		return fmt.Sprintf("external metric %s(%+v)", spec.Object.Metric.Name, spec.Object.Metric.Selector)
	case autoscalingv2.ExternalMetricSourceType:
		if spec.External == nil {
			return "external metric"
		}
		return fmt.Sprintf("external metric %s(%+v)", spec.External.Metric.Name, spec.External.Metric.Selector)
	default:
		return fmt.Sprintf("%s metric", spec.Type)
	}
}

// metricSource extracts the structured identity of a metric spec.
func metricSource(spec autoscalingv2.MetricSpec) explain.MetricSource {
	sel := func(ls *metav1.LabelSelector) string {
		if ls == nil {
			return ""
		}
		s, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			return ls.String()
		}
		return s.String()
	}
	src, ok := metricsource.Of(&spec)
	if !ok {
		return explain.MetricSource{}
	}
	// A resource source names its resource (and container); the others
	// their metric, with its selector.
	out := explain.MetricSource{Resource: string(src.Resource), Container: src.Container}
	if src.Metric != nil {
		out.MetricName, out.Selector = src.Metric.Name, sel(src.Metric.Selector)
	}
	if src.Type == autoscalingv2.ObjectMetricSourceType {
		out.DescribedObject = spec.Object.DescribedObject.Kind + "/" + spec.Object.DescribedObject.Name
	}
	return out
}

// describeTarget fills the target fields of a metric trace; the figures
// they point to are room's.
func describeTarget(room *metricRoom, spec autoscalingv2.MetricSpec, tr *explain.MetricResult) {
	// The source the type names, as the controller reads it.
	src, ok := metricsource.Of(&spec)
	if !ok {
		return
	}
	t := src.Target
	tr.TargetType = string(t.Type)
	switch {
	case t.AverageValue != nil:
		room.targetValue = t.AverageValue.DeepCopy()
		tr.TargetValue = &room.targetValue
	case t.Value != nil:
		room.targetValue = t.Value.DeepCopy()
		tr.TargetValue = &room.targetValue
	}
	if t.AverageUtilization != nil {
		room.targetUtilization = *t.AverageUtilization
		tr.TargetUtilization = &room.targetUtilization
	}
}

// metricInput is what computeReplicasForMetric needs besides the spec.
type metricInput struct {
	hpa            *autoscalingv2.HorizontalPodAutoscaler
	specReplicas   int32
	statusReplicas int32
	tol            tolerances
	calc           *calculator
	sw             profile.Switches
}

// computeReplicasForMetric mirrors the controller's per-metric dispatch. It
// returns the proposal and the status entry, or a failure.
func computeReplicasForMetric(in metricInput, spec autoscalingv2.MetricSpec, tr *explain.MetricResult) (int32, autoscalingv2.MetricStatus, time.Time, *metricFailure) {
	fail := func(reason string, inner error, outer error) (int32, autoscalingv2.MetricStatus, time.Time, *metricFailure) {
		return 0, autoscalingv2.MetricStatus{}, time.Time{}, &metricFailure{reason: reason, eventMsg: inner.Error(), err: outer}
	}
	switch spec.Type {
	case autoscalingv2.ObjectMetricSourceType:
		if spec.Object == nil {
			err := errors.New("invalid object metric source: the object field is not set")
			return fail(explain.ReasonFailedGetObject, err, fmt.Errorf("failed to get object metric value: %w", err))
		}
		if _, err := metav1.LabelSelectorAsSelector(spec.Object.Metric.Selector); err != nil {
			return fail(explain.ReasonFailedGetObject, err, fmt.Errorf("failed to get object metric value: %w", err))
		}
		o := spec.Object
		st := autoscalingv2.MetricStatus{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricStatus{
			DescribedObject: o.DescribedObject,
			Metric:          autoscalingv2.MetricIdentifier{Name: o.Metric.Name, Selector: o.Metric.Selector},
		}}
		if o.Target.Type == autoscalingv2.AverageValueMetricType && !in.sw.ObjectAverageStatusNamesObject {
			// Before v1.33 the per-pod status leaves the object out.
			st.Object.DescribedObject = autoscalingv2.CrossVersionObjectReference{}
		}
		switch {
		case o.Target.Type == autoscalingv2.ValueMetricType && o.Target.Value != nil:
			tr.Calculation = "GetObjectMetricReplicas"
			n, usage, ts, err := in.calc.getObjectMetricReplicas(in.specReplicas, o.Target.Value.MilliValue(), o.Metric.Name, in.tol, &o.DescribedObject, tr)
			if err != nil {
				return fail(explain.ReasonFailedGetObject, err, fmt.Errorf("failed to get object metric value: %w", err))
			}
			st.Object.Current.Value = resource.NewMilliQuantity(usage, resource.DecimalSI)
			return n, st, ts, nil
		case o.Target.Type == autoscalingv2.AverageValueMetricType && o.Target.AverageValue != nil:
			tr.Calculation = "GetObjectPerPodMetricReplicas"
			n, usage, ts, err := in.calc.getObjectPerPodMetricReplicas(in.statusReplicas, o.Target.AverageValue.MilliValue(), o.Metric.Name, in.tol, &o.DescribedObject, tr)
			if err != nil {
				return fail(explain.ReasonFailedGetObject, err, fmt.Errorf("failed to get object metric value: %w", fmt.Errorf("failed to get %s object metric: %w", o.Metric.Name, err)))
			}
			st.Object.Current.AverageValue = resource.NewMilliQuantity(usage, resource.DecimalSI)
			return n, st, ts, nil
		}
		err := errors.New("invalid object metric source: neither a value target nor an average value target was set")
		return fail(explain.ReasonFailedGetObject, err, fmt.Errorf("failed to get object metric value: %w", err))

	case autoscalingv2.PodsMetricSourceType:
		if spec.Pods == nil || spec.Pods.Target.AverageValue == nil {
			// Validation requires averageValue; upstream would crash without it.
			err := errors.New("invalid pods metric source: averageValue target is not set")
			return fail(explain.ReasonFailedGetPods, err, fmt.Errorf("failed to get pods metric value: %w", err))
		}
		if _, err := metav1.LabelSelectorAsSelector(spec.Pods.Metric.Selector); err != nil {
			return fail(explain.ReasonFailedGetPods, err, fmt.Errorf("failed to get pods metric value: %w", err))
		}
		p := spec.Pods
		tr.Calculation = "GetMetricReplicas"
		n, usage, ts, err := in.calc.getMetricReplicas(in.specReplicas, p.Target.AverageValue.MilliValue(), p.Metric.Name, in.tol, tr)
		if err != nil {
			return fail(explain.ReasonFailedGetPods, err, fmt.Errorf("failed to get pods metric value: %w", err))
		}
		st := autoscalingv2.MetricStatus{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricStatus{
			Metric:  autoscalingv2.MetricIdentifier{Name: p.Metric.Name, Selector: p.Metric.Selector},
			Current: autoscalingv2.MetricValueStatus{AverageValue: resource.NewMilliQuantity(usage, resource.DecimalSI)},
		}}
		return n, st, ts, nil

	case autoscalingv2.ResourceMetricSourceType:
		if spec.Resource == nil {
			err := errors.New("invalid resource metric source: the resource field is not set")
			return fail(explain.ReasonFailedGetResource, err, fmt.Errorf("failed to get resource metric value: %w", err))
		}
		n, cur, ts, err := resourceGeneric(in, spec.Resource.Target, spec.Resource.Name, "", false, tr)
		if err != nil {
			return fail(explain.ReasonFailedGetResource, err, fmt.Errorf("failed to get %s resource metric value: %w", spec.Resource.Name, err))
		}
		st := autoscalingv2.MetricStatus{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{Name: spec.Resource.Name, Current: cur}}
		return n, st, ts, nil

	case autoscalingv2.ContainerResourceMetricSourceType:
		if !in.sw.ContainerResourceMetrics {
			err := errors.New("ContainerResource metric type is not supported: disabled by the feature gate")
			return 0, autoscalingv2.MetricStatus{}, time.Time{}, &metricFailure{eventMsg: err.Error(), err: err, silent: true}
		}
		if spec.ContainerResource == nil {
			err := errors.New("invalid container resource metric source: the containerResource field is not set")
			return fail(explain.ReasonFailedGetContainer, err, fmt.Errorf("failed to get container metric value: %w", err))
		}
		cr := spec.ContainerResource
		n, cur, ts, err := resourceGeneric(in, cr.Target, cr.Name, cr.Container, true, tr)
		if err != nil {
			// Upstream names the container here, not the resource.
			return fail(explain.ReasonFailedGetContainer, err, fmt.Errorf("failed to get %s container metric value: %w", cr.Container, err))
		}
		st := autoscalingv2.MetricStatus{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricStatus{Name: cr.Name, Container: cr.Container, Current: cur}}
		return n, st, ts, nil

	case autoscalingv2.ExternalMetricSourceType:
		if spec.External == nil {
			err := errors.New("invalid external metric source: the external field is not set")
			return fail(explain.ReasonFailedGetExternal, err, fmt.Errorf("failed to get external metric value: %w", err))
		}
		e := spec.External
		st := autoscalingv2.MetricStatus{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricStatus{
			Metric: autoscalingv2.MetricIdentifier{Name: e.Metric.Name, Selector: e.Metric.Selector},
		}}
		wrap := func(err error) error {
			return fmt.Errorf("failed to get %s external metric value: %w", e.Metric.Name, err)
		}
		if e.Target.AverageValue != nil {
			tr.Calculation = "GetExternalPerPodMetricReplicas"
			n, usage, ts, err := in.calc.getExternalPerPodMetricReplicas(in.statusReplicas, e.Target.AverageValue.MilliValue(), e.Metric.Name, in.tol, e.Metric.Selector, tr)
			if err != nil {
				return fail(explain.ReasonFailedGetExternal, err, wrap(fmt.Errorf("failed to get %s external metric: %w", e.Metric.Name, err)))
			}
			st.External.Current.AverageValue = resource.NewMilliQuantity(usage, resource.DecimalSI)
			return n, st, ts, nil
		}
		if e.Target.Value != nil {
			tr.Calculation = "GetExternalMetricReplicas"
			n, usage, ts, err := in.calc.getExternalMetricReplicas(in.specReplicas, e.Target.Value.MilliValue(), e.Metric.Name, in.tol, e.Metric.Selector, tr)
			if err != nil {
				return fail(explain.ReasonFailedGetExternal, err, wrap(fmt.Errorf("failed to get external metric %s: %w", e.Metric.Name, err)))
			}
			st.External.Current.Value = resource.NewMilliQuantity(usage, resource.DecimalSI)
			return n, st, ts, nil
		}
		err := errors.New("invalid external metric source: neither a value target nor an average value target was set")
		return fail(explain.ReasonFailedGetExternal, err, wrap(err))
	}
	err := fmt.Errorf("unknown metric source type %q", string(spec.Type))
	return fail(explain.ReasonInvalidMetricSource, err, err)
}

// resourceGeneric mirrors the shared Resource/ContainerResource helper: an
// averageValue target wins over a utilization target.
func resourceGeneric(in metricInput, target autoscalingv2.MetricTarget, res corev1.ResourceName, container string, isContainer bool, tr *explain.MetricResult) (int32, autoscalingv2.MetricValueStatus, time.Time, error) {
	if target.AverageValue != nil {
		tr.Calculation = "GetRawResourceReplicas"
		n, raw, ts, err := in.calc.getRawResourceReplicas(in.specReplicas, target.AverageValue.MilliValue(), res, in.tol, container, tr)
		if err != nil {
			return 0, autoscalingv2.MetricValueStatus{}, time.Time{}, fmt.Errorf("failed to get %s usage: %w", res, err)
		}
		q := buildQuantity(res, raw, in.sw.MemoryStatusBinarySI)
		return n, autoscalingv2.MetricValueStatus{AverageValue: &q}, ts, nil
	}
	if target.AverageUtilization == nil {
		return 0, autoscalingv2.MetricValueStatus{}, time.Time{}, errors.New("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set")
	}
	tr.Calculation = "GetResourceReplicas"
	n, util, raw, ts, err := in.calc.getResourceReplicas(in.specReplicas, *target.AverageUtilization, res, in.tol, container, tr)
	if err != nil {
		return 0, autoscalingv2.MetricValueStatus{}, time.Time{}, fmt.Errorf("failed to get %s utilization: %w", res, err)
	}
	_ = isContainer
	// The status's utilization and value, in one allocation.
	cur := &utilizationValue{utilization: util, value: buildQuantity(res, raw, in.sw.MemoryStatusBinarySI)}
	return n, autoscalingv2.MetricValueStatus{AverageUtilization: &cur.utilization, AverageValue: &cur.value}, ts, nil
}

// utilizationValue holds what a utilization metric's status points to.
type utilizationValue struct {
	utilization int32
	value       resource.Quantity
}

// statusValue extracts the reported quantity and utilization of a status entry.
func statusValue(st autoscalingv2.MetricStatus) (*resource.Quantity, *int32) {
	return new(metricRoom).statusValue(st)
}

// statusValue is the package's statusValue with the copies kept in room.
func (room *metricRoom) statusValue(st autoscalingv2.MetricStatus) (*resource.Quantity, *int32) {
	cur := metricsource.Current(&st)
	if cur == nil {
		return nil, nil
	}
	var q *resource.Quantity
	switch {
	case cur.Value != nil:
		room.value = cur.Value.DeepCopy()
		q = &room.value
	case cur.AverageValue != nil:
		room.value = cur.AverageValue.DeepCopy()
		q = &room.value
	}
	var u *int32
	if cur.AverageUtilization != nil {
		room.utilization = *cur.AverageUtilization
		u = &room.utilization
	}
	return q, u
}
