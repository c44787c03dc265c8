// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// BenchmarkEvaluate replays one sync of a cpu-utilization HPA with behavior,
// for 10, 50 and 1,000 pods, one in ten of them without a metric (so the fill-in
// path runs too).
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{10, 50, 1000} {
		b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
			usage := make([]int64, n)
			for i := range usage {
				usage[i] = int64(400 + i%300)
			}
			snap := cpuSnapshot(50, int32(n), usage...)
			for i := 0; i < n; i += 10 {
				snap.PodMetrics[i].Name = fmt.Sprintf("gone-%d", i)
			}
			snap.HPA.Spec.MaxReplicas = int32(4 * n)
			snap.HPA.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{
				ScaleUp:   &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(0)), SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect), Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 4, PeriodSeconds: 15}, {Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}},
				ScaleDown: &autoscalingv2.HPAScalingRules{SelectPolicy: ptr(autoscalingv2.MaxChangePolicySelect), Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}},
			}
			set := DefaultSettings()
			dec, err := Evaluate(snap, set)
			if err != nil || dec.Metrics[0].ProposedReplicas == nil {
				b.Fatalf("setup: %v %+v", err, dec)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := Evaluate(snap, set); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
