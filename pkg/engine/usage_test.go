// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import "testing"

// Usage.Replicas records ceil(ratio × base) only when the proposal was
// computed that way, so that the views can show the arithmetic without
// redoing it.
func TestUsageReplicasIsTheCeilOfTheProposal(t *testing.T) {
	for _, c := range []struct {
		name string
		snap *Snapshot
		want *int32
		why  string
	}{
		// 56% of 50% on 10 ready pods: ceil(1.12 × 10) = 12.
		{"outside the tolerance", cpuSnapshot(50, 10, repeat(10, 560)...), ptr(int32(12)), "ceil"},
		// 45% of 50%: within the tolerance, the replicas are kept.
		{"within the tolerance", cpuSnapshot(50, 10, repeat(10, 450)...), nil, "kept"},
		// A pod without a sample: the fill-in decides (FillIn.NewReplicas).
		{"fill-in", withoutSample(cpuSnapshot(50, 4, 900, 900, 900, 900)), nil, "fill-in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dec := evaluate(t, c.snap)
			u := dec.Metrics[0].Usage
			if u == nil {
				t.Fatal("no usage")
			}
			switch {
			case c.want == nil && u.Replicas != nil:
				t.Fatalf("replicas %d, want none (%s)", *u.Replicas, c.why)
			case c.want != nil && (u.Replicas == nil || *u.Replicas != *c.want):
				t.Fatalf("replicas %v, want %d", u.Replicas, *c.want)
			case c.want != nil && *u.Replicas != *dec.Metrics[0].ProposedReplicas:
				t.Fatalf("replicas %d, but the proposal is %d", *u.Replicas, *dec.Metrics[0].ProposedReplicas)
			}
		})
	}
}

// withoutSample drops the last pod's metric sample.
func withoutSample(s *Snapshot) *Snapshot {
	s.PodMetrics = s.PodMetrics[:len(s.PodMetrics)-1]
	return s
}
