// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"maps"
	"math/big"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

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
