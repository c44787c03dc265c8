// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

var errNoPods = errors.New("no pods returned by selector while calculating replica count")

// calculator mirrors upstream's ReplicaCalculator over a snapshot. Every
// method also records what it did in the metric's trace.
type calculator struct {
	api            *metricsAPI
	pods           []*corev1.Pod
	now            time.Time
	cpuInit        time.Duration
	readinessDelay time.Duration
	// sw are the switches of the controller version replayed.
	sw profile.Switches
	// foreign names selected pods the target does not own (explanation only).
	foreign map[string]string
	// brief leaves out the per-pod entries and the step narratives
	// (Settings.Brief).
	brief bool
	// outcomeOnly leaves out the pod accounting too
	// (Settings.OutcomeOnly).
	outcomeOnly bool
	// sc lends the calculations their maps (nil: allocate).
	sc *scratch
}

// utilization is the outcome of one utilization computation.
type utilization struct {
	ratio      float64
	util       int32
	rawAvg     int64
	sumU, sumR int64
	// count is the number of samples summed (those with a request).
	count int
}

// utilizationRatio is upstream's GetResourceUtilizationRatio: samples without
// a request (pods not listed) are skipped; the percentage is truncated before
// the ratio is taken.
func utilizationRatio(samples podSamples, requests map[string]int64, target int32) (utilization, error) {
	var u utilization
	n := 0
	for name, s := range samples {
		req, ok := requests[name]
		if !ok {
			continue
		}
		u.sumU += s.value
		u.sumR += req
		n++
	}
	if u.sumR == 0 {
		return u, errors.New("no metrics returned matched known pods")
	}
	u.util = int32((u.sumU * 100) / u.sumR)
	u.ratio = float64(u.util) / float64(target)
	u.rawAvg = u.sumU / int64(n)
	u.count = n
	return u, nil
}

// usageRatio is upstream's GetMetricUsageRatio: a plain average over every
// sample, superfluous ones included.
func usageRatio(samples podSamples, target int64) (ratio float64, avg, sum int64) {
	for _, s := range samples {
		sum += s.value
	}
	avg = sum / int64(len(samples))
	return float64(avg) / float64(target), avg, sum
}

func removeSamples(samples podSamples, set map[string]struct{}) {
	for name := range set {
		delete(samples, name)
	}
}

// accounting builds the per-pod table of a pod-based calculation.
// accounting classifies the calculator's pods; brief, only counts them.
func (c *calculator) accounting(g podGroups, samples podSamples, requests map[string]int64) *explain.PodAccounting {
	if c.outcomeOnly {
		return nil
	}
	if c.brief {
		acc := &explain.PodAccounting{Listed: len(c.pods), Ready: g.readyCount, Unready: len(g.unready), Missing: len(g.missing), Ignored: len(g.ignored)}
		listed := c.api.listed()
		for name := range samples {
			if _, ok := listed[name]; !ok {
				acc.Superfluous++
			}
		}
		return acc
	}
	return accounting(c.pods, g, samples, requests, c.foreign)
}

func accounting(pods []*corev1.Pod, g podGroups, samples podSamples, requests map[string]int64, foreign map[string]string) *explain.PodAccounting {
	acc := &explain.PodAccounting{Listed: len(pods), Ready: g.readyCount, Unready: len(g.unready), Missing: len(g.missing), Ignored: len(g.ignored)}
	listed := map[string]struct{}{}
	for _, p := range pods {
		listed[p.Name] = struct{}{}
		e := explain.PodEntry{Name: p.Name, Class: g.class[p.Name], Reason: g.reason[p.Name], ForeignOwner: foreign[p.Name]}
		if e.ForeignOwner != "" {
			note := "selected but not owned by the target (owner: " + e.ForeignOwner + ")"
			if e.Reason != "" {
				note = e.Reason + "; " + note
			}
			e.Reason = note
		}
		if s, ok := samples[p.Name]; ok {
			v := s.value
			e.UsageMilli = &v
		}
		if r, ok := requests[p.Name]; ok {
			v := r
			e.RequestMilli = &v
		}
		acc.Entries = append(acc.Entries, e)
	}
	var extra []string
	for name := range samples {
		if _, ok := listed[name]; !ok {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		v := samples[name].value
		acc.Entries = append(acc.Entries, explain.PodEntry{Name: name, Class: explain.PodSuperfluous, Reason: "metric sample for a pod the selector does not list", UsageMilli: &v})
	}
	acc.Superfluous = len(extra)
	return acc
}

// setFillIn records the value the fill-in gave a pod. Entries are in pod
// list order, so the index is found through a map built once per metric.
func setFillIn(acc *explain.PodAccounting, index map[string]int, name string, v int64) {
	if acc == nil {
		return
	}
	if i, ok := index[name]; ok {
		val := v
		acc.Entries[i].FillInMilli = &val
	}
}

func entryIndex(acc *explain.PodAccounting) map[string]int {
	if acc == nil {
		return nil
	}
	index := make(map[string]int, len(acc.Entries))
	for i := range acc.Entries {
		index[acc.Entries[i].Name] = i
	}
	return index
}

func sortedNames(set map[string]struct{}) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// getResourceReplicas mirrors GetResourceReplicas: a utilization target on a
// resource of the pods (optionally one container).
func (c *calculator) getResourceReplicas(cur, target int32, resource corev1.ResourceName, tol tolerances, container string, tr *explain.MetricResult) (int32, int32, int64, time.Time, error) {
	samples, ts, err := c.api.resourceMetric(resource, c.selectorPlaceholder(), container)
	if err != nil {
		return 0, 0, 0, time.Time{}, fmt.Errorf("unable to get metrics for resource %s: %w", resource, err)
	}
	if len(c.pods) == 0 {
		return 0, 0, 0, time.Time{}, errNoPods
	}
	g := groupPodsIn(c.sc, c.pods, samples, resource, c.cpuInit, c.readinessDelay, c.now, !c.brief)
	all := samples
	if !c.brief {
		// The brief accounting only counts the samples of pods not
		// listed, which the removals below (of listed pods) leave.
		all = samples.clone()
	}
	removeSamples(samples, g.ignored)
	removeSamples(samples, g.unready)
	if len(samples) == 0 {
		tr.Pods = c.accounting(g, all, nil)
		return 0, 0, 0, time.Time{}, errors.New("did not receive metrics for targeted pods (pods might be unready)")
	}
	requests, err := calculateRequestsIn(c.sc, c.pods, container, resource, c.sw)
	if err != nil {
		tr.Pods = c.accounting(g, all, nil)
		return 0, 0, 0, time.Time{}, err
	}
	tr.Pods = c.accounting(g, all, requests)

	u, err := utilizationRatio(samples, requests, target)
	if err != nil {
		return 0, 0, 0, time.Time{}, err
	}
	ratio, util, rawAvg, sumU, sumR := u.ratio, u.util, u.rawAvg, u.sumU, u.sumR
	sr := sumR
	tr.Usage = &explain.Usage{SumMilli: sumU, Count: u.count, RequestSumMilli: &sr, AverageMilli: rawAvg, TargetMilli: int64(target), Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, int64(target)), ReplicaBase: int32(g.readyCount), ReplicaBaseKind: "readyPods"}
	tr.Tolerance = tol.check(ratio)
	if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("utilization = floor(100 × %dm used / %dm requested) = %d%% against a target of %d%%: ratio %.4g", sumU, sumR, util, target, ratio))
	}

	scaleUpWithUnready := len(g.unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(g.missing) == 0 {
		if tol.isWithin(ratio) {
			if !c.brief {
				tr.Steps = append(tr.Steps, fmt.Sprintf("ratio %.4g is %s: keep %d replicas", ratio, tol.within(ratio), cur))
			}
			return cur, util, rawAvg, ts, nil
		}
		n := ceilInt32(ratio * float64(g.readyCount))
		tr.Usage.Replicas = &n
		if !c.brief {
			tr.Steps = append(tr.Steps, fmt.Sprintf("ceil(%.4g × %d ready pods) = %d", ratio, g.readyCount, n))
		}
		return n, util, rawAvg, ts, nil
	}

	fi := &explain.FillIn{MissingFilledWith: "absent"}
	fi.Reason = fillInReason(len(g.missing), len(g.unready), scaleUpWithUnready)
	index := entryIndex(tr.Pods)
	if len(g.missing) > 0 {
		switch {
		case ratio < 1.0:
			fallback := int64(max(100, target))
			fi.MissingFilledWith = fmt.Sprintf("%d%% of request", fallback)
			for name := range g.missing {
				v := requests[name] * fallback / 100
				samples[name] = podSample{value: v}
				setFillIn(tr.Pods, index, name, v)
			}
		case ratio > 1.0:
			fi.MissingFilledWith = "0"
			for name := range g.missing {
				samples[name] = podSample{value: 0}
				setFillIn(tr.Pods, index, name, 0)
			}
		}
	}
	if scaleUpWithUnready {
		fi.UnreadyFilledAsZero = true
		for name := range g.unready {
			samples[name] = podSample{value: 0}
			setFillIn(tr.Pods, index, name, 0)
		}
	}
	nu, err := utilizationRatio(samples, requests, target)
	if err != nil {
		return 0, util, rawAvg, time.Time{}, err
	}
	newRatio := nu.ratio
	fi.NewUtilization = &nu.util
	return c.finishFillIn(tr, fi, cur, ratio, newRatio, len(samples), tol, util, rawAvg, ts)
}

func fillInReason(missing, unready int, scaleUpWithUnready bool) string {
	switch {
	case missing > 0 && scaleUpWithUnready:
		return fmt.Sprintf("%d pod(s) have no metric and %d unready pod(s) would join a scale-up", missing, unready)
	case missing > 0:
		return fmt.Sprintf("%d pod(s) have no metric", missing)
	default:
		return fmt.Sprintf("scale-up with %d unready pod(s)", unready)
	}
}

// finishFillIn applies the rules after the conservative recomputation: keep
// cur when within tolerance, when the direction flips, or when the new count
// moves the wrong way.
func (c *calculator) finishFillIn(tr *explain.MetricResult, fi *explain.FillIn, cur int32, ratio, newRatio float64, samples int, tol tolerances, util int32, raw int64, ts time.Time) (int32, int32, int64, time.Time, error) {
	fi.NewRatio = explain.Ratio(newRatio)
	fi.Samples = samples
	fi.Within = tol.isWithin(newRatio)
	fi.DirectionFlip = (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0)
	tr.FillIn = fi
	if fi.Within || fi.DirectionFlip {
		fi.Result = cur
		if fi.Within {
			if !c.brief {
				tr.Steps = append(tr.Steps, fmt.Sprintf("after the fill-in the ratio is %.4g, %s: keep %d replicas", newRatio, tol.within(newRatio), cur))
			}
		} else {
			if !c.brief {
				tr.Steps = append(tr.Steps, fmt.Sprintf("after the fill-in the ratio %.4g points the other way than %.4g: keep %d replicas", newRatio, ratio, cur))
			}
		}
		return cur, util, raw, ts, nil
	}
	n := ceilInt32(newRatio * float64(samples))
	fi.NewReplicas = &n
	if (newRatio < 1.0 && n > cur) || (newRatio > 1.0 && n < cur) {
		fi.WrongWay = true
		fi.Result = cur
		if !c.brief {
			tr.Steps = append(tr.Steps, fmt.Sprintf("ceil(%.4g × %d samples) = %d would move against the ratio: keep %d replicas", newRatio, samples, n, cur))
		}
		return cur, util, raw, ts, nil
	}
	fi.Result = n
	if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("after the fill-in: ceil(%.4g × %d samples) = %d", newRatio, samples, n))
	}
	return n, util, raw, ts, nil
}

// selectorPlaceholder returns the selector the pods were listed with.
func (c *calculator) selectorPlaceholder() labels.Selector { return c.api.selector }

// getRawResourceReplicas mirrors GetRawResourceReplicas: an average-value
// target on a resource.
func (c *calculator) getRawResourceReplicas(cur int32, target int64, resource corev1.ResourceName, tol tolerances, container string, tr *explain.MetricResult) (int32, int64, time.Time, error) {
	samples, ts, err := c.api.resourceMetric(resource, c.selectorPlaceholder(), container)
	if err != nil {
		return 0, 0, time.Time{}, fmt.Errorf("unable to get metrics for resource %s: %w", resource, err)
	}
	n, usage, err := c.plainReplicas(samples, cur, target, tol, resource, tr)
	return n, usage, ts, err
}

// getMetricReplicas mirrors GetMetricReplicas: a Pods metric.
func (c *calculator) getMetricReplicas(cur int32, target int64, name string, tol tolerances, tr *explain.MetricResult) (int32, int64, time.Time, error) {
	samples, ts, err := c.api.podsMetric(name)
	if err != nil {
		return 0, 0, time.Time{}, fmt.Errorf("unable to get metric %s: %w", name, err)
	}
	n, usage, err := c.plainReplicas(samples, cur, target, tol, "", tr)
	return n, usage, ts, err
}

// plainReplicas mirrors calcPlainMetricReplicas.
func (c *calculator) plainReplicas(samples podSamples, cur int32, target int64, tol tolerances, resource corev1.ResourceName, tr *explain.MetricResult) (int32, int64, error) {
	if len(c.pods) == 0 {
		return 0, 0, errNoPods
	}
	g := groupPodsIn(c.sc, c.pods, samples, resource, c.cpuInit, c.readinessDelay, c.now, !c.brief)
	all := samples
	if !c.brief {
		// The brief accounting only counts the samples of pods not
		// listed, which the removals below (of listed pods) leave.
		all = samples.clone()
	}
	removeSamples(samples, g.ignored)
	removeSamples(samples, g.unready)
	tr.Pods = c.accounting(g, all, nil)
	if len(samples) == 0 {
		return 0, 0, errors.New("did not receive metrics for targeted pods (pods might be unready)")
	}
	ratio, avg, sum := usageRatio(samples, target)
	tr.Usage = &explain.Usage{SumMilli: sum, Count: len(samples), AverageMilli: avg, TargetMilli: target, Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, target), ReplicaBase: int32(g.readyCount), ReplicaBaseKind: "readyPods"}
	tr.Tolerance = tol.check(ratio)
	if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("average = %dm / %d samples = %dm against a target of %dm: ratio %.4g", sum, len(samples), avg, target, ratio))
	}

	scaleUpWithUnready := len(g.unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(g.missing) == 0 {
		if tol.isWithin(ratio) {
			if !c.brief {
				tr.Steps = append(tr.Steps, fmt.Sprintf("ratio %.4g is %s: keep %d replicas", ratio, tol.within(ratio), cur))
			}
			return cur, avg, nil
		}
		n := ceilInt32(ratio * float64(g.readyCount))
		tr.Usage.Replicas = &n
		if !c.brief {
			tr.Steps = append(tr.Steps, fmt.Sprintf("ceil(%.4g × %d ready pods) = %d", ratio, g.readyCount, n))
		}
		return n, avg, nil
	}
	fi := &explain.FillIn{MissingFilledWith: "absent"}
	fi.Reason = fillInReason(len(g.missing), len(g.unready), scaleUpWithUnready)
	index := entryIndex(tr.Pods)
	if len(g.missing) > 0 {
		switch {
		case ratio < 1.0:
			fi.MissingFilledWith = "target"
			for name := range g.missing {
				samples[name] = podSample{value: target}
				setFillIn(tr.Pods, index, name, target)
			}
		case ratio > 1.0:
			fi.MissingFilledWith = "0"
			for name := range g.missing {
				samples[name] = podSample{value: 0}
				setFillIn(tr.Pods, index, name, 0)
			}
		}
	}
	if scaleUpWithUnready {
		fi.UnreadyFilledAsZero = true
		for name := range g.unready {
			samples[name] = podSample{value: 0}
			setFillIn(tr.Pods, index, name, 0)
		}
	}
	newRatio, newAvg, _ := usageRatio(samples, target)
	fi.NewAverageMilli = &newAvg
	n, _, _, _, err := c.finishFillIn(tr, fi, cur, ratio, newRatio, len(samples), tol, 0, avg, time.Time{})
	return n, avg, err
}

// readyPodsCount counts Running pods whose Ready condition is True.
func (c *calculator) readyPodsCount() (int64, error) {
	if len(c.pods) == 0 {
		return 0, errNoPods
	}
	var n int64
	for _, p := range c.pods {
		if podIsRunningAndReady(p) {
			n++
		}
	}
	return n, nil
}

// undefinedRatio says why a ratio is not a number, for
// Usage.RatioUndefined: a zero target, or a per-pod ratio over zero
// replicas (the only other divisor the calculators use).
func undefinedRatio(ratio float64, target int64) string {
	switch {
	case !math.IsNaN(ratio) && !math.IsInf(ratio, 0):
		return ""
	case target == 0:
		return explain.RatioZeroTarget
	default:
		return explain.RatioFromZero
	}
}

// usageRatioReplicaCount mirrors getUsageRatioReplicaCount (Value targets).
func (c *calculator) usageRatioReplicaCount(cur int32, ratio float64, tol tolerances, tr *explain.MetricResult) (int32, error) {
	tr.Tolerance = tol.check(ratio)
	if cur == 0 {
		n := ceilInt32(ratio)
		tr.Tolerance = nil
		if !c.brief {
			tr.Steps = append(tr.Steps, fmt.Sprintf("the target is at 0 replicas: ceil(ratio %.4g) = %d, no tolerance applies", ratio, n))
		}
		return n, nil
	}
	if tol.isWithin(ratio) {
		if !c.brief {
			tr.Steps = append(tr.Steps, fmt.Sprintf("ratio %.4g is %s: keep %d replicas", ratio, tol.within(ratio), cur))
		}
		return cur, nil
	}
	ready, err := c.readyPodsCount()
	if err != nil {
		return 0, fmt.Errorf("unable to calculate ready pods: %w", err)
	}
	if tr.Usage != nil {
		tr.Usage.ReplicaBase = int32(ready)
		tr.Usage.ReplicaBaseKind = "runningReadyPods"
	}
	f := ratio * float64(ready)
	var n int32
	if f > math.MaxInt32 && c.sw.UsageRatioReplicaCap {
		n = math.MaxInt32
	} else {
		n = ceilInt32(f)
		if tr.Usage != nil {
			tr.Usage.Replicas = &n
		}
	}
	if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("ceil(%.4g × %d Running and Ready pods) = %d", ratio, ready, n))
	}
	return n, nil
}

// getObjectMetricReplicas mirrors GetObjectMetricReplicas (Object, Value).
func (c *calculator) getObjectMetricReplicas(cur int32, target int64, name string, tol tolerances, ref *autoscalingv2.CrossVersionObjectReference, tr *explain.MetricResult) (int32, int64, time.Time, error) {
	usage, _, err := c.api.objectMetric(name, ref)
	if err != nil {
		return 0, 0, time.Time{}, c.objectMetricError(name, ref, err)
	}
	ratio := float64(usage) / float64(target)
	tr.Usage = &explain.Usage{SumMilli: usage, Count: 1, AverageMilli: usage, TargetMilli: target, Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, target), ReplicaBase: cur, ReplicaBaseKind: "specReplicas"}
	if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("value %dm against a target of %dm: ratio %.4g", usage, target, ratio))
	}
	n, err := c.usageRatioReplicaCount(cur, ratio, tol, tr)
	return n, usage, time.Time{}, err
}

// objectMetricError words a failed Object metric query as the controller
// version does.
func (c *calculator) objectMetricError(name string, ref *autoscalingv2.CrossVersionObjectReference, err error) error {
	if c.sw.ObjectMetricErrorReordered {
		return fmt.Errorf("unable to get metric %s on %s %s/%s: %w", name, ref.Kind, c.api.namespace, ref.Name, err)
	}
	// Before v1.37 the format arguments are out of order; this is the text
	// those versions print.
	return fmt.Errorf("unable to get metric %s: %v on %s %s/%w", name, ref.Kind, c.api.namespace, ref.Name, err)
}

// getObjectPerPodMetricReplicas mirrors GetObjectPerPodMetricReplicas
// (Object, AverageValue), which works from status.replicas.
func (c *calculator) getObjectPerPodMetricReplicas(statusReplicas int32, target int64, name string, tol tolerances, ref *autoscalingv2.CrossVersionObjectReference, tr *explain.MetricResult) (int32, int64, time.Time, error) {
	usage, ts, err := c.api.objectMetric(name, ref)
	if err != nil {
		return 0, 0, time.Time{}, c.objectMetricError(name, ref, err)
	}
	n := statusReplicas
	ratio := float64(usage) / (float64(target) * float64(n))
	tr.Usage = &explain.Usage{SumMilli: usage, Count: 1, AverageMilli: usage, TargetMilli: target, Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, target), ReplicaBase: statusReplicas, ReplicaBaseKind: "statusReplicas"}
	tr.Tolerance = tol.check(ratio)
	if !c.brief {
		tr.Steps = append(tr.Steps, perPodRatioStep("value", usage, target, statusReplicas, ratio))
	}
	if !tol.isWithin(ratio) {
		n = ceilInt32(float64(usage) / float64(target))
		if !c.brief {
			tr.Steps = append(tr.Steps, fmt.Sprintf("ceil(%dm / %dm) = %d", usage, target, n))
		}
	} else if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("ratio is within the tolerance band: keep status.replicas = %d", statusReplicas))
	}
	avg := toInt64(math.Ceil(float64(usage) / float64(statusReplicas)))
	tr.Usage.AverageMilli = avg
	if statusReplicas == 0 {
		if !c.brief {
			tr.Steps = append(tr.Steps, notANumberStep(usage, avg))
		}
	}
	return n, avg, ts, nil
}

// perPodRatioStep narrates a per-pod ratio: what (a value, a sum) over the
// target times the status replicas, or the lack of a ratio at zero
// replicas.
func perPodRatioStep(what string, usage, target int64, replicas int32, ratio float64) string {
	if replicas == 0 {
		return fmt.Sprintf("%s = %dm at 0 status replicas: no per-pod ratio (scaling from zero), so the tolerance holds nothing", what, usage)
	}
	return fmt.Sprintf("%s = %dm / (target %dm × %d status replicas): ratio %.4g", what, usage, target, replicas, ratio)
}

// notANumberStep narrates the per-pod value a calculator writes to the
// status at zero replicas: usage / 0 is not a number, and its conversion
// to int64 gives what the controller (on amd64) writes.
func notANumberStep(usage, written int64) string {
	return fmt.Sprintf("per-pod value %dm / 0 replicas is not a number; converted to int64 it is %dm, which the status gets", usage, written)
}

// externalSelector parses the metric selector; a nil selector asks for every
// series, as an empty query does on the wire.
func externalSelector(sel *metav1.LabelSelector) (labels.Selector, error) {
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return nil, err
	}
	if sel == nil {
		return labels.Everything(), nil
	}
	return s, nil
}

// getExternalMetricReplicas mirrors GetExternalMetricReplicas (External, Value).
func (c *calculator) getExternalMetricReplicas(cur int32, target int64, name string, tol tolerances, sel *metav1.LabelSelector, tr *explain.MetricResult) (int32, int64, time.Time, error) {
	s, err := externalSelector(sel)
	if err != nil {
		return 0, 0, time.Time{}, err
	}
	values, _, err := c.api.externalMetric(name, s)
	if err != nil {
		return 0, 0, time.Time{}, fmt.Errorf("unable to get external metric %s/%s/%+v: %w", c.api.namespace, name, sel, err)
	}
	var usage int64
	for _, v := range values {
		if c.sw.ExternalValueSumCap && v > 0 && usage > math.MaxInt64-v {
			usage = math.MaxInt64
			break
		}
		usage += v // before v1.35 the sum wraps on overflow
	}
	ratio := float64(usage) / float64(target)
	tr.Usage = &explain.Usage{SumMilli: usage, Count: len(values), AverageMilli: usage, TargetMilli: target, Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, target), ReplicaBase: cur, ReplicaBaseKind: "specReplicas"}
	if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("sum of %d series = %dm against a target of %dm: ratio %.4g", len(values), usage, target, ratio))
	}
	n, err := c.usageRatioReplicaCount(cur, ratio, tol, tr)
	return n, usage, time.Time{}, err
}

// getExternalPerPodMetricReplicas mirrors GetExternalPerPodMetricReplicas
// (External, AverageValue), which works from status.replicas.
func (c *calculator) getExternalPerPodMetricReplicas(statusReplicas int32, target int64, name string, tol tolerances, sel *metav1.LabelSelector, tr *explain.MetricResult) (int32, int64, time.Time, error) {
	s, err := externalSelector(sel)
	if err != nil {
		return 0, 0, time.Time{}, err
	}
	values, ts, err := c.api.externalMetric(name, s)
	if err != nil {
		return 0, 0, time.Time{}, fmt.Errorf("unable to get external metric %s/%s/%+v: %w", c.api.namespace, name, sel, err)
	}
	var usage int64
	for _, v := range values {
		usage += v
		if usage < 0 && c.sw.ExternalAverageCaps {
			// The controller's overflow test: any negative running sum.
			usage = math.MaxInt64
			break
		}
	}
	n := statusReplicas
	ratio := float64(usage) / (float64(target) * float64(n))
	tr.Usage = &explain.Usage{SumMilli: usage, Count: len(values), AverageMilli: usage, TargetMilli: target, Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, target), ReplicaBase: statusReplicas, ReplicaBaseKind: "statusReplicas"}
	tr.Tolerance = tol.check(ratio)
	if !c.brief {
		tr.Steps = append(tr.Steps, perPodRatioStep(fmt.Sprintf("sum of %d series", len(values)), usage, target, statusReplicas, ratio))
	}
	if !tol.isWithin(ratio) {
		f := math.Ceil(float64(usage) / float64(target))
		if f > float64(math.MaxInt32) && c.sw.ExternalAverageCaps {
			n = math.MaxInt32
		} else {
			n = toInt32(f)
		}
		if !c.brief {
			tr.Steps = append(tr.Steps, fmt.Sprintf("ceil(%dm / %dm) = %d", usage, target, n))
		}
	} else if !c.brief {
		tr.Steps = append(tr.Steps, fmt.Sprintf("ratio is within the tolerance band: keep status.replicas = %d", statusReplicas))
	}
	var avg int64
	if float64(usage) >= float64(math.MaxInt64) && c.sw.ExternalAverageCaps {
		avg = math.MaxInt64
	} else {
		avg = toInt64(math.Ceil(float64(usage) / float64(statusReplicas)))
		if statusReplicas == 0 {
			if !c.brief {
				tr.Steps = append(tr.Steps, notANumberStep(usage, avg))
			}
		}
	}
	tr.Usage.AverageMilli = avg
	return n, avg, ts, nil
}
