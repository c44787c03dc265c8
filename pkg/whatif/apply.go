// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package whatif edits a snapshot as the user asks ("each pod uses 200m
// cpu", "the target is 70%", "10 pods are running") and projects the HPA
// controller's decisions over successive syncs. Like the engine it is pure:
// no cluster, no files, no clock. Every decision it reports comes from
// engine.Evaluate on an edited snapshot.
package whatif

import (
	"errors"
	"fmt"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// Overrides are the changes of one whatif run. The zero value changes
// nothing.
type Overrides struct {
	// CPU and Memory set the usage of every measured pod.
	CPU, Memory *UsageOverride
	// Pods, Objects and Externals set metric values.
	Pods, Objects, Externals []MetricOverride
	// Targets change metric targets.
	Targets []TargetOverride
	// Min and Max replace spec.minReplicas and spec.maxReplicas.
	Min, Max *int32
	// ScaleUpTolerance and ScaleDownTolerance set the behavior's
	// per-direction tolerances.
	ScaleUpTolerance, ScaleDownTolerance *resource.Quantity
	// Behavior replaces spec.behavior; BehaviorSource names where it came from.
	Behavior       *autoscalingv2.HorizontalPodAutoscalerBehavior
	BehaviorSource string
	// Replicas makes the target run this many pods.
	Replicas *int32
	// LoadModel says how --replicas spreads the usage (explain.Load*).
	LoadModel string
	// AllReady makes every measured pod Running and Ready.
	AllReady bool
}

// Empty reports whether o changes nothing.
func (o *Overrides) Empty() bool {
	return o.CPU == nil && o.Memory == nil && len(o.Pods) == 0 && len(o.Objects) == 0 && len(o.Externals) == 0 &&
		len(o.Targets) == 0 && o.Min == nil && o.Max == nil && o.ScaleUpTolerance == nil && o.ScaleDownTolerance == nil &&
		o.Behavior == nil && o.Replicas == nil && !o.AllReady
}

// defaultWindow is the metric window given to new samples when the snapshot
// has none to copy (metrics-server's default resolution).
const defaultWindow = 15 * time.Second

// Apply returns a copy of snap with the overrides applied, and one sentence
// per change. snap is not modified. Overrides that cannot apply (an unknown
// metric, a share of a request that does not exist, a negative bound) are
// errors naming the flag.
func Apply(snap *engine.Snapshot, o *Overrides, set engine.Settings) (*engine.Snapshot, []string, error) {
	if snap == nil || snap.HPA == nil {
		return nil, nil, errors.New("snapshot has no HorizontalPodAutoscaler")
	}
	e := &editor{snap: snap.DeepCopy(), set: set}
	e.index()
	steps := []func(*Overrides) error{
		e.spec, e.allReady, e.replicas,
		func(o *Overrides) error { return e.usage(FieldCPU, corev1.ResourceCPU, o.CPU) },
		func(o *Overrides) error { return e.usage(FieldMemory, corev1.ResourceMemory, o.Memory) },
		e.podsMetrics, e.objectMetrics, e.externalMetrics,
	}
	for _, step := range steps {
		if err := step(o); err != nil {
			return nil, nil, err
		}
	}
	return e.snap, e.changes, nil
}

// editor applies overrides to its own copy of a snapshot.
type editor struct {
	snap    *engine.Snapshot
	set     engine.Settings
	sel     labels.Selector
	changes []string
	// sampleTime and sampleWindow are given to new samples: those of the
	// freshest existing sample, so new samples look like the others.
	sampleTime   time.Time
	sampleWindow time.Duration
	// pmIndex and cmIndex find a pod's PodMetrics and its Pods metric
	// samples (by metric and pod name) without a scan; built on first use,
	// dropped when samples are removed.
	pmIndex map[string]int
	cmIndex map[[2]string]int
}

func (e *editor) index() {
	e.sel = labels.Everything()
	if s, err := labels.Parse(e.snap.Target.Selector); err == nil && e.snap.Target.Selector != "" {
		e.sel = s
	}
	e.sampleTime, e.sampleWindow = e.snap.Now, defaultWindow
	found := false
	for i := range e.snap.PodMetrics {
		pm := &e.snap.PodMetrics[i]
		if !found || pm.Timestamp.After(e.sampleTime) {
			e.sampleTime, found = pm.Timestamp.Time, true
			if pm.Window.Duration > 0 {
				e.sampleWindow = pm.Window.Duration
			}
		}
	}
}

func (e *editor) note(format string, args ...any) {
	e.changes = append(e.changes, fmt.Sprintf(format, args...))
}

func (e *editor) hpaName() string {
	return fmt.Sprintf("HPA %s/%s", e.snap.HPA.Namespace, e.snap.HPA.Name)
}

// measured reports whether the controller would take a sample of pod into
// account: selected, not being deleted, not Failed, Succeeded or Pending.
func (e *editor) measured(p *corev1.Pod) bool { return measuredBy(e.sel, p) }

// measuredBy reports whether sel selects p and the controller would use a
// sample of it.
func measuredBy(sel labels.Selector, p *corev1.Pod) bool {
	if !sel.Matches(labels.Set(p.Labels)) || p.DeletionTimestamp != nil {
		return false
	}
	switch p.Status.Phase {
	case corev1.PodFailed, corev1.PodSucceeded, corev1.PodPending:
		return false
	default:
		return true
	}
}

func (e *editor) measuredPods() []*corev1.Pod {
	var out []*corev1.Pod
	for i := range e.snap.Pods {
		if e.measured(&e.snap.Pods[i]) {
			out = append(out, &e.snap.Pods[i])
		}
	}
	return out
}

// ---- the spec ----

func (e *editor) spec(o *Overrides) error {
	hpa := e.snap.HPA
	before := hpa.DeepCopy()
	for _, t := range o.Targets {
		if err := e.target(t); err != nil {
			return err
		}
	}
	if o.Min != nil {
		e.note("minReplicas: %d (was %d)", *o.Min, engine.MinReplicas(hpa))
		hpa.Spec.MinReplicas = ptr(*o.Min)
	}
	if o.Max != nil {
		e.note("maxReplicas: %d (was %d)", *o.Max, hpa.Spec.MaxReplicas)
		hpa.Spec.MaxReplicas = *o.Max
	}
	if o.Behavior != nil {
		hpa.Spec.Behavior = o.Behavior.DeepCopy()
		e.note("behavior: replaced by %s", orWord(o.BehaviorSource, "the given stanza"))
	}
	if o.ScaleUpTolerance != nil || o.ScaleDownTolerance != nil {
		if p := e.set.Profile; !p.Switches.BehaviorTolerance {
			if !p.Version.AtLeast(33) {
				return fieldErr(FieldTolerance, "", "per-HPA tolerances need a v1.33 or newer controller, and this replay follows %s", p.Version)
			}
			return fieldErr(FieldTolerance, "", "the %s feature gate is off, so the API server drops per-HPA tolerances (turn it on with --feature-gates %s=true)", profile.HPAConfigurableTolerance, profile.HPAConfigurableTolerance)
		}
		if hpa.Spec.Behavior == nil {
			hpa.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
			e.note("behavior: added, with the API's default rules, to hold the tolerance (the HPA no longer uses the legacy rules)")
		}
		b := hpa.Spec.Behavior
		if o.ScaleUpTolerance != nil {
			if b.ScaleUp == nil {
				b.ScaleUp = &autoscalingv2.HPAScalingRules{}
			}
			b.ScaleUp.Tolerance = ptr(o.ScaleUpTolerance.DeepCopy())
			e.note("scale-up tolerance: %s", o.ScaleUpTolerance.String())
		}
		if o.ScaleDownTolerance != nil {
			if b.ScaleDown == nil {
				b.ScaleDown = &autoscalingv2.HPAScalingRules{}
			}
			b.ScaleDown.Tolerance = ptr(o.ScaleDownTolerance.DeepCopy())
			e.note("scale-down tolerance: %s", o.ScaleDownTolerance.String())
		}
	}
	// The API server defaults what it stores, and refuses what it would
	// not store; so do we.
	engine.DefaultHPA(hpa)
	return e.validateSpec(o, before)
}

func (e *editor) target(t TargetOverride) error {
	hpa := e.snap.HPA
	matched := 0
	for i := range hpa.Spec.Metrics {
		m := &hpa.Spec.Metrics[i]
		// The source the metric's type names, as the controller reads it.
		src, ok := metricsource.Of(m)
		if !ok || src.Name() != t.Metric {
			continue
		}
		tgt, res, container := src.Target, src.Resource, src.Container
		matched++
		was := targetWords(*tgt)
		switch {
		case t.Utilization != nil && res == "":
			return fieldErr(FieldTarget, t.Text, "%s is a %s metric; only resource metrics (cpu, memory) take a utilization target: give a value instead", t.Metric, m.Type)
		case t.Utilization != nil:
			if err := e.checkRequests(&FieldError{Field: FieldTarget, Value: t.Text}, res, container); err != nil {
				return err
			}
			*tgt = autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(*t.Utilization)}
		case res != "" || m.Type == autoscalingv2.PodsMetricSourceType:
			*tgt = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(t.Value.DeepCopy())}
		case tgt.Type == autoscalingv2.AverageValueMetricType:
			*tgt = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(t.Value.DeepCopy())}
		default:
			*tgt = autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(t.Value.DeepCopy())}
		}
		e.note("target of metric %d (%s): %s (was %s)", i+1, t.Metric, targetWords(*tgt), was)
	}
	if matched == 0 {
		return fieldErr(FieldTarget, t.Text, "the %s has no metric named %q (its metrics: %s)", e.hpaName(), t.Metric, metricNames(hpa))
	}
	return nil
}

// checkRequests refuses a utilization override when a measured pod lacks a
// request for res (in container, or in any container).
func (e *editor) checkRequests(field *FieldError, res corev1.ResourceName, container string) error {
	for _, p := range e.measuredPods() {
		if e.set.Profile.Switches.PodLevelRequests && container == "" && p.Spec.Resources != nil {
			if _, ok := p.Spec.Resources.Requests[res]; ok {
				continue
			}
		}
		for _, c := range usageContainers(p) {
			if container != "" && c.Name != container {
				continue
			}
			if _, ok := c.Resources.Requests[res]; !ok {
				field.Msg = fmt.Sprintf("container %q of pod %s has no %s request, and utilization is a percentage of the request (give an absolute value instead, like 250m)", c.Name, p.Name, res)
				return field
			}
		}
	}
	return nil
}

// ---- helpers on the spec ----

func ptr[T any](v T) *T { return &v }

func orWord(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// metricNames lists the HPA's metrics for error messages.
func metricNames(hpa *autoscalingv2.HorizontalPodAutoscaler) string {
	var out []string
	for i := range hpa.Spec.Metrics {
		src, ok := metricsource.Given(&hpa.Spec.Metrics[i])
		switch {
		case !ok:
			out = append(out, string(hpa.Spec.Metrics[i].Type))
		case src.Type == autoscalingv2.ContainerResourceMetricSourceType:
			out = append(out, fmt.Sprintf("%s of container %s (%s)", src.Name(), src.Container, src.Type))
		default:
			out = append(out, fmt.Sprintf("%s (%s)", src.Name(), src.Type))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func targetWords(t autoscalingv2.MetricTarget) string {
	switch {
	case t.AverageUtilization != nil:
		return fmt.Sprintf("%d%% utilization", *t.AverageUtilization)
	case t.AverageValue != nil:
		return t.AverageValue.String() + " average"
	case t.Value != nil:
		return t.Value.String() + " value"
	}
	return "none"
}
