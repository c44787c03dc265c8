// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif_test

import (
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/internal/enginetest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// FuzzWhatIfEncodes builds a snapshot from the fuzz bytes (the engine's
// generator), applies overrides picked from the same bytes, replays before
// and after, projects a few minutes, and checks that the whatif document
// encodes in every output format (enginetest.Encodes).
func FuzzWhatIfEncodes(f *testing.F) {
	for _, s := range []string{"", "kubectl-hpa", "scale from zero", "\x00\x01\x02\x03\x04\x05\x06\x07"} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkWhatIf)
}

// TestWhatIfEncodes runs FuzzWhatIfEncodes's property over random inputs
// on every test run.
func TestWhatIfEncodes(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		data := make([]byte, 16+rng.IntN(240))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkWhatIf(t, data) })
	}
}

func checkWhatIf(t *testing.T, data []byte) {
	t.Helper()
	snap, set := enginetest.Snapshot(data)
	h := fnv.New64a()
	_, _ = h.Write(data)
	rng := rand.New(rand.NewPCG(h.Sum64(), 0))
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	var o whatif.Overrides
	if rng.IntN(2) == 0 {
		if u, err := whatif.ParseUsage(pick("200m", "+50%", "90%", "0", "-100%")); err == nil {
			o.CPU = &u
		}
	}
	if rng.IntN(2) == 0 {
		if m, err := whatif.ParseMetric(pick("queue=0", "queue=50", "queue=+100%", "queue=35"), true); err == nil {
			o.Externals = append(o.Externals, m)
		}
	}
	if rng.IntN(3) == 0 {
		if tg, err := whatif.ParseTarget(pick("queue=5", "cpu=70%", "hits=1", "rps=2")); err == nil {
			o.Targets = append(o.Targets, tg)
		}
	}
	if rng.IntN(3) == 0 {
		n := int32(rng.IntN(6))
		o.Replicas = &n
	}
	if rng.IntN(4) == 0 {
		n := int32(0)
		o.Min = &n
	}
	edited, changes, err := whatif.Apply(snap, &o, set)
	if err != nil {
		return // an override that cannot apply is a user error, with its own tests
	}
	before, err := engine.Evaluate(snap, set)
	if err != nil {
		t.Fatalf("Evaluate before: %v", err)
	}
	after, err := engine.Evaluate(edited, set)
	if err != nil {
		t.Fatalf("Evaluate after: %v", err)
	}
	if changes == nil {
		changes = []string{}
	}
	w := &explain.WhatIf{APIVersion: explain.APIVersion, Kind: explain.KindWhatIf, Changes: changes, Before: before, After: after}
	if rng.IntN(2) == 0 {
		p, err := whatif.Project(edited, set, whatif.ProjectOptions{Duration: time.Duration(rng.IntN(5)) * time.Minute, PodStartup: 30 * time.Second})
		if err == nil {
			w.Projection = p
		}
	}
	enginetest.Encodes(t, w, func(wr io.Writer, opts render.Options) error {
		return render.WriteWhatIf(wr, render.FormatText, w, opts)
	})
}
