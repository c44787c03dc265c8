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

// briefless strips a decision of what EvalOptions.Brief leaves out (the pod
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
				snap.Target.UpdateError = ScaleUpdateOutcome(v.Target.UpdateResults, set.Profile.Switches)
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
			short, err := EvaluateWith(snap, set, EvalOptions{Brief: true})
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

// outcomeView strips a decision of what EvalOptions.OutcomeOnly leaves out
// (the settings, the state before, the assumptions, the conditions and
// events listed, the status change, who decided, the summary, the
// agreement, the pod accounting and the step narratives).
func outcomeView(d *explain.Decision) explain.Decision {
	c := *d
	c.Settings = explain.SettingsInfo{}
	c.StateBefore = explain.ControllerState{}
	c.Assumptions = nil
	c.Conditions = nil
	c.Events = nil
	c.StatusChanged = false
	c.Agreement = explain.Agreement{}
	c.DecidedBy = explain.DecidedBy{}
	c.Summary = ""
	c.Metrics = append([]explain.MetricResult(nil), d.Metrics...)
	for k := range c.Metrics {
		c.Metrics[k].Steps = nil
		c.Metrics[k].Pods = nil
	}
	return c
}

// sameOutcome fails unless the two decisions agree on everything
// EvalOptions.OutcomeOnly keeps: compared as JSON, and the status and the
// state after as values too (JSON keeps the status's times to the second
// only; the ratios, which may be NaN, keep the whole comparison from
// being one of values).
func sameOutcome(t *testing.T, what string, full, outcome *explain.Decision) {
	t.Helper()
	a, b := outcomeView(full), outcomeView(outcome)
	ja, err := json.Marshal(&a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Fatalf("%s: the outcome-only sync differs:\nfull    %s\noutcome %s", what, ja, jb)
	}
	if !reflect.DeepEqual(a.Status, b.Status) || !reflect.DeepEqual(a.StateAfter, b.StateAfter) {
		t.Fatalf("%s: the outcome-only sync's status or state differs:\nfull    %+v %+v\noutcome %+v %+v", what, a.Status, a.StateAfter, b.Status, b.StateAfter)
	}
}

// TestOutcomeOnlyEqualsFullOnVectors: on every reconcile and
// replica-calculator vector of every controller release, an outcome-only
// sync decides what a full one does, figure for figure, and leaves out the
// explanation; a full sync run after an outcome-only one (which hands it
// the same lent maps) is the full sync run alone; and none of them writes
// the snapshot.
func TestOutcomeOnlyEqualsFullOnVectors(t *testing.T) {
	for _, file := range []string{"reconcile.json", "replica_calculator.json"} {
		forEachVector(t, file, vectorID, func(t *testing.T, v Vector) {
			t.Helper()
			snap := vectorSnapshot(t, v)
			set := vectorSettings(t, v)
			if v.Target != nil {
				snap.Target.UpdateError = ScaleUpdateOutcome(v.Target.UpdateResults, set.Profile.Switches)
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
			short, err := EvaluateWith(snap, set, EvalOptions{OutcomeOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			sameOutcome(t, v.ID, full, short)
			if short.Summary != "" && short.Summary != full.Summary {
				t.Fatalf("%s: the outcome-only summary %q is not the full one %q", v.ID, short.Summary, full.Summary)
			}
			for k := range short.Metrics {
				if short.Metrics[k].Pods != nil || short.Metrics[k].Steps != nil {
					t.Fatalf("%s: the outcome-only sync explains metric %d", v.ID, k)
				}
			}
			if short.Conditions != nil || short.StateBefore.Recommendations != nil || short.Settings.SyncPeriod != "" {
				t.Fatalf("%s: the outcome-only sync explains itself", v.ID)
			}
			again, err := Evaluate(snap, set)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := json.Marshal(again); !bytes.Equal(whole, b) {
				t.Fatalf("%s: a full sync after an outcome-only one differs:\nfirst %s\nthen  %s", v.ID, whole, b)
			}
			if after := snap.DeepCopy(); !reflect.DeepEqual(after, before) {
				t.Fatalf("%s: the syncs wrote their snapshot", v.ID)
			}
		})
	}
}
