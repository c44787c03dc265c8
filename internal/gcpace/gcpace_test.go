// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gcpace

import (
	"math"
	"runtime/debug"
	"testing"
)

// The pace is off only while a memory limit bounds the heap and GOGC is not
// set, and is put back after.
func TestCollectAtLimit(t *testing.T) {
	pace := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(pace)
		debug.SetMemoryLimit(limit)
	})
	t.Setenv("GOGC", "")

	// No limit: the pace stays, or the heap would grow without bound.
	restore := CollectAtLimit()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("without a memory limit: GOGC %d, want 100", got)
	}
	restore()

	debug.SetMemoryLimit(192 << 20)
	restore = CollectAtLimit()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("with a memory limit: GOGC %d, want off (-1)", got)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after restore: GOGC %d, want 100", got)
	}

	// GOGC in the environment wins.
	t.Setenv("GOGC", "50")
	restore = CollectAtLimit()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GOGC %d, want it untouched (100)", got)
	}
	restore()
}

func TestLongLived(t *testing.T) {
	pace := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(192 << 20)
	t.Cleanup(func() {
		debug.SetGCPercent(pace)
		debug.SetMemoryLimit(limit)
	})
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")

	restore := LongLived()
	if got := debug.SetGCPercent(longLivedPace); got != longLivedPace {
		t.Errorf("GOGC %d, want %d", got, longLivedPace)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit %d, want none", got)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after restore: GOGC %d, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 192<<20 {
		t.Errorf("after restore: memory limit %d, want %d", got, 192<<20)
	}

	// Either variable in the environment wins.
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "50")
			restore := LongLived()
			if got := debug.SetGCPercent(100); got != 100 {
				t.Errorf("GOGC %d, want it untouched (100)", got)
			}
			if got := debug.SetMemoryLimit(-1); got != 192<<20 {
				t.Errorf("memory limit %d, want it untouched", got)
			}
			restore()
		})
	}
}
