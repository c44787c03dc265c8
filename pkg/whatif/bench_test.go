// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// BenchmarkProject24h projects 24 hours at the default 15 s sync period:
// 5,761 syncs of an HPA on CPU over 10 pods (the start doubles them, then
// the constant total settles at 20). docs/performance.md records the figure.
func BenchmarkProject24h(b *testing.B) {
	s := cpuSnapshot(10, "500m")
	set := engine.DefaultSettings()
	opts := ProjectOptions{Duration: 24 * time.Hour, PodStartup: 30 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		p, err := Project(s, set, opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Steps) != 5761 {
			b.Fatalf("%d syncs", len(p.Steps))
		}
	}
}

// BenchmarkProject24hExternal is the same span for an External metric with
// a behavior (no pods to model).
func BenchmarkProject24hExternal(b *testing.B) {
	s := queueSnapshot(1, "100")
	set := engine.DefaultSettings()
	opts := ProjectOptions{Duration: 24 * time.Hour}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Project(s, set, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProject24hFull replays every one of the 5,761 syncs (NoSkip), for
// the cost of a projection whose inputs never stop changing.
func BenchmarkProject24hFull(b *testing.B) {
	s := cpuSnapshot(10, "500m")
	set := engine.DefaultSettings()
	opts := ProjectOptions{Duration: 24 * time.Hour, PodStartup: 30 * time.Second, NoSkip: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Project(s, set, opts); err != nil {
			b.Fatal(err)
		}
	}
}
