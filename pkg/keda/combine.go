// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"strconv"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// HPAReplay replays the HPA controller's next sync for a workload at the
// given replicas and returns its desired replicas (the caller wraps
// engine.Evaluate with the snapshot's scale set to replicas and the
// External values of explain.KEDA.HPAMetrics).
type HPAReplay func(replicas int32) (int32, error)

// Combine fills k.Replicas: what the workload will have once KEDA and then
// the HPA act on the current inputs. The rule:
//
//   - paused (k.HPAActs false): KEDA deleted its HPA, so the workload keeps
//     k.ReplicasAfterKEDA (the paused-replicas count, or the frozen count);
//     hpa is not called;
//   - otherwise the HPA's next sync starts from k.ReplicasAfterKEDA (what
//     KEDA wrote at this poll, else the current replicas): the result is
//     hpa(k.ReplicasAfterKEDA). At zero the HPA's own rules apply (up to
//     v1.35 it disables scaling when minReplicas ≥ 1, so zero stays zero);
//     after KEDA's jump from zero the HPA may scale further; after a jump
//     to an idleReplicaCount above zero, the HPA (minReplicas =
//     minReplicaCount) raises the workload back, which is why KEDA
//     documents idleReplicaCount 0 only.
func Combine(k *explain.KEDA, hpa HPAReplay) (int32, error) {
	if k == nil {
		return 0, errors.New("no KEDA result to combine")
	}
	if !k.HPAActs {
		k.Replicas = ptr(k.ReplicasAfterKEDA)
		return k.ReplicasAfterKEDA, nil
	}
	if hpa == nil {
		return 0, errors.New("KEDA's HPA acts on the workload: an HPA replay is required")
	}
	n, err := hpa(k.ReplicasAfterKEDA)
	if err != nil {
		return 0, err
	}
	k.Replicas = ptr(n)
	return n, nil
}

// num prints a float in its shortest exact form (3, 2.5, 1e+21).
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
