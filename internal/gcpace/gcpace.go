// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package gcpace tunes the garbage collector's pace for the plugin's
// one-shot runs: a policy of the process, not of a command's flags.
package gcpace

import (
	"math"
	"os"
	"runtime/debug"
)

// CollectAtLimit turns off the collector's pace (GOGC) for a one-shot read
// of many HPAs, when a soft memory limit bounds the heap (the plugin's main
// sets one unless GOGC or GOMEMLIMIT is in the environment): the heap then
// grows to the limit and is collected there, instead of at every doubling
// from a few MB up. explain -A reads everything at once and keeps most of
// it to the end, so those early collections scan a heap that is mostly
// still live: at 20,000 pods the pace cost about 0.12 s of the client's
// 0.64 s of CPU (docs/performance.md), for 7 MiB less peak RSS. Past the
// limit the collector runs as it would have. A long-running --watch keeps
// the pace, or its heap would sit at the limit. It returns the function
// that puts the pace back.
func CollectAtLimit() (restore func()) {
	if os.Getenv("GOGC") != "" || debug.SetMemoryLimit(-1) == math.MaxInt64 {
		return func() {}
	}
	pace := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(pace) }
}

// longLivedPace is LongLived's GOGC: the heap may grow a quarter past what
// the last collection found live.
const longLivedPace = 25

// LongLived paces the collector for a run whose heap is mostly data that
// lives as long as the run and holds no pointers: tune's recording (each
// pod's samples and raw counters, as flat arrays of numbers) and the
// replays' shared parts. A collection hardly marks such arrays, so it costs
// little however large they are, and collecting at a quarter above the
// live heap keeps the peak near what the data costs (GOGC's default lets it
// reach twice that: a month of 50 pods, about 350 MB live, peaked at
// 670 MiB). The fixed soft limit of main (192 MiB, for explain's many-HPA
// read) is lifted: under it a heap that is live beyond the limit is
// collected after every few megabytes (a month's tune: 1,344 collections,
// a fifth more CPU than at this pace). It returns the function that
// restores the pace and the limit. GOGC or GOMEMLIMIT in the environment
// win: then it changes nothing.
func LongLived() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	pace := debug.SetGCPercent(longLivedPace)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	return func() {
		debug.SetGCPercent(pace)
		debug.SetMemoryLimit(limit)
	}
}
