// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcehelpers "k8s.io/component-helpers/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// podSample is one per-pod metric sample in milli-units, as the controller's
// metrics client hands it to the calculators.
type podSample struct {
	value     int64
	timestamp time.Time
	window    time.Duration
}

// podSamples maps pod name to its sample. Like upstream, it may hold samples
// for pods that are not in the pod list ("superfluous" samples).
type podSamples map[string]podSample

// podGroups is the classification of listed pods (see upstream groupPods).
type podGroups struct {
	readyCount int
	unready    map[string]struct{}
	missing    map[string]struct{}
	ignored    map[string]struct{}
	// With detail: classes holds how each pod counted, by its position in
	// the pod list; withSample counts the pods that had a sample, and
	// samples the samples there were (before the calculation removes
	// those of the pods it does not count).
	classes    []podClass
	withSample int
	samples    int
}

// podClass is how one listed pod counted, and why, with the pod's sample
// (if it had one), for the explanation.
type podClass struct {
	class, reason string
	sample        int64
	hasSample     bool
}

// groupPods sorts pods into ready, unready, missing and ignored, in the order
// the controller checks: ignored (deleting or Failed), Pending, no sample, and
// for cpu only the readiness rules of §5.3.
//
// Only with detail are the class, reason and sample of each pod kept.
func groupPods(pods []*corev1.Pod, samples podSamples, resource corev1.ResourceName, cpuInit, readinessDelay time.Duration, now time.Time, detail bool) podGroups {
	return groupPodsIn(nil, pods, samples, resource, cpuInit, readinessDelay, now, detail)
}

// groupPodsIn is groupPods with its sets and list lent by sc.
func groupPodsIn(sc *scratch, pods []*corev1.Pod, samples podSamples, resource corev1.ResourceName, cpuInit, readinessDelay time.Duration, now time.Time, detail bool) podGroups {
	g := podGroups{unready: sc.set(0), missing: sc.set(0), ignored: sc.set(0)}
	if detail {
		g.classes = sc.classList(len(pods))
		g.samples = len(samples)
	}
	var (
		sample    podSample
		hasSample bool
	)
	// mark files the pod under its name in set, and (with detail) notes
	// its class and sample; every pod is marked once, in list order.
	mark := func(set map[string]struct{}, name, class, reason string) {
		if set != nil {
			set[name] = struct{}{}
		}
		if detail {
			g.classes = append(g.classes, podClass{class: class, reason: reason, sample: sample.value, hasSample: hasSample})
			if hasSample {
				g.withSample++
			}
		}
	}
	for _, pod := range pods {
		name := pod.Name
		// The pod's sample. The controller looks for it after the checks
		// of deletion and phase; the explanation shows it whatever they
		// decide.
		sample, hasSample = samples[name]
		if pod.DeletionTimestamp != nil {
			mark(g.ignored, name, explain.PodIgnored, "being deleted (deletionTimestamp is set)")
			continue
		}
		if pod.Status.Phase == corev1.PodFailed {
			mark(g.ignored, name, explain.PodIgnored, "phase is Failed")
			continue
		}
		if pod.Status.Phase == corev1.PodPending {
			mark(g.unready, name, explain.PodUnready, "phase is Pending")
			continue
		}
		if !hasSample {
			mark(g.missing, name, explain.PodMissing, "no metric sample for this pod")
			continue
		}
		if resource == corev1.ResourceCPU {
			if unready, why := cpuSampleUnready(pod, sample, cpuInit, readinessDelay, now); unready {
				mark(g.unready, name, explain.PodUnready, why)
				continue
			}
		}
		g.readyCount++
		mark(nil, name, explain.PodReady, "")
	}
	if detail {
		sc.keepClasses(g.classes)
	}
	return g
}

// cpuSampleUnready applies the CPU-only distrust rules: a sample is not used
// while the pod may still be initializing, or if the pod never became ready.
func cpuSampleUnready(pod *corev1.Pod, sample podSample, cpuInit, readinessDelay time.Duration, now time.Time) (bool, string) {
	cond := firstPodCondition(pod, corev1.PodReady)
	if cond == nil {
		return true, "cpu: pod has no Ready condition"
	}
	if pod.Status.StartTime == nil {
		return true, "cpu: pod has no startTime"
	}
	start := pod.Status.StartTime.Time
	if start.Add(cpuInit).After(now) {
		// Still inside the CPU initialization period.
		if cond.Status == corev1.ConditionFalse {
			return true, fmt.Sprintf("cpu: not Ready and started %s ago, within the cpu-initialization-period (%s)", roundDur(now.Sub(start)), cpuInit)
		}
		if sample.timestamp.Before(cond.LastTransitionTime.Add(sample.window)) {
			return true, fmt.Sprintf("cpu: sample taken before one full metric window (%s) had passed since the last readiness change, within the cpu-initialization-period", sample.window)
		}
		return false, ""
	}
	if cond.Status == corev1.ConditionFalse && start.Add(readinessDelay).After(cond.LastTransitionTime.Time) {
		return true, fmt.Sprintf("cpu: not Ready and never became ready (last readiness change within the initial-readiness-delay of %s after start)", readinessDelay)
	}
	return false, ""
}

func roundDur(d time.Duration) time.Duration {
	if d > time.Second || d < -time.Second {
		return d.Round(time.Second)
	}
	return d
}

// firstPodCondition returns the first condition of the given type, as the
// controller's pod helper does.
func firstPodCondition(pod *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == t {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// podIsRunningAndReady is the test Object/External Value targets use.
func podIsRunningAndReady(pod *corev1.Pod) bool {
	if pod.Status.Phase != corev1.PodRunning {
		return false
	}
	c := firstPodCondition(pod, corev1.PodReady)
	return c != nil && c.Status == corev1.ConditionTrue
}

// calculateRequests returns each listed pod's request for the resource in
// milli-units; one pod without a request fails the whole metric.
func calculateRequests(pods []*corev1.Pod, container string, resource corev1.ResourceName, sw profile.Switches) (map[string]int64, error) {
	at, err := podRequestsIn(nil, pods, container, resource, sw)
	if err != nil {
		return nil, err
	}
	requests := make(map[string]int64, len(pods))
	for i, pod := range pods {
		// A name listed twice keeps the request of its last pod.
		requests[pod.Name] = at[i]
	}
	return requests, nil
}

// podRequestsIn is calculateRequests by position in the pod list, in a
// list lent by sc: the calculator reads a pod's request by name through
// the index of the listed names (podRequests).
func podRequestsIn(sc *scratch, pods []*corev1.Pod, container string, resource corev1.ResourceName, sw profile.Switches) ([]int64, error) {
	at := sc.requestList(len(pods))
	defer func() { sc.keepRequests(at) }()
	for _, pod := range pods {
		var (
			req int64
			err error
		)
		// Pod-level requests (KEP-2837) win, but a named container wins over them.
		if sw.PodLevelRequests && container == "" && resourcehelpers.IsPodLevelRequestsSet(pod) {
			req, err = podLevelRequest(pod, resource)
		} else {
			req, err = containerRequests(pod, container, resource, sw.NamedContainerRequired)
		}
		if err != nil {
			return nil, err
		}
		at = append(at, req)
	}
	return at, nil
}

func podLevelRequest(pod *corev1.Pod, resource corev1.ResourceName) (int64, error) {
	all := resourcehelpers.PodRequests(pod, resourcehelpers.PodResourcesOptions{})
	q, ok := all[resource]
	if !ok {
		return 0, fmt.Errorf("missing pod-level request for %s in Pod %s", resource, pod.Name)
	}
	return q.MilliValue(), nil
}

// containerRequests sums the requests of the regular containers and the
// sidecars (init containers with restartPolicy Always), or takes the one
// named container. A named container the pod lacks is an error when
// required (v1.35+); before, it contributes a request of 0.
func containerRequests(pod *corev1.Pod, container string, resource corev1.ResourceName, required bool) (int64, error) {
	// The regular containers, then the sidecars, without copying them.
	n := len(pod.Spec.Containers)
	at := func(i int) *corev1.Container {
		if i < n {
			return &pod.Spec.Containers[i]
		}
		return &pod.Spec.InitContainers[i-n]
	}
	var sum int64
	for i := range n + len(pod.Spec.InitContainers) {
		c := at(i)
		if i >= n && (c.RestartPolicy == nil || *c.RestartPolicy != corev1.ContainerRestartPolicyAlways) {
			continue
		}
		if container != "" && c.Name != container {
			continue
		}
		q, ok := c.Resources.Requests[resource]
		if !ok {
			return 0, fmt.Errorf("missing request for %s in container %s of Pod %s", resource, c.Name, pod.Name)
		}
		sum += q.MilliValue()
		if container != "" {
			return sum, nil
		}
	}
	if container != "" && required {
		return 0, fmt.Errorf("container %s not found in Pod %s", container, pod.Name)
	}
	return sum, nil
}
