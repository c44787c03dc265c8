// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// briefless strips a decision of what Settings.Brief leaves out (the pod
// entries, the step narratives, the agreement) and encodes the rest.
func briefless(t *testing.T, d *explain.Decision) []byte {
	t.Helper()
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

// TestBriefEqualsFullOnVectors: on every reconcile and replica-calculator
// vector of every controller release, a brief sync decides what a full one
// does, figure for figure; and a full sync run after a brief one (which
// hands it the same lent maps) is the full sync run alone; and none of
// them writes the snapshot.
func TestBriefEqualsFullOnVectors(t *testing.T) {
	for _, file := range []string{"reconcile.json", "replica_calculator.json"} {
		forEachVector(t, file, vectorID, func(t *testing.T, v Vector) {
			t.Helper()
			snap := vectorSnapshot(t, v)
			set := vectorSettings(t, v)
			if v.Target != nil {
				set.ScaleUpdateError = ScaleUpdateOutcome(v.Target.UpdateResults, set.Profile.Switches)
			}
			before := snap.DeepCopy()
			full, err := Evaluate(snap, set)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := json.Marshal(full)
			if err != nil {
				t.Fatal(err)
			}
			brief := set
			brief.Brief = true
			short, err := Evaluate(snap, brief)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := briefless(t, full), briefless(t, short); !bytes.Equal(a, b) {
				t.Fatalf("%s: the brief sync differs:\nfull  %s\nbrief %s", v.ID, a, b)
			}
			again, err := Evaluate(snap, set)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := json.Marshal(again); !bytes.Equal(whole, b) {
				t.Fatalf("%s: a full sync after a brief one differs:\nfirst %s\nthen  %s", v.ID, whole, b)
			}
			if after := snap.DeepCopy(); !reflect.DeepEqual(after, before) {
				t.Fatalf("%s: the syncs wrote their snapshot", v.ID)
			}
		})
	}
}
