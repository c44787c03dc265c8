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
	"maps"
	"math/big"
	"sort"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
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
		var (
			tgt       *autoscalingv2.MetricTarget
			res       corev1.ResourceName
			container string
		)
		switch {
		case m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && string(m.Resource.Name) == t.Metric:
			tgt, res = &m.Resource.Target, m.Resource.Name
		case m.Type == autoscalingv2.ContainerResourceMetricSourceType && m.ContainerResource != nil && string(m.ContainerResource.Name) == t.Metric:
			tgt, res, container = &m.ContainerResource.Target, m.ContainerResource.Name, m.ContainerResource.Container
		case m.Type == autoscalingv2.PodsMetricSourceType && m.Pods != nil && m.Pods.Metric.Name == t.Metric:
			tgt = &m.Pods.Target
		case m.Type == autoscalingv2.ObjectMetricSourceType && m.Object != nil && m.Object.Metric.Name == t.Metric:
			tgt = &m.Object.Target
		case m.Type == autoscalingv2.ExternalMetricSourceType && m.External != nil && m.External.Metric.Name == t.Metric:
			tgt = &m.External.Target
		default:
			continue
		}
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

// ---- pods ----

func (e *editor) allReady(o *Overrides) error {
	if !o.AllReady {
		return nil
	}
	n := 0
	for i := range e.snap.Pods {
		p := &e.snap.Pods[i]
		if !e.sel.Matches(labels.Set(p.Labels)) || p.DeletionTimestamp != nil ||
			p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
			continue
		}
		if c := readyCondition(p); p.Status.Phase == corev1.PodRunning && c != nil && c.Status == corev1.ConditionTrue {
			continue
		}
		makeReady(p, e.snap.Now)
		n++
	}
	e.note("all pods ready: %d pod(s) made Running and Ready since they started (pods without a metric sample stay missing)", n)
	return nil
}

func readyCondition(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodReady {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// makeReady marks p Running and Ready, ready since it started.
func makeReady(p *corev1.Pod, now time.Time) {
	p.Status.Phase = corev1.PodRunning
	if p.Status.StartTime == nil {
		start := p.CreationTimestamp
		if start.IsZero() {
			start = metav1.NewTime(now.Add(-time.Hour))
		}
		p.Status.StartTime = &start
	}
	c := readyCondition(p)
	if c == nil {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady})
		c = &p.Status.Conditions[len(p.Status.Conditions)-1]
	}
	c.Status = corev1.ConditionTrue
	c.LastTransitionTime = *p.Status.StartTime
}

// usageContainers are the containers metrics-server reports: the regular
// containers and the sidecars.
func usageContainers(p *corev1.Pod) []*corev1.Container {
	out := make([]*corev1.Container, 0, len(p.Spec.Containers))
	for i := range p.Spec.Containers {
		out = append(out, &p.Spec.Containers[i])
	}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			out = append(out, c)
		}
	}
	return out
}

func (e *editor) replicas(o *Overrides) error {
	if o.Replicas == nil {
		return nil
	}
	n := *o.Replicas
	if n < 1 {
		return fieldErr(FieldReplicas, fmt.Sprint(n), "give at least 1 (a target at 0 replicas turns the HPA off)")
	}
	model := o.LoadModel
	if model == "" {
		model = explain.LoadConstantTotal
	}
	was := e.snap.Target.SpecReplicas
	// The pods to simulate: above maxReplicas the controller scales to
	// maxReplicas without reading metrics, so only those pods matter (to
	// the metrics shown and to a projection's next sync).
	minR, maxR := engine.MinReplicas(e.snap.HPA), e.snap.HPA.Spec.MaxReplicas
	clamped := n > maxR || n < minR
	m := min(n, max(maxR, 1))
	if m > MaxPods {
		if !clamped {
			return fieldErr(FieldReplicas, fmt.Sprint(n), "whatif simulates at most %d pods, and %d replicas within [%d, %d] need one each: give at most %d", MaxPods, n, minR, maxR, MaxPods)
		}
		e.snap.Target.SpecReplicas, e.snap.Target.StatusReplicas = n, n
		e.note("replicas: %d (was %d); outside [%d, %d], so the controller clamps without reading metrics: no pods are simulated (more than %d), the metrics shown are those of the input's pods", n, was, minR, maxR, MaxPods)
		return nil
	}
	pods := e.measuredPods()
	if len(pods) == 0 {
		return fieldErr(FieldReplicas, fmt.Sprint(n), "the target has no running pods to copy")
	}
	totals := e.totals(pods)
	template := pickTemplate(pods)
	// Keep the oldest ready pods; copy the template for the others.
	sort.SliceStable(pods, func(i, j int) bool { return podOrder(pods[i], pods[j]) })
	keep := map[string]bool{}
	for i := 0; i < len(pods) && i < int(m); i++ {
		keep[pods[i].Name] = true
	}
	var kept []corev1.Pod
	dropped := map[string]bool{}
	for i := range e.snap.Pods {
		p := &e.snap.Pods[i]
		if e.measured(p) && !keep[p.Name] {
			dropped[p.Name] = true
			continue
		}
		kept = append(kept, *p)
	}
	e.dropSamples(dropped)
	templatePM := e.podMetrics(template.Name)
	templateCM := e.customFor(template.Name)
	for i := len(keep); i < int(m); i++ {
		clone := template.DeepCopy()
		clone.Name = fmt.Sprintf("%s-whatif-%d", strings.TrimSuffix(template.GenerateName, "-"), i+1)
		if template.GenerateName == "" {
			clone.Name = fmt.Sprintf("%s-whatif-%d", template.Name, i+1)
		}
		clone.UID = ""
		kept = append(kept, *clone)
		if model == explain.LoadConstantPerPod {
			if templatePM != nil {
				pm := templatePM.DeepCopy()
				pm.Name = clone.Name
				e.snap.PodMetrics = append(e.snap.PodMetrics, *pm)
			}
			for _, cm := range templateCM {
				c := cm.DeepCopy()
				c.DescribedObject.Name = clone.Name
				e.snap.CustomMetrics = append(e.snap.CustomMetrics, *c)
			}
		}
	}
	e.snap.Pods = kept
	e.pmIndex, e.cmIndex = nil, nil
	e.snap.Target.SpecReplicas, e.snap.Target.StatusReplicas = n, n
	running := fmt.Sprintf("%d running pods (was %d)", n, was)
	if m < n {
		running = fmt.Sprintf("%d (was %d), above maxReplicas %d: the controller scales to %d without reading metrics, so only the %d pods it keeps are simulated", n, was, maxR, m, m)
	}
	if model == explain.LoadConstantTotal {
		e.spread(totals, e.measuredPods())
		e.note("replicas: %s; the total load is spread evenly over them, every pod reporting", running)
	} else {
		e.note("replicas: %s; each pod keeps its own load, new pods use what %s uses", running, template.Name)
	}
	return nil
}

// podOrder puts ready pods first, then older ones, then by name.
func podOrder(a, b *corev1.Pod) bool {
	ra, rb := isReady(a), isReady(b)
	if ra != rb {
		return ra
	}
	ta, tb := startOf(a), startOf(b)
	if !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return a.Name < b.Name
}

func isReady(p *corev1.Pod) bool {
	c := readyCondition(p)
	return p.Status.Phase == corev1.PodRunning && c != nil && c.Status == corev1.ConditionTrue
}

func startOf(p *corev1.Pod) time.Time {
	if p.Status.StartTime != nil {
		return p.Status.StartTime.Time
	}
	return p.CreationTimestamp.Time
}

// pickTemplate picks the pod new pods are copies of: the oldest ready one.
func pickTemplate(pods []*corev1.Pod) *corev1.Pod {
	best := pods[0]
	for _, p := range pods[1:] {
		if podOrder(p, best) {
			best = p
		}
	}
	return best
}

// loadTotals is the load a set of pods carries: usage per resource and
// container name, and the sum of each Pods metric.
type loadTotals struct {
	resource map[corev1.ResourceName]map[string]int64
	pods     map[string]int64
}

func (e *editor) totals(pods []*corev1.Pod) loadTotals {
	t := loadTotals{resource: map[corev1.ResourceName]map[string]int64{}, pods: map[string]int64{}}
	counted := make(map[string]bool, len(pods))
	for _, p := range pods {
		if pm := e.podMetrics(p.Name); pm != nil {
			for _, c := range pm.Containers {
				for res, q := range c.Usage {
					if t.resource[res] == nil {
						t.resource[res] = map[string]int64{}
					}
					t.resource[res][c.Name] += q.MilliValue()
				}
			}
		}
		counted[p.Name] = true
	}
	// One pass over the samples, not one per pod.
	for i := range e.snap.CustomMetrics {
		cm := &e.snap.CustomMetrics[i]
		if cm.DescribedObject.Kind == "Pod" && counted[cm.DescribedObject.Name] {
			t.pods[cm.Metric.Name] += cm.Value.MilliValue()
		}
	}
	return t
}

// spread gives every pod an equal share of the totals.
func (e *editor) spread(t loadTotals, pods []*corev1.Pod) {
	n := int64(len(pods))
	if n == 0 {
		return
	}
	for i, p := range pods {
		pm := e.ensurePodMetrics(p)
		for ci := range pm.Containers {
			c := &pm.Containers[ci]
			for res, byContainer := range t.resource {
				total, ok := byContainer[c.Name]
				if !ok {
					continue
				}
				if c.Usage == nil {
					c.Usage = corev1.ResourceList{}
				}
				c.Usage[res] = quantity(res, shareOf(res, total, n, int64(i)))
			}
		}
		for name, total := range t.pods {
			e.setPodsSample(p, name, share(total, n, int64(i)))
		}
	}
}

// share is the i-th of n near-equal parts of total (the first total%n parts
// are one milli-unit larger), so that the parts add up to total.
func share(total, n, i int64) int64 {
	q, r := total/n, total%n
	if i < r {
		return q + 1
	}
	return q
}

// shareOf is share for a resource: memory is shared in whole bytes, as
// metrics-server reports it, cpu in millicores.
func shareOf(res corev1.ResourceName, total, n, i int64) int64 {
	if res == corev1.ResourceMemory {
		return share(total/1000, n, i) * 1000
	}
	return share(total, n, i)
}

// ---- samples ----

func (e *editor) podMetrics(pod string) *metricsv1beta1.PodMetrics {
	if e.pmIndex == nil {
		e.pmIndex = make(map[string]int, len(e.snap.PodMetrics))
		for i := range e.snap.PodMetrics {
			pm := &e.snap.PodMetrics[i]
			if _, seen := e.pmIndex[pm.Name]; !seen && (pm.Namespace == "" || pm.Namespace == e.snap.HPA.Namespace) {
				e.pmIndex[pm.Name] = i
			}
		}
	}
	if i, ok := e.pmIndex[pod]; ok {
		return &e.snap.PodMetrics[i]
	}
	return nil
}

// podsSampleIndex returns the index of pod's sample of Pods metric name in
// CustomMetrics, or -1.
func (e *editor) podsSampleIndex(pod, name string) int {
	if e.cmIndex == nil {
		e.cmIndex = make(map[[2]string]int, len(e.snap.CustomMetrics))
		for i := range e.snap.CustomMetrics {
			cm := &e.snap.CustomMetrics[i]
			if cm.DescribedObject.Kind != "Pod" {
				continue
			}
			key := [2]string{cm.Metric.Name, cm.DescribedObject.Name}
			if _, seen := e.cmIndex[key]; !seen {
				e.cmIndex[key] = i
			}
		}
	}
	if i, ok := e.cmIndex[[2]string{name, pod}]; ok {
		return i
	}
	return -1
}

// ensurePodMetrics returns p's PodMetrics, creating a sample for it (zero
// usage in each container) when it has none.
func (e *editor) ensurePodMetrics(p *corev1.Pod) *metricsv1beta1.PodMetrics {
	if pm := e.podMetrics(p.Name); pm != nil {
		return pm
	}
	pm := metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, Labels: maps.Clone(p.Labels)},
		Timestamp:  metav1.NewTime(e.sampleTime),
		Window:     metav1.Duration{Duration: e.sampleWindow},
	}
	for _, c := range usageContainers(p) {
		pm.Containers = append(pm.Containers, metricsv1beta1.ContainerMetrics{Name: c.Name, Usage: corev1.ResourceList{}})
	}
	e.snap.PodMetrics = append(e.snap.PodMetrics, pm)
	if e.pmIndex != nil {
		e.pmIndex[pm.Name] = len(e.snap.PodMetrics) - 1
	}
	return &e.snap.PodMetrics[len(e.snap.PodMetrics)-1]
}

func (e *editor) customFor(pod string) []custommetricsv1beta2.MetricValue {
	var out []custommetricsv1beta2.MetricValue
	for i := range e.snap.CustomMetrics {
		cm := &e.snap.CustomMetrics[i]
		if cm.DescribedObject.Kind == "Pod" && cm.DescribedObject.Name == pod {
			out = append(out, *cm)
		}
	}
	return out
}

// dropSamples removes the samples of the named pods.
func (e *editor) dropSamples(pods map[string]bool) {
	if len(pods) == 0 {
		return
	}
	e.pmIndex, e.cmIndex = nil, nil
	pms := e.snap.PodMetrics[:0]
	for _, pm := range e.snap.PodMetrics {
		if !pods[pm.Name] {
			pms = append(pms, pm)
		}
	}
	e.snap.PodMetrics = pms
	cms := e.snap.CustomMetrics[:0]
	for _, cm := range e.snap.CustomMetrics {
		if !(cm.DescribedObject.Kind == "Pod" && pods[cm.DescribedObject.Name]) {
			cms = append(cms, cm)
		}
	}
	e.snap.CustomMetrics = cms
}

// setPodsSample sets pod p's value of the Pods metric name, creating the
// sample if needed.
func (e *editor) setPodsSample(p *corev1.Pod, name string, milli int64) {
	if i := e.podsSampleIndex(p.Name, name); i >= 0 {
		e.snap.CustomMetrics[i].Value = *resource.NewMilliQuantity(milli, resource.DecimalSI)
		return
	}
	e.cmIndex[[2]string{name, p.Name}] = len(e.snap.CustomMetrics)
	e.snap.CustomMetrics = append(e.snap.CustomMetrics, custommetricsv1beta2.MetricValue{
		DescribedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "/v1", Name: p.Name, Namespace: p.Namespace},
		Metric:          custommetricsv1beta2.MetricIdentifier{Name: name},
		Timestamp:       metav1.NewTime(e.sampleTime),
		Value:           *resource.NewMilliQuantity(milli, resource.DecimalSI),
	})
}

func quantity(res corev1.ResourceName, milli int64) resource.Quantity {
	if res == corev1.ResourceMemory && milli%1000 == 0 {
		return *resource.NewQuantity(milli/1000, resource.BinarySI)
	}
	return *resource.NewMilliQuantity(milli, resource.DecimalSI)
}

// usage applies --cpu or --memory.
func (e *editor) usage(field Field, res corev1.ResourceName, u *UsageOverride) error {
	if u == nil {
		return nil
	}
	fe := func(format string, args ...any) *FieldError {
		err := fieldErr(field, u.Change.Text, format, args...)
		if u.Container != "" {
			err.Value = u.Container + "=" + u.Change.Text
		}
		err.Assigned = true
		return err
	}
	if !engine.HasResourceMetric(e.snap.HPA, res) {
		return fe("the %s has no %s metric, so its usage changes nothing (its metrics: %s)", e.hpaName(), res, metricNames(e.snap.HPA))
	}
	pods := e.measuredPods()
	if len(pods) == 0 {
		return fe("the target has no running pods")
	}
	if u.Container != "" && !anyContainer(pods, u.Container) {
		return fe("no running pod of the target has a container named %q", u.Container)
	}
	if u.Change.Kind == OfRequest {
		if err := e.checkRequests(fe(""), res, u.Container); err != nil {
			return err
		}
	}
	before, beforeN := e.averageUsage(pods, res, u.Container)
	var skipped, created int
	for _, p := range pods {
		if u.Change.Kind == Relative && e.podMetrics(p.Name) == nil {
			skipped++
			continue
		}
		if e.podMetrics(p.Name) == nil {
			created++
		}
		pm := e.ensurePodMetrics(p)
		setPodUsage(p, pm, res, u)
	}
	after, _ := e.averageUsage(pods, res, u.Container)
	what := res.String() + " usage"
	if u.Container != "" {
		what += " of container " + u.Container
	}
	var how string
	switch u.Change.Kind {
	case Absolute:
		how = u.Change.Value.String() + " per pod"
		if u.Container == "" && len(usageContainers(pods[0])) > 1 {
			how += " (split over the containers in proportion to their requests)"
		}
	case Relative:
		how = u.Change.Text + " on every pod"
	case OfRequest:
		how = fmt.Sprintf("%v%% of the request on every pod", u.Change.Percent)
	}
	s := fmt.Sprintf("%s: %s, %s on average (was %s over %d pods with a sample)", what, how, milliWords(res, after), milliWords(res, before), beforeN)
	if created > 0 {
		s += fmt.Sprintf("; %d pod(s) without a sample get one", created)
	}
	if skipped > 0 {
		s += fmt.Sprintf("; %d pod(s) without a sample stay missing", skipped)
	}
	e.changes = append(e.changes, s)
	return nil
}

func anyContainer(pods []*corev1.Pod, name string) bool {
	for _, p := range pods {
		for _, c := range usageContainers(p) {
			if c.Name == name {
				return true
			}
		}
	}
	return false
}

// setPodUsage writes u into pm for pod p.
func setPodUsage(p *corev1.Pod, pm *metricsv1beta1.PodMetrics, res corev1.ResourceName, u *UsageOverride) {
	containers := usageContainers(p)
	entry := func(name string) *metricsv1beta1.ContainerMetrics {
		for i := range pm.Containers {
			if pm.Containers[i].Name == name {
				if pm.Containers[i].Usage == nil {
					pm.Containers[i].Usage = corev1.ResourceList{}
				}
				return &pm.Containers[i]
			}
		}
		pm.Containers = append(pm.Containers, metricsv1beta1.ContainerMetrics{Name: name, Usage: corev1.ResourceList{}})
		return &pm.Containers[len(pm.Containers)-1]
	}
	current := func(c *metricsv1beta1.ContainerMetrics) int64 {
		q := c.Usage[res]
		return q.MilliValue()
	}
	request := func(c *corev1.Container) int64 {
		q := c.Resources.Requests[res]
		return q.MilliValue()
	}
	switch {
	case u.Change.Kind == OfRequest:
		for _, c := range containers {
			if u.Container != "" && c.Name != u.Container {
				continue
			}
			v := saturate(float64(request(c)) * u.Change.Percent / 100)
			entry(c.Name).Usage[res] = quantity(res, v)
		}
	case u.Change.Kind == Relative:
		for _, c := range containers {
			if u.Container != "" && c.Name != u.Container {
				continue
			}
			ce := entry(c.Name)
			ce.Usage[res] = quantity(res, u.Change.apply(current(ce)))
		}
	case u.Container != "":
		for _, c := range containers {
			if c.Name == u.Container {
				entry(c.Name).Usage[res] = quantity(res, u.Change.Value.MilliValue())
			}
		}
	default:
		// The pod's total, split over its containers by request (evenly
		// when some container has none).
		total := u.Change.Value.MilliValue()
		var reqSum int64
		allReq := true
		for _, c := range containers {
			r := request(c)
			if r <= 0 {
				allReq = false
			}
			reqSum += r
		}
		var given int64
		for i, c := range containers {
			var v int64
			switch {
			case i == len(containers)-1:
				v = total - given
			case allReq && reqSum > 0:
				v = mulDiv(total, request(c), reqSum)
			default:
				v = total / int64(len(containers))
			}
			given += v
			entry(c.Name).Usage[res] = quantity(res, v)
		}
	}
}

// mulDiv is a*b/c (truncated, as integer division) for a non-zero c,
// without the overflow of a*b; a result beyond int64 saturates at
// ±maxMilli.
func mulDiv(a, b, c int64) int64 {
	q := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
	q.Quo(q, big.NewInt(c))
	switch {
	case q.IsInt64():
		return q.Int64()
	case q.Sign() < 0:
		return -maxMilli
	default:
		return maxMilli
	}
}

// averageUsage is the mean per-pod usage over the pods with a sample.
func (e *editor) averageUsage(pods []*corev1.Pod, res corev1.ResourceName, container string) (avg int64, n int) {
	var sum int64
	for _, p := range pods {
		pm := e.podMetrics(p.Name)
		if pm == nil {
			continue
		}
		for _, c := range pm.Containers {
			if container != "" && c.Name != container {
				continue
			}
			q := c.Usage[res]
			sum += q.MilliValue()
		}
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return sum / int64(n), n
}

func milliWords(res corev1.ResourceName, milli int64) string {
	q := quantity(res, milli)
	if res == corev1.ResourceMemory {
		q = *resource.NewQuantity((milli+999)/1000, resource.BinarySI)
	}
	return q.String()
}

// ---- metric values ----

func (e *editor) podsMetrics(o *Overrides) error {
	for _, mo := range o.Pods {
		if !engine.HasPodsMetric(e.snap.HPA, mo.Name) {
			return fieldErr(FieldMetric, mo.Name+"="+mo.Change.Text, "the %s has no Pods metric named %q (its metrics: %s)", e.hpaName(), mo.Name, metricNames(e.snap.HPA))
		}
		pods := e.measuredPods()
		var n, skipped int
		for _, p := range pods {
			cur, found := e.podsSample(p.Name, mo.Name)
			if !found && mo.Change.Kind == Relative {
				skipped++
				continue
			}
			e.setPodsSample(p, mo.Name, mo.Change.apply(cur))
			n++
		}
		delete(e.snap.APIErrors, "pods:"+mo.Name)
		s := fmt.Sprintf("pods metric %s: %s on %d pod(s)", mo.Name, valueWords(mo.Change), n)
		if skipped > 0 {
			s += fmt.Sprintf(" (%d pod(s) without a sample stay missing)", skipped)
		}
		e.changes = append(e.changes, s)
	}
	return nil
}

func (e *editor) podsSample(pod, name string) (int64, bool) {
	if i := e.podsSampleIndex(pod, name); i >= 0 {
		return e.snap.CustomMetrics[i].Value.MilliValue(), true
	}
	return 0, false
}

func valueWords(c Change) string {
	if c.Kind == Relative {
		return c.Text
	}
	return c.Value.String()
}

func (e *editor) objectMetrics(o *Overrides) error {
	for _, mo := range o.Objects {
		found := false
		for _, m := range e.snap.HPA.Spec.Metrics {
			if m.Type != autoscalingv2.ObjectMetricSourceType || m.Object == nil || m.Object.Metric.Name != mo.Name {
				continue
			}
			found = true
			if err := e.setObject(mo, m.Object); err != nil {
				return err
			}
		}
		if !found {
			return fieldErr(FieldObject, mo.Name+"="+mo.Change.Text, "the %s has no Object metric named %q (its metrics: %s)", e.hpaName(), mo.Name, metricNames(e.snap.HPA))
		}
		delete(e.snap.APIErrors, "object:"+mo.Name)
	}
	return nil
}

func (e *editor) setObject(mo MetricOverride, src *autoscalingv2.ObjectMetricSource) error {
	ref := src.DescribedObject
	ns := e.snap.HPA.Namespace
	wantName := ref.Name
	if ref.Kind == "Namespace" {
		wantName = ns
	}
	var idx []int
	for i := range e.snap.CustomMetrics {
		cm := &e.snap.CustomMetrics[i]
		if cm.Metric.Name == mo.Name && cm.DescribedObject.Kind == ref.Kind && cm.DescribedObject.Name == wantName {
			idx = append(idx, i)
		}
	}
	obj := ref.Kind + "/" + ref.Name
	if len(idx) == 0 {
		if mo.Change.Kind == Relative {
			return fieldErr(FieldObject, mo.Name+"="+mo.Change.Text, "the metric has no current value for %s to change relatively; give a value", obj)
		}
		objNS := ns
		if ref.Kind == "Namespace" {
			objNS = ""
		}
		e.snap.CustomMetrics = append(e.snap.CustomMetrics, custommetricsv1beta2.MetricValue{
			DescribedObject: corev1.ObjectReference{Kind: ref.Kind, APIVersion: ref.APIVersion, Name: wantName, Namespace: objNS},
			Metric:          custommetricsv1beta2.MetricIdentifier{Name: mo.Name},
			Timestamp:       metav1.NewTime(e.sampleTime),
			Value:           *resource.NewMilliQuantity(mo.Change.Value.MilliValue(), resource.DecimalSI),
		})
		e.note("object metric %s of %s: %s (it had no value)", mo.Name, obj, mo.Change.Value.String())
		return nil
	}
	was := e.snap.CustomMetrics[idx[0]].Value.String()
	// The controller asks for exactly one value; keep just the first.
	first := idx[0]
	e.snap.CustomMetrics[first].Value = *resource.NewMilliQuantity(mo.Change.apply(e.snap.CustomMetrics[first].Value.MilliValue()), resource.DecimalSI)
	if len(idx) > 1 {
		drop := map[int]bool{}
		for _, i := range idx[1:] {
			drop[i] = true
		}
		kept := e.snap.CustomMetrics[:0]
		for i, cm := range e.snap.CustomMetrics {
			if !drop[i] {
				kept = append(kept, cm)
			}
		}
		e.snap.CustomMetrics = kept
		e.cmIndex = nil
	}
	e.note("object metric %s of %s: %s (was %s)", mo.Name, obj, e.objectValue(mo.Name, ref.Kind, wantName), was)
	return nil
}

func (e *editor) objectValue(name, kind, obj string) string {
	for _, cm := range e.snap.CustomMetrics {
		if cm.Metric.Name == name && cm.DescribedObject.Kind == kind && cm.DescribedObject.Name == obj {
			return cm.Value.String()
		}
	}
	return "?"
}

func (e *editor) externalMetrics(o *Overrides) error {
	for _, mo := range o.Externals {
		found := false
		for _, m := range e.snap.HPA.Spec.Metrics {
			if m.Type != autoscalingv2.ExternalMetricSourceType || m.External == nil || m.External.Metric.Name != mo.Name {
				continue
			}
			found = true
			if err := e.setExternal(mo, m.External.Metric.Selector); err != nil {
				return err
			}
		}
		if !found {
			return fieldErr(FieldExternal, mo.Name+"="+mo.Change.Text, "the %s has no External metric named %q (its metrics: %s)", e.hpaName(), mo.Name, metricNames(e.snap.HPA))
		}
		delete(e.snap.APIErrors, "external:"+mo.Name)
	}
	return nil
}

// setExternal sets the series of external metric mo.Name that the HPA's
// selector (and mo's labels, if any) match: an absolute value becomes their
// sum, shared in proportion to their current values.
func (e *editor) setExternal(mo MetricOverride, ls *metav1.LabelSelector) error {
	value := mo.Name
	if mo.Labels != nil {
		value += "{" + labelsString(mo.Labels) + "}"
	}
	value += "=" + mo.Change.Text
	sel := labels.Everything()
	if ls != nil {
		s, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			return fieldErr(FieldExternal, value, "the metric's selector: %v", err)
		}
		sel = s
	}
	want := labels.SelectorFromSet(mo.Labels)
	var idx []int
	for i := range e.snap.ExternalMetrics {
		ev := &e.snap.ExternalMetrics[i]
		if ev.MetricName == mo.Name && sel.Matches(labels.Set(ev.MetricLabels)) && want.Matches(labels.Set(ev.MetricLabels)) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		if mo.Change.Kind == Relative {
			return fieldErr(FieldExternal, value, "no series of the metric has a value to change relatively; give a value")
		}
		lbls := map[string]string{}
		if ls != nil {
			for k, v := range ls.MatchLabels {
				lbls[k] = v
			}
		}
		for k, v := range mo.Labels {
			lbls[k] = v
		}
		if !sel.Matches(labels.Set(lbls)) {
			return fieldErr(FieldExternal, value, "a new series labelled {%s} would not match the metric's selector %q; give its labels as %s{LABEL=VALUE,...}=VALUE", labelsString(lbls), sel.String(), mo.Name)
		}
		e.snap.ExternalMetrics = append(e.snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{
			MetricName: mo.Name, MetricLabels: lbls, Timestamp: metav1.NewTime(e.sampleTime),
			Value: *resource.NewMilliQuantity(mo.Change.Value.MilliValue(), resource.DecimalSI),
		})
		e.note("external metric %s{%s}: %s (a new series)", mo.Name, labelsString(lbls), mo.Change.Value.String())
		return nil
	}
	var sum int64
	for _, i := range idx {
		sum += e.snap.ExternalMetrics[i].Value.MilliValue()
	}
	if mo.Change.Kind == Relative {
		for _, i := range idx {
			ev := &e.snap.ExternalMetrics[i]
			ev.Value = *resource.NewMilliQuantity(mo.Change.apply(ev.Value.MilliValue()), resource.DecimalSI)
		}
	} else {
		total := mo.Change.Value.MilliValue()
		var given int64
		for k, i := range idx {
			ev := &e.snap.ExternalMetrics[i]
			var v int64
			switch {
			case k == len(idx)-1:
				v = total - given
			case sum > 0:
				v = mulDiv(total, ev.Value.MilliValue(), sum)
			default:
				v = total / int64(len(idx))
			}
			given += v
			ev.Value = *resource.NewMilliQuantity(v, resource.DecimalSI)
		}
	}
	var now int64
	for _, i := range idx {
		now += e.snap.ExternalMetrics[i].Value.MilliValue()
	}
	s := fmt.Sprintf("external metric %s: %s (was %s)", mo.Name, resource.NewMilliQuantity(now, resource.DecimalSI).String(), resource.NewMilliQuantity(sum, resource.DecimalSI).String())
	if len(idx) > 1 {
		s += fmt.Sprintf(", the sum of %d series, shared in proportion to their values", len(idx))
	}
	e.changes = append(e.changes, s)
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
	for _, m := range hpa.Spec.Metrics {
		switch {
		case m.Resource != nil:
			out = append(out, fmt.Sprintf("%s (Resource)", m.Resource.Name))
		case m.ContainerResource != nil:
			out = append(out, fmt.Sprintf("%s of container %s (ContainerResource)", m.ContainerResource.Name, m.ContainerResource.Container))
		case m.Pods != nil:
			out = append(out, fmt.Sprintf("%s (Pods)", m.Pods.Metric.Name))
		case m.Object != nil:
			out = append(out, fmt.Sprintf("%s (Object)", m.Object.Metric.Name))
		case m.External != nil:
			out = append(out, fmt.Sprintf("%s (External)", m.External.Metric.Name))
		default:
			out = append(out, string(m.Type))
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
