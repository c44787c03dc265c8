// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/enginetest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// failed reports whether the sync stopped on a failure, after which the
// decision keeps the desired count of the old status (as the controller
// writes it), not the current one.
func failed(o explain.Outcome) bool {
	switch o {
	case explain.OutcomeFailedGetScale, explain.OutcomeInvalidSelector, explain.OutcomeMetricsFailed, explain.OutcomeFailedUpdateScale:
		return true
	default:
		return false
	}
}

// FuzzEngine replays a sync of a snapshot built from the fuzz bytes and
// checks what must hold of every decision: no panic, the input untouched, a
// rescale only to a count within [minReplicas, maxReplicas] when the bounds
// are valid, no rescale that keeps the count, and without a rescale (or a
// failure) the count stays. testdata/fuzz/FuzzEngine holds inputs that once
// failed a property (of the test itself, so far) or are worth keeping.
func FuzzEngine(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("kubectl-hpa"))
	f.Add(make([]byte, 64))
	for _, seed := range []uint64{1, 2, 3, 42, 1000, 123456789, 1<<64 - 1} {
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], seed)
		f.Add(buf[:])
	}
	f.Fuzz(checkDecision)
}

// TestEngineProperties runs the properties of FuzzEngine over random
// inputs on every test run (the fuzz target alone runs only its corpus).
func TestEngineProperties(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		data := make([]byte, 16+rng.IntN(240))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkDecision(t, data) })
	}
}

// checkDecision replays the snapshot of data and checks the properties of
// FuzzEngine.
func checkDecision(t *testing.T, data []byte) {
	t.Helper()
	snap, set := enginetest.Snapshot(data)
	before, _ := json.Marshal(snap)
	dec, err := engine.Evaluate(snap, set)
	if err != nil {
		t.Fatalf("Evaluate: %v", err)
	}
	if dec == nil {
		t.Fatal("Evaluate returned no decision")
	}
	if after, _ := json.Marshal(snap); !bytes.Equal(before, after) {
		t.Fatal("Evaluate modified its input snapshot")
	}
	if dec.Outcome == "" || dec.Summary == "" {
		t.Fatalf("decision without an outcome or summary: %q %q", dec.Outcome, dec.Summary)
	}
	minR, maxR := engine.MinReplicas(snap.HPA), snap.HPA.Spec.MaxReplicas
	valid := maxR >= 1 && minR >= 0 && minR <= maxR
	if dec.Rescale {
		if dec.DesiredReplicas == dec.CurrentReplicas {
			t.Fatalf("rescale from %d to the same count", dec.CurrentReplicas)
		}
		if valid && (dec.DesiredReplicas < minR || dec.DesiredReplicas > maxR) {
			t.Fatalf("rescale to %d outside [%d, %d] (outcome %s: %s)", dec.DesiredReplicas, minR, maxR, dec.Outcome, dec.Summary)
		}
	} else if dec.DesiredReplicas != dec.CurrentReplicas && !failed(dec.Outcome) {
		t.Fatalf("no rescale, yet desired %d differs from current %d (outcome %s)", dec.DesiredReplicas, dec.CurrentReplicas, dec.Outcome)
	}
	if dec.DesiredReplicas < 0 {
		t.Fatalf("negative desired replicas %d", dec.DesiredReplicas)
	}
	// Every decision encodes in every output format.
	enginetest.Encodes(t, dec, func(w io.Writer, opts render.Options) error {
		return render.Write(w, render.FormatText, dec, opts)
	})
}

// TestBriefChangesNoOutcome: a brief replay (EvalOptions.Brief) leaves out
// only what an explanation prints; everything the controller computes is
// the same as in a full replay, on random snapshots.
func TestBriefChangesNoOutcome(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 2000 {
		data := make([]byte, 16+rng.IntN(240))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		snap, set := enginetest.Snapshot(data)
		full, err := engine.Evaluate(snap, set)
		if err != nil {
			t.Fatal(err)
		}
		brief, err := engine.EvaluateWith(snap, set, engine.EvalOptions{Brief: true})
		if err != nil {
			t.Fatal(err)
		}
		strip := func(d *explain.Decision) []byte {
			c := *d
			c.Agreement = explain.Agreement{}
			c.Metrics = append([]explain.MetricResult(nil), d.Metrics...)
			for k := range c.Metrics {
				c.Metrics[k].Steps = nil
				if p := c.Metrics[k].Pods; p != nil {
					q := *p
					q.Entries = nil
					c.Metrics[k].Pods = &q
				}
			}
			b, err := json.Marshal(&c)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		if a, b := strip(full), strip(brief); !bytes.Equal(a, b) {
			t.Fatalf("case %d: the brief replay differs:\nfull  %s\nbrief %s", i, a, b)
		}
	}
}

// TestOutcomeOnlyChangesNoOutcome: an outcome-only replay
// (EvalOptions.OutcomeOnly) decides what a full one does on random
// snapshots, and writes nothing of them.
func TestOutcomeOnlyChangesNoOutcome(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 4000 {
		data := make([]byte, 16+rng.IntN(240))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		snap, set := enginetest.Snapshot(data)
		before := snap.DeepCopy()
		full, err := engine.Evaluate(snap, set)
		if err != nil {
			t.Fatal(err)
		}
		outcome, err := engine.EvaluateWith(snap, set, engine.EvalOptions{OutcomeOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		engine.SameOutcome(t, fmt.Sprintf("case %d", i), full, outcome)
		if after := snap.DeepCopy(); !reflect.DeepEqual(after, before) {
			t.Fatalf("case %d: the outcome-only sync wrote its snapshot", i)
		}
	}
}
