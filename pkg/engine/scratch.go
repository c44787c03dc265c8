// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// scratch holds the per-pod maps and lists a sync builds and drops before
// it returns (samples by pod, requests by pod, the listed pods): a replay
// of thousands of syncs reuses them instead of allocating them again at
// every sync. Each request hands out a fresh one, so two metrics of a sync
// never share one; none of them reaches the decision. A nil scratch
// allocates, as the tests that build a calculator by hand need.
type scratch struct {
	samples  []podSamples
	requests []map[string]int64
	sets     []map[string]struct{}
	pods     [][]*corev1.Pod
	items    [][]*metricsv1beta1.PodMetrics
	// n* count the ones handed out in the current sync.
	nSamples, nRequests, nSets, nPods, nItems int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// getScratch returns an unused scratch; putScratch gives it back once the
// sync is done with everything it handed out.
func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func putScratch(sc *scratch) {
	sc.nSamples, sc.nRequests, sc.nSets, sc.nPods, sc.nItems = 0, 0, 0, 0, 0
	scratchPool.Put(sc)
}

// reuse hands out the next map of list, emptied, or a new one.
func reuse[M ~map[K]V, K comparable, V any](list *[]M, n *int, size int) M {
	if *n < len(*list) {
		m := (*list)[*n]
		*n++
		clear(m)
		return m
	}
	m := make(M, size)
	*list = append(*list, m)
	*n++
	return m
}

// reuseSlice hands out the next slice of list, emptied, or a new one.
func reuseSlice[T any](list *[][]T, n *int) []T {
	if *n < len(*list) {
		s := (*list)[*n][:0]
		*n++
		return s
	}
	*list = append(*list, nil)
	*n++
	return nil
}

func (sc *scratch) samplesMap(size int) podSamples {
	if sc == nil {
		return make(podSamples, size)
	}
	return reuse(&sc.samples, &sc.nSamples, size)
}

func (sc *scratch) requestsMap(size int) map[string]int64 {
	if sc == nil {
		return make(map[string]int64, size)
	}
	return reuse(&sc.requests, &sc.nRequests, size)
}

func (sc *scratch) set(size int) map[string]struct{} {
	if sc == nil {
		return make(map[string]struct{}, size)
	}
	return reuse(&sc.sets, &sc.nSets, size)
}

// podList and itemList hand out an empty list to append to; keepPods and
// keepItems store what was appended, so that its room serves the next
// sync.
func (sc *scratch) podList() []*corev1.Pod {
	if sc == nil {
		return nil
	}
	return reuseSlice(&sc.pods, &sc.nPods)
}

func (sc *scratch) keepPods(s []*corev1.Pod) {
	if sc != nil && s != nil {
		sc.pods[sc.nPods-1] = s
	}
}

func (sc *scratch) itemList() []*metricsv1beta1.PodMetrics {
	if sc == nil {
		return nil
	}
	return reuseSlice(&sc.items, &sc.nItems)
}

func (sc *scratch) keepItems(s []*metricsv1beta1.PodMetrics) {
	if sc != nil && s != nil {
		sc.items[sc.nItems-1] = s
	}
}
