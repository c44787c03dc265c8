// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"flag"
	"os"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// TestMain has every replayed sync of the tests check that the snapshot's
// pods are copies of the sync's pods (fillPodsOfSnapshot copies again only
// what the replay writes) and that the pods it sorts are in podOrder
// (sortPods may reuse the last sort), and every fast replay run the
// reference one too and compare their syncs (fastreplay.go); and cuts
// every recording's instants into three spans wherever they are worked
// out at once (recording.Spans: the resampling, the fast path's shared
// part), however short, so that each replay the tests compare ran on the
// joined spans. Not in benchmarks, whose cost it would change.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		checkPodCopies = true
		checkPodSort = true
		checkFastReplay = true
		recording.MinSpan, recording.SpanParts = 1, 3
	}
	os.Exit(m.Run())
}
