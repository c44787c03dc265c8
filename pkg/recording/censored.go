// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import "slices"

// The thresholds of censored demand. A recording holds what the pods used,
// not what they were asked to do: a container held at its CPU limit used no
// more than its quota however much work waited, so where one did, the
// recorded load is a lower bound of the demand. Only CPU is censored this
// way: a container at its memory limit is killed (OOM), not slowed, so its
// working set never stands for a higher demand that was held back.
const (
	// AtLimitShare is the share of its CPU limit at or above which a
	// container's usage sample counts as at the limit. Not 100%: a sample is
	// the rate between two scrapes, and a container held at its quota reads
	// a few percent below it (the scrapes' jitter, the kubelet's accounting
	// of the CFS period boundaries), never above it for long.
	AtLimitShare = 0.95
	// ThrottledShare is the share of a container's CFS periods throttled
	// in a window at or above which it counts as held back. The quota is
	// enforced per period (100 ms by default), so a bursty container is
	// throttled while its average over a scrape window stays well below the
	// limit; a container throttled in a quarter of its periods spent a
	// sizeable part of its active time waiting for quota, while a few
	// throttled periods (a burst at a period's end) are common in healthy
	// multi-threaded services and would mark nearly everything.
	ThrottledShare = 0.25
)

// Where the CPU limits of a recording came from (Recording.LimitsFrom).
const (
	LimitsKubeStateMetrics = "kube-state-metrics"
	LimitsSpecs            = "the pods' specs"
	// ThrottlingCAdvisor is the source of the throttling series
	// (Recording.ThrottlingFrom).
	ThrottlingCAdvisor = "cAdvisor"
)

// CensoredStretch is a maximal run of instants From..To (inclusive) at each
// of which at least one ready pod of the workload was censored; Pods is how
// many different pods were, over the stretch.
type CensoredStretch struct {
	From, To int
	Pods     int
}

// Censoring marks the instants of a recording where the recorded CPU usage
// of a ready pod was capped (at its limit, or throttled): the demand there
// may have been higher than recorded.
type Censoring struct {
	// Mask[k] is true when instant k is censored; nil when none is.
	Mask []bool
	// Stretches are the runs of censored instants, oldest first.
	Stretches []CensoredStretch
	// Limits is true when some container has a CPU limit; Throttling when
	// the recording has throttling series.
	Limits     bool
	Throttling bool
}

// At reports whether instant k is censored.
func (c *Censoring) At(k int) bool {
	return c != nil && k >= 0 && k < len(c.Mask) && c.Mask[k]
}

// Known reports whether anything could be censored at all: without a
// limit and without throttling series, nothing tells.
func (c *Censoring) Known() bool { return c != nil && (c.Limits || c.Throttling) }

// Censor marks where a recording's demand was censored, from instant
// from on (the instants before it, a replay's warm-up, are not marked): a
// container's
// sample is censored when its CPU usage is at least AtLimitShare of its CPU
// limit, or when at least ThrottledShare of its CFS periods were throttled
// in the window of that instant; an instant is censored when a pod that
// existed and was ready then had a censored container. A container without
// a limit (and without throttling series) is never censored; a pod not
// ready does not count (the controller leaves its usage out of the ratio).
func (r *Recording) Censor(from int) *Censoring {
	out := &Censoring{Throttling: len(r.Throttling) > 0}
	var usage map[string]map[string]*Series
	if m := r.Metric(KindResource, "cpu"); m != nil {
		usage = m.PerPod
	}
	count := make([]int32, r.Len)
	// runs holds each pod's censored instants as runs, for the stretches'
	// pod counts.
	type podRun struct{ pod, from, to int }
	var runs []podRun
	for i := range r.Pods {
		p := &r.Pods[i]
		var hit []bool
		mark := func(k int) {
			if hit == nil {
				hit = make([]bool, r.Len)
			}
			hit[k] = true
		}
		for _, c := range p.Containers {
			limit := c.Limits["cpu"]
			if limit > 0 {
				out.Limits = true
				if s := usage[p.Name][c.Name]; s != nil {
					for j := range s.Values {
						// v is in cores, the limit in millicores.
						k := s.First + j
						if v, ok := s.At(k); ok && k >= from && v*1000 >= AtLimitShare*float64(limit) {
							mark(k)
						}
					}
				}
			}
			if s := r.Throttling[p.Name][c.Name]; s != nil {
				for j := range s.Values {
					k := s.First + j
					if v, ok := s.At(k); ok && k >= from && v >= ThrottledShare {
						mark(k)
					}
				}
			}
		}
		start := -1
		for k := 0; k <= len(hit); k++ {
			on := k < len(hit) && hit[k] && r.readyPodAt(p, k)
			switch {
			case on && start < 0:
				start = k
			case !on && start >= 0:
				runs = append(runs, podRun{i, start, k - 1})
				for x := start; x < k; x++ {
					count[x]++
				}
				start = -1
			}
		}
	}
	if len(runs) == 0 {
		return out
	}
	out.Mask = make([]bool, r.Len)
	stretchOf := make([]int, r.Len)
	for k := 0; k < r.Len; k++ {
		if count[k] == 0 {
			continue
		}
		out.Mask[k] = true
		if n := len(out.Stretches); n > 0 && out.Stretches[n-1].To == k-1 {
			out.Stretches[n-1].To = k
		} else {
			out.Stretches = append(out.Stretches, CensoredStretch{From: k, To: k})
		}
		stretchOf[k] = len(out.Stretches) - 1
	}
	// A pod's runs come in order, and a run lies within one stretch: count
	// each pod once per stretch.
	lastPod := slices.Repeat([]int{-1}, len(out.Stretches))
	for _, pr := range runs {
		if s := stretchOf[pr.from]; lastPod[s] != pr.pod {
			lastPod[s] = pr.pod
			out.Stretches[s].Pods++
		}
	}
	return out
}

// readyPodAt reports whether the pod existed, was ready and not being
// deleted at instant k: a pod whose usage the controller counts.
func (r *Recording) readyPodAt(p *Pod, k int) bool {
	t := r.Instant(k)
	if !p.Exists(t) || p.TerminatingAt(t) {
		return false
	}
	ready, _ := p.ReadyAt(t)
	return ready
}
