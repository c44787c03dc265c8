// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// A kept recording replays as the one it was kept from: its raw samples,
// clock and pods survive the file, and the samples worked out of them are
// the same.
func TestKeptRoundTrip(t *testing.T) {
	w := newWorld(bt0, 5*time.Second, 30)
	for _, name := range []string{"web-a", "web-b"} {
		w.rawPod(name, bt0.Add(-time.Hour), nil, step(bt0.Add(63*time.Second), 0.2, 0.6))
	}
	w.replicas(bt0.Add(-2*time.Hour), 2)
	w.rec.Clock = recording.Clock{SyncPeriod: 5 * time.Second, SyncStep: 5 * time.Second, Window: 10 * time.Second, ScrapeAnchor: bt0.Add(1700 * time.Millisecond)}
	w.rec.Resample(recording.Scrapes{Anchor: w.rec.Clock.ScrapeAnchor, Window: 10 * time.Second})
	snap := btSnapshot(nil)
	kept := KeptOf(snap, engine.DefaultSettings(), w.rec)
	b, err := json.Marshal(kept)
	if err != nil {
		t.Fatal(err)
	}
	var back Kept
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	s2 := back.Snapshot()
	if s2.HPA.Name != snap.HPA.Name || back.ControllerVersion != kept.ControllerVersion {
		t.Errorf("kept HPA %s, version %s", s2.HPA.Name, back.ControllerVersion)
	}
	set := engine.DefaultSettings()
	want, err := Backtest(snap, w.rec, set, BacktestOptions{Start: bt0.Add(30 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Backtest(s2, back.Recording, set, BacktestOptions{Start: bt0.Add(30 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	for k := range w.rec.Len {
		a, _ := w.rec.Metrics[0].PerPod["web-a"]["app"].At(k)
		b, _ := back.Recording.Metrics[0].PerPod["web-a"]["app"].At(k)
		if a != b {
			t.Fatalf("instant %d: kept sample %v, the original's %v", k, b, a)
		}
	}
	if g, w := rescalesOf(got.Backtest.AsIs.Rescales, bt0), rescalesOf(want.Backtest.AsIs.Rescales, bt0); g != w {
		t.Errorf("the kept recording's replay rescales %s, the original's %s", g, w)
	}
}
