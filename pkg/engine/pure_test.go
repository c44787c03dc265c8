// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/enginetest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// TestEvaluateWritesNoSnapshot: a sync reads the snapshot and writes
// nothing of it (its HPA's spec and status included, which it shares
// rather than copies), in full and brief, on random snapshots: replays
// run their syncs at once over shared inputs.
func TestEvaluateWritesNoSnapshot(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 2000 {
		data := make([]byte, 16+rng.IntN(240))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		snap, set := enginetest.Snapshot(data)
		before := snap.DeepCopy()
		for _, brief := range []bool{false, true} {
			if _, err := engine.EvaluateWith(snap, set, engine.EvalOptions{Brief: brief}); err != nil {
				t.Fatal(err)
			}
			// Both sides through DeepCopy, which writes nil and empty
			// lists alike.
			if after := snap.DeepCopy(); !reflect.DeepEqual(after, before) {
				t.Fatalf("case %d (brief %v): the sync wrote its snapshot:\nbefore %+v\nafter  %+v", i, brief, before.HPA, after.HPA)
			}
		}
	}
}

// TestEvaluateConcurrent: syncs run at once over one snapshot (a replay's
// candidates share the recorded inputs) decide what each decides alone;
// under -race, they share nothing they write.
func TestEvaluateConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for i := range 300 {
		data := make([]byte, 16+rng.IntN(240))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		snap, set := enginetest.Snapshot(data)
		alone, err := engine.Evaluate(snap, set)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(alone)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]byte, 4)
		var wg sync.WaitGroup
		for g := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := engine.Evaluate(snap, set)
				if err == nil {
					got[g], err = json.Marshal(d)
				}
				if err != nil {
					got[g] = []byte(err.Error())
				}
			}()
		}
		wg.Wait()
		for g := range got {
			if !bytes.Equal(got[g], want) {
				t.Fatalf("case %d: a sync run beside others differs:\nalone  %s\nbeside %s", i, want, got[g])
			}
		}
	}
}
