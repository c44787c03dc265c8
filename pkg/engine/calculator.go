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
	// (EvalOptions.Brief).
	brief bool
	// outcomeOnly leaves out the pod accounting too
	// (EvalOptions.OutcomeOnly).
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
	return utilizationOf(samples, func(name string) (int64, bool) {
		req, ok := requests[name]
		return req, ok
	}, target)
}

// utilizationOf is utilizationRatio with the requests read through request.
func utilizationOf(samples podSamples, request func(name string) (int64, bool), target int32) (utilization, error) {
	var u utilization
	n := 0
	for name, s := range samples {
		req, ok := request(name)
		if !ok {
			continue
		}
		u.sumU += s.value
		u.sumR += req
		n++
	}
	return u.of(n, target)
}

// of finishes a utilization from its sums over n samples.
func (u utilization) of(n int, target int32) (utilization, error) {
	if u.sumR == 0 {
		return u, errors.New("no metrics returned matched known pods")
	}
	u.util = int32((u.sumU * 100) / u.sumR)
	u.ratio = float64(u.util) / float64(target)
	u.rawAvg = u.sumU / int64(n)
	u.count = n
	return u, nil
}

// podRequests are the listed pods' requests: by position in the list, and
// by name through the index of the listed names, which gives the last pod
// of a name, whose request the controller's map by name keeps.
type podRequests struct {
	at    []int64
	index map[string]int
}

// of returns the request of the pods named name.
func (r podRequests) of(name string) (int64, bool) {
	i, ok := r.index[name]
	if !ok {
		return 0, false
	}
	return r.at[i], true
}

// utilization is utilizationRatio over the calculator's pods. When every
// name is listed once, the samples with a request are exactly those of the
// listed pods that have one, so it sums them pod by pod (the same sums in
// another order) rather than iterating the samples map.
func (c *calculator) utilization(samples podSamples, requests podRequests, target int32) (utilization, error) {
	if len(requests.index) != len(c.pods) {
		return utilizationOf(samples, requests.of, target)
	}
	var u utilization
	n := 0
	for i, p := range c.pods {
		s, ok := samples[p.Name]
		if !ok {
			continue
		}
		u.sumU += s.value
		u.sumR += requests.at[i]
		n++
	}
	return u.of(n, target)
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

// podMetricRoom is where the explanation of a pod-based metric keeps its
// parts (usage, tolerance test, pod accounting, fill-in) and the figures
// they point to: one allocation per metric rather than one per part.
type podMetricRoom struct {
	usage          explain.Usage
	tolerance      explain.ToleranceCheck
	pods           explain.PodAccounting
	fillIn         explain.FillIn
	requestSum     int64
	newAverage     int64
	replicas       int32
	newUtilization int32
	newReplicas    int32
}

// accounting classifies the calculator's pods into acc and returns it with
// the table the fill-in writes to; brief, it only counts them; outcome-only,
// it leaves them out (nil). samples are those left after the removals of
// the calculation; requestAt, when the requests were computed, gives each
// pod's request by position.
func (c *calculator) accounting(acc *explain.PodAccounting, g podGroups, samples podSamples, requestAt []int64) (*explain.PodAccounting, podTable) {
	if c.outcomeOnly {
		return nil, podTable{}
	}
	*acc = explain.PodAccounting{Listed: len(c.pods), Ready: g.readyCount, Unready: len(g.unready), Missing: len(g.missing), Ignored: len(g.ignored)}
	listed := c.api.listed()
	if c.brief {
		for name := range samples {
			if _, ok := listed[name]; !ok {
				acc.Superfluous++
			}
		}
		return acc, podTable{}
	}
	var extra []string
	// With every name listed once, the samples hold some of pods the
	// selector does not list exactly when there were more samples than
	// listed pods with one.
	if len(listed) < len(c.pods) || g.withSample < g.samples {
		// The removals took samples of listed pods only: those of pods
		// not listed are all still there.
		extra = c.sc.nameList()
		for name := range samples {
			if _, ok := listed[name]; !ok {
				extra = append(extra, name)
			}
		}
		sort.Strings(extra)
		c.sc.keepNames(extra)
	}
	return acc, podEntries(acc, c.pods, g, extra, samples, requestAt, c.foreign, listed)
}

// podTable is the pod accounting of a metric, as the fill-in writes to it.
type podTable struct {
	entries []explain.PodEntry
	// index gives the entry of each listed name.
	index map[string]int
	// fills holds the entries' FillInMilli values, by entry.
	fills []int64
}

// setFillIn records the value the fill-in gave a pod: in the entry of the
// last pod of that name, as the controller's maps by name keep it.
func (t podTable) setFillIn(name string, v int64) {
	if i, ok := t.index[name]; ok && t.entries != nil {
		t.fills[i] = v
		t.entries[i].FillInMilli = &t.fills[i]
	}
}

// podEntries lists the entries of acc: one per listed pod, in list order,
// then one per sample of a pod the selector does not list (extra, sorted).
// A name listed twice shows in each of its entries what the controller's
// maps by name hold for it, those of the last pod of that name (index
// gives its position): its class, sample and request. The figures the
// entries point to share one array.
func podEntries(acc *explain.PodAccounting, pods []*corev1.Pod, g podGroups, extra []string, samples podSamples, requestAt []int64, foreign map[string]string, index map[string]int) podTable {
	n := len(pods)
	if n+len(extra) == 0 {
		return podTable{}
	}
	unique := len(index) == n
	figures := make([]int64, 3*n+len(extra))
	usage, request, fills, extraUsage := figures[:n], figures[n:2*n], figures[2*n:3*n], figures[3*n:]
	acc.Entries = make([]explain.PodEntry, n+len(extra))
	for i, p := range pods {
		last := i
		if !unique {
			last = index[p.Name]
		}
		e, class := &acc.Entries[i], &g.classes[last]
		e.Name, e.Class, e.Reason = p.Name, class.class, class.reason
		if owner := foreign[p.Name]; owner != "" {
			e.ForeignOwner = owner
			note := "selected but not owned by the target (owner: " + owner + ")"
			if e.Reason != "" {
				note = e.Reason + "; " + note
			}
			e.Reason = note
		}
		if class.hasSample {
			usage[i] = class.sample
			e.UsageMilli = &usage[i]
		}
		if requestAt != nil {
			request[i] = requestAt[last]
			e.RequestMilli = &request[i]
		}
	}
	for j, name := range extra {
		extraUsage[j] = samples[name].value
		acc.Entries[n+j] = explain.PodEntry{Name: name, Class: explain.PodSuperfluous, Reason: "metric sample for a pod the selector does not list", UsageMilli: &extraUsage[j]}
	}
	acc.Superfluous = len(extra)
	return podTable{entries: acc.Entries, index: index, fills: fills}
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
	room := new(podMetricRoom)
	g := groupPodsIn(c.sc, c.pods, samples, resource, c.cpuInit, c.readinessDelay, c.now, !c.brief)
	removeSamples(samples, g.ignored)
	removeSamples(samples, g.unready)
	if len(samples) == 0 {
		tr.Pods, _ = c.accounting(&room.pods, g, samples, nil)
		return 0, 0, 0, time.Time{}, errors.New("did not receive metrics for targeted pods (pods might be unready)")
	}
	requestAt, err := podRequestsIn(c.sc, c.pods, container, resource, c.sw)
	if err != nil {
		tr.Pods, _ = c.accounting(&room.pods, g, samples, nil)
		return 0, 0, 0, time.Time{}, err
	}
	var table podTable
	tr.Pods, table = c.accounting(&room.pods, g, samples, requestAt)

	requests := podRequests{at: requestAt, index: c.api.listed()}
	u, err := c.utilization(samples, requests, target)
	if err != nil {
		return 0, 0, 0, time.Time{}, err
	}
	ratio, util, rawAvg, sumU, sumR := u.ratio, u.util, u.rawAvg, u.sumU, u.sumR
	room.requestSum = sumR
	room.usage = explain.Usage{SumMilli: sumU, Count: u.count, RequestSumMilli: &room.requestSum, AverageMilli: rawAvg, TargetMilli: int64(target), Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, int64(target)), ReplicaBase: int32(g.readyCount), ReplicaBaseKind: "readyPods"}
	tr.Usage = &room.usage
	room.tolerance = tol.checked(ratio)
	tr.Tolerance = &room.tolerance
	var text [160]byte
	if !c.brief {
		// "utilization = floor(100 × %dm used / %dm requested) = %d%% against a target of %d%%: ratio %.4g"
		tr.Steps = append(tr.Steps, sentence(text[:0]).str("utilization = floor(100 × ").int(sumU).str("m used / ").int(sumR).str("m requested) = ").int(int64(util)).str("% against a target of ").int(int64(target)).str("%: ratio ").g4(ratio).String())
	}

	scaleUpWithUnready := len(g.unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(g.missing) == 0 {
		if tol.isWithin(ratio) {
			if !c.brief {
				tr.Steps = append(tr.Steps, keepStep(text[:0], ratio, tol, cur))
			}
			return cur, util, rawAvg, ts, nil
		}
		n := ceilInt32(ratio * float64(g.readyCount))
		room.replicas = n
		tr.Usage.Replicas = &room.replicas
		if !c.brief {
			// "ceil(%.4g × %d ready pods) = %d"
			tr.Steps = append(tr.Steps, sentence(text[:0]).str("ceil(").g4(ratio).str(" × ").int(int64(g.readyCount)).str(" ready pods) = ").int(int64(n)).String())
		}
		return n, util, rawAvg, ts, nil
	}

	fi := &room.fillIn
	*fi = explain.FillIn{MissingFilledWith: "absent"}
	fi.Reason = fillInReason(len(g.missing), len(g.unready), scaleUpWithUnready)
	if len(g.missing) > 0 {
		switch {
		case ratio < 1.0:
			fallback := int64(max(100, target))
			// "%d%% of request"
			fi.MissingFilledWith = sentence(text[:0]).int(fallback).str("% of request").String()
			for name := range g.missing {
				req, _ := requests.of(name)
				v := req * fallback / 100
				samples[name] = podSample{value: v}
				table.setFillIn(name, v)
			}
		case ratio > 1.0:
			fi.MissingFilledWith = "0"
			for name := range g.missing {
				samples[name] = podSample{value: 0}
				table.setFillIn(name, 0)
			}
		}
	}
	if scaleUpWithUnready {
		fi.UnreadyFilledAsZero = true
		for name := range g.unready {
			samples[name] = podSample{value: 0}
			table.setFillIn(name, 0)
		}
	}
	nu, err := c.utilization(samples, requests, target)
	if err != nil {
		return 0, util, rawAvg, time.Time{}, err
	}
	newRatio := nu.ratio
	room.newUtilization = nu.util
	fi.NewUtilization = &room.newUtilization
	return c.finishFillIn(tr, room, cur, ratio, newRatio, len(samples), tol, util, rawAvg, ts)
}

// keepStep narrates a ratio within the tolerance:
// "ratio %.4g is %s: keep %d replicas".
func keepStep(text sentence, ratio float64, tol tolerances, cur int32) string {
	return tol.appendWithin(text.str("ratio ").g4(ratio).str(" is "), ratio).str(": keep ").int(int64(cur)).str(" replicas").String()
}

func fillInReason(missing, unready int, scaleUpWithUnready bool) string {
	var text [80]byte
	switch {
	case missing > 0 && scaleUpWithUnready:
		// "%d pod(s) have no metric and %d unready pod(s) would join a scale-up"
		return sentence(text[:0]).int(int64(missing)).str(" pod(s) have no metric and ").int(int64(unready)).str(" unready pod(s) would join a scale-up").String()
	case missing > 0:
		// "%d pod(s) have no metric"
		return sentence(text[:0]).int(int64(missing)).str(" pod(s) have no metric").String()
	default:
		// "scale-up with %d unready pod(s)"
		return sentence(text[:0]).str("scale-up with ").int(int64(unready)).str(" unready pod(s)").String()
	}
}

// finishFillIn applies the rules after the conservative recomputation: keep
// cur when within tolerance, when the direction flips, or when the new count
// moves the wrong way. The fill-in is room's.
func (c *calculator) finishFillIn(tr *explain.MetricResult, room *podMetricRoom, cur int32, ratio, newRatio float64, samples int, tol tolerances, util int32, raw int64, ts time.Time) (int32, int32, int64, time.Time, error) {
	fi := &room.fillIn
	fi.NewRatio = explain.Ratio(newRatio)
	fi.Samples = samples
	fi.Within = tol.isWithin(newRatio)
	fi.DirectionFlip = (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0)
	tr.FillIn = fi
	var text [160]byte
	if fi.Within || fi.DirectionFlip {
		fi.Result = cur
		if fi.Within {
			if !c.brief {
				// "after the fill-in the ratio is %.4g, %s: keep %d replicas"
				tr.Steps = append(tr.Steps, tol.appendWithin(sentence(text[:0]).str("after the fill-in the ratio is ").g4(newRatio).str(", "), newRatio).str(": keep ").int(int64(cur)).str(" replicas").String())
			}
		} else {
			if !c.brief {
				// "after the fill-in the ratio %.4g points the other way than %.4g: keep %d replicas"
				tr.Steps = append(tr.Steps, sentence(text[:0]).str("after the fill-in the ratio ").g4(newRatio).str(" points the other way than ").g4(ratio).str(": keep ").int(int64(cur)).str(" replicas").String())
			}
		}
		return cur, util, raw, ts, nil
	}
	n := ceilInt32(newRatio * float64(samples))
	room.newReplicas = n
	fi.NewReplicas = &room.newReplicas
	if (newRatio < 1.0 && n > cur) || (newRatio > 1.0 && n < cur) {
		fi.WrongWay = true
		fi.Result = cur
		if !c.brief {
			// "ceil(%.4g × %d samples) = %d would move against the ratio: keep %d replicas"
			tr.Steps = append(tr.Steps, sentence(text[:0]).str("ceil(").g4(newRatio).str(" × ").int(int64(samples)).str(" samples) = ").int(int64(n)).str(" would move against the ratio: keep ").int(int64(cur)).str(" replicas").String())
		}
		return cur, util, raw, ts, nil
	}
	fi.Result = n
	if !c.brief {
		// "after the fill-in: ceil(%.4g × %d samples) = %d"
		tr.Steps = append(tr.Steps, sentence(text[:0]).str("after the fill-in: ceil(").g4(newRatio).str(" × ").int(int64(samples)).str(" samples) = ").int(int64(n)).String())
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
	room := new(podMetricRoom)
	g := groupPodsIn(c.sc, c.pods, samples, resource, c.cpuInit, c.readinessDelay, c.now, !c.brief)
	removeSamples(samples, g.ignored)
	removeSamples(samples, g.unready)
	var table podTable
	tr.Pods, table = c.accounting(&room.pods, g, samples, nil)
	if len(samples) == 0 {
		return 0, 0, errors.New("did not receive metrics for targeted pods (pods might be unready)")
	}
	ratio, avg, sum := usageRatio(samples, target)
	room.usage = explain.Usage{SumMilli: sum, Count: len(samples), AverageMilli: avg, TargetMilli: target, Ratio: explain.Ratio(ratio), RatioUndefined: undefinedRatio(ratio, target), ReplicaBase: int32(g.readyCount), ReplicaBaseKind: "readyPods"}
	tr.Usage = &room.usage
	room.tolerance = tol.checked(ratio)
	tr.Tolerance = &room.tolerance
	var text [160]byte
	if !c.brief {
		// "average = %dm / %d samples = %dm against a target of %dm: ratio %.4g"
		tr.Steps = append(tr.Steps, sentence(text[:0]).str("average = ").int(sum).str("m / ").int(int64(len(samples))).str(" samples = ").int(avg).str("m against a target of ").int(target).str("m: ratio ").g4(ratio).String())
	}

	scaleUpWithUnready := len(g.unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(g.missing) == 0 {
		if tol.isWithin(ratio) {
			if !c.brief {
				tr.Steps = append(tr.Steps, keepStep(text[:0], ratio, tol, cur))
			}
			return cur, avg, nil
		}
		n := ceilInt32(ratio * float64(g.readyCount))
		room.replicas = n
		tr.Usage.Replicas = &room.replicas
		if !c.brief {
			// "ceil(%.4g × %d ready pods) = %d"
			tr.Steps = append(tr.Steps, sentence(text[:0]).str("ceil(").g4(ratio).str(" × ").int(int64(g.readyCount)).str(" ready pods) = ").int(int64(n)).String())
		}
		return n, avg, nil
	}
	fi := &room.fillIn
	*fi = explain.FillIn{MissingFilledWith: "absent"}
	fi.Reason = fillInReason(len(g.missing), len(g.unready), scaleUpWithUnready)
	if len(g.missing) > 0 {
		switch {
		case ratio < 1.0:
			fi.MissingFilledWith = "target"
			for name := range g.missing {
				samples[name] = podSample{value: target}
				table.setFillIn(name, target)
			}
		case ratio > 1.0:
			fi.MissingFilledWith = "0"
			for name := range g.missing {
				samples[name] = podSample{value: 0}
				table.setFillIn(name, 0)
			}
		}
	}
	if scaleUpWithUnready {
		fi.UnreadyFilledAsZero = true
		for name := range g.unready {
			samples[name] = podSample{value: 0}
			table.setFillIn(name, 0)
		}
	}
	newRatio, newAvg, _ := usageRatio(samples, target)
	room.newAverage = newAvg
	fi.NewAverageMilli = &room.newAverage
	n, _, _, _, err := c.finishFillIn(tr, room, cur, ratio, newRatio, len(samples), tol, 0, avg, time.Time{})
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
