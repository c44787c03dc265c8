// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda_test

import (
	"fmt"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

// An explain command has the ScaledObject (kubectl get so -o yaml), the
// workload's replicas, the triggers' values and the time; the HPA's replay
// comes from pkg/engine, wrapped as a function of the replicas it starts
// from.
func ExampleEvaluate() {
	so, err := keda.Decode([]byte(`
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: worker, namespace: jobs, creationTimestamp: "2026-01-01T09:00:00Z"}
spec:
  scaleTargetRef: {name: worker}
  cooldownPeriod: 30
  triggers:
  - type: metrics-api
    metadata: {url: "http://queue/stats", valueLocation: depth, targetValue: "10", activationTargetValue: "5"}
status:
  lastActiveTime: "2026-01-01T12:04:10Z"
`))
	if err != nil {
		panic(err)
	}
	depth := 3.0
	k, err := keda.Evaluate(keda.Input{
		ScaledObject:    so,
		Now:             time.Date(2026, 1, 1, 12, 4, 20, 0, time.UTC),
		CurrentReplicas: 6,
		Triggers:        []keda.TriggerResult{{Value: &depth}},
		Version:         keda.MustParseVersion("v2.21.0"),
	})
	if err != nil {
		panic(err)
	}
	// hpaReplay stands for engine.Evaluate on a snapshot whose scale is at
	// replicas and whose External values are k.HPAMetrics.
	hpaReplay := func(replicas int32) (int32, error) { return replicas, nil }
	replicas, err := keda.Combine(k, hpaReplay)
	if err != nil {
		panic(err)
	}
	fmt.Println(k.Reason, k.Summary)
	for _, s := range k.Steps {
		fmt.Println("-", s.Text)
	}
	fmt.Println("HPA reads", k.HPAMetrics[0].MetricName, "=", k.HPAMetrics[0].Value)
	fmt.Println("replicas:", replicas)
	// Output:
	// Cooldown Cooldown: KEDA scales 6 → 0 after 2026-01-01T12:04:40Z (by 2026-01-01T12:05:10Z) if the triggers stay inactive.
	// - s0-metric-api-depth = 3 ≤ activationTargetValue 5: inactive
	// - no trigger active: inactive
	// - inactive; lastActiveTime 2026-01-01T12:04:10Z + cooldown 30 s = 2026-01-01T12:04:40Z: KEDA scales 6 → 0 at its first poll after that (by 2026-01-01T12:05:10Z), past the HPA's behavior
	// HPA reads s0-metric-api-depth = 3
	// replicas: 6
}
