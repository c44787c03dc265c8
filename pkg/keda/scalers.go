// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/robfig/cron/v3"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
)

// Trigger types whose parameters the replay parses. Every other type gets
// its metric name from status.externalMetricNames and its activity from
// the caller (or status.triggersActivity).
const (
	TypeMetricsAPI         = "metrics-api"
	TypeKubernetesWorkload = "kubernetes-workload"
	TypeKubernetesResource = "kubernetes-resource"
	TypeCron               = "cron"
	TypeCPU                = "cpu"
	TypeMemory             = "memory"
)

// ReplayedTypes lists the trigger types whose parameters, metric names,
// targets and activation thresholds are replayed.
var ReplayedTypes = []string{TypeMetricsAPI, TypeKubernetesWorkload, TypeKubernetesResource, TypeCron, TypeCPU, TypeMemory}

// errUtilizationExternal is KEDA's error for a Utilization target on an
// External metric.
var errUtilizationExternal = errors.New("'Utilization' metric type is unsupported for external metrics, allowed values are 'Value' or 'AverageValue'")

// scaler is one trigger as KEDA builds its scaler: what the HPA reads for
// it and how its activity is decided.
type scaler struct {
	index   int
	trigger ScaleTrigger
	// replayed is false for types whose parameters are not parsed.
	replayed bool
	// external is false for cpu and memory, which become Resource or
	// ContainerResource metrics of the HPA and never count for activity.
	external bool
	// metricName is the External metric (s<index>-…); spec the HPA metric.
	metricName string
	spec       autoscalingv2.MetricSpec
	// activationParam and activation are the threshold of a trigger whose
	// activity is value > activation.
	activationParam string
	activation      float64
	// cron holds the window of a cron trigger.
	cron *cronTrigger
	// err is the error KEDA's scaler constructor returns.
	err error
}

// cronTrigger is a parsed cron trigger.
type cronTrigger struct {
	start, end      string
	timezone        string
	desiredReplicas int64
	startSchedule   cron.Schedule
	endSchedule     cron.Schedule
}

// metricIndexName is KEDA's External metric name: s<index>-<name>.
func metricIndexName(index int, name string) string {
	return fmt.Sprintf("s%d-%s", index, name)
}

// normalizeString is how KEDA makes a metric name from parameters: "/",
// ".", ":", "%", "(" and ")" become "-".
func normalizeString(s string) string {
	return strings.NewReplacer("/", "-", ".", "-", ":", "-", "%", "-", "(", "-", ")", "-").Replace(s)
}

// externalTargetType is KEDA's target type of an External metric: the
// trigger's metricType, AverageValue when unset; Utilization is an error.
// Any other string passes through unchecked, as in KEDA.
func externalTargetType(t autoscalingv2.MetricTargetType) (autoscalingv2.MetricTargetType, error) {
	switch t {
	case autoscalingv2.UtilizationMetricType:
		return "", errUtilizationExternal
	case "":
		return autoscalingv2.AverageValueMetricType, nil
	default:
		return t, nil
	}
}

// quantityFromFloat is how KEDA writes a float into a quantity: NaN, ±Inf
// and negative values become 0, others are printed with three decimals
// (so values are rounded to milli-units).
func quantityFromFloat(v float64) (resource.Quantity, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return resource.MustParse("0"), nil
	}
	q, err := resource.ParseQuantity(strconv.FormatFloat(v, 'f', 3, 64))
	if err != nil {
		return q, err
	}
	// The parsed text ("2.500") stays attached to the quantity; drop it so
	// that it prints canonically ("2500m"), as the API server returns it.
	q.Neg()
	q.Neg()
	return q, nil
}

// externalTarget is KEDA's target of an External metric from a float
// (AverageValue when the type is AverageValue, Value for anything else).
func externalTarget(t autoscalingv2.MetricTargetType, v float64) (autoscalingv2.MetricTarget, error) {
	q, err := quantityFromFloat(v)
	if err != nil {
		return autoscalingv2.MetricTarget{}, fmt.Errorf("target %v: %w", v, err)
	}
	out := autoscalingv2.MetricTarget{Type: t}
	if t == autoscalingv2.AverageValueMetricType {
		out.AverageValue = &q
	} else {
		out.Value = &q
	}
	return out, nil
}

// externalSpec is the HPA metric of an External trigger, before KEDA adds
// the selector.
func externalSpec(name string, target autoscalingv2.MetricTarget) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{
		Type: autoscalingv2.ExternalMetricSourceType,
		External: &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: name},
			Target: target,
		},
	}
}

// buildScaler parses trigger index of so as KEDA's scaler constructor for
// its type does. asMetricSource is true when the object uses
// scalingModifiers (a zero target is then allowed). sw and load matter for
// metrics-api auth modes and cron time zone prefixes.
func buildScaler(so *ScaledObject, index int, sw Switches, load LocationLoader) *scaler {
	return buildTrigger(so, so.Spec.Triggers[index], index, sw, load)
}

// buildTrigger builds trigger t as KEDA would at index of so.
func buildTrigger(so *ScaledObject, t ScaleTrigger, index int, sw Switches, load LocationLoader) *scaler {
	s := &scaler{index: index, trigger: t, replayed: true, external: true}
	asMetricSource := so.UsesModifiers()
	switch t.Type {
	case TypeMetricsAPI:
		s.err = s.buildMetricsAPI(asMetricSource, sw)
	case TypeKubernetesWorkload:
		s.err = s.buildWorkload(so.Namespace, asMetricSource)
	case TypeKubernetesResource:
		s.err = s.buildResource(asMetricSource)
	case TypeCron:
		s.err = s.buildCron(load)
	case TypeCPU, TypeMemory:
		s.external = false
		s.err = s.buildCPUMemory()
	default:
		// Not replayed: the name KEDA gave the metric is in the status.
		s.replayed = false
		s.metricName = statusMetricName(so, index)
		tt, err := externalTargetType(t.MetricType)
		s.err = err
		s.spec = externalSpec(s.metricName, autoscalingv2.MetricTarget{Type: tt})
	}
	return s
}

// statusMetricName finds trigger index's metric in
// status.externalMetricNames by its s<index>- prefix ("" when absent).
func statusMetricName(so *ScaledObject, index int) string {
	prefix := fmt.Sprintf("s%d-", index)
	for _, n := range so.Status.ExternalMetricNames {
		if strings.HasPrefix(n, prefix) {
			return n
		}
	}
	return ""
}

// Parameters of the metrics-api scaler (all from the trigger metadata;
// the auth parameters may also come from a TriggerAuthentication, which
// the replay does not read).
var (
	pMetricsTarget     = param{names: []string{"targetValue"}, optional: true}
	pMetricsActivation = param{names: []string{"activationTargetValue"}, def: "0"}
	pMetricsURL        = param{names: []string{"url"}}
	pMetricsFormat     = param{names: []string{"format"}, def: "json", enum: []string{"prometheus", "json", "xml", "yaml"}}
	pMetricsLocation   = param{names: []string{"valueLocation"}}
	pMetricsUnsafeSsl  = param{names: []string{"unsafeSsl"}, def: "false"}
	pMetricsAggregate  = param{names: []string{"aggregateFromKubeServiceEndpoints"}, def: "false"}
	pMetricsAggType    = param{names: []string{"aggregationType"}, def: "average", enum: []string{"average", "sum", "max", "min"}}
	pMetricsTimeout    = param{names: []string{"timeout"}, optional: true}
	pAuthMethod        = param{names: []string{"method"}, def: "header", enum: []string{"header", "query"}}
	pAuthModes         = param{names: []string{"authModes", "authMode"}, optional: true, enum: []string{"apiKey", "basic", "tls", "bearer", "custom", "oauth"}, exclusive: []string{"bearer", "basic", "oauth"}}
)

// buildMetricsAPI parses a metrics-api trigger: metric
// s<i>-metric-api-<valueLocation>, target targetValue, active when the
// value is above activationTargetValue (default 0).
func (s *scaler) buildMetricsAPI(asMetricSource bool, sw Switches) error {
	tt, err := externalTargetType(s.trigger.MetricType)
	if err != nil {
		return fmt.Errorf("error getting scaler metric type: %w", err)
	}
	md := newMetadata(s.trigger.Type, s.trigger.Metadata)
	target, _ := md.float(pMetricsTarget)
	s.activation, _ = md.float(pMetricsActivation)
	s.activationParam = "activationTargetValue"
	md.str(pMetricsURL)
	md.str(pMetricsFormat)
	location := md.str(pMetricsLocation)
	md.bool(pMetricsUnsafeSsl)
	md.bool(pMetricsAggregate)
	md.str(pMetricsAggType)
	md.duration(pMetricsTimeout)
	md.str(pAuthMethod)
	if modes := md.str(pAuthModes); modes != "" && sw.MetricsAPIAuthModesRestricted {
		// v2.21: only the modes the scaler applies to its requests.
		for _, m := range strings.Split(modes, ",") {
			switch m = strings.TrimSpace(m); m {
			case "apiKey", "basic", "tls", "bearer":
			default:
				md.fail("auth mode %q is not supported by this scaler; supported modes: [apiKey basic tls bearer]", m)
			}
		}
	}
	if err := md.err(); err != nil {
		return fmt.Errorf("error parsing metric API metadata: error parsing metrics API metadata: %w", err)
	}
	if target == 0 && !asMetricSource {
		return fmt.Errorf("error parsing metric API metadata: no targetValue given in metadata")
	}
	s.metricName = metricIndexName(s.index, normalizeString("metric-api-"+location))
	mt, err := externalTarget(tt, target)
	if err != nil {
		return err
	}
	s.spec = externalSpec(s.metricName, mt)
	return nil
}

// Parameters of the kubernetes-workload scaler.
var (
	pWorkloadSelector   = param{names: []string{"podSelector"}}
	pWorkloadValue      = param{names: []string{"value"}, def: "0"}
	pWorkloadActivation = param{names: []string{"activationValue"}, def: "0"}
	pWorkloadByNode     = param{names: []string{"groupByNode"}, def: "false"}
)

// buildWorkload parses a kubernetes-workload trigger: metric
// s<i>-workload-<namespace>, target value, active when the count of
// matching pods (not Succeeded or Failed) is above activationValue.
func (s *scaler) buildWorkload(namespace string, asMetricSource bool) error {
	tt, err := externalTargetType(s.trigger.MetricType)
	if err != nil {
		return fmt.Errorf("error getting scaler metric type: %w", err)
	}
	md := newMetadata(s.trigger.Type, s.trigger.Metadata)
	selector := md.str(pWorkloadSelector)
	value, _ := md.float(pWorkloadValue)
	s.activation, _ = md.float(pWorkloadActivation)
	s.activationParam = "activationValue"
	md.bool(pWorkloadByNode)
	// The scaler's own check runs after the parameters, errors or not.
	if value <= 0 && !asMetricSource {
		md.fail("value must be a float greater than 0")
	}
	if err := md.err(); err != nil {
		return fmt.Errorf("error parsing kubernetes workload metadata: error parsing kubernetes workload metadata: %w", err)
	}
	if _, err := labels.Parse(selector); err != nil {
		return fmt.Errorf("error parsing kubernetes workload metadata: error parsing pod selector: %w", err)
	}
	s.metricName = metricIndexName(s.index, normalizeString("workload-"+namespace))
	mt, err := externalTarget(tt, value)
	if err != nil {
		return err
	}
	s.spec = externalSpec(s.metricName, mt)
	return nil
}

// Parameters of the kubernetes-resource scaler.
var (
	pResourceKind       = param{names: []string{"resourceKind"}, enum: []string{"ConfigMap", "Secret"}}
	pResourceName       = param{names: []string{"resourceName"}}
	pResourceKey        = param{names: []string{"key"}}
	pResourceFormat     = param{names: []string{"format"}, def: "number", enum: []string{"number", "json", "yaml"}}
	pResourceLocation   = param{names: []string{"valueLocation"}, optional: true}
	pResourceValueType  = param{names: []string{"valueType"}, def: "float64", enum: []string{"float64", "int64", "quantity"}}
	pResourceTarget     = param{names: []string{"targetValue"}}
	pResourceActivation = param{names: []string{"activationTargetValue"}, def: "0"}
)

// buildResource parses a kubernetes-resource trigger: metric
// s<i>-<kind>-<name>-<key>, target targetValue, active when the value read
// from the ConfigMap or Secret is above activationTargetValue.
func (s *scaler) buildResource(asMetricSource bool) error {
	tt, err := externalTargetType(s.trigger.MetricType)
	if err != nil {
		return fmt.Errorf("error getting scaler metric type: %w", err)
	}
	md := newMetadata(s.trigger.Type, s.trigger.Metadata)
	kind := md.str(pResourceKind)
	name := md.str(pResourceName)
	key := md.str(pResourceKey)
	format := md.str(pResourceFormat)
	location := md.str(pResourceLocation)
	md.str(pResourceValueType)
	target, _ := md.float(pResourceTarget)
	s.activation, _ = md.float(pResourceActivation)
	s.activationParam = "activationTargetValue"
	// The scaler's own checks.
	switch {
	case target <= 0 && !asMetricSource:
		md.fail("targetValue must be a float greater than 0")
	case format == "number" && location != "":
		md.fail("valueLocation is only supported with json or yaml format")
	case (format == "json" || format == "yaml") && location == "":
		md.fail("valueLocation is required for %s format", format)
	}
	if err := md.err(); err != nil {
		return fmt.Errorf("error parsing kubernetes resource metadata: error parsing kubernetes resource metadata: %w", err)
	}
	s.metricName = metricIndexName(s.index, normalizeString(fmt.Sprintf("%s-%s-%s", strings.ToLower(kind), name, key)))
	mt, err := externalTarget(tt, target)
	if err != nil {
		return err
	}
	s.spec = externalSpec(s.metricName, mt)
	return nil
}

// Parameters of the cron scaler.
var (
	pCronStart    = param{names: []string{"start"}}
	pCronEnd      = param{names: []string{"end"}}
	pCronTimezone = param{names: []string{"timezone"}}
	pCronDesired  = param{names: []string{"desiredReplicas"}}
)

// buildCron parses a cron trigger: metric s<i>-cron-<tz>-<start>-<end>,
// target 1 (AverageValue by default), value desiredReplicas inside the
// window and 0 outside.
func (s *scaler) buildCron(load LocationLoader) error {
	tt, err := externalTargetType(s.trigger.MetricType)
	if err != nil {
		return fmt.Errorf("error getting scaler metric type: %w", err)
	}
	md := newMetadata(s.trigger.Type, s.trigger.Metadata)
	c := &cronTrigger{
		start:    md.str(pCronStart),
		end:      md.str(pCronEnd),
		timezone: md.str(pCronTimezone),
	}
	c.desiredReplicas, _ = md.int64(pCronDesired)
	// The scaler's own checks: both schedules parse, differ, and a
	// non-zero desiredReplicas.
	if c.startSchedule, err = parseSchedule(c.start, load); err != nil {
		md.fail("error parsing start schedule: %w", err)
	}
	if c.endSchedule, err = parseSchedule(c.end, load); err != nil {
		md.fail("error parsing end schedule: %w", err)
	}
	if c.start == c.end {
		md.fail("start and end can not have exactly same time input")
	}
	if c.desiredReplicas == 0 {
		md.fail("no desiredReplicas specified")
	}
	if err := md.err(); err != nil {
		return fmt.Errorf("error parsing cron metadata: %w", err)
	}
	s.cron = c
	s.metricName = metricIndexName(s.index, normalizeString(fmt.Sprintf("cron-%s-%s-%s", c.timezone, cronTimeFormat(c.start), cronTimeFormat(c.end))))
	one := resource.NewQuantity(1, resource.DecimalSI)
	mt := autoscalingv2.MetricTarget{Type: tt}
	if tt == autoscalingv2.AverageValueMetricType {
		mt.AverageValue = one
	} else {
		mt.Value = one
	}
	s.spec = externalSpec(s.metricName, mt)
	return nil
}

// Parameters of the cpu and memory scalers; "type" was removed in v2.18.
var (
	pResType      = param{names: []string{"type"}, optional: true, enum: []string{"Utilization", "AverageValue"}, deprecated: "The 'type' setting is DEPRECATED and is removed in v2.18 - Use 'metricType' instead."}
	pResValue     = param{names: []string{"value"}}
	pResContainer = param{names: []string{"containerName"}, optional: true}
)

// buildCPUMemory parses a cpu or memory trigger: a Resource metric (or a
// ContainerResource one with containerName) with the trigger's metricType,
// Utilization or AverageValue.
func (s *scaler) buildCPUMemory() error {
	md := newMetadata(s.trigger.Type, s.trigger.Metadata)
	md.str(pResType)
	value := md.str(pResValue)
	container := md.str(pResContainer)
	name := corev1.ResourceCPU
	if s.trigger.Type == TypeMemory {
		name = corev1.ResourceMemory
	}
	if err := md.err(); err != nil {
		return fmt.Errorf("error parsing %s metadata: %w", name, err)
	}
	target := autoscalingv2.MetricTarget{Type: s.trigger.MetricType}
	switch s.trigger.MetricType {
	case autoscalingv2.AverageValueMetricType:
		// KEDA parses with resource.MustParse: a bad value panics its
		// reconcile (recovered as an error).
		q, err := resource.ParseQuantity(value)
		if err != nil {
			return fmt.Errorf("error parsing %s metadata: value %q: %w (KEDA panics on it)", name, value, err)
		}
		target.AverageValue = &q
	case autoscalingv2.UtilizationMetricType:
		n, err := strconv.ParseInt(value, 10, 32)
		if err != nil {
			return fmt.Errorf("error parsing %s metadata: %w", name, err)
		}
		target.AverageUtilization = ptr(int32(n))
	default:
		return fmt.Errorf("error parsing %s metadata: unknown metric type: %s, allowed values are 'Utilization' or 'AverageValue'", name, s.trigger.MetricType)
	}
	if container != "" {
		s.spec = autoscalingv2.MetricSpec{
			Type:              autoscalingv2.ContainerResourceMetricSourceType,
			ContainerResource: &autoscalingv2.ContainerResourceMetricSource{Name: name, Target: target, Container: container},
		}
	} else {
		s.spec = autoscalingv2.MetricSpec{
			Type:     autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{Name: name, Target: target},
		}
	}
	return nil
}

// CountWorkloadPods is the value of a kubernetes-workload trigger: the
// pods its podSelector matches in the object's namespace (the caller
// lists them), except those Succeeded or Failed; with groupByNode, the
// distinct nodes of those pods (pods without a node do not count).
func CountWorkloadPods(pods []corev1.Pod, groupByNode bool) float64 {
	nodes := map[string]bool{}
	n := 0
	for i := range pods {
		p := &pods[i]
		if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		n++
		if p.Spec.NodeName != "" {
			nodes[p.Spec.NodeName] = true
		}
	}
	if groupByNode {
		return float64(len(nodes))
	}
	return float64(n)
}
