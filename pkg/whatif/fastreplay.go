// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"reflect"
	"sync/atomic"
)

// The fast replay: the syncs of a replay worked out on counts, sums and
// flat arrays instead of pod objects and the engine's full sync, for the
// HPAs and recordings it models (resource metrics of the pods, read with a
// Utilization or an AverageValue target). It decides what the reference
// replay (replayPath.run, engine.Evaluate at every sync) decides, sync by
// sync: the tests run both and compare every outcome (checkFastReplay,
// fastreplay_test.go). Where it does not model a case it says so before
// the first sync (fastMiss), or gives up at the sync that meets it, and
// the replay is the reference one. Only the replay chooses: its callers
// see one replay.

// fastReplay says whether a replay may take the fast path; the tests turn
// it off for the reference alone.
var fastReplay = true

// checkFastReplay makes every fast replay run the reference one too and
// compare their outcomes sync by sync (the tests set it): a difference
// panics, naming the sync.
var checkFastReplay bool

// fastServed and fastFellBack count the replays the fast path served and
// those it left to the reference (the tests read them).
var fastServed, fastFellBack atomic.Int64

// fastMiss is why the fast path does not serve a replay ("" when it does).
type fastMiss string

// The cases the fast path does not model; a replay meeting one is the
// reference replay.
const (
	missMetricType    fastMiss = "a metric other than a Resource metric of the pods"
	missTarget        fastMiss = "a Resource metric without an AverageValue or a positive AverageUtilization target"
	missNoMetrics     fastMiss = "an HPA without metrics"
	missUnmeasured    fastMiss = "a metric whose resource the recording does not hold"
	missSelector      fastMiss = "a selector that is empty, does not parse, or misses a pod"
	missOtherHPAs     fastMiss = "other HPAs in the snapshot"
	missTargetRef     fastMiss = "a target that cannot be read (its apiVersion or a get error)"
	missScaleError    fastMiss = "a failing scale update (Settings.ScaleUpdateError)"
	missNoPods        fastMiss = "a recording without pods"
	missContainers    fastMiss = "pods whose containers differ from one another"
	missRequests      fastMiss = "a pod without a request of a resource a Utilization target reads"
	missPodLevel      fastMiss = "pod-level requests"
	missZeroReplicas  fastMiss = "a sync at zero replicas"
	missUnknownPhases fastMiss = "a pod phase other than Pending, Running, Failed or Succeeded"
	missPodNames      fastMiss = "two recorded pods of one name, or one named as the replay names its own"
)

// replayOutcomes replays every sync of p's recording and returns the
// outcomes of those from first on, as p.run(first, nil) does: by the fast
// path where it serves, else by p.run. (No fast path yet: every replay
// is the reference one, which the tests compare with itself.)
func (r *Replayer) replayOutcomes(p *replayPath, first int) ([]syncOutcome, error) {
	if fastReplay {
		fastFellBack.Add(1)
	}
	return p.run(first, nil)
}

// compareOutcomes panics at the first sync whose outcome differs.
func compareOutcomes(want, got []syncOutcome, first int) {
	if len(want) != len(got) {
		panic(fmt.Sprintf("fast replay: %d outcomes, the reference %d", len(got), len(want)))
	}
	for k := range want {
		if !reflect.DeepEqual(want[k], got[k]) {
			panic(fmt.Sprintf("fast replay: sync %d decided %+v, the reference %+v", first+k, got[k], want[k]))
		}
	}
}

var _, _ = compareOutcomes, checkFastReplay
