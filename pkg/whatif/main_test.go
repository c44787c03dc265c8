// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"flag"
	"os"
	"testing"
)

// TestMain has every replayed sync of the tests check that the snapshot's
// pods are copies of the sync's pods (fillPodsOfSnapshot copies again only
// what the replay writes) and that the pods it sorts are in podOrder
// (sortPods may reuse the last sort), and every fast replay run the
// reference one too and compare their syncs (fastreplay.go); not in
// benchmarks, whose cost it would change.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		checkPodCopies = true
		checkPodSort = true
		checkFastReplay = true
	}
	os.Exit(m.Run())
}
