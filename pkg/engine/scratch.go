// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// scratch holds the per-pod maps and lists a sync builds and drops before
// it returns (samples by pod, the pods' requests and classes, the listed
// pods, the positions of the listed names), and the sync's working
// state: a replay of thousands of syncs reuses them instead of allocating
// them again at every sync. Each request hands out a fresh one, so two
// metrics of a sync never share one; none of them reaches the decision
// (only the settings' words do, which are strings). A nil scratch
// allocates, as the tests that build a calculator by hand need.
type scratch struct {
	// run is the working state of the sync the scratch serves (a shadow
	// run has its own); it is zero while the scratch is in the pool.
	run syncRun
	// words are the last settings' words the scratch echoed.
	words settingsWords

	samples []podSamples
	sets    []map[string]struct{}
	indexes []map[string]int
	pods    [][]*corev1.Pod
	items   [][]*metricsv1beta1.PodMetrics
	classes [][]podClass
	reqs    [][]int64
	names   [][]string
	// n* count the ones handed out in the current sync.
	nSamples, nSets, nIndexes, nPods, nItems, nClasses, nReqs, nNames int
}

// settingsWords are the strings a decision echoes of its settings: the
// durations and the controller version. A replay echoes the same settings
// at each of its syncs, so the scratch keeps the words of the last ones
// with the values they say, and writes them again only for other values.
// Decisions share them: strings are never written.
type settingsWords struct {
	cpuInit, readinessDelay, downscale, syncPeriod time.Duration
	version                                        profile.Version
	made                                           bool

	cpuInitWords, readinessDelayWords, downscaleWords, syncPeriodWords, versionWords string
}

// settingsWords returns the words of set's durations and version.
func (sc *scratch) settingsWords(set *Settings) *settingsWords {
	var w *settingsWords
	if sc != nil {
		w = &sc.words
	} else {
		w = new(settingsWords)
	}
	if !w.made || w.cpuInit != set.CPUInitializationPeriod || w.readinessDelay != set.InitialReadinessDelay ||
		w.downscale != set.DownscaleStabilization || w.syncPeriod != set.SyncPeriod || w.version != set.Profile.Version {
		*w = settingsWords{
			cpuInit: set.CPUInitializationPeriod, readinessDelay: set.InitialReadinessDelay,
			downscale: set.DownscaleStabilization, syncPeriod: set.SyncPeriod,
			version: set.Profile.Version, made: true,
			cpuInitWords:        set.CPUInitializationPeriod.String(),
			readinessDelayWords: set.InitialReadinessDelay.String(),
			downscaleWords:      set.DownscaleStabilization.String(),
			syncPeriodWords:     set.SyncPeriod.String(),
			versionWords:        set.Profile.Version.String(),
		}
	}
	return w
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// getScratch returns an unused scratch; putScratch gives it back once the
// sync is done with everything it handed out.
func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func putScratch(sc *scratch) {
	// Nothing of the sync (its snapshot, its decision) stays reachable.
	sc.run = syncRun{}
	sc.nSamples, sc.nSets, sc.nIndexes = 0, 0, 0
	sc.nPods, sc.nItems, sc.nClasses, sc.nReqs, sc.nNames = 0, 0, 0, 0, 0
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

func (sc *scratch) set(size int) map[string]struct{} {
	if sc == nil {
		return make(map[string]struct{}, size)
	}
	return reuse(&sc.sets, &sc.nSets, size)
}

func (sc *scratch) indexMap(size int) map[string]int {
	if sc == nil {
		return make(map[string]int, size)
	}
	return reuse(&sc.indexes, &sc.nIndexes, size)
}

// podList, itemList, classList, requestList and nameList hand out an empty
// list to append to; keepPods, keepItems, keepClasses, keepRequests and
// keepNames store what was appended, so that its room serves the next sync.
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

func (sc *scratch) classList(size int) []podClass {
	if sc == nil {
		return make([]podClass, 0, size)
	}
	return reuseSlice(&sc.classes, &sc.nClasses)
}

func (sc *scratch) keepClasses(s []podClass) {
	if sc != nil && s != nil {
		sc.classes[sc.nClasses-1] = s
	}
}

func (sc *scratch) requestList(size int) []int64 {
	if sc == nil {
		return make([]int64, 0, size)
	}
	return reuseSlice(&sc.reqs, &sc.nReqs)
}

func (sc *scratch) keepRequests(s []int64) {
	if sc != nil && s != nil {
		sc.reqs[sc.nReqs-1] = s
	}
}

func (sc *scratch) nameList() []string {
	if sc == nil {
		return nil
	}
	return reuseSlice(&sc.names, &sc.nNames)
}

func (sc *scratch) keepNames(s []string) {
	if sc != nil && s != nil {
		sc.names[sc.nNames-1] = s
	}
}
