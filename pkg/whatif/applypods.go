// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

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

// podCompare is podOrder as a comparison.
func podCompare(a, b *corev1.Pod) int {
	switch {
	case podOrder(a, b):
		return -1
	case podOrder(b, a):
		return 1
	}
	return 0
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
